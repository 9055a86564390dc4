"""Comparisons, logical and pairwise functions against PyTorch, call by call, over bool, integer, half, float and
double tensors and Python numbers: eq/lt/.../logical_*/bitwise_*, isclose/allclose/equal, clamp with number and
tensor bounds, where with numbers, gcd/lcm/hypot/nextafter/dist/heaviside (which take tensors only: a number is
torch's TypeError), and the activations' dtype errors. Each line runs in core and in torch
(tests/core/differential.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.differential import lines, same_call

DTYPES = ["bool", "uint8", "int8", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
OTHERS = ["torch.tensor([1, 2, 1])", "torch.tensor([0.5, 2., -1.])", "2", "1.5", "torch.tensor(2.)",
          "torch.tensor([True, False, True])"]
BINARY = ["eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
          "bitwise_xor", "bitwise_left_shift", "fmod", "remainder", "true_divide", "floor_divide", "fmax", "fmin",
          "hypot", "copysign", "nextafter", "xlogy", "ldexp", "float_power", "isclose", "allclose", "equal", "dist",
          "dot", "mul", "sub", "rsub", "heaviside", "gcd", "lcm", "clamp", "clip", "clamp_min", "clamp_max",
          "maximum", "minimum", "atan2", "logaddexp"]
# NOTE: ldexp's exponent as a bool tensor is left out: torch refuses it ("ldexp_cpu_exp"), core computes 2**bool;
# dot of two bool tensors too (torch has no bool dot kernel)
_LEFT_OUT = {("ldexp", "torch.tensor([True, False, True])"), ("dot", "bool")}


def _source(dtype: str) -> str:
    values = "[0, 1, 2]" if dtype not in ("bool", "uint8") else "[1, 0, 1]"
    return f"torch.tensor({values}, dtype=torch.{dtype})"


@pytest.mark.parametrize("op", BINARY)
def test_binary_functions_take_operands_as_torch(op, torch):
    for dtype in DTYPES:
        src = _source(dtype)
        for other in OTHERS:
            if (op, other) in _LEFT_OUT or (op == "dot" and dtype == "bool" and "True" in other):
                continue
            same_call(torch, f"torch.{op}({src}, {other})")
            same_call(torch, f"torch.{op}({other}, {src})")  # (a number first: only a few take it, as torch's parser)
        same_call(torch, f"torch.{op}(2, 3)")


ACTIVATIONS = ["relu", "gelu", "silu", "softplus", "elu", "selu", "celu", "leaky_relu", "hardtanh", "relu6", "sigmoid",
               "tanh", "logsigmoid", "mish", "hardswish", "hardsigmoid", "softsign", "tanhshrink", "softshrink",
               "hardshrink", "glu", "softmax", "log_softmax", "prelu", "threshold"]
_ACTIVATION_ARGS = {"prelu": ", torch.tensor([0.25])", "threshold": ", 0.5, 0.", "softmax": ", 0", "log_softmax": ", 0"}


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activations_refuse_the_dtypes_torch_refuses(name, torch):
    for x in ["torch.tensor([True, False])", "torch.tensor([1, -2])", "torch.tensor([1., -2.])",
              "torch.tensor([1., -2.], dtype=torch.float16)", "torch.tensor([1., -2.], dtype=torch.bfloat16)",
              "torch.tensor([1., -2.], dtype=torch.float64)"]:
        same_call(torch, f"torch.nn.functional.{name}({x}{_ACTIVATION_ARGS.get(name, '')})")


SPECIAL = lines("""
torch.tensor([1., float('nan')]) == torch.tensor([1., float('nan')])
torch.tensor([1., float('nan')]) != float('nan')
torch.tensor([1, 2]) < torch.tensor([[1], [3]])
torch.tensor([1, 2]) == torch.tensor([1, 2, 3])
torch.tensor([True]) > torch.tensor([False])
torch.tensor([1 + 1j]) == 1 + 1j
torch.tensor([1 + 1j]) < 1
torch.isclose(torch.tensor([1., float('nan')]), torch.tensor([1., float('nan')]), equal_nan=True)
torch.isclose(torch.tensor([1.]), torch.tensor([1], dtype=torch.int64))
torch.isclose(torch.tensor([1.]), torch.tensor([1.1]), rtol=-1)
torch.allclose(torch.tensor([1., 2.]), torch.tensor([1., 2.0000001]))
torch.equal(torch.tensor([1, 2]), torch.tensor([1., 2.]))
torch.equal(torch.tensor([1, 2]), torch.tensor([1, 2, 3]))
torch.tensor([1., 2.]).equal(torch.tensor([1., 2.]))
torch.logical_not(torch.tensor([0., 2.]))
torch.tensor([0, 3]).logical_and(torch.tensor([True, True]))
torch.tensor([True, False]) & True
torch.tensor([True, False]) | torch.tensor([1, 0])
torch.tensor([5, 3]) ^ 1
torch.tensor([5, 3]) << 1
torch.tensor([-5, 3]) >> 1
torch.tensor([1., 2.]) & 1
~torch.tensor([True, False])
~torch.tensor([5], dtype=torch.uint8)
# clamp: bounds as numbers, tensors (broadcast), a 0-d tensor beside a number; min above max
torch.clamp(torch.tensor([0.5, 3.]), torch.tensor([1., 1.]), torch.tensor(2.))
torch.clamp(torch.tensor([0.5, 3.]), torch.tensor(1), 2.5)
torch.clamp(torch.tensor([1, 5]), 2.5)
torch.clamp(torch.tensor([1, 5]), max=torch.tensor([2.5, 3.5]))
torch.clamp(torch.tensor([1., 5.]), min=3, max=2)
torch.clamp(torch.tensor([1., 5.]), min=torch.tensor([3., 3.]), max=torch.tensor([2., 2.]))
torch.clamp(torch.tensor([1., 5.]))
torch.clamp(torch.tensor([1., float('nan')]), 0, 2)
torch.clamp(torch.tensor([[1., 5.]]), torch.tensor([[0.], [2.]]))
torch.tensor([1., 5.]).clamp_(torch.tensor([2., 2.]), torch.tensor([4., 4.]))
torch.tensor([1, 5]).clamp_(0.5, 4.5)
torch.tensor([1., 5.]).clip(min=2)
torch.clamp(torch.ones(2), min=1e300)
torch.clamp(torch.ones(2, dtype=torch.int8), max=300)
torch.clamp(torch.ones(2, dtype=torch.int8), min=0.5)
torch.clamp(torch.ones(2, dtype=torch.float16), max=70000.)
torch.clamp(torch.ones(2, dtype=torch.uint8), min=-1)
torch.ones(2, dtype=torch.int32).clamp_(-1, 2**40)
torch.clamp(torch.ones(2), min=float('inf'))
# where with numbers and tensors of every tier
torch.where(torch.tensor([True, False]), 1.5, 2)
torch.where(torch.tensor([True, False]), 1, 2)
torch.where(torch.tensor([True, False]), True, False)
torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), 0.5)
torch.where(torch.tensor([True, False]), torch.tensor([1., 2.], dtype=torch.float16), 0.5)
torch.where(torch.tensor([True, False]), torch.tensor(1.5, dtype=torch.float64), torch.tensor([1, 2]))
torch.where(torch.tensor([True, False]), torch.tensor([1, 2], dtype=torch.int8), torch.tensor([1, 2]))
torch.where(torch.tensor([1, 0]), 1., 0.)
torch.where(torch.tensor([[True], [False]]), torch.tensor([1., 2.]), torch.tensor(0.))
torch.tensor([1., 2.]).where(torch.tensor([True, False]), 0.)
torch.where(torch.tensor([True, False]), torch.tensor([1., 2.]), torch.tensor([1., 2., 3.]))
torch.where(torch.tensor([True, False]), torch.ones(2), 1e300)
torch.where(torch.tensor([True, False]), 2**40, torch.ones(2, dtype=torch.int8))
torch.where(torch.tensor([True, False]), torch.ones(2, dtype=torch.float16), 1e300)
torch.where(torch.tensor([True, False]), torch.ones(2, dtype=torch.complex64), 1e300)
torch.where(torch.tensor([True, False]), torch.ones(2, dtype=torch.int64), 2**70)
torch.where(torch.tensor([True, False]), torch.ones(2, dtype=torch.uint8), 2**63)
torch.where(torch.tensor([True, False]), 1e300, 2)
# pairwise functions that take tensors only, and their in-place forms' casts
torch.nextafter(torch.tensor([0, 1]), torch.tensor([1., 2.]))
torch.tensor([0, 1]).nextafter_(torch.tensor([1., 2.]))
torch.tensor([0., 1.]).nextafter_(torch.tensor([1., 2.], dtype=torch.float64))
torch.gcd(torch.tensor([True, False]), torch.tensor([4, 6]))
torch.gcd(torch.tensor([True, False]), torch.tensor([True, True]))
torch.lcm(torch.tensor([4, 6], dtype=torch.int32), torch.tensor([6, 4]))
torch.gcd(torch.tensor([4, 6]), torch.tensor([2., 3.]))
torch.tensor([4, 6]).gcd_(torch.tensor([4, 4], dtype=torch.int8))
torch.dist(torch.tensor([0, 1, 2], dtype=torch.bfloat16), torch.tensor([1, 2, 1]))
torch.dist(torch.tensor([1., 2.]), torch.tensor([True, False]))
torch.dist(torch.tensor([1., 2.]), torch.tensor([1., 2., 3.]))
torch.zeros(3).index_reduce_(0, torch.tensor([0.]), torch.ones(1), 'prod')
torch.tensor([1., 2.]).atan2_(1.5)
torch.tensor([1., 2.]).hypot_(2)
torch.tensor([1., 2.]).heaviside_(0.5)
torch.tensor([1, 2]).add_(1.5)
torch.tensor([1, 2]).mul_(torch.tensor([1.5, 2.5]))
torch.tensor([1, 2], dtype=torch.int32).div_(torch.tensor(2.5))
torch.tensor([1, 2], dtype=torch.uint8).sub_(-1)
torch.tensor([1., 2.], dtype=torch.float16).add_(torch.tensor([1., 2.], dtype=torch.float64))
torch.tensor([True, False]).add_(torch.tensor([2, 3]))
torch.tensor([1., 2.]).add_(torch.tensor([1+1j, 2]))
torch.i0(torch.tensor([0, 1, 2, -3.5], dtype=torch.bfloat16))
torch.special.i1(torch.tensor([0, 1, 2, -3.5], dtype=torch.bfloat16))
""")

# complex tensors: the ops that need an order or integers refuse them with torch's types; float()/int() take a
# real part only when the imaginary one is 0; logsumexp keeps them complex
COMPLEX_OPS = ["torch.floor_divide(a, b)", "torch.remainder(a, b)", "torch.fmod(a, b)", "torch.bitwise_and(a, b)",
               "a // b", "a % b", "a & b", "a | b", "a ^ b", "a << b", "torch.maximum(a, b)", "torch.minimum(a, b)",
               "torch.fmax(a, b)", "torch.atan2(a, b)", "torch.max(a, b)", "a.median()", "a.median(0)", "a.cummax(0)",
               "a.cummin(0)", "a.unique()", "a.unique(dim=0)", "torch.unique_consecutive(a)", "a.kthvalue(1)",
               "a.mode()", "torch.div(a, b, rounding_mode='trunc')", "a.remainder_(b)", "2 // a", "a.logsumexp(0)",
               "float(a[0])", "int(a[0])", "float(a[1])", "complex(a[0])", "a.sort()", "a.argmax()", "a.max()"]


@pytest.mark.parametrize("op", COMPLEX_OPS)
def test_complex_operands_are_refused_or_kept_as_torch(op, torch):
    z, r = "torch.tensor([1+1j, 2])", "torch.tensor([1, 2])"
    for a, b in [(z, r), (r, z), (z, "torch.tensor([3+1j, 2])"), (z, "2")]:
        if op in ("torch.atan2(a, b)", "torch.max(a, b)") and b == "2":
            continue  # (torch checks the number (a dim, for max) first, core the complex tensor: both raise)
        same_call(torch, f"(lambda a, b: {op})({a}, {b})")


LERP_DTYPES = ["bool", "int64", "float32", "float64", "float16", "bfloat16", "complex64"]


@pytest.mark.parametrize("start", LERP_DTYPES)
def test_lerp_checks_its_arguments_in_torchs_order(start, torch):
    """``end`` must be a tensor, then of ``start``'s dtype (as a tensor ``weight``), then a floating kernel."""
    s = f"torch.tensor([0, 1, 2], dtype=torch.{start})"
    for other in LERP_DTYPES:
        e = f"torch.tensor([1, 2, 5], dtype=torch.{other})"
        same_call(torch, f"torch.lerp({s}, {e}, 0.25)")
        same_call(torch, f"torch.lerp({s}, {s} + 1, torch.tensor([0.5, 0.25, 1], dtype=torch.{other}))")
        same_call(torch, f"{s}.lerp_({e}, 0.25)")
    same_call(torch, f"torch.lerp({s}, 2, 0.5)")
    same_call(torch, f"{s}.lerp(1.5, torch.tensor(0.5))")


