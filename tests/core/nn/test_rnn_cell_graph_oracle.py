"""LSTMCell's, RNNCell's and GRUCell's graphs are ATen's cells': the hidden state's product first in the gates'
sum, the gates split by ``unsafe_chunk`` (UnsafeSplitBackward0), a GRU's hidden gates summed and squashed in
place; torchviz draws them from ``next_functions`` (#19). Values and gradients stay torch's bits (the sums'
operands only change places)."""

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


@pytest.mark.parametrize(("kind", "kwargs"), [("LSTMCell", {}), ("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}),
                                             ("GRUCell", {}), ("GRUCell", {"bias": False})])
def test_cell_graph_and_gradients_are_torchs(torch, kind, kwargs):
    ours, theirs = _cell_run(core, kind, kwargs), _cell_run(torch, kind, kwargs)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1:3], theirs[1:3]):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(ours[3], theirs[3]):
        np.testing.assert_array_equal(a, b)


def _gru_run(lib, hidden, dtype, batch):
    lib.manual_seed(1)
    cell = lib.nn.GRUCell(5, hidden, dtype=getattr(lib, dtype))
    x = lib.randn(batch, 5, dtype=getattr(lib, dtype), requires_grad=True)
    h = lib.randn(batch, hidden, dtype=getattr(lib, dtype), requires_grad=True)
    y = cell(x, h)
    names = {id(p): n for n, p in cell.named_parameters()}
    names[id(h)] = "h"
    graph = _walk(y.grad_fn, names, set())
    (y * y).sum().backward()
    return graph, [t.detach().numpy() for t in (y, x.grad, h.grad, *(p.grad for p in cell.parameters()))]


# NOTE: float32 only: float64 sigmoid has ATen's AVX-512 steps only (test_float64_sigmoid_tanh_oracle), so on an
# AVX2 machine a float64 GRU's values differ in the last bit with either graph
@pytest.mark.parametrize(("hidden", "batch"), [(4, 1), (16, 3), (33, 2)])
def test_gru_cell_with_a_state_records_atens_graph_and_keeps_torchs_bits(torch, hidden, batch):
    ours, theirs = _gru_run(core, hidden, "float32", batch), _gru_run(torch, hidden, "float32", batch)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_array_equal(a, b)
