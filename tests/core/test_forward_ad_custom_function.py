"""Forward-mode AD through a custom ``autograd.Function`` and ``gradcheck(check_forward_ad=True)``, against torch.

PyTorch's forward-AD tutorial stores a tensor on ``ctx`` in ``forward`` and reads (then deletes) it in ``jvp``,
and checks the rule with ``gradcheck(..., check_forward_ad=True, check_backward_ad=False)``.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised


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


def _setup_context_sin(lib):
    class MySin(lib.autograd.Function):
        @staticmethod
        def forward(x, scale=1.0):
            return x.sin() * scale

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, scale = inputs
            ctx.save_for_backward(x)
            ctx.scale = scale

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x.cos() * ctx.scale, None

    return MySin


def test_a_function_with_setup_context_takes_no_ctx_in_forward_and_backpropagates_as_torch(torch):
    def run(lib):
        x = lib.tensor([0.5, 1.0, -2.0], requires_grad=True)
        y = _setup_context_sin(lib).apply(x, 2.0)
        y.sum().backward()
        return y, x.grad, type(y.grad_fn).__name__

    (y, g, name), (ty, tg, tname) = run(core), run(torch)
    assert_same(y, ty)
    assert_same(g, tg)
    assert name == tname == "MySinBackward"


def test_grad_transform_of_a_setup_context_function_matches_torch(torch):
    def run(lib):
        fn = _setup_context_sin(lib)
        return lib.func.grad(lambda x: fn.apply(x, 3.0).sum())(lib.tensor([0.25, -1.5]))

    assert_same(run(core), run(torch))


def test_the_base_setup_context_is_not_implemented_as_in_torch(torch):
    for lib in (core, torch):
        with pytest.raises(NotImplementedError, match="setup_context is not implemented"):
            lib.autograd.Function.setup_context(None, (), None)


def test_a_custom_functions_node_repr_names_its_module_as_torchs_does(torch):
    reprs = [repr(_setup_context_sin(lib).apply(lib.ones(2, requires_grad=True), 1.0).grad_fn) for lib in (core, torch)]
    assert reprs[0].startswith("<core.autograd.function.MySinBackward object at 0x")
    assert reprs[1].startswith("<torch.autograd.function.MySinBackward object at 0x")
    assert repr((core.ones(1, requires_grad=True) * 2).grad_fn).startswith("<MulBackward0 object at 0x")


def test_detect_anomaly_lives_in_torchs_module_name(torch):
    import importlib
    import warnings

    for lib in (core, torch):
        module = importlib.import_module(f"{lib.__name__}.autograd.anomaly_mode")
        assert module.detect_anomaly is lib.autograd.detect_anomaly
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert type(lib.autograd.detect_anomaly()).__module__ == f"{lib.__name__}.autograd.anomaly_mode"


def _saving_functions(lib):
    class Scale(lib.autograd.Function):  # jvp reads what save_for_forward saved, backward what save_for_backward did
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x)
            ctx.save_for_forward(y)
            return x * y

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 0, g * x

        @staticmethod
        def jvp(ctx, tx, ty):
            y, = ctx.saved_tensors
            return tx * y

    class Square(lib.autograd.Function):  # the Extending PyTorch note's pattern: both saved, gradcheck'd both ways
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_forward(x)
            return x ** 2

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

        @staticmethod
        def jvp(ctx, t):
            x, = ctx.saved_tensors
            return 2 * x * t

    class BackwardOnly(lib.autograd.Function):  # nothing saved for forward: jvp's saved_tensors is empty
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, g):
            return g * ctx.saved_tensors[0].cos()

        @staticmethod
        def jvp(ctx, t):
            x, = ctx.saved_tensors
            return t * x.cos()

    return Scale, Square, BackwardOnly


def test_save_for_forward_hands_jvp_its_tensors_as_torch(torch):
    def run(lib):
        scale, square, backward_only = _saving_functions(lib)
        fwad = lib.autograd.forward_ad
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([3.0, 4.0], dtype=lib.float64, requires_grad=True)
        with fwad.dual_level():
            out = scale.apply(fwad.make_dual(x, lib.ones(2, dtype=lib.float64)), y)
            tangent = fwad.unpack_dual(out).tangent
            out.sum().backward()
            square_tangent = fwad.unpack_dual(square.apply(fwad.make_dual(x.detach(), x.detach() + 1))).tangent
            refused = raised(lambda: backward_only.apply(fwad.make_dual(x.detach(), lib.ones(2, dtype=lib.float64))))
        checked = lib.autograd.gradcheck(square.apply, (x,), check_forward_ad=True)
        return tangent, x.grad, y.grad, square_tangent, refused, checked

    ours, theirs = run(core), run(torch)
    for a, b in zip(ours[:4], theirs[:4]):
        assert_same(a, b)
    assert ours[4] == theirs[4] and ours[4][0] == "ValueError"
    assert ours[5] is theirs[5] is True
