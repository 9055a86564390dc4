"""The vector exps of PyTorch's CPU kernels, bit for bit: ATen's float32 ``exp_u20`` and SLEEF's float64 ``expd_u10``.

Apart from the flash attention kernel (``core.nn.functional._flash_cpu``) that first needed them, because the
softmax, GELU, SiLU and ``exp`` kernels use them too: each is a polynomial on NumPy arrays with the fused
multiply-adds emulated (Dekker splits where one fma must round once). ``_flash_cpu`` re-exports both.
"""

from __future__ import annotations

import numpy as np

from core import _daxpy
from core._arange_values import fma_sum
from core._fused import fma as _fma
from core._fused import single_rounding

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


def _bits(i: int) -> np.float32:
    return np.array([i], np.uint32).view(np.float32)[0]


_LOG2E, _LN2 = _bits(0x3FB8AA3B), _bits(0x3F317218)
_LN_FLT_MIN, _LN_FLT_MAX = _bits(0xC2AEAC50), _bits(0x42B17218)
_FACTORIALS = [np.float32(c) for c in (0.00828929059, 0.0418978221, 0.166676521, 0.499991506, 0.999999701, 1.0)]


def _f32fma(a, b, c):
    """float32 ``a * b + c`` with one rounding (``core._fused``)."""
    return _fma(np, a, b, c)


def exp_u20(x: np.ndarray) -> np.ndarray:
    """ATen's ``Vectorized<float>::exp_u20`` (vec512_float.h): ``x`` clamped to [ln FLT_MIN, ln FLT_MAX],
    ``n = floor(x log2 e + 1/2)``, ``r = x - n ln 2``, a degree-5 Horner polynomial in ``r`` (each step a float32
    fma), times ``2^(n-1)`` and 2; inputs below ln FLT_MIN give 0. Within 20 ulp of exp, not SLEEF's.

    NOTE: ``_EXP_BLOCK`` elements at a time, so the float64 temporaries stay in cache (as ``core._sleef``)."""
    flat = np.ascontiguousarray(x, _F32).reshape(-1)
    out = np.empty(flat.size, _F32)
    size = min(flat.size, _EXP_BLOCK)
    buffers = (np.empty(size, _F64), np.empty(size, _F64), np.empty(size, _F32), np.empty(size, np.int64))
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, flat.size, _EXP_BLOCK):
            _exp_u20_block(flat[start:start + _EXP_BLOCK], out[start:start + _EXP_BLOCK], buffers)
    return out.reshape(np.shape(x))


_EXP_BLOCK = 16384


def _exp_u20_block(x: np.ndarray, out: np.ndarray, buffers) -> None:
    """``exp_u20`` of one block into ``out``: each float32 fma as a float64 product (exact) and sum, rounded to
    float32 with ``core._fused.single_rounding``'s tie repair; ``x - n ln 2`` is exact in float64."""
    t, wide, narrow, scratch = (b[:x.size] for b in buffers)
    below = x < _LN_FLT_MIN
    src = np.clip(x, _LN_FLT_MIN, _LN_FLT_MAX)

    def fma32(a, b, c):  # float32 a * b + c, one rounding, into ``narrow``
        np.multiply(a, b, out=t, dtype=_F64)
        np.add(t, c, out=t)
        narrow[...] = single_rounding(t, a, b, c, scratch)
        return narrow

    n = np.floor(fma32(src, _LOG2E, np.float32(0.5)))
    np.multiply(n, np.float64(_LN2), out=wide, dtype=_F64)
    np.subtract(src, wide, out=wide, dtype=_F64)
    r = wide.astype(_F32)
    res = fma32(r, _FACTORIALS[0], _FACTORIALS[1]).copy()
    for c in _FACTORIALS[2:]:
        res[...] = fma32(r, res, c)
    scale = ((n.astype(np.int32) + np.int32(126)).astype(np.uint32) << np.uint32(23)).view(_F32)
    scale[below] = 0
    np.multiply(res, scale, out=out)
    out *= np.float32(2)


_R_LN2_D, _L2U_D, _L2L_D = 1.442695040888963407359924681001892137426645954152985934135449406931, \
    0.69314718055966295651160180568695068359375, 0.28235290563031577122588448175013436025525412068e-12
_EXPD_POLY = (0.2081276378237164457e-8, 0.2511210703042288022e-7, 0.2755762628169491192e-6,
              0.2755723402025388239e-5, 0.2480158687479686264e-4, 0.1984126989855865850e-3,
              0.1388888888914497797e-2, 0.8333333333314938210e-2, 0.4166666666666602598e-1,
              0.1666666666666669072e+0)


