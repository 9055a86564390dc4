"""Trained parameter values between a session and its file, so a model saved after training reopens trained.

A file's ``trained`` section (``Graph.trained_values``: ``{node id: {parameter name: array}}``) is put back into a
node's parameters, in place, the first time a new session evaluates the node (its parameters exist only from
then on); ``Session.trained_values`` gives what to save: the current values once the optimizer stepped.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core
from core.nodegraph.run.training_state import array_of, tensor_like

__all__ = ["restore", "values_of"]


def restore(params: dict[str, core.Tensor], saved: dict[str, Any]) -> bool:
    """Copy ``saved`` into the node's ``params`` in place (the same tensors: an optimizer built on them keeps
    them). A parameter whose shape changed since the file was saved keeps its own values. True when any was
    put back."""
    done = False
    with core.no_grad():
        for name, t in params.items():
            arr = saved.get(name)
            if arr is None or tuple(np.shape(arr)) != tuple(t.shape):
                continue
            t.copy_(tensor_like(arr, like=t))  # (copy_ casts to the parameter's dtype)
            done = True
    return done


def values_of(params: dict[str, core.Tensor]) -> dict[str, np.ndarray]:
    """The parameters' current values as NumPy arrays (copies, on the CPU), for saving."""
    return {name: array_of(t) for name, t in params.items()}
