"""The math family against PyTorch: values, dtypes and errors over dtypes and layouts, then gradients."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error, check_grads, inputs

DTYPES = ["float32", "float64", "float16", "int32", "int64", "bool"]

UNARY = ["abs", "absolute", "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos",
         "tan", "asin", "arcsin", "acos", "arccos", "atan", "arctan", "sinh", "cosh", "tanh", "asinh", "arcsinh",
         "acosh", "arccosh", "atanh", "arctanh", "sigmoid", "relu", "sign", "sgn", "signbit", "floor", "ceil", "round",
         "trunc", "fix", "frac", "reciprocal", "square", "erf", "erfc", "erfinv", "lgamma", "digamma", "logit", "sinc",
         "deg2rad", "rad2deg", "positive", "nan_to_num", "neg", "negative"]

# Layouts: each turns a (3, 4) input into what the op sees (views are non-contiguous).
LAYOUTS = {
    "contiguous": lambda x: x,
    "transposed": lambda x: x.t(),
    "sliced": lambda x: x[:, ::2],
    "expanded": lambda x: x[:1].expand(3, 4),
}


def sample(dtype: str, shape=(3, 4), seed=0) -> np.ndarray:
    """Values that exercise each dtype: signs, zeros, halves, small integers."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return np.asarray(rng.random(shape) > 0.5)
    if dtype.startswith("int"):
        return np.asarray(rng.integers(-5, 6, shape).astype(dtype))
    vals = rng.choice([-2.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5, 3.7], size=shape)
    return np.asarray(vals.astype(dtype))


def same_or_same_error(fn, arrays, torch, **compare):
    """Both libraries give the same result, or both raise the same exception type."""
    try:
        fn(torch, *inputs(torch, arrays))
    except Exception:  # noqa: BLE001 - then core must raise the same type
        check_error(fn, arrays, torch)
        return
    check(fn, arrays, torch, **compare)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary_op_matches_torch_over_dtypes_and_layouts(name, dtype, torch):
    for layout in LAYOUTS.values():
        same_or_same_error(lambda lib, x, f=layout: getattr(lib, name)(f(x)), [sample(dtype)], torch, rtol=1e-5)
    same_or_same_error(lambda lib, x: getattr(lib, name)(x), [sample(dtype, ())], torch)
    same_or_same_error(lambda lib, x: getattr(lib, name)(x), [sample(dtype, (0, 3))], torch)


@pytest.mark.parametrize("name", UNARY)
def test_unary_method_matches_function(name, torch):
    if name == "positive":
        x = core.tensor([1.0, -2.0])
        assert core.positive(x) is x
        return
    check(lambda lib, x: getattr(x, name)(), [sample("float64")], torch)


SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-30, 1e30, -3.0, 0.9999, 2.0])


@pytest.mark.parametrize("name", [n for n in UNARY if n not in ("positive",)])
def test_unary_op_handles_infinities_nan_and_signed_zero(name, torch):
    for dtype in ("float32", "float64"):
        check(lambda lib, x: getattr(lib, name)(x), [SPECIAL.astype(dtype)], torch)


def test_round_with_decimals_matches_torch(torch):
    x = np.array([0.125, 1.55, -2.449, 1234.5678, 0.5, 2.5], dtype=np.float32)
    for d in (-2, -1, 1, 2, 3):
        check(lambda lib, t, d=d: lib.round(t, decimals=d), [x], torch)
        check(lambda lib, t, d=d: t.round(decimals=d), [x.astype(np.float64)], torch)
    check_error(lambda lib, t: lib.round(t, decimals=1), [np.array([1, 2])], torch)


def test_logit_with_eps_and_nan_to_num_with_values_match_torch(torch):
    x = np.array([0.0, 0.05, 0.3, 0.97, 1.0, -0.1, 1.2])
    check(lambda lib, t: lib.logit(t, eps=0.1), [x], torch)
    check(lambda lib, t: lib.logit(t, 0.01), [x.astype(np.float32)], torch)
    y = np.array([np.nan, np.inf, -np.inf, 1.5], dtype=np.float32)
    check(lambda lib, t: lib.nan_to_num(t, nan=1.0, posinf=2.0, neginf=-3.0), [y], torch)
    check(lambda lib, t: lib.nan_to_num(t), [y.astype(np.float16)], torch)


def test_polygamma_matches_torch(torch):
    x = np.array([0.3, 1.0, 2.5, 7.0, 30.0, -1.5, -0.2])
    for n in (0, 1, 2, 3):
        check(lambda lib, t, n=n: lib.polygamma(n, t), [x], torch, rtol=1e-7)


def test_special_functions_are_accurate_in_float64(torch):
    x = np.linspace(-0.999, 0.999, 41)
    check(lambda lib, t: lib.erfinv(t), [x], torch, rtol=1e-9)
    y = np.linspace(-6, 6, 49) + 0.01
    for name in ("erf", "erfc", "lgamma", "digamma"):
        check(lambda lib, t, name=name: getattr(lib, name)(t), [y], torch, rtol=1e-9, atol=1e-12)


