"""PyTorch's float32 ``exp2`` on the CPU: SLEEF's ``exp2f_u10`` in its vector steps, glibc's ``exp2f`` in the tail.

torch 2.13's ``exp2`` kernel is a ``cpu_kernel_vec`` loop, not MKL: ``Vectorized<float>::exp2`` (SLEEF's
``Sleef_exp2f16_u10``, or the AVX2 build's 8-lane one: the same steps with fused multiply-adds) on two vectors at a
time, ``std::exp2`` (glibc's ``exp2f``) on the last ``n % 32`` elements and on strided inputs
(``core._sleef.vector_loop``). SLEEF's function is not correctly rounded: about 6% of the float32 results for x in
[-20, 20] differ from the correctly rounded ones core took before. Its steps (SLEEF's ``xexp2f``,
``src/libm/sleefsimdsp.c``, Boost Software License; the coefficients are SLEEF's)::

    u = rint(x);  s = x - u
    p = fma(...fma(fma(P5, s, P4), s, P3)..., s, 1)          # six fused multiply-adds, P0 ~ ln 2
    exp2 = p * 2^(q >> 1) * 2^(q - (q >> 1))                  # q = int(u); 0 below -150, inf above 128

Each float32 fused multiply-add is one float64 multiply-add rounded once more (the product of two float32 values is
exact in float64), as ``core._sleef`` does. Measured against torch 2.13 on an AMD EPYC Zen 4 (2026-12-06): bit for
bit on every size from 1 to 99 (five arrays each) and larger ones, rows of a slice, transposed inputs, 2M uniform
values in [-20, 20], 1M random bit patterns (subnormal results included), inf and NaN. Cost (CPU time): 10^6 float32
~7.5 ms (the correctly rounded float64 route 1.3 ms, torch 0.3 ms).
"""

from __future__ import annotations

import numpy as np

from core import _cpu, _fused, _glibc
from core._precise import precise
from core._sleef import vector_loop

__all__ = ["exp2f_u10", "exp2", "exp2d_u10", "logaddexp2_double"]

_F32, _F64, _I32 = np.dtype(np.float32), np.float64, np.int32
_P = tuple(np.float32(c) for c in (0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1,
                                   0.2402264476e+0, 0.6931471825e+0, 1.0))
_PAIR = 2 * _cpu.vector_bytes() // 4  # float32 elements in two of torch's vectors
_BLOCK = 16384
_C_EXP2F = _glibc._c_library_float_function("exp2f")


