"""Float32 2-norms in the order PyTorch's CPU kernel adds the squares (``norm``, ``linalg.vector_norm``,
``F.normalize`` over the last dim, or over a whole contiguous tensor).

PyTorch's fast path for a 2-norm over a contiguous last dim (ATen's ``norm_kernel_tensor_iterator_impl``,
built for 8 float32 lanes) reads each row as vectors of 8: each lane adds its squares (rounded products, rounded
sums); the 8 lanes are then added left to right. The tail that does not fill a vector is added to that total one
element at a time: its first 4 elements (when it has 4 or more) as rounded squares, the rest as fused multiply-adds
(``acc + x * x`` rounded once). The square root of the total is the norm. NumPy's pairwise sum of the squares rounds
differently on 5-20% of rows, which ``F.normalize`` then carries into every element of the row.

``two_norm`` reproduces it for float32 arrays whose reduced dims are the trailing, C-contiguous ones (the tests
compare bit for bit with torch), and answers ``None`` for anything else (the caller keeps NumPy's sum).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from core._cascade_sum import _ORDERED_TYPES, _lanes, in_order
from core._glibc import pow_number
from core._sleef_pow import c_powf

__all__ = ["two_norm", "p_norm"]

LANES = 8
_SMALL = 2.0**-480  # smaller |t| may have an inexact square error (its low bits underflow)
CHUNK = 1 << 14  # elements of a fused multiply-add step computed at a time (its temporaries fit in cache)
_F32 = np.float32


def _reduced_trailing(x: np.ndarray, axes) -> int | None:
    """How many trailing dims ``axes`` reduces, when they are exactly the trailing, C-contiguous ones."""
    nd = x.ndim
    if isinstance(axes, (int, np.integer)):  # one dim given as an int (norm's dim=-1)
        axes = (axes,)
    axes = tuple(range(nd)) if axes is None else tuple(sorted(a % nd for a in axes))
    k = len(axes)
    if k == 0 or axes != tuple(range(nd - k, nd)):
        return None
    tail = x[(0,) * (nd - k)] if nd > k and x.size else x
    return k if tail.flags.c_contiguous else None


def _row_norms(rows: np.ndarray) -> np.ndarray:
    n, d = rows.shape
    if d == 1:  # PyTorch's norm of one element is its absolute value: no square to underflow or overflow
        return np.abs(rows[:, 0])
    lanes = _lanes(rows)
    full = d - d % lanes
    if full:  # NOTE: in_order picks the fastest in-order NumPy call (einsum over the vectors: ~10x a cumsum)
        squares = rows[:, :full].reshape(n, full // lanes, lanes) ** 2
        acc = in_order(in_order(squares, 1), 1)  # each lane adds its squares in order, then the lanes in order
    else:
        acc = np.zeros(n, rows.dtype)
    tail = rows[:, full:]
    plain = 4 if tail.shape[1] >= 4 else 0
    for j in range(plain):
        acc = acc + tail[:, j] * tail[:, j]
    for j in range(plain, tail.shape[1]):  # a fused multiply-add: the exact square, rounded once with the sum
        t = tail[:, j]
        if rows.dtype == _F32:
            acc = (t.astype(np.float64) ** 2 + acc).astype(_F32)
        else:
            acc = _first_square(t) if j == 0 and not full else _square_plus(t, acc)
    return np.sqrt(acc)


def _first_square(t: np.ndarray) -> np.ndarray:
    """``t * t + 0`` as a fused multiply-add: the rounded square, except for squares too small for
    ``_square_plus``'s exact error terms, which keep its result."""
    out = t * t
    small = np.flatnonzero(np.abs(t) < _SMALL)
    if small.size:
        out[small] = _square_plus(t[small], np.zeros(small.size))
    return out


