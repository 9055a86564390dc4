"""``core._arange_values.fma``: float64 ``a * b + c`` rounded once (what every float64 fma NumPy lacks goes through:
``core._fused.fma``, SLEEF's ports where no fused daxpy applies), checked against the exact sum rounded by Python's
fractions (``math.fma`` needs Python 3.13).

Dekker's product and TwoSum rounded twice in two cases: where ``s + t`` fell on a tie and the product's error tipped
the exact sum off it, and where the product was so small that its error term underflowed."""

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _daxpy
from core._arange_values import fma


def _exact(a: float, b: float, c: float) -> float:
    value = Fraction(a) * Fraction(b) + Fraction(c)
    return math.copysign(float(value), value) if value else a * b + c


def _assert_fma_exact(a, b, c):
    a, b, c = (np.asarray(x, np.float64) for x in (a, b, c))
    got = fma(a, b, c)
    want = np.array([_exact(*map(float, abc)) for abc in zip(a.ravel(), b.ravel(), c.ravel())]).reshape(got.shape)
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))


def test_a_tie_tipped_by_the_products_error_rounds_once():
    """``(1 + 2^-52)(1 - 2^-53) = 1 + 2^-53 - 2^-105``: with ``2^53`` the sum lies just above the tie
    ``2^53 + 1``, so it rounds up (``2^53`` was the twice-rounded answer)."""
    assert fma(np.array([1 + 2.0 ** -52]), np.array([1 - 2.0 ** -53]), np.array([2.0 ** 53]))[0] == 2.0 ** 53 + 2
    _assert_fma_exact([1 + 2.0 ** -52, -(1 + 2.0 ** -52)], [1 - 2.0 ** -53, 1 - 2.0 ** -53], [2.0 ** 53, -2.0 ** 53])


def test_an_exact_zero_keeps_the_sign_rule_of_a_product_plus_c():
    """``fma(0, -0, -0)`` is -0 (a -0 product plus -0), an exact cancellation +0: the emulation's last add gave +0."""
    zeros = [0.0, -0.0]
    cases = [(a, b, c) for a in zeros for b in zeros for c in zeros] + [(1.0, -1.0, 1.0), (-3.0, 0.5, 1.5)]
    _assert_fma_exact(*zip(*cases))
    for name, got in _split_entries(*(np.array(v) for v in zip(*cases))):
        want = np.array([_exact(*abc) for abc in cases])
        assert got.view(np.uint64).tolist() == want.view(np.uint64).tolist(), name


_ties = st.tuples(st.integers(1, 2 ** 26), st.integers(1, 2 ** 26), st.integers(-60, 60), st.integers(1, 2 ** 20),
                  st.sampled_from([1.0, -1.0]))


@settings(max_examples=400, deadline=None)
@given(st.lists(_ties, min_size=1, max_size=8))
def test_sums_built_onto_ties_round_once(cases):
    """``a = 1 + i 2^-52``, ``b = 1 - j 2^-53`` (a product a hair off a float64 value) scaled by ``2^k``, against a
    ``c`` whose ulp puts ``p + c`` on or beside a tie."""
    a = [(1 + i * 2.0 ** -52) * 2.0 ** k for i, _, k, _, _ in cases]
    b = [1 - j * 2.0 ** -53 for _, j, _, _, _ in cases]
    c = [sign * m * 2.0 ** (53 + k) for _, _, k, m, sign in cases]
    _assert_fma_exact(a, b, c)


_tiny = st.floats(min_value=2.0 ** -560, max_value=2.0 ** -480).map(float)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_tiny, _tiny, st.integers(-2 ** 20, 2 ** 20), st.sampled_from([1.0, -1.0])),
                min_size=1, max_size=8))
def test_products_near_the_subnormal_range_round_once(cases):
    a = [x * sign for x, _, _, sign in cases]
    b = [y for _, y, _, _ in cases]
    c = [m * 2.0 ** -1074 for _, _, m, _ in cases]
    _assert_fma_exact(a, b, c)


_finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-2.0 ** 500, max_value=2.0 ** 500)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_finite, _finite, _finite), min_size=1, max_size=8))
def test_any_finite_operands_round_once(cases):
    _assert_fma_exact(*zip(*cases))


def test_the_fused_daxpy_agrees_on_ties_and_tiny_products_where_there_is_one():
    """The BLAS's hardware fma, where core found one, as a second oracle on many elements at once."""
    rng = np.random.default_rng(0)
    n = 4096
    k = rng.integers(-300, 300, n).astype(np.float64)
    # ties: (1 + 2^-52)(1 - 2^-53) 2^k rounds to 2^k, half an ulp of y = (2^53 + 2r) 2^k; tiny: products ~2^-1000
    x = np.concatenate([(1 + 2.0 ** -52) * 2.0 ** k, rng.uniform(1, 2, n) * 2.0 ** -1000])
    alpha = 1 - 2.0 ** -53
    y = np.concatenate([(2.0 ** 53 + 2 * rng.integers(0, 2 ** 40, n)) * 2.0 ** k,
                        rng.integers(-2 ** 20, 2 ** 20, n) * 2.0 ** -1074])
    out = y.copy()
    if _daxpy.daxpy_(out, x, alpha):
        np.testing.assert_array_equal(fma(x, alpha, y).view(np.uint64), out.view(np.uint64))
    else:
        _assert_fma_exact(x[::16], alpha, y[::16])


def _split_entries(a, b, c):
    """The kernels' own entries to the emulation, which split their operands once for several products: each must
    round as ``fma`` does (they share its last step, ``fma_sum``)."""
    from core._mkl_tanhd import one_minus_square
    from core._sleef_powd import _fma as powd_fma
    from core.nn.functional._flash_cpu import _fma_larger_c, _fma_split, _split

    yield "sleef_powd", powd_fma(a, b, c)
    yield "flash _fma_split", _fma_split(a, *_split(a), b, *_split(b), c)
    larger = np.abs(c) >= np.abs(a * b) * 2  # (Fast2Sum's condition, with room for the product's rounding)
    if larger.all():
        yield "flash _fma_larger_c", _fma_larger_c(a, *_split(a), b, *_split(b), c)
    if (a == -b).all() and (c == 1.0).all() and (np.abs(b) <= 1).all():
        yield "mkl_tanhd", one_minus_square(b)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ties, min_size=1, max_size=8), st.sampled_from([1.0, 2.0 ** 60]))
def test_the_kernels_split_fmas_round_ties_once(cases, scale):
    """The tie cases (``c`` scaled up so the larger-addend entry applies too) through each kernel's entry."""
    a = np.array([(1 + i * 2.0 ** -52) * 2.0 ** k for i, _, k, _, _ in cases])
    b = np.array([1 - j * 2.0 ** -53 for _, j, _, _, _ in cases])
    c = np.array([sign * m * 2.0 ** (53 + k) * scale for _, _, k, m, sign in cases])
    want = np.array([_exact(*abc) for abc in zip(a.tolist(), b.tolist(), c.tolist())])
    for name, got in _split_entries(a, b, c):
        assert got.view(np.uint64).tolist() == want.view(np.uint64).tolist(), name


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(min_value=-1.0, max_value=1.0), min_size=1, max_size=16))
def test_one_minus_a_square_rounds_once(values):
    """``1 - o²`` of a tanh's output (``core._mkl_tanhd``), including ``o`` near 1 where the sum is near a tie."""
    o = np.array(values + [1 - 2.0 ** -27, 1 - 3 * 2.0 ** -28, (1 + 2.0 ** -26) / 2])
    want = np.array([_exact(-x, x, 1.0) for x in o.tolist()])
    for name, got in _split_entries(-o, o, np.ones_like(o)):
        assert got.view(np.uint64).tolist() == want.view(np.uint64).tolist(), name
