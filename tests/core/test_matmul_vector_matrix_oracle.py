"""A 1-D @ 2-D product as PyTorch makes it: ``unsqueeze(0).mm(m).squeeze_(0)``, a fresh tensor, not a view.

Its grad_fn is ``SqueezeBackward4`` and an in-place op on it records its own node: a Linear without bias on a 1-D
input followed by ``ReLU(inplace=True)`` (a dropout tutorial's net) shows ``grad_fn=<ReluBackward0>``, where a view
would have been rebased (``AsStridedBackward0``)."""

import numpy as np

import core
from tests.core.oracle import assert_same

RNG = np.random.default_rng(0)
V = RNG.standard_normal(4).astype(np.float32)
M = RNG.standard_normal((4, 3)).astype(np.float32)


def _name(t):
    """The name of a tensor's grad_fn, or of a node."""
    return type(getattr(t, "grad_fn", t)).__name__


def test_vector_times_matrix_is_a_fresh_tensor_named_squeeze_backward4(torch):
    for lib in (core, torch):
        out = lib.tensor(V, requires_grad=True) @ lib.tensor(M)
        assert _name(out) == "SqueezeBackward4"
        assert not out._is_view() and out._base is None
        assert out.stride() == (1,)


def test_inplace_relu_after_a_bias_free_linear_on_a_vector_records_relu(torch):
    def run(lib):
        w = lib.tensor(M.T.copy(), requires_grad=True)
        y = lib.nn.functional.linear(lib.tensor(V), w)
        z = lib.nn.ReLU(inplace=True)(y)
        z.sum().backward()
        return _name(z), _name(z.grad_fn.next_functions[0][0]), z, w.grad
    ours, theirs = run(core), run(torch)
    assert ours[:2] == theirs[:2] == ("ReluBackward0", "SqueezeBackward4")
    assert_same(ours[2], theirs[2])
    assert_same(ours[3], theirs[3])


def test_inplace_ops_on_the_product_give_torchs_gradients(torch):
    def run(lib):
        v, m = lib.tensor(V, requires_grad=True), lib.tensor(M, requires_grad=True)
        out = v @ m
        out.mul_(2).add_(1)
        (out * out).sum().backward()
        return _name(out), out, v.grad, m.grad
    ours, theirs = run(core), run(torch)
    assert ours[0] == theirs[0] == "AddBackward0"
    for a, b in zip(ours[1:], theirs[1:]):
        assert_same(a, b)


def test_the_product_still_double_differentiates(torch):
    def run(lib):
        v, m = lib.tensor(V, requires_grad=True), lib.tensor(M, requires_grad=True)
        (g,) = lib.autograd.grad(((v @ m) ** 2).sum(), v, create_graph=True)
        g.sum().backward()
        return g, m.grad
    for a, b in zip(run(core), run(torch)):
        assert_same(a, b)
