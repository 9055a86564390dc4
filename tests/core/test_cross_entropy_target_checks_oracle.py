"""``cross_entropy``'s argument checks in PyTorch's order: a target of the input's shape holds class probabilities,
so it must be floating point and ``ignore_index`` must be negative (``ignore_index is not supported for floating
point target``) before ``label_smoothing``'s range is checked; class-index targets must be integers."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import raised

RNG = np.random.default_rng(3)
LOGITS = RNG.standard_normal((2, 3)).astype(np.float32)
TARGETS = {
    "probabilities": RNG.random((2, 3)).astype(np.float32),
    "int_of_input_shape": np.zeros((2, 3), dtype=np.int64),
    "class_indices": np.array([0, 2]),
    "float_class_indices": np.array([0.0, 2.0], dtype=np.float32),
}
OPTIONS = [dict(ignore_index=1), dict(ignore_index=0, label_smoothing=1.5), dict(ignore_index=-1),
           dict(ignore_index=-100, label_smoothing=1.5), dict(label_smoothing=0.2),
           dict(ignore_index=2, reduction="sum")]


def _outcome(lib, target, options):
    loss = lambda: lib.nn.functional.cross_entropy(lib.tensor(LOGITS), lib.tensor(target), **options)  # noqa: E731
    error = raised(loss)
    return error if error is not None else round(loss().item(), 5)


@pytest.mark.parametrize("options", OPTIONS, ids=[str(o) for o in OPTIONS])
@pytest.mark.parametrize("kind", list(TARGETS))
def test_cross_entropy_checks_its_target_and_options_as_torch_does(kind, options, torch):
    assert _outcome(core, TARGETS[kind], options) == _outcome(torch, TARGETS[kind], options)


def test_cross_entropy_loss_module_refuses_ignore_index_with_probabilities(torch):
    make = lambda lib: lib.nn.CrossEntropyLoss(ignore_index=2)(lib.tensor(LOGITS), lib.tensor(TARGETS["probabilities"]))  # noqa: E731
    assert raised(lambda: make(core)) == raised(lambda: make(torch)) == (
        "RuntimeError", "ignore_index is not supported for floating point target")