def _square_plus(t: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """``t * t + acc`` of float64 arrays (``acc >= 0``) rounded once, as a fused multiply-add.

    The square's rounding error ``e`` is exact (Dekker's split into 26-bit halves) and so is the sum's ``low``
    (Knuth's two-sum): ``t * t + acc == high + low + e``, and ``low + e == rest + tiny`` exactly (two-sum again).
    ``high + rest`` rounds like ``high + rest + tiny`` except where ``high + rest`` is exactly halfway between two
    doubles (``tiny`` is below half an ulp of ``rest``, and the halfway points are multiples of ``rest``'s ulp):
    there ``tiny``'s sign picks the neighbour. So every value is rounded exactly in NumPy; only squares too small
    for an exact ``e`` (``|t| < 2**-480``, where ``tiny`` is not 0) and overflows go to Python fractions.
    NOTE: done ``CHUNK`` elements at a time, so that the ~30 temporaries stay in the CPU's cache (3x faster)."""
    out = np.empty(t.shape, np.float64)
    for start in range(0, t.size, CHUNK):
        part = slice(start, start + CHUNK)
        out[part] = _square_plus_chunk(t[part], acc[part])
    return out


def _square_plus_chunk(t: np.ndarray, acc: np.ndarray) -> np.ndarray:
    square = t * t
    big = t * 134217729.0  # 2**27 + 1
    upper = big - (big - t)
    lower = t - upper
    e = ((upper * upper - square) + 2 * upper * lower) + lower * lower
    high = square + acc
    back = high - square
    low = (square - (high - back)) + (acc - back)
    rest = low + e
    rest_back = rest - low
    out = high + rest
    tiny = (low - (rest - rest_back)) + (e - rest_back)  # low + e - rest, exactly
    out_back = out - high
    err = (high - (out - out_back)) + (rest - out_back)  # high + rest - out, exactly
    err2 = err * 2
    toward = out + err2  # the neighbour on err's side when high + rest is halfway (else out, or not 2 * err away)
    np.copyto(out, toward, where=(toward - out == err2) & (err != 0) & (np.sign(tiny) == np.sign(err)))
    special = ~(np.isfinite(t) & np.isfinite(acc))
    if special.any():  # inf or nan in: the IEEE result, as fractions would give it
        np.copyto(out, square + acc, where=special)
    slow = ~special & (~np.isfinite(out) | ~np.isfinite(big) | ((tiny != 0) & (np.abs(t) < _SMALL)))
    for i in np.flatnonzero(slow):
        out[i] = _exact_square_plus(float(t[i]), float(acc[i]))
    return out


def _exact_square_plus(t: float, acc: float) -> float:
    """``t * t + acc`` of finite floats, rounded once from the exact rational value."""
    try:
        return float(Fraction(t) * Fraction(t) + Fraction(acc))
    except OverflowError:
        return math.inf


def two_norm(x: np.ndarray, axes, keepdims: bool):
    """The 2-norm of ``x`` over ``axes`` (``None``: all) as PyTorch's CPU kernel rounds it, or ``None`` when ``x``
    is not a float32 NumPy array reduced over trailing contiguous dims."""
    if type(x) is not np.ndarray or x.dtype not in _ORDERED_TYPES:
        return None
    k = _reduced_trailing(x, axes)
    if k is None:
        return None
    kept = x.shape[:x.ndim - k]
    d = int(np.prod(x.shape[x.ndim - k:], dtype=np.int64))
    rows = np.ascontiguousarray(x).reshape(-1, d) if d else np.zeros((int(np.prod(kept, dtype=np.int64)), 0), x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        out = _row_norms(rows).reshape(kept)
    return out.reshape(kept + (1,) * k) if keepdims else out


GRAIN_SIZE = 32768  # ATen's internal::GRAIN_SIZE: a longer single reduction is split among the threads


def p_norm(ab: np.ndarray, p: float, dims):
    """The p-norm (p not 0, 1, 2 or +-inf) of ``ab`` = |x| over ``dims``, dims kept, as PyTorch's CPU ``NormOps``
    reduction rounds it: ``acc + pow(|x|, p)`` one term after another in memory order (not vectorised), then
    ``pow(acc, 1 / p)``, with the C library's ``powf`` (float32) or ``pow`` (float64). NumPy's pairwise sum (and
    its own power) differed in the last bit of a quarter to half of the norms, in float64 too (``dist(x, y, 0.5)``),
    which a double backward then carried into every element. ``None`` for anything else (a CuPy array, an empty
    one, more than ``GRAIN_SIZE`` elements: PyTorch may then split a reduction among its threads)."""
    if type(ab) is not np.ndarray or ab.dtype not in (np.float32, np.float64) or not 0 < ab.size <= GRAIN_SIZE \
            or not ab.ndim:
        return None
    dims = tuple(sorted({d % ab.ndim for d in dims}))
    moved = np.moveaxis(ab, dims, tuple(range(ab.ndim - len(dims), ab.ndim)))
    kept = moved.shape[:ab.ndim - len(dims)]
    rows = np.ascontiguousarray(moved).reshape(math.prod(kept), -1)
    with np.errstate(all="ignore"):
        if ab.dtype == np.float32:
            total = in_order(c_powf(rows, _F32(p)), axis=1)
            out = c_powf(total, _F32(1) / _F32(p))
        else:
            out = pow_number(in_order(pow_number(rows, p), axis=1), 1.0 / p)
    return np.expand_dims(out.reshape(kept), dims)
