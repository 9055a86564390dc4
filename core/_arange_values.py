"""``arange``'s floating-point values, element for element as PyTorch's CPU kernel computes them.

PyTorch fills a float ``arange`` in blocks of one SIMD vector (32 bytes: 8 float32 or 4 float64
values). Each block starts from ``base = start + step * i`` (a fused multiply-add in double, rounded
to the result dtype), and its lanes are ``base + k * step`` (again fused, in double); the elements
after the last pair of whole vectors take ``start + step * i`` one by one. Work is split into
per-thread chunks above 32768 elements, each chunk starting its own blocks. Reproducing this makes
``arange(-8.0, 8.0, 0.1)`` equal to PyTorch's bit for bit (``start + i * step`` rounded once differs
in the last bit of about one element in five).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

_VECTOR_BYTES = 32  # AVX2's vector, what PyTorch's x86 CPU kernels use for this op
_GRAIN = 32768  # at::internal::GRAIN_SIZE


def _two_product(a, b):
    """``a * b`` as ``p + e`` exactly (Dekker's product with Veltkamp's split)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def _split(a):
    c = 134217729.0 * a  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def fma(a, b, c):
    """``a * b + c`` with one rounding (to double), for float64 arrays.

    Boldo and Melquiond's emulation: Dekker's exact product ``p + e``, TwoSum ``p + c = s + t``, then ``s`` plus
    ``t + e`` rounded to odd (where that matters). NOTE: ``t + e`` rounded to nearest made a double rounding where
    ``s + t`` fell on a tie and ``e`` tipped the exact sum off it (``fma(1 + 2^-52, 1 - 2^-53, 2^53)`` gave
    ``2^53``, not ``2^53 + 2``). Dekker's product is exact only while its partial products stay normal: a product below
    ``2^-968`` (a subnormal result's neighbourhood) is rounded exactly from fractions, element by element."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    p, e = _two_product(a, b)
    s = p + c
    z = s - p
    t = (p - (s - z)) + (c - z)  # TwoSum: p + c == s + t exactly
    out = fma_sum(s, t, e)
    p = np.abs(p)
    if p.size and p.min() < _DEKKER_MIN:  # (a zero operand too: then the finer test)
        with np.errstate(invalid="ignore"):
            tiny = (p < _DEKKER_MIN) & (a != 0) & (b != 0) & np.isfinite(out + a + b)
        if tiny.any():
            out = _exact_where(np.array(out, np.float64), tiny, a, b, c)
    return out


def fma_sum(s, t, e):
    """``s + (t + e)`` rounded once, where ``s + t`` is an exact TwoSum (or Fast2Sum) of a product's leading part
    and the addend and ``e`` the product's exact error: the last step of an emulated fma. ``fma`` ends with it and
    so do the kernels that split their operands once for several products (``core._sleef_powd``,
    ``core.nn.functional._flash_cpu``, ``core._mkl_tanhd``): one rounding rule for all of them.

    NOTE: only where ``s + v`` (``v = t + e`` rounded) is a tie does rounding ``v`` to odd change the result, and
    then ``v`` is a power of two (a subnormal ``v`` is exact: ``t`` and ``e`` share its grid); so the odd neighbour
    is taken only there (``t + e`` rounded to nearest made a double rounding there)."""
    v = np.asarray(t + e)
    powers = v.view(np.int64) & _SIGNIFICAND == 0
    powers &= v != 0
    if powers.any():
        w = v - t  # TwoSum's exact error of v = t + e
        lost = (t - (v - w)) + (e - w)
        powers &= lost != 0
        v = np.where(powers, np.nextafter(v, np.copysign(np.inf, lost)), v)
    out = s + v
    if not np.all(out):  # NOTE: an exact zero keeps the sign of s (IEEE's rule for the product plus c: -0 only from
        out = np.where((out == 0) & (s == 0), s, out)  # -0 + -0); s + v made fma(0, -0, -0) +0
    return out


_SIGNIFICAND = (1 << 52) - 1  # a float64's stored significand bits
_DEKKER_MIN = 2.0 ** -968  # products from which Dekker's partial products keep every bit (2^-1074 * 2^106)


def _exact_where(out, where, a, b, c):
    """``out`` with ``a * b + c`` rounded once from exact fractions where ``where`` (a few tiny products)."""
    shape = out.shape
    operands = np.broadcast_arrays(a, b, np.asarray(c, np.float64))
    for index in zip(*np.nonzero(np.broadcast_to(where, shape))):
        x, y, z = (float(o[index]) for o in operands)
        exact = Fraction(x) * Fraction(y) + Fraction(z)
        # (Python's int division rounds once, to nearest even, subnormals included; a zero keeps its side's sign)
        out[index] = math.copysign(float(exact), exact) if exact else x * y + z
    return out


def _chunk(start: float, step: float, lo: int, hi: int, np_dt) -> np.ndarray:
    lanes = _VECTOR_BYTES // np.dtype(np_dt).itemsize
    full = ((hi - lo) // (2 * lanes)) * 2 * lanes  # the vector loop takes two vectors a turn
    blocks = np.arange(lo, lo + full, lanes, dtype=np.float64)
    bases = fma(step, blocks, start).astype(np_dt).astype(np.float64)
    lane = np.arange(lanes, dtype=np.float64)
    vec = fma(lane[None, :], step, bases[:, None]).astype(np_dt).reshape(-1)
    tail = fma(step, np.arange(lo + full, hi, dtype=np.float64), start).astype(np_dt)
    return np.concatenate([vec, tail])


def float_arange(start: float, end: float, step: float, np_dt, threads: int = 1) -> np.ndarray:
    """The ``ceil((end - start) / step)`` values of a float32/float64 ``arange`` (others: one rounding)."""
    n = math.ceil((end - start) / step)
    start, step = float(start), float(step)
    if np.dtype(np_dt) not in (np.float32, np.float64):
        return (start + np.arange(n, dtype=np.float64) * step).astype(np_dt)
    workers = max(1, min(threads, -(-n // _GRAIN)))
    size = -(-n // workers) if n else 0
    parts = [_chunk(start, step, lo, min(lo + size, n), np_dt) for lo in range(0, n, size or 1)]
    return np.concatenate(parts) if parts else np.empty(0, np_dt)