def exp2f_u10(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``exp2f_u10`` (module docstring) of a float32 array, in blocks of 16384 (the temporaries stay in
    cache)."""
    flat = np.ascontiguousarray(d).reshape(-1)
    out = np.empty(flat.size, np.float32)
    with np.errstate(all="ignore"):
        for i in range(0, flat.size, _BLOCK):
            _exp2_block(flat[i:i + _BLOCK], out[i:i + _BLOCK])
    return out.reshape(d.shape)


def _exp2_block(d: np.ndarray, p: np.ndarray) -> None:
    u = np.rint(d)
    s = (d - u).astype(_F64)
    acc = s * float(_P[0])
    for c in _P[1:]:
        acc += float(c)
        np.copyto(p, acc, casting="same_kind")      # fma(p, s, c): rounded once to float32
        if c is not _P[-1]:
            np.multiply(p, s, out=acc)
    q = np.clip(u, -200, 200).astype(_I32)
    h = q >> 1
    q -= h
    h += 127
    h <<= 23
    p *= h.view(np.float32)                          # times 2^(q >> 1), then 2^(q - (q >> 1))
    q += 127
    q <<= 23
    p *= q.view(np.float32)
    if not (d.min() >= -150 and d.max() <= 128):     # (a NaN fails both and stays NaN)
        p[d < -150] = 0
        p[d > 128] = np.inf


def _glibc_exp2f(x: np.ndarray) -> np.ndarray:
    """glibc's ``exp2f`` element by element (the scalar tail); without glibc, exp2 rounded once from float64."""
    if _C_EXP2F is not None:
        return _glibc._per_element(_C_EXP2F, x)
    return precise(np.exp2, x)


def exp2(xp, x):
    """torch's ``exp2`` of a backend array: SLEEF's vector steps and glibc's tail for a float32 NumPy array, else
    ``core._precise``'s correctly rounded one."""
    if x.dtype is _F32 and type(x) is np.ndarray:
        if not x.ndim:
            return _glibc_exp2f(x.reshape(1)).reshape(())
        return vector_loop(x, exp2f_u10, _glibc_exp2f, pair=_PAIR)
    return precise(xp.exp2, x)


# SLEEF's ``xexp2`` (float64, ``sleefsimddp.c``): POLY10's coefficients c9 .. c0, then ln 2
_PD = (+0.4434359082926529454e-9, +0.7073164598085707425e-8, +0.1017819260921760451e-6, +0.1321543872511327615e-5,
       +0.1525273353517584730e-4, +0.1540353045101147808e-3, +0.1333355814670499073e-2, +0.9618129107597600536e-2,
       +0.5550410866482046596e-1, +0.2402265069591012214e+0)
_LN2 = +0.6931471805599452862e+0
_C_EXP2, _C_LOG1P = _glibc._c_library_double_function("exp2"), _glibc._c_library_double_function("log1p")
_INV_LN2 = 1.4426950408889634  # c10's inv_log_2 (1 / ln 2 rounded to double)


def _fma64(a, b, c):
    """float64 ``a * b + c`` rounded once: OpenBLAS's fused daxpy for a number ``b`` where core._daxpy has one."""
    from core._sleef_logd import _scaled_fma  # (it imports core.nn lazily too)

    if not isinstance(b, np.ndarray):
        return _scaled_fma(a, b, c)
    return _fused.fma(np, a, b, c)


def exp2d_u10(d: np.ndarray) -> np.ndarray:
    """SLEEF's float64 ``exp2`` (``Vectorized<double>::exp2``, its FMA build) of a float64 array, bit for bit::

        u = rint(d);  s = d - u;  s2, s4, s8 = s^2, s^4, s^8
        p = POLY10(s, s2, s4, s8, c9 .. c0)           # Estrin: fma(s8, fma(s, c9, c8), POLY8), POLY4s, fmas
        p = fma(fma(p, s, ln 2), s, 1) * 2^(q >> 1) * 2^(q - (q >> 1))      # q = int(u); inf from 1024, 0 below -2000

    every fma rounded once (``_fma64``)."""
    u = np.rint(d)
    s = d - u
    s2 = s * s
    s4 = s2 * s2
    c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = _PD
    low = _fma64(s2, _fma64(s, c3, c2), _fma64(s, c1, c0))
    poly = _fma64(s4, _fma64(s2, _fma64(s, c7, c6), _fma64(s, c5, c4)), low)
    poly = _fma64(s4 * s4, _fma64(s, c9, c8), poly)
    poly = _fma64(_fma64(poly, s, np.full(s.shape, _LN2)), s, np.ones(s.shape))
    q = np.clip(np.nan_to_num(u), -3000, 3000).astype(np.int64)
    half = q >> 1
    out = poly * np.ldexp(1.0, half) * np.ldexp(1.0, q - half)
    out[d >= 1024] = np.inf
    out[d < -2000] = 0.0
    return out


def _logaddexp2_vec(a, b):
    """The kernel's vector form: ``blendv(m + log1p(exp2(-|a - b|)) * inv_log_2, a, a == b and |a| == inf)``,
    its ``m + t * inv_log_2`` contracted to one fma, exp2 and log1p SLEEF's."""
    from core._sleef_logd import log1pd_u10

    a, b = np.broadcast_arrays(a, b)
    with np.errstate(invalid="ignore", over="ignore"):
        t = log1pd_u10(exp2d_u10(-np.abs(a - b)))
        out = _fma64(t, _INV_LN2, np.maximum(a, b))
    same_inf = (a == b) & np.isinf(a)
    return np.where(same_inf, a, out) if same_inf.any() else out


def _logaddexp2_scalar(a, b):
    """The kernel's scalar form (a tail, a strided operand): ``a`` where it is an infinity equal to ``b``, else
    ``std::max(a, b) + std::log1p(std::exp2(-|a - b|)) * inv_log_2`` with glibc's functions, contracted."""
    a, b = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64))
    if _C_EXP2 is None:
        e = precise(np.exp2, -np.abs(a - b))
        t = precise(np.log1p, e)
    else:
        with np.errstate(invalid="ignore"):
            e = _glibc._per_element(_C_EXP2, -np.abs(a - b), np.float64)
        t = _glibc._per_element(_C_LOG1P, e, np.float64)
    with np.errstate(invalid="ignore"):
        out = _fused.fma(np, t, np.float64(_INV_LN2), np.maximum(a, b))
    return np.where((a == b) & np.isinf(a), a, out)


def logaddexp2_double(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """torch's float64 ``logaddexp2`` kernel of two float64 arrays: its vector steps (SLEEF's exp2 and log1p) on
    two vectors at a time, its scalar form on the rest (``core._sleef.vector_loop``; a one-element operand keeps
    the loop vectorised)."""
    if y.size == 1 and x.size > 1:
        return vector_loop(x, _logaddexp2_vec, _logaddexp2_scalar, y.reshape(()))
    if x.size == 1 and y.size > 1:
        return vector_loop(y, lambda b, a: _logaddexp2_vec(a, b), lambda b, a: _logaddexp2_scalar(a, b),
                           x.reshape(()))
    if x.ndim == y.ndim >= 2 and (x.shape[-1] == 1) != (y.shape[-1] == 1):
        return _row_broadcast(x, y)
    xb, yb = np.broadcast_arrays(x, y)
    return vector_loop(xb, _logaddexp2_vec, _logaddexp2_scalar, yb)


def _row_broadcast(x, y):
    """One operand broadcast along the last dim (a (R, 1) column against (R, C) rows): TensorIterator keeps each
    row's loop vectorised with that operand as its scalar, the last ``C % pair`` of each row in the scalar form."""
    if x.shape[-1] == 1:
        x, y = y, x  # (the function is symmetric)
    shape = np.broadcast_shapes(x.shape, y.shape)
    xb, yb = np.broadcast_to(x, shape), np.broadcast_to(y, shape)
    if xb.strides[-1] != xb.itemsize:  # (rows not contiguous: the general loop)
        return vector_loop(xb, _logaddexp2_vec, _logaddexp2_scalar, yb)
    cut = shape[-1] - shape[-1] % (_PAIR // 2)
    out = np.empty(shape)
    out[..., :cut] = _logaddexp2_vec(xb[..., :cut], yb[..., :cut])
    out[..., cut:] = _logaddexp2_scalar(xb[..., cut:], yb[..., cut:])
    return out
