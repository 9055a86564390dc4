"""Drivers for DeepXDE's scripts (``recipes_deepxde.py``): what each run prints beyond the package's own display.

``watch(dde)`` is called right after a script's ``import deepxde as dde``: DeepXDE prints its losses with three
digits (``1.23e-02``) and times ``compile``/``train`` with the wall clock, so this script's own copy of the package
(each script loads it afresh from its folder) reads a clock that stands still (``'train' took 0.000000 s``), and
each ``Model.train`` call ends by printing the last losses, the test predictions and a few weights with every digit.
The other functions drive the package's parts directly on small seeded problems (nets, gradients, optimizers,
boundary conditions, DeepONets), printing values and gradients with every digit.
"""

from __future__ import annotations

import functools

import numpy as np
import torch


class _StillClock:
    """``timeit`` as ``deepxde.utils.internal.timing`` reads it: ``default_timer`` always says 0."""

    @staticmethod
    def default_timer():
        return 0.0


def _floats(values, count=6):
    """The first ``count`` numbers of an array, tensor or list, as Python floats (printed with every digit)."""
    if isinstance(values, torch.Tensor):
        values = values.detach().cpu().numpy()
    if isinstance(values, (list, tuple)) and values and not np.isscalar(values[0]):
        return [_floats(v, count) for v in values]
    return [float(v) for v in np.ravel(np.asarray(values, dtype=np.float64))[:count]]


def show(model) -> None:
    """The model's last losses, its test predictions and the first weights, with every digit."""
    history = model.losshistory
    print("steps", history.steps[-3:])
    print("loss_train", [_floats(loss, 12) for loss in history.loss_train[-2:]])
    print("loss_test", [_floats(loss, 12) for loss in history.loss_test[-1:]])
    if history.metrics_test:
        print("metrics", _floats(history.metrics_test[-1], 4))
    state = model.train_state
    if state.y_pred_test is not None:
        print("y_pred_test", _floats(state.y_pred_test, 8))
    params = [p for p in model.net.parameters() if p.requires_grad]
    if params:
        print("weights", _floats(params[0], 4), _floats(params[-1], 4))
    if getattr(model, "external_trainable_variables", None):
        print("variables", [_floats(v, 2) for v in model.external_trainable_variables])


def watch(dde) -> None:
    """This script's DeepXDE: a still clock for its timings, ``show`` after each ``Model.train``."""
    dde.utils.internal.timeit = _StillClock
    train = dde.Model.train

    @functools.wraps(train)
    def train_and_show(self, *args, **kwargs):
        result = train(self, *args, **kwargs)
        show(self)
        return result

    dde.Model.train = train_and_show
