"""Comparisons, logical/bitwise ops, classification, closeness, ``where`` and ``masked_fill`` against PyTorch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from tests.core.oracle import check, check_error, check_grads
from tests.core.test_math_ops import LAYOUTS, same_or_same_error, sample

DTYPES = ["float32", "float64", "int32", "int64", "bool", "float16"]
COMPARISONS = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal", "not_equal"]
LOGICAL = ["logical_and", "logical_or", "logical_xor"]
BITWISE = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"]


@pytest.mark.parametrize("dtype_a", DTYPES)
@pytest.mark.parametrize("name", COMPARISONS + LOGICAL + BITWISE)
def test_binary_comparison_matches_torch_over_dtype_pairs(name, dtype_a, torch):
    a = sample(dtype_a, (3, 4))
    for dtype_b in DTYPES:
        b = sample(dtype_b, (4,), seed=1)
        for layout in LAYOUTS.values():
            same_or_same_error(lambda lib, x, y, f=layout: getattr(lib, name)(f(x), y), [a, b], torch)
        same_or_same_error(lambda lib, x, y: getattr(lib, name)(x, y), [sample(dtype_a, ()), b], torch)
        same_or_same_error(lambda lib, x, y: getattr(lib, name)(x, y), [sample(dtype_a, (0, 4)), b], torch)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", COMPARISONS + LOGICAL + BITWISE)
def test_comparison_with_python_scalars_matches_torch(name, dtype, torch):
    for s in (2, -1, 0.5, True, 2.0, 0):
        same_or_same_error(lambda lib, x, s=s: getattr(lib, name)(x, s), [sample(dtype, (2, 3))], torch)
        same_or_same_error(lambda lib, x, s=s: getattr(x, name)(s), [sample(dtype, (2, 3))], torch)


def test_comparison_operators_and_scalar_wrapping_match_torch(torch):
    a, b = sample("int64", (3, 4)), sample("float32", (4,), 1)
    for fn in (lambda lib, x, y: x == y, lambda lib, x, y: x != y, lambda lib, x, y: x < y, lambda lib, x, y: x <= 2,
               lambda lib, x, y: x > 2.5, lambda lib, x, y: x >= y, lambda lib, x, y: 2 < x,
               lambda lib, x, y: x == 2 ** 40,
               lambda lib, x, y: (x > 0) & (x < 3), lambda lib, x, y: (x > 0) | (y > 0), lambda lib, x, y: ~(x > 0),
               lambda lib, x, y: x & 3, lambda lib, x, y: x | 8, lambda lib, x, y: x ^ x, lambda lib, x, y: ~x,
               lambda lib, x, y: 3 & x, lambda lib, x, y: lib.tensor([1], dtype=lib.uint8) < -1):
        check(fn, [a, b], torch)


@pytest.mark.parametrize("name", COMPARISONS + LOGICAL + ["bitwise_and", "bitwise_or", "bitwise_xor"])
def test_inplace_comparison_writes_in_self_dtype(name, torch):
    for dtype in ("float32", "int64", "bool"):
        for other in (sample("float32", (4,), 2), sample("int64", (4,), 2)):
            same_or_same_error(lambda lib, x, y: getattr(x.clone(), name + "_")(y), [sample(dtype, (3, 4)), other],
                               torch)
        same_or_same_error(lambda lib, x: getattr(x.clone(), name + "_")(2), [sample(dtype, (3, 4))], torch)


def test_logical_not_and_bitwise_not_match_torch(torch):
    for dtype in DTYPES:
        same_or_same_error(lambda lib, x: lib.logical_not(x), [sample(dtype, (3, 4))], torch)
        same_or_same_error(lambda lib, x: lib.bitwise_not(x.t()), [sample(dtype, (3, 4))], torch)
        same_or_same_error(lambda lib, x: x.clone().logical_not_(), [sample(dtype, (3, 4))], torch)
        same_or_same_error(lambda lib, x: x.clone().bitwise_not_(), [sample(dtype, (3, 4))], torch)
    check_error(lambda lib, x: ~x, [sample("float32", (2,))], torch, match="only implemented on integer and Boolean")
    check_error(lambda lib, x: x & x, [sample("float32", (2,))], torch, match="not implemented for 'Float'")


def test_shifts_beyond_the_width_and_negative_shifts_match_torch(torch):
    x = np.array([5, -7, 0, 1, -1])
    for s in (0, 1, 3, 31, 32, 63, 64, 70, -1):
        check(lambda lib, t, s=s: lib.bitwise_left_shift(t, s), [x], torch)
        check(lambda lib, t, s=s: lib.bitwise_right_shift(t, s), [x], torch)
        check(lambda lib, t, s=s: lib.bitwise_left_shift(t.int(), s), [x], torch)
        check(lambda lib, t, s=s: lib.bitwise_right_shift(t.int(), s), [x], torch)
    check(lambda lib, t: lib.bitwise_left_shift(2, t.abs()), [x], torch)
    check(lambda lib, t: t.clone().bitwise_left_shift_(2), [x], torch)


SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -2.0])


@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", "signbit"])
def test_float_classification_matches_torch(name, torch):
    for dtype in DTYPES:
        x = SPECIAL.astype(dtype) if dtype.startswith("float") else sample(dtype, (3, 4))
        check(lambda lib, t: getattr(lib, name)(t), [x], torch)
        check(lambda lib, t: getattr(t, name)(), [x], torch)
    check(lambda lib, t: getattr(lib, name)(t.t()), [sample("float32", (3, 4))], torch)


def test_isclose_allclose_and_equal_match_torch(torch):
    a = np.array([1.0, 1.0 + 1e-6, 1.0 + 1e-4, np.nan, np.inf, -np.inf, 0.0, 1e-9])
    b = np.array([1.0, 1.0, 1.0, np.nan, np.inf, np.inf, 1e-9, 0.0])
    for dtype in ("float32", "float64"):
        check(lambda lib, x, y: lib.isclose(x, y), [a.astype(dtype), b.astype(dtype)], torch)
        check(lambda lib, x, y: lib.isclose(x, y, equal_nan=True), [a.astype(dtype), b.astype(dtype)], torch)
        check(lambda lib, x, y: lib.isclose(x, y, rtol=0, atol=0), [a.astype(dtype), b.astype(dtype)], torch)
        check(lambda lib, x, y: lib.isclose(x, y, rtol=1e-3, atol=1e-2), [a.astype(dtype), b.astype(dtype)], torch)
        check(lambda lib, x, y: lib.allclose(x[:3], y[:3]), [a.astype(dtype), b.astype(dtype)], torch)
        check(lambda lib, x, y: lib.allclose(x, y, equal_nan=True), [a.astype(dtype), b.astype(dtype)], torch)
        check(lambda lib, x, y: x.allclose(x), [a.astype(dtype), b.astype(dtype)], torch)
    check(lambda lib, x: lib.isclose(x, x + 1, atol=1), [np.array([1, 2, 3])], torch)
    check(lambda lib, x: lib.isclose(x, x), [np.array([True, False])], torch)
    check_error(lambda lib, x: lib.isclose(x, x.double()), [a.astype(np.float32)], torch, match="did not match")
    for fn in (lambda lib, x: lib.equal(x, x.clone()), lambda lib, x: lib.equal(x, x.float()),
               lambda lib, x: lib.equal(x, x[:2]), lambda lib, x: lib.equal(x, x + 1), lambda lib, x: x.equal(x)):
        check(fn, [np.array([1, 2, 3])], torch)


def test_where_promotes_and_broadcasts_like_torch(torch):
    c = np.array([[True, False, True, False]])
    for fn in (lambda lib, m, x, y: lib.where(m, x, y), lambda lib, m, x, y: lib.where(m, x, 0.5),
               lambda lib, m, x, y: lib.where(m, 1.0, y), lambda lib, m, x, y: lib.where(m, 1, 0),
               lambda lib, m, x, y: lib.where(m, 1.0, 0), lambda lib, m, x, y: lib.where(m.t(), x.t(), 0),
               lambda lib, m, x, y: x.where(m, y),
               lambda lib, m, x, y: lib.where(m, x, lib.tensor(2.0, dtype=lib.float64))):
        for dx, dy in (("float32", "float64"), ("int64", "float32"), ("int32", "int64"), ("bool", "int32"),
                       ("float16", "bool")):
            check(fn, [c, sample(dx, (3, 4)), sample(dy, (4,), 1)], torch)
    check_error(lambda lib, m, x: lib.where(m.float(), x, x), [c, sample("float32", (3, 4))], torch,
                match="where expected condition to be a boolean tensor")
    check_error(lambda lib, m, x: lib.where(m, x, x[:2, :3]), [c, sample("float32", (3, 4))], torch)


def test_where_with_only_a_condition_is_nonzero_as_tuple(torch):
    c = np.array([[True, False], [False, True]])
    check(lambda lib, m: lib.where(m), [c], torch)


def test_where_and_masked_fill_gradients_match_torch(torch):
    m = np.array([[True, False, True, False]])
    a, b = np.random.default_rng(0).standard_normal((3, 4)), np.random.default_rng(1).standard_normal((4,))
    check_grads(lambda lib, x, y: lib.where(lib.tensor(m), x, y), [a, b], torch)
    check_grads(lambda lib, x, y: lib.where(lib.tensor(m), x, 0.0) * y, [a, b], torch)
    check_grads(lambda lib, x, y: lib.masked_fill(x, lib.tensor(m), 2.0), [a, b], torch)
    check_grads(lambda lib, x, y: lib.masked_fill(x, lib.tensor(m), y[0] * 3), [a, b], torch)
    check_grads(lambda lib, x, y: (x * 1).masked_fill_(lib.tensor(m), 2.0), [a, b], torch)
    check_grads(lambda lib, x, y: (x * 1).masked_fill_(lib.tensor(m), y.sum()), [a, b], torch)
    x, y = core.tensor(a, requires_grad=True), core.tensor(b, requires_grad=True)
    assert core.autograd.gradcheck(lambda p, q: core.where(p > 0, p, q), (x, y))
    assert core.autograd.gradgradcheck(lambda p, q: core.where(p > 0, p * p, q), (x, y))


def test_masked_fill_matches_torch_and_checks_its_mask_and_value(torch):
    m = np.array([[True, False, True, False]])
    for dtype in ("float32", "int64", "bool", "float16"):
        for fn in (lambda lib, x, k: lib.masked_fill(x, k, 2.5), lambda lib, x, k: x.masked_fill(k, -1),
                   lambda lib, x, k: x.masked_fill(k, lib.tensor(3.0)), lambda lib, x, k: x.clone().masked_fill_(k, 1),
                   lambda lib, x, k: x.t().masked_fill(k.t(), True), lambda lib, x, k: x[:1].masked_fill(k.t(), 7)):
            check(fn, [sample(dtype, (3, 4)), m], torch)
    x = sample("float32", (3, 4))
    check_error(lambda lib, t, k: t.masked_fill(k.float(), 1.0), [x, m], torch, match="only supports boolean masks")
    check_error(lambda lib, t, k: t.masked_fill(k, lib.tensor([1.0])), [x, m], torch,
                match="0-dimensional value tensor")
    check_error(lambda lib, t, k: t[:1].masked_fill_(k.t(), 1.0), [x, m], torch, match="doesn't match the broadcast")
    check_grads(lambda lib, t: t.masked_fill(t > 0, 0.0), [np.random.default_rng(2).standard_normal(5)], torch)


def test_comparisons_have_no_gradient_and_inplace_comparison_gives_zero_gradient(torch):
    x = core.tensor([0.5, -1.0], requires_grad=True)
    assert not (x > 0).requires_grad and (x > 0).grad_fn is None
    assert core.isnan(x).dtype is core.bool
    check_grads(lambda lib, t: (t * 1).gt_(0) * t, [np.array([0.5, -1.0, 2.0])], torch)


@settings(max_examples=25)
@given(st.lists(st.integers(1, 3), min_size=0, max_size=3), st.integers(0, 2**16), st.sampled_from(DTYPES))
def test_where_and_comparisons_broadcast_like_torch_on_random_shapes(torch, shape, seed, dtype):
    rng = np.random.default_rng(seed)
    other = [1 if rng.random() < 0.4 else s for s in shape][int(rng.integers(0, len(shape) + 1)):]
    cond = np.asarray(rng.random(shape) > 0.5)
    a, b = sample(dtype, tuple(shape), seed), sample("float32", tuple(other), seed + 1)
    check(lambda lib, c, x, y: lib.where(c, x, y), [cond, a, b], torch)
    check(lambda lib, c, x, y: (x >= y) | c, [cond, a, b], torch)


def test_equality_with_non_numbers_is_false_but_eq_raises_like_torch(torch):
    x = np.array([1, 2])
    for fn in (lambda lib, t: t == None, lambda lib, t: t != None, lambda lib, t: t == "a"):  # noqa: E711
        check(fn, [x], torch)
    check_error(lambda lib, t: lib.eq(t, None), [x], torch)
    check_error(lambda lib, t: t < None, [x], torch)
