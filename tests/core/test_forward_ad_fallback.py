"""Forward-mode AD through core primitives that have no jvp rule of their own: the tangent comes from the
op's backward (J t = d<J^T u, t>/du), and equals torch's."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same


def _tangent(lib, fn, seed=0):
    lib.manual_seed(seed)
    x = lib.tensor(np.linspace(-2, 2, 96).reshape(2, 3, 4, 4))
    t = lib.tensor(np.cos(np.arange(96.0)).reshape(2, 3, 4, 4))
    with lib.autograd.forward_ad.dual_level():
        out = fn(lib, lib.autograd.forward_ad.make_dual(x, t))
        return out.detach().clone(), lib.autograd.forward_ad.unpack_dual(out).tangent


@pytest.mark.parametrize("fn", [
    lambda lib, a: lib.nn.functional.gelu(a),
    lambda lib, a: lib.nn.functional.conv2d(a, lib.ones(2, 3, 3, 3, dtype=lib.float64) * 0.1, padding=1),
    lambda lib, a: lib.nn.functional.max_pool2d(a, 2),
    lambda lib, a: lib.nn.functional.layer_norm(a, (4,)),
    lambda lib, a: lib.nn.functional.cross_entropy(a.flatten(1)[:, :10], lib.tensor([1, 2])),
    lambda lib, a: a.masked_fill(a > 0.5, 0.0),
    lambda lib, a: lib.nn.functional.pad(a, (1, 2)),
    lambda lib, a: (a * 1).sigmoid_(),
    lambda lib, a: lib.nn.functional.dropout(a, 0.5, training=True),
], ids=["gelu", "conv2d", "max_pool2d", "layer_norm", "cross_entropy", "masked_fill", "pad", "in-place", "dropout"])
def test_tangents_through_ops_without_a_jvp_rule_match_torch(torch, fn):
    for ours, theirs in zip(_tangent(core, fn), _tangent(torch, fn)):
        assert_same(ours, theirs, rtol=1e-10, atol=1e-12)


def test_the_rerun_of_a_random_op_leaves_the_generator_where_one_run_leaves_it():
    def after(dual):
        core.manual_seed(0)
        x = core.ones(8, dtype=core.float64)
        with core.autograd.forward_ad.dual_level():
            core.nn.functional.dropout(core.autograd.forward_ad.make_dual(x, x) if dual else x, 0.5)
        return core.rand(3)

    assert np.array_equal(after(True).numpy(), after(False).numpy())


def test_a_custom_function_without_jvp_still_refuses_forward_mode():
    class NoJvp(core.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with core.autograd.forward_ad.dual_level():
        with pytest.raises(NotImplementedError, match="You must implement the jvp function for custom "
                                                      "autograd.Function to use it with forward mode AD"):
            NoJvp.apply(core.autograd.forward_ad.make_dual(core.ones(2), core.ones(2)))


_SECOND_ORDER = {
    "gelu": lambda lib, a: lib.nn.functional.gelu(a).sum(),
    "silu": lambda lib, a: lib.nn.functional.silu(a).sum(),
    "softplus": lambda lib, a: lib.nn.functional.softplus(a).sum(),
    "elu": lambda lib, a: lib.nn.functional.elu(a).sum(),
    "cross_entropy": lambda lib, a: lib.nn.functional.cross_entropy(a[None], lib.tensor([1])),
}


def _tangent_backward(lib, fn):
    x = lib.tensor([-1.5, 0.25, 2.0], dtype=lib.float64, requires_grad=True)
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        tangent = fw.unpack_dual(fn(lib, fw.make_dual(x, lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64)))).tangent
        assert tangent.requires_grad and tangent.grad_fn is not None
        return lib.autograd.grad(tangent.sum(), x)[0]


@pytest.mark.parametrize("name", ["elu", "gelu", "silu", "softplus"])  # (torch's log_softmax tangent refuses it)
def test_a_tangent_from_an_op_without_a_jvp_rule_is_differentiable_as_torchs(torch, name):
    assert_same(_tangent_backward(core, _SECOND_ORDER[name]), _tangent_backward(torch, _SECOND_ORDER[name]),
                rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(_SECOND_ORDER))
def test_jacfwd_of_jacfwd_through_an_op_without_a_jvp_rule_gives_torchs_hessian(torch, name):
    def hessian(lib):
        fn = _SECOND_ORDER[name]
        x = lib.tensor([-1.5, 0.25, 2.0], dtype=lib.float64)
        return lib.func.jacfwd(lib.func.jacfwd(lambda a: fn(lib, a)))(x)

    assert_same(hessian(core), hessian(torch), rtol=1e-10, atol=1e-12)


def test_a_tangent_is_not_differentiable_when_nothing_requires_grad():
    fw = core.autograd.forward_ad
    with fw.dual_level():
        out = core.nn.functional.gelu(fw.make_dual(core.ones(3), core.ones(3)))
        assert not fw.unpack_dual(out).tangent.requires_grad
