"""``core._daxpy``: the BLAS's float64 ``daxpy`` as a once-rounded ``y += alpha * x`` (where its probe passes).

On this project's machines NumPy's OpenBLAS has fusing AVX2/AVX-512 kernels, so the route is taken; where it is
not, ``daxpy_`` answers False and callers keep their NumPy route (these tests then check only that)."""

import numpy as np
import pytest

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