def test_integer_overflow_wraps_like_torch(torch):
    big = np.array([2 ** 62, -2 ** 63, 2 ** 63 - 1])
    check(lambda lib, t: t * 4, [big], torch)
    check(lambda lib, t: lib.abs(t), [big], torch)
    check(lambda lib, t: lib.square(t), [big], torch)
    check(lambda lib, t: t + 1, [big], torch)
    check(lambda lib, t: t ** 3, [big], torch)
    check(lambda lib: lib.tensor([1], dtype=lib.int32) + 2 ** 40, [], torch)
    check(lambda lib: lib.tensor([1], dtype=lib.uint8) - 2, [], torch)


def test_bool_inputs_raise_like_torch_for_abs_relu_floor_and_positive(torch):
    b = np.array([True, False])
    for name in ("abs", "relu", "floor", "ceil", "trunc", "round", "positive", "neg", "frac"):
        check_error(lambda lib, t, name=name: getattr(lib, name)(t), [b], torch)
    check_error(lambda lib, t: lib.relu(t), [b], torch, match="Boolean inputs not supported for relu")


# ----- gradients ---------------------------------------------------------------------------------------
# Inputs inside each op's domain (float64), away from kinks where finite differences disagree.
GRAD_DOMAIN = {
    "log": (0.2, 3), "log2": (0.2, 3), "log10": (0.2, 3), "log1p": (-0.5, 3), "sqrt": (0.2, 3), "rsqrt": (0.2, 3),
    "asin": (-0.9, 0.9), "acos": (-0.9, 0.9), "atanh": (-0.9, 0.9), "acosh": (1.2, 4), "erfinv": (-0.9, 0.9),
    "lgamma": (0.2, 4), "digamma": (0.2, 4), "logit": (0.1, 0.9), "reciprocal": (0.3, 2), "tan": (-1.2, 1.2),
}
DIFFERENTIABLE = ["abs", "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan",
                  "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "relu",
                  "reciprocal", "square", "erf", "erfc", "erfinv", "lgamma", "digamma", "logit", "sinc", "deg2rad",
                  "rad2deg", "frac", "nan_to_num", "neg"]
PIECEWISE_CONSTANT = ["sign", "sgn", "floor", "ceil", "round", "trunc"]


def domain_sample(name, shape=(3, 4), seed=1) -> np.ndarray:
    lo, hi = GRAD_DOMAIN.get(name, (-2, 2))
    x = np.random.default_rng(seed).uniform(lo, hi, shape)
    if name in ("abs", "relu", "frac"):
        x = np.where(np.abs(x - np.round(x)) < 0.05, x + 0.1, x)  # keep away from the kinks
    return x


@pytest.mark.parametrize("name", DIFFERENTIABLE + PIECEWISE_CONSTANT)
def test_unary_gradient_matches_torch_on_a_view(name, torch):
    check_grads(lambda lib, x: getattr(lib, name)(x.t()[1:]), [domain_sample(name)], torch)


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_unary_op_passes_gradcheck_and_gradgradcheck_in_float64(name):
    x = core.tensor(domain_sample(name, (5,)), requires_grad=True)
    fn = getattr(core, name)
    assert core.autograd.gradcheck(fn, (x,))
    if name not in ("erfinv", "lgamma", "digamma"):
        assert core.autograd.gradgradcheck(fn, (x,))


def test_unary_grad_fn_names_match_torch(torch):
    for name in DIFFERENTIABLE + PIECEWISE_CONSTANT + ["fix", "arcsin", "absolute"]:
        ours = getattr(core, name)(core.tensor([0.5, 0.25], requires_grad=True) * 1).grad_fn.name()
        theirs = type(getattr(torch, name)(torch.tensor([0.5, 0.25], requires_grad=True) * 1).grad_fn).__name__
        assert ours == theirs, name
    assert core.round(core.ones(2, requires_grad=True), decimals=2).grad_fn.name() == "RoundBackward1"


def test_kink_conventions_match_torch(torch):
    x = np.array([-1.0, 0.0, 1.0, 0.0])
    for name in ("relu", "abs", "sign", "floor", "sqrt", "nan_to_num"):
        check_grads(lambda lib, t, name=name: getattr(lib, name)(t), [x], torch)
    check_grads(lambda lib, t: lib.sinc(t), [np.array([0.0, 0.5, -1.5])], torch)
    check_grads(lambda lib, t: lib.nan_to_num(t * np.inf), [x], torch)
    check_grads(lambda lib, t: lib.logit(t, eps=0.2), [np.array([0.1, 0.5, 0.95])], torch)
    check_grads(lambda lib, t: lib.logit(t), [np.array([-0.1, 0.5, 1.5])], torch)


def test_double_backward_of_tanh_and_sigmoid_matches_torch(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor([0.3, -1.2, 2.0], dtype=lib.float64, requires_grad=True)
        y = (lib.tanh(x) * lib.sigmoid(x) + lib.sqrt(x * x + 1)).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        results.append((g, gg))
    assert_same(results[0][0], results[1][0])
    assert_same(results[0][1], results[1][1])
