"""The math family against PyTorch: values, dtypes and errors over dtypes and layouts, then gradients."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from tests.core.oracle import assert_same, check, check_error, check_grads, inputs, raised

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
    except Exception:  # then core must raise the same type
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
    for d in (-2, -1, 0, 1, 2, 3):
        check(lambda lib, t, d=d: lib.round(t, decimals=d), [x], torch)
        check(lambda lib, t, d=d: t.round(decimals=d), [x.astype(np.float64)], torch)
    check_error(lambda lib, t: lib.round(t, decimals=1), [np.array([1, 2])], torch)
    check_error(lambda lib, t: lib.round(t, decimals=0), [np.array([1, 2])], torch)
    check(lambda lib, t: lib.round(t), [np.array([1, 2])], torch)


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


def test_float32_erfinv_matches_torch_over_the_range_and_tails(torch):
    """float32 erfinv (Giles' double-precision polynomials: trunc_normal_ on a ViT's weights) is within an ulp of
    torch's over the whole range, its tails near +-1, tiny inputs, +-1 (inf) and outside [-1, 1] (nan)."""
    rng = np.random.default_rng(1)
    y = np.concatenate([rng.uniform(-1, 1, 20000), 1 - 10 ** -rng.uniform(0, 7.2, 2000),
                        -1 + 10 ** -rng.uniform(0, 7.2, 2000), rng.uniform(-1e-30, 1e-30, 100),
                        [0.0, -0.0, 1.0, -1.0, np.nan, 1.5, -2.0]]).astype(np.float32)
    check(lambda lib, t: lib.erfinv(t), [y], torch, rtol=2.4e-7, atol=0)


def test_float32_erfinv_is_the_float64_result_rounded():
    """The float32 path's polynomials are the float64 path's Newton-refined value rounded to float32: the two
    routes agree bit for bit over the range, the tails and the edges."""
    rng = np.random.default_rng(2)
    y = np.concatenate([rng.uniform(-1, 1, 50000), 1 - 10 ** -rng.uniform(0, 7.2, 5000),
                        -1 + 10 ** -rng.uniform(0, 7.2, 5000), [0.0, -0.0, 1.0, -1.0, np.nan, 1.5]]).astype(np.float32)
    low = core.erfinv(core.tensor(y)).numpy()
    high = core.erfinv(core.tensor(y, dtype=core.float64)).float().numpy()
    assert low.dtype == np.float32
    np.testing.assert_array_equal(low, high)


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
    assert core.round(core.ones(2, requires_grad=True), decimals=0).grad_fn.name() == "RoundBackward1"


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


# ----- binary ops ----------------------------------------------------------------------------------------
BINARY = ["pow", "float_power", "minimum", "maximum", "fmax", "fmin", "floor_divide", "remainder", "fmod", "atan2",
          "arctan2", "hypot", "xlogy", "logaddexp", "copysign", "heaviside", "add", "sub", "mul", "div"]
ROUNDING = {"div_floor": lambda lib, a, b: lib.div(a, b, rounding_mode="floor"),
            "div_trunc": lambda lib, a, b: lib.div(a, b, rounding_mode="trunc")}
PAIR_DTYPES = ["float32", "float64", "int32", "int64", "bool"]


def divisor(dtype: str, shape, seed=3) -> np.ndarray:
    """Like ``sample`` but without zeros for integers (integer division by zero raises)."""
    x = sample(dtype, shape, seed)
    if dtype.startswith("int"):
        x = np.where(x == 0, 3, x).astype(dtype)
    return np.asarray(x)


def binary_fn(name):
    return ROUNDING.get(name) or (lambda lib, a, b: getattr(lib, name)(a, b))


