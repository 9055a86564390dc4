"""A custom ``autograd.Function`` whose forward returns numbers or other objects (TingsongYu's tutorial applies
``LegendrePolynomial3`` to a Python int): torch's ``apply`` hands them back as they are, beside any tensors,
compared with PyTorch."""

import pytest

from tests.core.oracle import assert_same

pytestmark = pytest.mark.cpu_only


def _legendre(lib):
    class LegendrePolynomial3(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return 0.5 * (5 * x ** 3 - 3 * x)

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return grad_output * 1.5 * (5 * x ** 2 - 1)

    return LegendrePolynomial3


def _scaled(lib):
    class Scaled(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * k, k, "scaled"

        @staticmethod
        def backward(ctx, grad, grad_k, grad_name):
            return grad * ctx.k, None

    return Scaled


@pytest.mark.parametrize("value", [3, 1.5, True])
def test_a_number_in_gives_the_number_forward_computes(torch, value):
    import core

    ours, theirs = _legendre(core).apply(value), _legendre(torch).apply(value)
    assert type(ours) is type(theirs)
    assert ours == theirs


def test_numbers_and_strings_beside_a_tensor_come_back_as_they_are(torch):
    import core

    results = []
    for lib in (core, torch):
        x = lib.tensor([2.0, -1.0], requires_grad=True)
        y, k, name = _scaled(lib).apply(x, 3)
        (y * y).sum().backward()
        results.append((y, k, name, x.grad, type(y.grad_fn).__name__))
    (y_c, k_c, n_c, g_c, fn_c), (y_t, k_t, n_t, g_t, fn_t) = results
    assert (k_c, n_c, fn_c) == (k_t, n_t, fn_t)
    assert_same(y_c, y_t)
    assert_same(g_c, g_t)


def test_a_number_out_of_a_tensor_that_requires_grad(torch):
    import core

    outs = []
    for lib in (core, torch):
        class ToFloat(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return float(x.sum())

            @staticmethod
            def backward(ctx, grad):
                return None

        x = lib.tensor([1.0, 2.5], requires_grad=True)
        outs.append(ToFloat.apply(x))
    assert type(outs[0]) is type(outs[1]) is float
    assert outs[0] == outs[1]