def expd_u10(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``expd_u10`` (its ``xexp`` with FMA), what ``Vectorized<double>::exp()`` and ``exp_u20()`` give on
    AVX-512: ``q = rint(d / ln 2)``, ``s = d - q ln 2`` in two fmas, a degree-10 polynomial by Estrin's scheme (each
    step a double fma: ``core._fused``), three more fmas, then ``2^q`` as two exact scalings; 0 below -1000,
    inf above 709.78.

    NOTE: a hot path (float64 softmax's exps: ~130 ns an element through ``core._fused.fma``). Each fma is
    ``core._arange_values.fma``'s same operations (``_fma_split``: the same bits), without its checks for
    overflow: d is clamped to [-1100, 800] first (NaN and infinities too), where nothing overflows, and every
    element off [-1000, 709.78] is replaced at the end as before; the operands' Veltkamp splits are made once
    each (s's serves eight fmas, the constants' are made at import); ``u * L2U`` is exact (L2U has 41
    significant bits, |u| < 2^11), so its fma is one add; and the six fmas with a constant multiplier are one
    ``daxpy`` each where the BLAS's is a probed fma (``core._daxpy``; on 6 * 10^7 samples of their operands the
    NumPy route gave the same bits). A large C-contiguous array goes ``_EXPD_BLOCK``
    elements at a time (its ~200 passes then stay in cache)."""
    if d.size > 2 * _EXPD_BLOCK and type(d) is np.ndarray and d.flags.c_contiguous:
        flat, out = d.reshape(-1), np.empty(d.shape, np.float64)
        into = out.reshape(-1)
        for i in range(0, flat.size, _EXPD_BLOCK):
            into[i:i + _EXPD_BLOCK] = _expd_block(flat[i:i + _EXPD_BLOCK])
        return out
    return _expd_block(d)


_EXPD_BLOCK = 16384  # elements per block of a large expd_u10 (each block ~200 NumPy calls)


def _expd_block(d: np.ndarray) -> np.ndarray:
    """``expd_u10``'s steps on one array.

    NOTE: every fma but the reduction's has ``|c| >= |a b|`` (|s| <= ln2 / 2, each coefficient's term dominates the
    next's), so its sum's error is Fast2Sum's (``_fma_larger_c``: 3 passes for TwoSum's 6, the same exact error);
    below ``_STACK`` elements the five fmas of ``s`` with constants are one 2-D Dekker step with the constants' splits
    made at import (fewer calls where a ``daxpy`` call's ~5 us of Python and ctypes outweighs its passes)."""
    with np.errstate(over="ignore", invalid="ignore"):
        finite = np.fmax(np.fmin(d, 800.0), -1100.0)  # (fmin/fmax take the number beside a NaN)
        u = np.rint(finite * _R_LN2_D)
        q = u.astype(np.int64)
        s = u * -_L2U_D + finite
        if not _daxpy.daxpy_(s, u, -_L2L_D):  # (in place: s += u * -L2L, rounded once)
            s = _fma_split(u, *_split(u), -_L2L_D, *_split(-_L2L_D), s)
        s2 = s * s
        s4 = s2 * s2
        s8 = s4 * s4
        split_s = _split(s)
        leaves = _leaves(s, split_s)  # c9 s + c8, c7 s + c6, c5 s + c4, c3 s + c2, c1 s + c0
        low_high = _fma_larger_c(s2, *_split(s2), leaves[3:0:-2], *_split(leaves[3:0:-2]), leaves[4:1:-2])
        mid = _fma_larger_c(s4, *_split(s4), low_high[1], *_split(low_high[1]), low_high[0])
        u = _fma_larger_c(s8, *_split(s8), leaves[0], *_split(leaves[0]), mid)
        u = _fma_larger_c(u, *_split(u), s, *split_s, 0.5)
        u = _fma_larger_c(u, *_split(u), s, *split_s, 1.0)
        u = _fma_larger_c(u, *_split(u), s, *split_s, 1.0)
        u = np.ldexp(u, q)  # (SLEEF's two scalings: the first is exact, u 2^(q >> 1) being normal, so one rounding)
        if d.size and _MIN(d, None) >= -1000 and _MAX(d, None) <= _EXPD_MAX:  # (False with a NaN)
            return u
        u = np.where(d < -1000, 0.0, u)
        u = np.where(d > _EXPD_MAX, np.inf, u)
        return np.where(np.isnan(d), d, u)


_EXPD_MAX = 709.78271289338399678773454114191
_MIN, _MAX = np.minimum.reduce, np.maximum.reduce
_STACK = 512  # elements below which the constants' fmas are one 2-D Dekker step (``_expd_block``; a daxpy call
# costs ~5 us of Python and ctypes)


def _leaves(s, split_s):
    """The five ``c_odd s + c_even`` of Estrin's scheme as rows of a (5, n) array, each rounded once."""
    if s.size >= _STACK and s.ndim == 1 and _daxpy.available():
        rows = np.empty((5, s.size))
        rows[:] = _EXPD_PAIRS[3]
        for row, c1 in zip(rows, _EXPD_PAIRS[0].ravel()):
            _daxpy.daxpy_(row, s, float(c1))
        return rows.reshape(5, *s.shape)
    column = (5, *(1,) * s.ndim)
    c1, c1h, c1l, c0 = (k.reshape(column) for k in _EXPD_PAIRS)
    return _fma_larger_c(c1, c1h, c1l, s, *split_s, c0)


def _fma_larger_c(a, ah, al, b, bh, bl, c):
    """``a * b + c`` rounded once where ``|c| >= |a b|`` (or c is 0): ``_fma_split``'s value, its sum's exact error
    by Fast2Sum (``c`` the larger addend) where TwoSum takes twice the passes."""
    p = a * b
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = c + p
    return fma_sum(s, p - (s - c), e)


def _split(a):
    """Veltkamp's split of float64 ``a`` into 26- and 27-bit halves (``core._arange_values._split``'s steps)."""
    c = 134217729.0 * a  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def _fma_split(a, ah, al, b, bh, bl, c):
    """``a * b + c`` rounded once, for float64 operands split as ``_split`` splits them: the operations of
    ``core._arange_values.fma`` (Dekker's product, TwoSum, its ``fma_sum``), in the same order, so the same bits;
    no overflow."""
    p = a * b
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    z = s - p
    return fma_sum(s, (p - (s - z)) + (c - z), e)


_EXPD_SPLITS = {c: _split(np.float64(c)) for c in _EXPD_POLY}
# the odd coefficients (c9, c7, ..., c1), their splits and the even ones (c8, ..., c0), as (5, 1) columns
_EXPD_PAIRS = tuple(np.array(k).reshape(5, 1) for k in (_EXPD_POLY[0::2], *zip(*(_EXPD_SPLITS[c] for c in
                                                                               _EXPD_POLY[0::2])),
                                                        _EXPD_POLY[1::2]))