@pytest.mark.parametrize("dtype_a", PAIR_DTYPES + ["float16"])
@pytest.mark.parametrize("name", BINARY + list(ROUNDING))
def test_binary_op_matches_torch_over_dtype_pairs_and_broadcasting(name, dtype_a, torch):
    fn = binary_fn(name)
    a = sample(dtype_a, (3, 4))
    for dtype_b in PAIR_DTYPES:
        for layout in LAYOUTS.values():
            same_or_same_error(lambda lib, x, y, f=layout: fn(lib, f(x), y), [a, divisor(dtype_b, (4,))], torch)
        same_or_same_error(fn, [a.T.copy(), divisor(dtype_b, (3, 1))], torch)
        same_or_same_error(fn, [a, divisor(dtype_b, ())], torch)
        same_or_same_error(fn, [sample(dtype_a, ()), divisor(dtype_b, (2,))], torch)
        same_or_same_error(fn, [sample(dtype_a, (0, 4)), divisor(dtype_b, (4,))], torch)


SCALARS = [2, -3, 2.5, -0.5, True, 0.0]


@pytest.mark.parametrize("dtype", PAIR_DTYPES + ["float16"])
@pytest.mark.parametrize("name", ["pow", "float_power", "floor_divide", "remainder", "fmod", "xlogy", "copysign",
                                  "add", "sub", "mul", "div", "div_floor", "div_trunc"])
def test_binary_op_with_python_scalars_matches_torch(name, dtype, torch):
    fn = binary_fn(name)
    for s in SCALARS:
        same_or_same_error(lambda lib, x, s=s: fn(lib, x, s), [divisor(dtype, (2, 3))], torch)
    for s in ("pow", "remainder", "xlogy", "float_power"):
        if name == s:
            for v in SCALARS[:4]:
                same_or_same_error(lambda lib, x, v=v: fn(lib, v, x), [divisor(dtype, (2, 3))], torch)


