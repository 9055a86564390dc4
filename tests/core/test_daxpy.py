"""``core._daxpy``: the BLAS's float64 ``daxpy`` as a once-rounded ``y += alpha * x`` (where its probe passes).

On this project's machines NumPy's OpenBLAS has fusing AVX2/AVX-512 kernels, so the route is taken; where it is
not, ``daxpy_`` answers False and callers keep their NumPy route (these tests then check only that)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _daxpy
from core._arange_values import fma


def test_daxpy_rounds_alpha_x_plus_y_once_where_available():
    y = np.full(37, -(1 + 2.0 ** -29))
    done = _daxpy.daxpy_(y, np.full(37, 1 + 2.0 ** -30), 1 + 2.0 ** -30)
    assert done == _daxpy.available()
    if done:
        assert (y == 2.0 ** -60).all()  # (the product rounded first would give 0)


def test_daxpy_matches_the_dekker_twosum_fma_on_random_operands():
    if not _daxpy.available():
        pytest.skip("no fusing daxpy in this NumPy's BLAS: callers keep their NumPy route")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(200_003) * 10.0 ** rng.integers(-5, 5, 200_003)
    y = rng.standard_normal(200_003)
    for alpha in (0.1666666666666669072, -0.28235290563031577122588448175013436025525412068e-12, 3.5):
        out = y.copy()
        assert _daxpy.daxpy_(out, x, alpha)
        assert np.array_equal(out.view(np.uint64), fma(x, alpha, y).view(np.uint64))


@pytest.mark.parametrize("case", ["transposed", "float32", "sizes", "read-only", "zero alpha"])
def test_daxpy_refuses_what_it_can_not_take_and_changes_nothing(case):
    x, y = np.ones((4, 3)), np.zeros((4, 3))
    alpha = 2.0
    if case == "transposed":
        y = np.zeros((3, 4)).T
    elif case == "float32":
        x, y = x.astype(np.float32), y.astype(np.float32)
    elif case == "sizes":
        x = np.ones(5)
    elif case == "read-only":
        y.flags.writeable = False
    else:
        alpha = 0.0
    assert not _daxpy.daxpy_(y, x, alpha)
    assert not y.any()


@pytest.mark.parametrize("size", [1, 7, 200, 10_001])
def test_daxpy_reads_offset_and_read_only_operands_at_their_own_addresses(size):
    if not _daxpy.available():
        pytest.skip("no fusing daxpy in this NumPy's BLAS: callers keep their NumPy route")
    rng = np.random.default_rng(size)
    base = rng.standard_normal(size + 5)
    x = base[3:size + 3]  # (a view starting inside another array)
    frozen = x.copy()
    frozen.flags.writeable = False  # (its address through ndarray.ctypes)
    for operand in (x, frozen):
        y_base = rng.standard_normal(size + 2)
        edges = y_base[[0, -1]].copy()
        y = y_base[1:size + 1]
        expected = fma(operand, 0.75, y.copy())
        assert _daxpy.daxpy_(y, operand, 0.75)
        assert np.array_equal(y.view(np.uint64), expected.view(np.uint64))
        assert np.array_equal(y_base[[0, -1]], edges)  # (the neighbours untouched)


def _emulated_axpy(rounding):
    """A ctypes-style float64 ``axpy(n, alpha, px, incx, py, incy)`` computing ``y = rounding(alpha, x, y)``."""
    import ctypes

    def axpy(n, alpha, px, incx, py, incy):
        px = px if isinstance(px, int) else ctypes.addressof(px._obj)  # (byref() of a c_char: the padded tail's)
        py = py if isinstance(py, int) else ctypes.addressof(py._obj)
        x = np.ctypeslib.as_array(ctypes.cast(px, ctypes.POINTER(ctypes.c_double)), (n,))
        y = np.ctypeslib.as_array(ctypes.cast(py, ctypes.POINTER(ctypes.c_double)), (n,))
        y[...] = rounding(float(getattr(alpha, "value", alpha)), x, y)
    return axpy


def _haswell_like(a, x, y):
    """OpenBLAS's Haswell daxpy as measured on the AMD Zen 3: whole blocks of 16 fused, the tail rounded twice."""
    body = x.size // 16 * 16
    out = y + a * x
    out[:body] = _exact_fma(a, x[:body], y[:body])
    return out


def test_a_kernel_that_fuses_only_whole_blocks_of_16_passes_the_block_probe_only():
    haswell = _emulated_axpy(_haswell_like)
    assert not _daxpy._fuses(haswell)
    assert _daxpy._fuses(haswell, 16)
    assert not _daxpy._fuses(_emulated_axpy(lambda a, x, y: y + a * x), 16)


_SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1.0])


def _exact_fma(a: float, x, y):
    """``a x + y`` rounded once, by exact rational arithmetic (``float`` of a ``Fraction`` rounds correctly), IEEE's
    signed zero for an exact 0; a non-finite lane as NumPy's ``a * x + y``. NOTE: not Dekker's route
    (``core._fused.fma``), which misses a tie that a subnormal ``y`` breaks (``a x`` exactly halfway between two
    doubles, ``y = 5e-324``: the fused kernel is right there)."""
    from fractions import Fraction

    with np.errstate(invalid="ignore", over="ignore"):
        out = a * x + y
    for i in np.nonzero(np.isfinite(x) & np.isfinite(y))[0]:
        exact = Fraction(a) * Fraction(float(x[i])) + Fraction(float(y[i]))
        both_negative_zeros = np.signbit(a * x[i]) and np.signbit(y[i])
        out[i] = float(exact) if exact else (-0.0 if both_negative_zeros else 0.0)
    return out


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 120), offset=st.integers(0, 7), seed=st.integers(0, 2 ** 32 - 1), specials=st.integers(0, 6),
       kernel=st.sampled_from(["loaded", "haswell"]))
def test_daxpy_gives_the_exact_fmas_bits_at_every_length_offset_and_special_value(n, offset, seed, specials, kernel):
    """``daxpy_`` (whole blocks through the kernel, the tail through a padded block) against the exactly rounded fma,
    bit for bit (NaN where it gives NaN), with this machine's kernel where it fuses and with the Haswell-like one
    emulated (its fused blocks exact: the float64 emulation below)."""
    if kernel == "loaded":
        if not _daxpy.available():
            return
        state = dict(_daxpy._state)
    else:
        state = {"axpy": _emulated_axpy(_haswell_like), "ready": True, "block": 16}
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-5, 5, n)
    start = rng.standard_normal(n)
    for arr in (x, start):
        arr[rng.integers(0, n, specials)] = rng.choice(_SPECIAL, specials)
    alpha = float(rng.choice([0.1666666666666669072, -2.8235290563031577e-13, 3.5]))
    want = _exact_fma(alpha, x, start)
    y = np.empty(n + offset)[offset:]
    y[...] = start
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_daxpy, "_state", state)
        assert _daxpy.daxpy_(y, x, alpha)
    assert np.array_equal(np.isnan(y), np.isnan(want))
    keep = ~np.isnan(want)
    np.testing.assert_array_equal(y[keep].view(np.uint64), want[keep].view(np.uint64))
