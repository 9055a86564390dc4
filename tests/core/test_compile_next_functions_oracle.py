"""``torch.compile(fn)(x).grad_fn.next_functions`` lists every input of the compiled graph as PyTorch's does: each
tensor argument and each parameter or outside tensor the code reads, in the order it first reads them (a
``Linear`` reads its weight, then its bias and the input), ``(None, 0)`` for one that needs no grad. Core listed
only the edges a gradient leaves by, in its backward's order (the last layer's bias first). The gradients
themselves are unchanged: a replay's equal the eager run's, value for value."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _labels(out, names) -> list:
    """The compiled node's edges: a leaf by its name, another node by its own name, None as None."""
    labels = []
    for fn, nr in out.grad_fn.next_functions:
        if fn is None:
            labels.append((None, nr))
        else:
            labels.append((names.get(id(fn.variable), "?") if hasattr(fn, "variable") else fn.name(), nr))
    return labels


def _mlp(lib, x_grad: bool):
    lib.manual_seed(0)
    m = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 1))
    names = {id(p): n for n, p in m.named_parameters()}
    x = lib.randn(5, 3, requires_grad=x_grad)
    names[id(x)] = "x"
    out = lib.compile(m, backend="aot_eager")(x)
    return out, names


def _batch_norm_model(lib):
    """A model whose BatchNorm reads buffers: num_batches_tracked, running_mean, running_var (None each)."""
    lib.manual_seed(0)
    m = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.ReLU(), lib.nn.Linear(4, 2))
    names = {id(p): n for n, p in m.named_parameters()}
    x = lib.randn(5, 3, requires_grad=True)
    names[id(x)] = "x"
    return lib.compile(m, backend="aot_eager")(x), names


def _functions(lib, which: str):
    lib.manual_seed(1)
    w, c = lib.randn(3, requires_grad=True), lib.randn(3)
    a, b = lib.randn(2, 3, requires_grad=True), lib.randn(2, 3, requires_grad=True)
    names = {id(w): "w", id(c): "c", id(a): "a", id(b): "b"}

    def f(a, b):
        return (a * w + b.sin() * c).sum(0, keepdim=True) * a

    def g(a, b):
        return b.exp() + a.cos()

    fn = lib.compile(f if which == "f" else g, backend="aot_eager")
    return fn(a if which != "g_view" else a * 2, b), names


@pytest.mark.parametrize("x_grad", [True, False])
def test_compiled_mlps_edges_are_its_graph_inputs_in_torchs_order(torch, x_grad):
    assert _labels(*_mlp(core, x_grad)) == _labels(*_mlp(torch, x_grad))


def test_compiled_batch_norms_buffers_come_before_its_weight_and_bias(torch):
    assert _labels(*_batch_norm_model(core)) == _labels(*_batch_norm_model(torch))


@pytest.mark.parametrize("which", ["f", "g", "g_view"])
def test_compiled_functions_edges_follow_first_use_with_outside_tensors(torch, which):
    assert _labels(*_functions(core, which)) == _labels(*_functions(torch, which))


def test_compiled_replays_gradients_equal_the_eager_ones():
    core.manual_seed(0)
    m = core.nn.Sequential(core.nn.Linear(3, 4), core.nn.ReLU(), core.nn.Linear(4, 1))
    compiled = core.compile(m)
    xs = [core.randn(5, 3, requires_grad=True) for _ in range(3)]
    for x in xs:  # the capture, then replays
        compiled(x).pow(2).sum().backward()
    got = [p.grad.numpy().copy() for p in m.parameters()] + [x.grad.numpy() for x in xs]
    m.zero_grad()
    eager = [x.detach().requires_grad_() for x in xs]
    for x in eager:
        m(x).pow(2).sum().backward()
    want = [p.grad.numpy() for p in m.parameters()] + [x.grad.numpy() for x in eager]
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
