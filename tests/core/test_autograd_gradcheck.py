"""``core.autograd.gradcheck``/``gradgradcheck``: PyTorch's defaults, checks and failure messages."""

import warnings

import pytest

import core
from core.autograd import Function, gradcheck, gradgradcheck
from core.autograd.gradcheck import GradcheckError


def _double(*shape):
    return core.randn(*shape, dtype=core.float64, requires_grad=True)


class _HalfGradSquare(Function):
    """x * x with a deliberately wrong backward (half the true gradient)."""

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * a


class _DetachedSquare(Function):
    """x * x whose backward is right once but not differentiable in ``x`` (wrong second order)."""

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * 2 * a.detach()


class _IgnoresGradOutput(Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):
        return g * 0 + 2


def test_gradcheck_defaults_are_pytorchs():
    import inspect

    p = inspect.signature(gradcheck).parameters
    assert (p["eps"].default, p["atol"].default, p["rtol"].default) == (1e-6, 1e-5, 1e-3)
    assert p["raise_exception"].default is True and p["fast_mode"].default is False
    assert p["nondet_tol"].default == 0.0 and p["check_undefined_grad"].default is True
    assert issubclass(GradcheckError, RuntimeError)


def test_chapter_gradcheck_of_cube_sum_is_true():
    inp = core.randn(5, dtype=core.double, requires_grad=True)
    assert gradcheck(lambda t: (t ** 3).sum(), (inp,), eps=1e-6, atol=1e-4) is True


def test_single_tensor_input_is_accepted():
    assert gradcheck(lambda t: t * t, _double(3))


def test_several_inputs_and_outputs_with_broadcasting():
    a, b = _double(2, 3), _double(3)
    assert gradcheck(lambda x, y: (x * y, (x / (y * y + 1)).sum(0), x - y), (a, b))


def test_non_tensor_and_non_grad_inputs_are_passed_through():
    a, c = _double(4), core.randn(4, dtype=core.float64)
    assert gradcheck(lambda x, k, y: x * k + y * x, (a, 3.0, c))


def test_non_contiguous_input_is_checked_in_logical_order():
    a = core.randn(3, 4, dtype=core.float64).t().requires_grad_(True)
    w = core.randn(4, 3, dtype=core.float64)
    assert not a.is_contiguous()
    assert gradcheck(lambda x: (x * w).sum(1), (a,))


def test_wrong_backward_raises_with_both_jacobians():
    with pytest.raises(GradcheckError) as info:
        gradcheck(_HalfGradSquare.apply, (_double(3),))
    msg = str(info.value)
    assert msg.startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    assert "\nanalytical:" in msg


def test_wrong_backward_returns_false_without_raise_exception():
    assert gradcheck(_HalfGradSquare.apply, (_double(3),), raise_exception=False) is False


def test_mismatch_names_the_failing_input():
    with pytest.raises(GradcheckError, match="output 0 with respect to input 1"):
        gradcheck(lambda x, y: x + _HalfGradSquare.apply(y), (_double(2), _double(2)))


def test_fast_mode_accepts_right_and_rejects_wrong_backward():
    assert gradcheck(lambda x, y: x * y + x, (_double(3, 2), _double(2)), fast_mode=True)
    assert not gradcheck(_HalfGradSquare.apply, (_double(3),), fast_mode=True, raise_exception=False)


def test_single_precision_input_warns_like_pytorch():
    x = core.randn(3, requires_grad=True)
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double precision"):
        gradcheck(lambda t: t * 2, (x,), eps=1e-2, atol=1e-2, rtol=1e-2)


def test_no_input_requiring_grad_raises_value_error():
    with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
        gradcheck(lambda t: t * 2, (core.randn(3, dtype=core.float64),))


def test_expanded_input_with_stride_zero_is_refused():
    x = core.randn(1, dtype=core.float64).expand(3).requires_grad_(True)
    with pytest.raises(RuntimeError, match="stride 0"):
        gradcheck(lambda t: t * 2, (x,))


def test_backward_that_ignores_grad_output_is_caught():
    with pytest.raises(GradcheckError, match="backward not multiplied by grad_output"):
        gradcheck(_IgnoresGradOutput.apply, (_double(1),))


def test_gradcheck_leaves_inputs_unchanged_and_grad_untouched():
    x = _double(4)
    before = x.detach().clone()
    gradcheck(lambda t: (t * t).sum(), (x,))
    assert x.tolist() == before.tolist() and x.grad is None


def test_gradgradcheck_passes_for_differentiable_backward():
    assert gradgradcheck(lambda x, y: (x * x * y).sum(), (_double(3), _double(3)))
    assert gradgradcheck(lambda x: x * x * x, (_double(2, 2),), gen_non_contig_grad_outputs=True)


def test_gradgradcheck_with_given_grad_outputs():
    x = _double(3)
    go = core.randn(3, dtype=core.float64, requires_grad=True)
    assert gradgradcheck(lambda t: t * t / (t * t + 1), (x,), (go,))


def test_gradgradcheck_catches_a_backward_that_is_not_differentiable():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert gradcheck(_DetachedSquare.apply, (_double(3),))
    assert gradgradcheck(_DetachedSquare.apply, (_double(3),), raise_exception=False) is False


def test_gradcheck_agrees_with_torch_on_a_wrong_backward(torch):
    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * a

    t = torch.randn(3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(Wrong.apply, (t,), raise_exception=False) is False
    with pytest.raises(RuntimeError) as theirs:
        torch.autograd.gradcheck(Wrong.apply, (t,))
    with pytest.raises(GradcheckError) as ours:
        gradcheck(_HalfGradSquare.apply, (_double(3),))
    assert str(ours.value).split("numerical:")[0] == str(theirs.value).split("numerical:")[0]
