"""LSTMCell's and RNNCell's graphs are ATen's cells': the hidden state's product first in the gates' sum, the gates
split by ``unsafe_chunk`` (UnsafeSplitBackward0); torchviz draws them from ``next_functions`` (#19). Values and
gradients stay torch's bits (the sum's operands only change places)."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _walk(fn, names, seen) -> list:
    """The graph under ``fn`` depth first, in ``next_functions`` order: node names, leaves by parameter name."""
    if fn is None:
        return ["None"]
    label = type(fn).__name__ + (f" {names.get(id(fn.variable), '?')}" if hasattr(fn, "variable") else "")
    if fn in seen:
        return [label]
    seen.add(fn)
    return [label, [_walk(f, names, seen) for f, _ in fn.next_functions]]


def _cell_run(lib, kind, kwargs):
    lib.manual_seed(0)
    cell = getattr(lib.nn, kind)(3, 4, **kwargs)
    x = lib.tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3), requires_grad=True)
    out = cell(x)
    y = out[0] if isinstance(out, tuple) else out
    names = {id(p): n for n, p in cell.named_parameters()}
    graph = _walk(y.grad_fn, names, set())
    y.sum().backward()
    return graph, y.detach().numpy(), x.grad.numpy(), [p.grad.numpy() for p in cell.parameters()]


@pytest.mark.parametrize(("kind", "kwargs"), [("LSTMCell", {}), ("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"})])
def test_cell_graph_and_gradients_are_torchs(torch, kind, kwargs):
    ours, theirs = _cell_run(core, kind, kwargs), _cell_run(torch, kind, kwargs)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1:3], theirs[1:3]):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(ours[3], theirs[3]):
        np.testing.assert_array_equal(a, b)
