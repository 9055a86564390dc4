"""Dtype promotion against PyTorch beyond ``test_promotion``'s arithmetic: every pair of the twelve everyday dtypes
(bfloat16 and complex included) through comparisons, ``where``, ``cat``, ``maximum``, ``atan2``, ``pow``, bitwise ops
and the in-place forms that must refuse a cast; Python numbers (bool, int, float, complex) on both sides; the
dtypes reductions and conversions give. Each line runs in core and in torch (tests/core/differential.py)."""

from __future__ import annotations

import itertools

import pytest

from tests.core.differential import lines, same_call

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
REAL = DTYPES[:-2]

# a is a 1-d tensor of dtype {a}, b of dtype {b}; z a 0-d tensor of dtype {b}
PAIR_OPS = {
    "add": "a + b", "mul_zero_d": "a * z", "div": "a / b", "eq": "a == b", "lt_zero_d": "a < z",
    "where": "torch.where(torch.tensor([True, False]), a, b)", "cat": "torch.cat([a, b])",
    "result_type": "torch.result_type(a, z)", "promote_types": "torch.promote_types(a.dtype, b.dtype)",
    "can_cast": "torch.can_cast(a.dtype, b.dtype)", "add_": "a.add_(b)", "mul_": "a.mul_(z)", "div_": "a.div_(b)",
    "copy_": "a.copy_(b)", "pow": "a ** b", "and": "a & b", "maximum": "torch.maximum(a, b)",
    "atan2": "torch.atan2(a, b)", "floordiv": "a // b", "addcmul": "torch.addcmul(a, b, b, value=2)",
    "addcdiv": "torch.addcdiv(a, b, b + 1, value=0.5)",
}


@pytest.mark.parametrize("op", list(PAIR_OPS))
def test_every_dtype_pair_promotes_like_torch(op, torch):
    for a, b in itertools.product(DTYPES, DTYPES):
        if a == "float16" and b.startswith("complex") and op in ("mul_zero_d", "mul_"):
            continue  # torch's answer is complex32 (float16 parts), which NumPy, so core, cannot store
        same_call(torch, f"(lambda a, b, z: {PAIR_OPS[op]})(torch.tensor([3, 1], dtype=torch.{a}), "
                         f"torch.tensor([2, 1], dtype=torch.{b}), torch.tensor(2, dtype=torch.{b}))")


SCALARS = ["2", "-3", "2.5", "True", "(1+2j)", "0"]
# t is a 1-d tensor of dtype {d}, s a Python number
SCALAR_OPS = ["t + s", "s * t", "t / s", "s - t", "t ** s", "s ** t", "t > s", "t.add_(s)", "t.mul_(s)",
              "torch.where(torch.tensor([True, False]), t, s)", "torch.where(torch.tensor([True, False]), s, t)",
              "torch.full((2,), s, dtype=t.dtype)", "t.fill_(s)", "torch.clamp(t, min=s)"]


@pytest.mark.parametrize("op", SCALAR_OPS)
def test_python_numbers_promote_like_torch(op, torch):
    for d, s in itertools.product(REAL + ["complex64"], SCALARS):
        if d == "float16" and s == "(1+2j)":  # torch's answer is complex32 (ComplexHalf), which core cannot store
            continue
        if d == "bool" and op in ("s - t",):
            continue
        if s == "(1+2j)" and op == "torch.clamp(t, min=s)":  # torch casts the number to the result type first
            continue
        same_call(torch, f"(lambda t, s: {op})(torch.tensor([3, 1], dtype=torch.{d}), {s})")


UNARY = lines("""
t.sum()
t.prod()
t.mean()
t.cumsum(0)
t.cumprod(0)
t.sqrt()
t.abs()
-t
t.sign()
t.exp()
t.sigmoid()
t.floor()
t.round()
t.reciprocal()
t.square()
t.angle()
t.std()
t.norm()
t.max()
t.argmax()
t.all()
t.any()
~t
t.sum(dtype=torch.float32)
t.prod(dtype=torch.int32)
t.prod(0, dtype=torch.int16)
t.cumsum(0, dtype=torch.float64)
t.mean(dtype=torch.float64)
t.float()
t.long()
t.half()
t.bool()
t.type()
t.type(torch.int32)
t.type('torch.DoubleTensor')
t.to(torch.float64)
t.to('cpu', torch.int8)
t.to(torch.ones(1, dtype=torch.float16))
t.to(dtype=torch.int16, copy=True)
t[0].item()
t.tolist()
t.is_floating_point()
t.is_complex()
t.is_signed()
t.element_size()
t.dtype.to_real()
""")


@pytest.mark.parametrize("code", UNARY)
def test_unary_results_and_conversions_have_torchs_dtype(code, torch):
    for d in DTYPES:
        same_call(torch, f"(lambda t: {code})(torch.tensor([3, 1], dtype=torch.{d}))")


