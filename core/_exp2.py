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

from core import _cpu, _glibc
from core._precise import precise
from core._sleef import vector_loop

__all__ = ["exp2f_u10", "exp2"]

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
