"""Weight normalisation over the first or the last dim as PyTorch 2.13's fused CPU kernel computes it.

``nn.utils.weight_norm`` and ``nn.utils.parametrizations.weight_norm`` call ``torch._weight_norm``, which over dim 0
or the last dim is one node, ``WeightNormInterfaceBackward0``, with its own arithmetic: the weight and both
gradients equal torch's bit for bit on one thread (torch splits the last-dim sums among its threads). Other dims,
``dim=None`` and float16 take the composite ``v * (g / norm)``, as torch does. A ``create_graph`` backward is the
same formula in differentiable ops.
"""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

SHAPES = [((5, 37), 0), ((6, 20), 1), ((4, 3, 3, 3), 0), ((4, 3, 2, 5), 3), ((3, 5), 0), ((2, 40), 0)]


@pytest.mark.parametrize("shape, dim", SHAPES)
def test_weight_and_gradients_equal_torchs_bits(torch, one_thread, shape, dim):
    def fn(lib):
        rng = np.random.default_rng(1)
        module = lib.nn.Linear(2, 2)
        module.weight = lib.nn.Parameter(lib.tensor(rng.standard_normal(shape).astype("float32")))
        lib.nn.utils.parametrizations.weight_norm(module, "weight", dim)
        w = module.weight
        w.backward(lib.tensor(rng.standard_normal(shape).astype("float32")))
        g, v = module.parametrizations.weight.original0, module.parametrizations.weight.original1
        return w.grad_fn.name(), w.detach(), g.grad, v.grad

    ours, theirs = fn(core), fn(torch)
    assert ours[0] == theirs[0] == "WeightNormInterfaceBackward0"
    for a, b in zip(ours[1:], theirs[1:]):
        assert_same(a, b, rtol=0, atol=0)


def test_the_old_hook_based_weight_norm_on_a_conv_is_the_fused_node_too(torch, one_thread):
    def fn(lib):
        lib.manual_seed(0)
        conv = lib.nn.utils.weight_norm(lib.nn.Conv2d(2, 3, 3))
        out = conv(lib.ones(1, 2, 4, 4)).pow(2).sum()
        out.backward()
        return conv.weight.grad_fn.name(), conv.weight.detach(), conv.weight_g.grad, conv.weight_v.grad

    with pytest.warns(FutureWarning):
        ours = fn(core)
    with pytest.warns(FutureWarning):
        theirs = fn(torch)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1:], theirs[1:]):
        assert_same(a, b, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("dim, node", [(None, "MulBackward0"), (1, "MulBackward0")])
def test_other_dims_take_the_composite_as_torch(torch, dim, node):
    def fn(lib):
        lib.manual_seed(0)
        conv = lib.nn.Conv2d(2, 3, 3)
        lib.nn.utils.parametrizations.weight_norm(conv, "weight", dim)
        return conv.weight.grad_fn.name(), conv.weight.detach()

    ours, theirs = fn(core), fn(torch)
    assert ours[0] == theirs[0] == node
    assert_same(ours[1], theirs[1])


def test_a_create_graph_backward_gives_torchs_second_derivatives(torch):
    def fn(lib):
        rng = np.random.default_rng(2)
        lib.manual_seed(0)
        module = lib.nn.Linear(6, 3).double()
        module.weight = lib.nn.Parameter(lib.tensor(rng.standard_normal((3, 6)), dtype=lib.float64))
        lib.nn.utils.parametrizations.weight_norm(module)
        v = module.parametrizations.weight.original1
        x = lib.tensor(rng.standard_normal((4, 6)), dtype=lib.float64)
        loss = (module(x) ** 2).sum()
        (gv,) = lib.autograd.grad(loss, v, create_graph=True)
        (ggv,) = lib.autograd.grad(gv.pow(2).sum(), v)
        return gv.detach(), ggv

    ours, theirs = fn(core), fn(torch)
    assert_same(ours[0], theirs[0], rtol=1e-12, atol=1e-12)
    assert_same(ours[1], theirs[1], rtol=1e-10, atol=1e-10)