SPECIAL = lines("""
# a complex tensor cast to bool is nonzero in either part
torch.tensor([1j, 0, 1]).to(torch.bool)
torch.tensor([1j, 0], dtype=torch.complex128).bool()
torch.tensor([[1j, 0]]).t().type(torch.bool)
torch.ones(2, dtype=torch.float16).copy_(2+1j)
torch.ones(2, dtype=torch.int32).copy_(2.5+1j)
torch.zeros(2, dtype=torch.bool).copy_(torch.tensor([1j, 0]))
torch.ones(2).copy_(torch.tensor([1j, 2+1j]))
# add/sub's alpha must fit the result dtype (torch's alpha_check)
torch.sub(torch.tensor([1]), torch.tensor([1]), alpha=0.5)
torch.add(torch.tensor([1]), 2, alpha=0.5)
torch.tensor([1]).add_(1, alpha=1.5)
torch.add(torch.tensor([True]), True, alpha=0.5)
torch.add(torch.tensor([1]), 2.5, alpha=0.5)
torch.add(torch.tensor([1.]), 2, alpha=True)
torch.add(torch.tensor([True]), True, alpha=True)
torch.add(torch.tensor([1.]), 2, alpha=1j)
torch.add(torch.tensor([1j]), 2, alpha=1j)
torch.add(torch.tensor([1]), torch.tensor([2]), alpha=1.0)
torch.add(torch.tensor([1]), torch.tensor([2]), alpha=torch.tensor(2))
torch.tensor([1.]).sub_(torch.tensor([2.]), alpha=0.5)
torch.tensor([1., 2.], dtype=torch.float16).addcmul(torch.tensor([1.5, 2.]), torch.tensor([3., 7.]), value=0.5)
torch.tensor([1., 2.], dtype=torch.bfloat16).addcdiv(torch.tensor([1.5, 2.]), torch.tensor([3., 7.]))
torch.tensor([1., 2.], dtype=torch.float16).addcmul_(torch.tensor([1.5, 2.]), torch.tensor([3., 7.]))
torch.addcmul(torch.tensor([1., 2.]), torch.tensor([1.5, 2.], dtype=torch.float16), torch.tensor([3., 7.]))
torch.tensor([200, 200], dtype=torch.uint8).prod(dtype=torch.uint8)
torch.tensor([[1, 2], [3, 4]], dtype=torch.int32).prod(1, dtype=torch.int16)
torch.tensor([2+0j, 1]) ** -2
torch.tensor([2+0j, 1]).pow(-1)
torch.tensor([2, 1]) ** -1
torch.tensor([2, 1]) ** -1.5
# an exponent that does not fit an integer or half tensor's type is c10's overflow error (float keeps a double)
torch.ones(2, dtype=torch.uint8) ** 300
torch.ones(2, dtype=torch.int32) ** 2**40
torch.ones(2, dtype=torch.int64) ** 2**63
torch.ones(2, dtype=torch.float16) ** 70000.
torch.ones(2, dtype=torch.bfloat16).pow(1e300)
torch.ones(2, dtype=torch.float16).pow_(2**40)
torch.ones(2, dtype=torch.float32) ** 1e300
torch.tensor([-1, 3, 0], dtype=torch.int8).angle()
torch.tensor([1, 0], dtype=torch.uint8).angle()
torch.ones(2, dtype=torch.bfloat16) + 1j
torch.result_type(torch.ones(2, dtype=torch.bfloat16), 1j)
torch.bfloat16.to_complex()
torch.float16.to_complex()
torch.int64.to_complex()
~torch.ones(2, dtype=torch.bfloat16)
~torch.ones(2, dtype=torch.complex64)
torch.ones(2, dtype=torch.int32).add_(1.5)
torch.ones(2, dtype=torch.int32).add_(torch.tensor(1.5))
torch.ones(2, dtype=torch.bool).add_(2)
torch.ones(2).add_(1j)
torch.ones(2, dtype=torch.int64).div_(2)
torch.ones(2, dtype=torch.int64).div_(2, rounding_mode='floor')
torch.ones(2, dtype=torch.float16).mul_(torch.ones(2, dtype=torch.float64))
torch.addcdiv(torch.tensor([3., 1.]), torch.tensor([2+0j, 1]), torch.tensor([3+0j, 2]), value=0.5)
torch.addcmul(torch.tensor([True]), torch.tensor([True]), torch.tensor([True]))
torch.tensor([True]).addcmul_(torch.tensor([True]), torch.tensor([True]))
torch.addcdiv(torch.tensor([1.]), torch.tensor([1]), torch.tensor([2]))
# bfloat16 to an integer type converts through float (-1 wraps to 255), as float32 does
torch.tensor([-1., -3.7, 256., 300.5, -0.5, 70000.], dtype=torch.bfloat16).byte()
torch.tensor([-1., -3.7, 256., 300.5, -0.5, 70000.], dtype=torch.bfloat16).to(torch.int8)
torch.tensor([-1., -3.7, 256., 300.5, -0.5, 70000.], dtype=torch.bfloat16).short()
torch.zeros(6, dtype=torch.uint8).copy_(torch.tensor([-1., -3.7, 256., 300.5, -0.5, 70000.], dtype=torch.bfloat16))
# clamp: a 0-d tensor bound beside a number is a number (torch's parser); bool has no clamp kernel
torch.ones(2).clamp(torch.tensor(0.), 0.5)
torch.ones(2).clamp_(torch.tensor(0.), 0.5)
torch.ones(2, dtype=torch.int64).clamp(torch.tensor(0.5), 1)
torch.ones(2).clamp(torch.tensor([0., 2.]), 1.5)
torch.tensor([True, False]).clamp(0, 1)
torch.tensor([True, False]).clamp(min=True)
torch.tensor([True, False]).clamp(max=True)
torch.tensor([True, False]).clamp(True, True)
torch.tensor([True, False]).clamp(torch.tensor(True))
torch.tensor([True, False]).clamp(torch.tensor(True), torch.tensor(True))
torch.tensor([True, False]).clamp_(True)
torch.clamp_max(torch.tensor([True, False]), True)
""")


@pytest.mark.parametrize("code", SPECIAL)
def test_mixed_precision_corner_matches_torch(code, torch):
    same_call(torch, code)