def test_python_operators_route_to_the_math_ops(torch):
    a, b = sample("int64", (3, 4)), divisor("int64", (4,))
    for fn in (lambda lib, x, y: x // y, lambda lib, x, y: x % y, lambda lib, x, y: x ** abs(y),
               lambda lib, x, y: 7 // y,
               lambda lib, x, y: -7 % y, lambda lib, x, y: 2 ** abs(y), lambda lib, x, y: abs(x),
               lambda lib, x, y: x / 2,
               lambda lib, x, y: x // 2.5, lambda lib, x, y: x % -3):
        check(fn, [a, b], torch)


def test_integer_division_by_zero_raises_like_torch(torch):
    a = np.array([5, -7, 0])
    for fn in (lambda lib, x: x // 0, lambda lib, x: x % 0, lambda lib, x: lib.fmod(x, 0),
               lambda lib, x: x // lib.tensor([1, 0, 2]), lambda lib, x: lib.remainder(2, x),
               lambda lib, x: lib.div(x, 0, rounding_mode="trunc")):
        check_error(fn, [a], torch, match="ZeroDivisionError")
    check(lambda lib, x: x.double() // 0, [a], torch)
    check(lambda lib, x: x.double() % 0, [a], torch)


def test_pow_edge_cases_match_torch(torch):
    i = np.array([5, -7, 0, 1, -1])
    check_error(lambda lib, x: x ** -1, [i], torch, match="Integers to negative integer powers are not allowed.")
    check(lambda lib, x: x ** lib.tensor(-1), [i], torch)
    check(lambda lib, x: x ** lib.tensor([-1, -2, -3, -2, -3]), [i], torch)
    check(lambda lib, x: x ** 2.5, [i], torch)
    check(lambda lib: lib.tensor(True) ** 2, [], torch)
    check_error(lambda lib: lib.tensor([True]) ** lib.tensor([True]), [], torch)
    check(lambda lib, x: x ** 0, [np.array([0.0, -1.5, np.nan])], torch)


def test_clamp_matches_torch_for_numbers_tensors_and_dtypes(torch):
    x = sample("float32", (3, 4))
    i = sample("int64", (3, 4))
    lo, hi = np.array([-1.0, 0.0, 0.5, 1.0], dtype=np.float32), np.array([[0.0], [1.0], [2.0]], dtype=np.float32)
    for fn in (lambda lib, t, a, b: lib.clamp(t, -0.5, 0.7), lambda lib, t, a, b: lib.clamp(t, min=0.1),
               lambda lib, t, a, b: lib.clamp(t, max=0.1), lambda lib, t, a, b: lib.clamp(t, a, b),
               lambda lib, t, a, b: lib.clamp(t, min=a), lambda lib, t, a, b: lib.clamp(t, max=b),
               lambda lib, t, a, b: lib.clamp(t, 2, 1), lambda lib, t, a, b: lib.clip(t, a, b),
               lambda lib, t, a, b: lib.clamp_min(t, 0.2), lambda lib, t, a, b: lib.clamp_max(t, a),
               lambda lib, t, a, b: t.clamp(-1, 1), lambda lib, t, a, b: t.clamp_min(a)):
        check(fn, [x, lo, hi], torch)
        check(fn, [i, lo, hi], torch)
    check(lambda lib, t: lib.clamp(t, 0), [np.array([True, False])], torch)
    check(lambda lib, t: lib.clamp(t, 0.5), [i], torch)
    check_error(lambda lib, t: lib.clamp(t), [x], torch, match="At least one of 'min' or 'max' must not be None")
    check_error(lambda lib, t, a: lib.clamp(t, 0.5, a), [x, lo], torch)


def test_lerp_addcmul_addcdiv_match_torch(torch):
    a, b, w = sample("float32", (3, 4)), sample("float32", (4,), 5), sample("float32", (3, 1), 6)
    check(lambda lib, x, y, z: lib.lerp(x, y, 0.3), [a, b, w], torch)
    check(lambda lib, x, y, z: lib.lerp(x, y, z), [a, b, w], torch)
    check(lambda lib, x, y, z: x.lerp(y, 0.8), [a, b, w], torch)
    check(lambda lib, x, y, z: lib.addcmul(x, y, z, value=0.5), [a, b, w], torch)
    check(lambda lib, x, y, z: lib.addcdiv(x, y, z + 10, value=-2), [a, b, w], torch)
    i = divisor("int64", (3,))
    check(lambda lib, x: lib.addcmul(x, x, x, value=2), [i], torch)
    check_error(lambda lib, x: lib.addcdiv(x, x, x), [i], torch, match="Integer division with addcdiv")
    check_error(lambda lib, x: lib.lerp(x, x, 0.5), [i], torch)
    check_error(lambda lib, x, y: lib.lerp(x, y.double(), 0.5), [a, b], torch)


DIFF_BINARY = ["pow", "float_power", "minimum", "maximum", "fmax", "fmin", "remainder", "fmod", "atan2", "hypot",
               "xlogy", "logaddexp", "copysign", "div_floor", "div_trunc"]


@pytest.mark.parametrize("name", DIFF_BINARY)
def test_binary_gradient_matches_torch_with_broadcasting(name, torch):
    a = np.random.default_rng(0).uniform(0.2, 2.0, (3, 4))
    b = np.random.default_rng(1).uniform(-1.5, 1.5, (4,))
    check_grads(lambda lib, x, y: binary_fn(name)(lib, x.t().t(), y), [a, b], torch)


@pytest.mark.parametrize("name", DIFF_BINARY[:-2])
def test_binary_op_passes_gradcheck_in_float64(name):
    rng = np.random.default_rng(2)
    x = core.tensor(rng.uniform(0.3, 2.0, (3, 2)), requires_grad=True)
    sign = np.array([1, 1]) if name == "xlogy" else np.array([1, -1])  # xlogy is nan for y < 0
    y = core.tensor(rng.uniform(0.6, 1.5, (2,)) * sign, requires_grad=True)
    assert core.autograd.gradcheck(lambda a, b: getattr(core, name)(a, b), (x, y))
    assert core.autograd.gradgradcheck(lambda a, b: getattr(core, name)(a, b), (x, y))


def test_scalar_operand_gradients_match_torch(torch):
    x = np.array([0.0, 0.5, 2.0, 3.0])
    for fn in (lambda lib, t: t ** 2, lambda lib, t: t ** 0, lambda lib, t: t ** 0.5, lambda lib, t: 2 ** t,
               lambda lib, t: 0 ** t, lambda lib, t: t ** t, lambda lib, t: t % 1.5, lambda lib, t: lib.fmod(t, -1.5),
               lambda lib, t: lib.xlogy(t, 2.0), lambda lib, t: lib.xlogy(2.0, t + 1), lambda lib, t: lib.xlogy(t, t),
               lambda lib, t: lib.copysign(t, -1.0), lambda lib, t: lib.float_power(t, 3)):
        check_grads(fn, [x], torch)


def test_tie_and_boundary_gradients_follow_torch(torch):
    a = np.array([1.0, 2.0, 3.0, 2.0])
    b = np.array([1.0, 3.0, 2.0, 2.0])
    for name in ("maximum", "minimum", "fmax", "fmin"):
        check_grads(lambda lib, x, y, n=name: getattr(lib, n)(x, y), [a, b], torch)
    check_grads(lambda lib, x: lib.clamp(x, 1.0, 2.0), [np.array([0.5, 1.0, 1.5, 2.0, 2.5])], torch)
    check_grads(lambda lib, x: lib.clamp_min(x, 1.0), [np.array([0.5, 1.0, 1.5])], torch)
    check_grads(lambda lib, x: lib.clamp_max(x, 1.0), [np.array([0.5, 1.0, 1.5])], torch)
    lo, hi = np.array([1.0, 1.0, 2.5, 0.0, 3.0]), np.array([2.0, 1.0, 2.0, 2.0, 3.0])
    for fn in (lambda lib, x, l, h: lib.clamp(x, l, h), lambda lib, x, l, h: lib.clamp(x, min=l),
               lambda lib, x, l, h: lib.clamp(x, max=h), lambda lib, x, l, h: lib.clamp_min(x, l),
               lambda lib, x, l, h: lib.clamp_max(x, h)):
        check_grads(fn, [np.array([0.5, 1.0, 2.2, 2.0, 3.0]), lo, hi], torch)


def test_ternary_gradients_match_torch(torch):
    a, b, w = (np.random.default_rng(s).uniform(0.5, 2, shape) for s, shape in ((0, (3, 4)), (1, (4,)), (2, (3, 1))))
    check_grads(lambda lib, x, y, z: lib.lerp(x, y, z), [a, b, w], torch)
    check_grads(lambda lib, x, y, z: lib.lerp(x, y, 0.7), [a, b, w], torch)
    check_grads(lambda lib, x, y, z: lib.addcmul(x, y, z, value=-1.5), [a, b, w], torch)
    check_grads(lambda lib, x, y, z: lib.addcdiv(x, y, z, value=0.5), [a, b, w], torch)
    x, y, z = (core.tensor(v, requires_grad=True) for v in (a, b, w))
    for op in (core.lerp, lambda p, q, r: core.addcmul(p, q, r, value=2), core.addcdiv):
        assert core.autograd.gradcheck(op, (x, y, z))


def test_binary_grad_fn_names_match_torch(torch):
    def names(lib):
        x = lib.tensor([0.5, 1.5], requires_grad=True) * 1
        y = lib.tensor([1.5, 0.5], requires_grad=True) * 1
        outs = [x ** 2, x ** y, 2 ** x, lib.clamp(x, 0, 1), lib.clamp(x, y, y), lib.clamp_min(x, 0.2),
                lib.clamp_min(x, y), lib.clamp_max(x, y), lib.maximum(x, y), lib.minimum(x, y), lib.fmax(x, y),
                x % y, x % 2, lib.fmod(x, y), lib.fmod(x, 2), lib.atan2(x, y), lib.hypot(x, y), lib.xlogy(x, y),
                lib.xlogy(x, 2), lib.xlogy(2, y), lib.logaddexp(x, y), lib.copysign(x, y), lib.copysign(x, -1),
                lib.lerp(x, y, 0.5), lib.lerp(x, y, x), lib.addcmul(x, x, y), lib.addcdiv(x, x, y),
                lib.div(x, y, rounding_mode="floor"), lib.float_power(x, y), lib.remainder(2.0, x),
                lib.clamp(x, min=0.2), lib.where(x > 1, x, 0.0), lib.masked_fill(x, x > 1, 0.0), lib.square(x)]
        return [type(o.grad_fn).__name__ for o in outs]

    assert names(core) == names(torch)


# ----- in-place forms --------------------------------------------------------------------------------------
INPLACE_UNARY = ["abs_", "absolute_", "neg_", "negative_", "exp_", "exp2_", "log_", "log2_", "log10_", "log1p_",
                 "expm1_", "sqrt_", "rsqrt_", "sin_", "cos_", "tan_", "asin_", "arcsin_", "acos_", "atan_", "sinh_",
                 "cosh_", "tanh_", "asinh_", "acosh_", "atanh_", "sigmoid_", "relu_", "sign_", "sgn_", "floor_",
                 "ceil_", "round_", "trunc_", "fix_", "frac_", "reciprocal_", "square_", "erf_", "erfc_", "erfinv_",
                 "lgamma_", "digamma_", "logit_", "sinc_", "deg2rad_", "rad2deg_", "nan_to_num_"]
INPLACE_BINARY = {
    "pow_": lambda x, y: x.pow_(y), "pow_scalar": lambda x, y: x.pow_(2), "clamp_": lambda x, y: x.clamp_(-0.5, 1.0),
    "clamp_tensor": lambda x, y: x.clamp_(y, y + 1), "clip_": lambda x, y: x.clip_(max=0.5),
    "clamp_min_": lambda x, y: x.clamp_min_(y), "clamp_max_": lambda x, y: x.clamp_max_(0.3),
    "remainder_": lambda x, y: x.remainder_(y), "fmod_": lambda x, y: x.fmod_(-1.5),
    "floor_divide_": lambda x, y: x.floor_divide_(y), "div_floor": lambda x, y: x.div_(y, rounding_mode="floor"),
    "div_trunc": lambda x, y: x.div_(y, rounding_mode="trunc"), "atan2_": lambda x, y: x.atan2_(y),
    "hypot_": lambda x, y: x.hypot_(y), "xlogy_": lambda x, y: x.xlogy_(y), "lerp_": lambda x, y: x.lerp_(y, 0.3),
    "lerp_tensor": lambda x, y: x.lerp_(y, y), "addcmul_": lambda x, y: x.addcmul_(y, y, value=2),
    "addcdiv_": lambda x, y: x.addcdiv_(y, y + 3), "copysign_": lambda x, y: x.copysign_(y),
    "imod": lambda x, y: x.__imod__(y), "ifloordiv": lambda x, y: x.__ifloordiv__(y),
    "ipow": lambda x, y: x.__ipow__(2),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "bool"])
@pytest.mark.parametrize("name", INPLACE_UNARY)
def test_inplace_unary_matches_torch_or_refuses_to_promote(name, dtype, torch):
    def fn(lib, x):
        y = x.clone()
        out = getattr(y, name)()
        assert out is y
        return y

    same_or_same_error(fn, [sample(dtype, (3, 4))], torch)
    same_or_same_error(lambda lib, x: getattr(x.t(), name)() and x, [sample(dtype, (3, 4))], torch)


@pytest.mark.parametrize("dtype", ["float32", "int64"])
@pytest.mark.parametrize("name", list(INPLACE_BINARY))
def test_inplace_binary_matches_torch_or_refuses_to_promote(name, dtype, torch):
    op = INPLACE_BINARY[name]
    same_or_same_error(lambda lib, x, y: op(x.clone(), y), [sample(dtype, (3, 4)), divisor(dtype, (4,))], torch)
    same_or_same_error(lambda lib, x, y: op(x.clone(), y.double()), [sample(dtype, (3, 4)), divisor(dtype, (4,))],
                       torch)


def test_inplace_ops_never_promote(torch):
    i = np.array([1, 2, 3])
    for fn in (lambda lib, x: x.exp_(), lambda lib, x: x.sqrt_(), lambda lib, x: x.pow_(0.5),
               lambda lib, x: x.clamp_(0.5),
               lambda lib, x: x.atan2_(x), lambda lib, x: x.add_(1.5), lambda lib, x: x.lerp_(x, 0.5),
               lambda lib, x: x.div_(2)):
        check_error(fn, [i], torch, match="can't be cast to the desired output type|not implemented")
    check_error(lambda lib, x: x.int().add_(1.5), [i], torch, match="result type Float can't be cast to the desired "
                                                                   "output type Int")


def test_inplace_op_on_a_leaf_that_requires_grad_raises_and_bumps_version_otherwise():
    x = core.tensor([0.5, 1.5], requires_grad=True)
    for op in (lambda t: t.exp_(), lambda t: t.clamp_(0, 1), lambda t: t.pow_(2), lambda t: t.lerp_(t.detach(), 0.5)):
        try:
            op(x)
        except RuntimeError as exc:
            assert "leaf Variable that requires grad" in str(exc)
        else:
            raise AssertionError("an in-place op on a leaf requiring grad must raise")
    y = core.tensor([0.5, 1.5])
    v = y._version
    y.sin_().clamp_(0, 0.6).pow_(2)
    assert y._version == v + 3
    with core.no_grad():
        x.relu_()
    assert x._version == 1


INPLACE_GRAD = {
    "relu_": lambda t, u: t.relu_(), "exp_": lambda t, u: t.exp_(), "sin_": lambda t, u: t.sin_(),
    "sqrt_": lambda t, u: t.sqrt_(), "tanh_": lambda t, u: t.tanh_(), "sigmoid_": lambda t, u: t.sigmoid_(),
    "clamp_": lambda t, u: t.clamp_(0.6, 1.5), "clamp_tensor": lambda t, u: t.clamp_(u, u + 0.5),
    "pow_": lambda t, u: t.pow_(u), "pow_scalar": lambda t, u: t.pow_(3), "lerp_": lambda t, u: t.lerp_(u, u),
    "addcmul_": lambda t, u: t.addcmul_(u, u * 2), "addcdiv_": lambda t, u: t.addcdiv_(u, u + 1),
    "remainder_": lambda t, u: t.remainder_(u), "atan2_": lambda t, u: t.atan2_(u), "hypot_": lambda t, u: t.hypot_(u),
    "reciprocal_": lambda t, u: t.reciprocal_(), "abs_": lambda t, u: t.abs_(), "square_": lambda t, u: t.square_(),
    "neg_": lambda t, u: t.neg_(), "erfinv_": lambda t, u: (t * 0.3).erfinv_(), "floor_": lambda t, u: t.floor_(),
}


@pytest.mark.parametrize("name", list(INPLACE_GRAD))
def test_inplace_op_on_a_non_leaf_and_on_a_view_keeps_gradients_right(name, torch):
    op = INPLACE_GRAD[name]
    a, b = np.random.default_rng(4).uniform(0.5, 2.0, (3, 4)), np.random.default_rng(5).uniform(0.5, 2.0, (4,))
    check_grads(lambda lib, x, y: op(x * 1, y), [a, b], torch)

    def through_view(lib, x, y):
        base = x * 1
        op(base[1], y)
        return base

    check_grads(through_view, [a, b], torch)


def test_inplace_grad_fn_names_match_torch(torch):
    def names(lib):
        x = lib.tensor([0.5, 1.5], requires_grad=True)
        outs = [(x * 1).exp_(), (x * 1).relu_(), (x * 1).clamp_(0, 1), (x * 1).pow_(2), (x * 1).pow_(x),
                (x * 1).lerp_(x, 0.5), (x * 1).addcmul_(x, x), (x * 1).div_(x, rounding_mode="floor")]
        return [type(o.grad_fn).__name__ for o in outs]

    assert names(core) == names(torch)


def test_saved_input_modified_in_place_is_detected():
    x = core.tensor([0.5, 1.5], requires_grad=True)
    y = x * 1
    z = y.sin()
    y.exp_()
    try:
        z.sum().backward()
    except RuntimeError as exc:
        assert "modified by an inplace operation" in str(exc)
    else:
        raise AssertionError("backward through a saved tensor changed in place must raise")


def test_floor_divide_and_heaviside_have_no_derivative_like_torch(torch):
    x = np.array([1.0, 2.5, -3.0])
    for fn in (lambda lib, t: (t.requires_grad_() // 1.5).sum().backward(),
               lambda lib, t: lib.heaviside(t.requires_grad_(), t.detach()).sum().backward()):
        check_error(fn, [x], torch, match="derivative for aten::")
    check_grads(lambda lib, t: lib.div(t, 1.5, rounding_mode="floor") + t, [x], torch)


def test_out_argument_writes_into_the_given_tensor(torch):
    x = np.array([0.5, 1.5, -2.0], dtype=np.float32)
    for fn in (lambda lib, t: lib.exp(t, out=lib.empty(3)), lambda lib, t: lib.clamp(t, 0, 1, out=lib.empty(3)),
               lambda lib, t: lib.pow(t, 2, out=lib.empty(3)),
               lambda lib, t: lib.lt(t, 1, out=lib.empty(3, dtype=lib.bool))):
        check(fn, [x], torch)


def test_clamp_and_inplace_forms_pass_gradcheck_in_float64():
    rng = np.random.default_rng(8)
    x = core.tensor(rng.uniform(-2, 2, (3, 4)), requires_grad=True)
    lo = core.tensor(rng.uniform(-1.5, -0.5, (4,)), requires_grad=True)
    hi = core.tensor(rng.uniform(0.5, 1.5, (3, 1)), requires_grad=True)
    for fn in (lambda a, b, c: core.clamp(a, b, c), lambda a, b, c: core.clamp_min(a, b) + core.clamp_max(a, c),
               lambda a, b, c: core.clamp(a, -0.7, 0.9) * b, lambda a, b, c: (a * 1).clamp_(b, c),
               lambda a, b, c: (a * 1).exp_().mul(b), lambda a, b, c: (a * 1).sin_().pow_(2) + c,
               lambda a, b, c: (a * 1).lerp_(b.expand(3, 4), 0.3), lambda a, b, c: (a * 1).addcmul_(b, c, value=0.5),
               lambda a, b, c: (a * 1).atan2_(b).tanh_(), lambda a, b, c: (a * 1).sigmoid_() + c.relu()):
        assert core.autograd.gradcheck(fn, (x, lo, hi))
    assert core.autograd.gradgradcheck(lambda a: (a * 1).sin_().pow_(2), (x,))


@settings(max_examples=25)
@given(st.lists(st.integers(-50, 50), min_size=1, max_size=8), st.integers(-7, 7).filter(lambda v: v != 0),
       st.sampled_from(["int64", "int32", "int8", "float32", "float64"]))
def test_floor_division_and_remainders_agree_with_torch_on_random_data(torch, vals, d, dtype):
    a = np.array(vals).astype(dtype)
    for fn in (lambda lib, t: t // d, lambda lib, t: t % d, lambda lib, t: lib.fmod(t, d),
               lambda lib, t: d // (t + 100),
               lambda lib, t: lib.div(t, d, rounding_mode="trunc"), lambda lib, t: (t // d) * d + t % d):
        check(fn, [a], torch)


def test_relu_backward_gives_zero_where_the_input_was_not_positive_even_for_inf_and_nan_gradients(torch):
    grad = np.array([np.inf, np.nan, 1.0, np.nan, -np.inf, 2.0], dtype=np.float32)
    grads = []
    for lib in (core, torch):
        x = lib.tensor([1.0, -1.0, 0.0, 2.0, -3.0, 0.5], requires_grad=True)
        lib.relu(x).backward(lib.tensor(grad))
        grads.append(np.asarray(x.grad.numpy()))
    np.testing.assert_array_equal(grads[0], grads[1])


def test_the_add_and_mul_operators_of_zero_dimensional_tensors_give_tensors_and_add_keeps_alpha(torch):
    for lib in (core, torch):
        a, b = lib.tensor(1.5), lib.tensor(2.0)
        assert (a + b).item() == 3.5 and (a * b).item() == 3.0
        assert a.__add__(b, alpha=2).item() == 5.5


BAD_BOUNDS = {  # neither overload of clamp takes a str (or a list): the parser's words, and why each refused both
    "method": lambda lib, x: x.clamp("a"), "keyword": lambda lib, x: x.clamp(min="a"),
    "max keyword": lambda lib, x: x.clamp(max="b"), "both": lambda lib, x: x.clamp("a", "b"),
    "str and int": lambda lib, x: x.clamp("a", 1), "None and str": lambda lib, x: x.clamp(None, "b"),
    "both keywords": lambda lib, x: x.clamp(min="a", max="b"), "str and keyword": lambda lib, x: x.clamp("a", max=1),
    "tensor and str": lambda lib, x: x.clamp(lib.tensor(0.5), "b"), "list": lambda lib, x: x.clamp([1]),
    "function": lambda lib, x: lib.clamp(x, "a", 1), "function's max": lambda lib, x: lib.clamp(x, 0, "b"),
    "clip": lambda lib, x: x.clip("a"), "clip function": lambda lib, x: lib.clip(x, "a", "b"),
    "in place": lambda lib, x: x.clamp_("a", "b"), "in place keyword": lambda lib, x: x.clamp_(min="a"),
    "clip_": lambda lib, x: x.clip_("a"), "tensor and number": lambda lib, x: x.clamp(lib.zeros(3), 1),
    "function's tensor and str": lambda lib, x: lib.clamp(x, lib.zeros(3), "a"),
    "function keyword": lambda lib, x: lib.clamp(x, min="a"),
    "function's max keyword": lambda lib, x: lib.clamp(x, max="a"),
    "input keyword": lambda lib, x: lib.clamp(input=x, min="a"), "clip keyword": lambda lib, x: lib.clip(x, min=[1]),
}


@pytest.mark.parametrize("call", BAD_BOUNDS.values(), ids=BAD_BOUNDS.keys())
def test_clamp_refuses_a_str_bound_in_torchs_words(torch, call):
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    theirs = raised(lambda: call(torch, torch.tensor(x)))
    assert theirs is not None and theirs[0] == "TypeError"
    assert raised(lambda: call(core, core.tensor(x))) == theirs


def test_clip_is_clamp_under_its_own_name(torch):
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    for lib in (core, torch):
        assert lib.clip.__name__ == "clip"
    assert_same(core.tensor(x).clip(-0.5, 0.5), torch.tensor(x).clip(-0.5, 0.5))
    assert_same(core.clip(core.tensor(x), max=0.2), torch.clip(torch.tensor(x), max=0.2))
    ours, theirs = core.tensor(x), torch.tensor(x)
    ours.clip_(min=0.0)
    theirs.clip_(min=0.0)
    assert_same(ours, theirs)
