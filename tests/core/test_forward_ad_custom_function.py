"""Forward-mode AD through a custom ``autograd.Function`` and ``gradcheck(check_forward_ad=True)``, against torch.

PyTorch's forward-AD tutorial stores a tensor on ``ctx`` in ``forward`` and reads (then deletes) it in ``jvp``,
and checks the rule with ``gradcheck(..., check_forward_ad=True, check_backward_ad=False)``.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same


def _exp_function(lib, wrong=False):
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = lib.exp(x)
            ctx.result = result
            return result

        @staticmethod
        def jvp(ctx, g):
            out = g * ctx.result * (2 if wrong else 1)
            del ctx.result
            return out

    return Exp


def _primal(lib):
    return lib.tensor(np.linspace(-1, 1, 6).reshape(2, 3), dtype=lib.float64, requires_grad=True)


def test_custom_function_jvp_reads_what_forward_stored_on_ctx(torch):
    def tangent(lib):
        fn = _exp_function(lib).apply
        with lib.autograd.forward_ad.dual_level():
            dual = lib.autograd.forward_ad.make_dual(_primal(lib), lib.full((2, 3), 0.5, dtype=lib.float64))
            return lib.autograd.forward_ad.unpack_dual(fn(dual)).tangent

    assert_same(tangent(core), tangent(torch))


def test_deleting_a_ctx_attribute_in_jvp_removes_it_from_the_forward_ctx():
    seen = {}

    class Keep(core.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.scale = 3.0
            seen["ctx"] = ctx
            return x * 3.0

        @staticmethod
        def jvp(ctx, g):
            scale = ctx.scale
            del ctx.scale
            return g * scale

    with core.autograd.forward_ad.dual_level():
        dual = core.autograd.forward_ad.make_dual(core.ones(2), core.ones(2))
        out = Keep.apply(dual)
        assert core.autograd.forward_ad.unpack_dual(out).tangent.tolist() == [3.0, 3.0]
    assert not hasattr(seen["ctx"], "scale")


def test_gradcheck_checks_forward_mode_only_when_asked_as_torch_does(torch):
    kwargs = dict(check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False)
    for lib in (core, torch):
        assert lib.autograd.gradcheck(_exp_function(lib).apply, (_primal(lib),), **kwargs)
        with pytest.raises(RuntimeError, match="Jacobian computed with forward mode mismatch for output 0 with "
                                               "respect to input 0"):
            lib.autograd.gradcheck(_exp_function(lib, wrong=True).apply, (_primal(lib),), **kwargs)
        assert not lib.autograd.gradcheck(_exp_function(lib, wrong=True).apply, (_primal(lib),),
                                          raise_exception=False, **kwargs)


def test_gradcheck_forward_mode_of_builtin_ops_with_two_inputs_matches_torch(torch):
    def check(lib):
        a = lib.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([1.5, -0.5], dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(lambda a, b: (a * b.sin(), a.sum()), (a, b), check_forward_ad=True)

    assert check(core) and check(torch)