PRODUCTS = lines("""
torch.dot(torch.tensor([True, False]), torch.tensor([True, False]))
torch.vdot(torch.tensor([True, False]), torch.tensor([True, False]))
torch.tensor([True, False]) @ torch.tensor([True, False])
torch.mv(torch.ones(2, 2, dtype=torch.bool), torch.tensor([True, False]))
torch.ones(2, 2, dtype=torch.bool) @ torch.ones(2, 2, dtype=torch.bool)
torch.bmm(torch.ones(1, 2, 2, dtype=torch.bool), torch.ones(1, 2, 2, dtype=torch.bool))
torch.outer(torch.tensor([True, False]), torch.tensor([True, False]))
torch.tensor([1, 2]) @ torch.tensor([3, 4])
torch.dot(torch.tensor([1, 2]), torch.tensor([3., 4.]))
""")


@pytest.mark.parametrize("code", PRODUCTS)
def test_products_of_bool_and_integer_tensors_match_torch(code, torch):
    same_call(torch, code)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", ["logaddexp", "logaddexp2", "hypot", "atan2", "xlogy", "fmod", "remainder"])
def test_half_precision_pairwise_ops_round_once_as_torch(op, dtype, torch):
    """PyTorch's half kernels compute in float32 and round once (logaddexp rounded each NumPy float16 step)."""
    a = np.random.default_rng(0).uniform(-4, 4, 500).astype(np.float32)
    b = np.random.default_rng(1).uniform(0.1, 4, 500).astype(np.float32)
    same_call(torch, f"torch.{op}(torch.tensor(a).to(torch.{dtype}), torch.tensor(b).to(torch.{dtype})).float()",
              names={"a": a, "b": b}, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("eps", ["None", "0.1", "0.6"])
def test_half_precision_logit_rounds_between_steps_as_torch(eps, dtype, torch):
    """PyTorch's half logit rounds eps, ``1 - x`` and the ratio to the half type (the log in float32)."""
    a = np.abs(np.random.default_rng(0).uniform(-1, 1, 500)).astype(np.float32)
    same_call(torch, f"torch.logit(torch.tensor(a).to(torch.{dtype}), {eps}).float()", names={"a": a}, rtol=0, atol=0)
    same_call(torch, f"torch.tensor(a).to(torch.{dtype}).logit_({eps}).float()", names={"a": a}, rtol=0, atol=0)


def test_complex_logsumexp_matches_torch_with_its_gradient(torch):
    z = "torch.tensor([[1+1j, 2, -1j], [0.5, 3+2j, 1]], requires_grad=True)"
    same_call(torch, f"(lambda z: (z.logsumexp(1).abs().sum().backward(), z.grad)[1])({z})")
    same_call(torch, "torch.tensor([-float('inf')+0j, -float('inf')]).logsumexp(0)")
    same_call(torch, "torch.tensor([1000+1j, 999], dtype=torch.complex128).logsumexp(0, keepdim=True)")


@pytest.mark.parametrize("code", SPECIAL)
def test_comparison_and_clamp_corner_matches_torch(code, torch):
    same_call(torch, code)


# PyTorch's parser lets a Python number stand in for the input tensor of add/sub/mul/div/floor_divide/true_divide
# (and pow's, remainder's, xlogy's Number self overloads) only: the others raise its TypeError
NUMBER_FIRST = lines("""
torch.max(0, torch.tensor([1., -2.]))
torch.min(0., torch.tensor([1., -2.]))
torch.max([1, 2])
torch.max(torch.tensor([[1., 5.]]), 1)
torch.kron(2, torch.ones(2))
torch.cross(torch.ones(3), 2)
torch.polar(2., torch.ones(2))
torch.igamma(2., torch.ones(2))
torch.clamp(2, max=torch.ones(2))
torch.clamp(2)
torch.add(2, torch.ones(2))
torch.mul(2.5, torch.ones(2))
torch.div(2, torch.ones(2))
torch.sub(True, torch.ones(2))
torch.floor_divide(2, torch.ones(2))
torch.true_divide(2, torch.ones(2))
torch.pow(2, torch.ones(2))
torch.remainder(2, torch.ones(2))
torch.addcmul(torch.ones(1), 2., torch.ones(1))
torch.addcdiv(2., torch.ones(1), torch.ones(1))
torch.ones(1).addcmul_(2., 3.)
torch.ones(1).addcdiv_(torch.ones(1), 3)
""")


@pytest.mark.parametrize("code", NUMBER_FIRST)
def test_a_number_as_input_is_taken_or_refused_as_torch(code, torch):
    same_call(torch, code)


# complex tensors have no order and no sign: copysign, clamp_ (also with tensor bounds) and nansum refuse them
COMPLEX_REFUSED = lines("""
torch.copysign(torch.tensor([1.]), 1j)
torch.copysign(torch.tensor([1j]), 1.)
torch.tensor([1j]).copysign_(1.)
torch.tensor([1j]).clamp_(0., 1.)
torch.tensor([1j]).clamp_(min=torch.tensor([0.]))
torch.tensor([1j, 2]).nansum()
torch.tensor([1j, 2]).nansum(0)
torch.heaviside(torch.tensor([1.]), torch.tensor([1j]))
torch.tensor([1.]).heaviside_(torch.tensor([1j]))
torch.xlogy(torch.tensor([1j]), 2.)
torch.xlogy(torch.tensor([1.]), 1j)
torch.tensor([1.]).xlogy_(1j)
torch.tensor([1j]).xlogy_(1.)
""")


@pytest.mark.cpu_only  # (nansum's message names the CPU; CUDA's kernel takes complex)
@pytest.mark.parametrize("code", COMPLEX_REFUSED)
def test_ops_without_complex_kernels_refuse_complex_as_torch(code, torch):
    same_call(torch, code)


# float_power computes in complex128 when either operand is complex (it kept only the real part)
FLOAT_POWER_COMPLEX = lines("""
torch.float_power(torch.tensor([1., 2.]), 1j)
torch.float_power(torch.tensor([1., 2.]), torch.tensor([1j]))
torch.float_power(2, torch.tensor([1j, 2.]))
torch.float_power(torch.tensor([1j]), 2)
torch.tensor([1j], dtype=torch.complex128).float_power_(2)
torch.tensor([1.], dtype=torch.float64).float_power_(1j)
torch.tensor([1j]).float_power_(2)
""")


@pytest.mark.parametrize("code", FLOAT_POWER_COMPLEX)
def test_float_power_of_complex_operands_is_complex128_as_torch(code, torch):
    same_call(torch, code)


# masked_fill's number must fit the tensor's dtype, as fill_'s: an attention mask's -1e9 in float16 is torch's error
MASKED_FILL_NUMBERS = lines("""
torch.ones(2, dtype=torch.float16).masked_fill(torch.tensor([True, False]), -1e9)
torch.ones(2, dtype=torch.float16).masked_fill(torch.tensor([True, False]), float('-inf'))
torch.ones(2, dtype=torch.uint8).masked_fill(torch.tensor([True, False]), 300)
torch.ones(2, dtype=torch.uint8).masked_fill(torch.tensor([True, False]), -1)
torch.ones(2, dtype=torch.int32).masked_fill(torch.tensor([True, False]), float('nan'))
torch.ones(2).masked_fill(torch.tensor([True, False]), 1j)
torch.ones(2).masked_fill_(torch.tensor([True, False]), 1e300)
""")


@pytest.mark.parametrize("code", MASKED_FILL_NUMBERS)
def test_masked_fill_checks_its_number_as_torch(code, torch):
    same_call(torch, code)
