"""PyTorch's float32 ``pow`` of two tensors on the CPU (``number ** tensor`` too): SLEEF's ``powf_u10``.

torch 2.13's ``pow_tensor_tensor_kernel`` is a ``cpu_kernel_vec`` loop: ``Vectorized<float>::pow`` (SLEEF's
``Sleef_powf16_u10``) on two vectors at a time and ``std::pow(float, float)`` (the C library's ``powf``) on the
last ``n % 32`` elements and on strided operands (``core._sleef.vector_loop``). ``number ** tensor`` is that kernel
with the number as a 0-d float32 operand. SLEEF's function is not correctly rounded: ~2% of float32 results for
bases 2 and 10 differ from the correctly rounded ones core took (NumPy's own float32 ``power``: ~20%). Its steps
(SLEEF's ``xpowf``, ``logkf`` and ``expkf``, ``src/libm/sleefsimdsp.c``, Boost Software License; the coefficients
are SLEEF's)::

    l = logkf(|x|)                       # ln|x| as a double-float pair: m in [0.75, 1.5), x = 2^e m,
                                         #   (m - 1)/(m + 1) in double-float, a degree-3 polynomial in its square
    r = expkf(l * y)                     # the pair times y, exp of the pair: 2^q (1 + s + s^2 poly(s))
    r = inf where NaN; sign, zeros, infinities and NaNs as C's pow

with the double-float steps of ``core._sleef`` (fused multiply-adds, as SLEEF's FMA builds compute them).
Measured against torch 2.13 on an AMD EPYC Zen 4: bases 2, 3.7, 10, 0.5 and 10000 over 300,000 normal exponents
(x5), random positive bases and exponents, every pair of 13 special values, sizes 1..69, views and broadcasts: all
bit for bit but ~1 in 10^5 elements (one ulp; not found which step). float64's ``pow_u10`` is
``core._sleef_powd``, split the same way (``kernel_split``).
"""

from __future__ import annotations

import ctypes

import numpy as np

from core import _cpu, _glibc
from core import _sleef as sl
from core._sleef import vector_loop

__all__ = ["powf_u10", "pow_float32", "c_powf", "kernel_split"]

_F32, _F64 = np.float32, np.float64
_LOGK_POLY = [_F32(c) for c in (0.240320354700088500976562, 0.285112679004669189453125, 0.400007992982864379882812)]
_LOGK_C = (_F32(0.66666662693023681640625), _F32(3.69183861259614332084311e-09))
_EXPK_POLY = [_F32(c) for c in (0.00136324646882712841033936, 0.00836596917361021041870117,
                                0.0416710823774337768554688, 0.166665524244308471679688,
                                0.499999850988388061523438)]


def _c_powf_function():
    """glibc's ``float powf(float, float)`` through ctypes, else None."""
    function = _glibc._c_library_float_function("powf")
    if function is not None:
        function.argtypes = [ctypes.c_float, ctypes.c_float]
    return function


_C_POWF = _c_powf_function()


def _logkf(d):
    """SLEEF's ``logkf``: ln(d) as a double-float pair, d > 0 finite (others are fixed up by the caller)."""
    tiny = d < np.finfo(_F32).tiny
    d = np.where(tiny, d * _F32(2.0 ** 64), d).astype(_F32)
    e = ((d * _F32(1.0 / 0.75)).view(np.int32) >> 23 & 0xFF) - 0x7F  # vilogb2k
    m = (d.view(np.int32) - (e << 23)).view(_F32)  # vldexp3: d * 2^-e through the exponent bits
    e = np.where(tiny, e - 64, e)
    one = _F32(1)
    x = sl._df_div(*sl._df_add2(-one, _F32(0), m), *sl._df_add2(one, _F32(0), m))
    x2 = x[0] * x[0], sl._f32fma(x[0] + x[0], x[1], sl._f32fms(x[0], x[0], x[0] * x[0]))  # dfsqu
    t = _LOGK_POLY[0]
    for c in _LOGK_POLY[1:]:
        t = sl._f32fma(t, x2[0], c)
    ef = e.astype(_F32)
    s = sl._df_mul(sl._LN2_HI, sl._LN2_LO, ef)
    s = sl._df_add(*s, x[0] * _F32(2), x[1] * _F32(2))
    inner = sl._df_add2(*sl._df_mul(*x2, t), *_LOGK_C)
    return sl._df_add(*s, *sl._df_mul(*sl._df_mul(*x2, *x), *inner))


def _expkf(dx, dy):
    """SLEEF's ``expkf`` of the pair (dx, dy): a float32."""
    u = (dx + dy) * sl._R_LN2
    q = np.rint(u).astype(np.int32)
    qf = q.astype(_F32)
    sx, sy = sl._df_add2(dx, dy, qf * -sl._L2U)
    sx, sy = sl._df_add2(sx, sy, qf * -sl._L2L)
    sx, sy = sx + sy, (sx - (sx + sy)) + sy  # dfnormalize
    u = _EXPK_POLY[0]
    for c in _EXPK_POLY[1:]:
        u = sl._f32fma(u, sx, c)
    square = sx * sx, sl._f32fma(sx + sx, sy, sl._f32fms(sx, sx, sx * sx))
    tx, ty = sl._df_add(sx, sy, *sl._df_mul(*square, u))
    one = _F32(1)
    tx, ty = one + tx, ((one - (one + tx)) + tx) + ty  # dfadd(1, t)
    r = _ldexp((tx + ty).astype(_F32), q)
    return np.where(dx < _F32(-104), _F32(0), r).astype(_F32)


def _ldexp(x, q):
    """SLEEF's ``vldexp_vf_vf_vi2``: ``x`` times 2^m four times (m a multiple of 16 near q/4, its biased exponent
    clamped to 0..255), then times 2^(q - 4m): a result below the normal range can round twice, as SLEEF's."""
    sign = q >> 31
    m = (((sign + q) >> 6) - sign) << 4
    q = q - (m << 2)
    m = np.clip(m + 0x7F, 0, 0xFF)
    u = (m << 23).astype(np.int32).view(_F32)
    x = x * u * u * u * u
    return x * ((q + 0x7F) << 23).astype(np.int32).view(_F32)


def powf_u10(x, y):
    """SLEEF's ``powf_u10`` of two float32 arrays (broadcast together)."""
    x, y = np.broadcast_arrays(np.asarray(x, _F32), np.asarray(y, _F32))
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        safe = np.where((ax > 0) & np.isfinite(ax), ax, _F32(1))
        lx, ly = _logkf(safe)
        r = _expkf(*sl._df_mul(lx, ly, y))
        r = np.where(np.isnan(r), _F32(np.inf), r)
        yisint = (np.trunc(y) == y) | (np.abs(y) > _F32(1 << 24))
        yisodd = ((np.trunc(np.where(np.abs(y) < _F32(1 << 24), y, 0)).astype(np.int64) & 1) == 1) & yisint \
            & (np.abs(y) < _F32(1 << 24))
        r = r * np.where(x > 0, _F32(1), np.where(yisint, np.where(yisodd, _F32(-1), _F32(1)), _F32(np.nan)))
        efx = np.where(np.signbit(y), -(ax - _F32(1)), ax - _F32(1))  # vmulsign: the sign of y flips it
        r = np.where(np.isinf(y), np.where(efx < 0, _F32(0), np.where(efx == 0, _F32(1), _F32(np.inf))), r)
        edge = np.copysign(np.where(np.signbit(y) ^ (x == 0), _F32(0), _F32(np.inf)), np.where(yisodd, x, _F32(1)))
        r = np.where(np.isinf(x) | (x == 0), edge, r)
        r = np.where(np.isnan(x) | np.isnan(y), _F32(np.nan), r)
        r = np.where((y == 0) | (x == 1), _F32(1), r)
    return r.astype(_F32)


def c_powf(x, y):
    """``std::pow(float, float)``: the C library's ``powf`` per element (NumPy's float32 power where there is no
    glibc)."""
    x, y = np.broadcast_arrays(np.asarray(x, _F32), np.asarray(y, _F32))
    if _C_POWF is None:
        with np.errstate(all="ignore"):
            return np.power(x, y)
    out = np.empty(x.shape, _F32)
    flat = out.reshape(-1)
    for i, (a, b) in enumerate(zip(x.reshape(-1).tolist(), y.reshape(-1).tolist())):
        flat[i] = _C_POWF(a, b)
    return out


def pow_float32(base, exponent):
    """``pow`` of float32 NumPy arrays (either may be 0-d) in PyTorch's kernel's split: SLEEF's in the vector steps,
    the C library's ``powf`` in the tail (``vector_loop``)."""
    return kernel_split(np.asarray(base, _F32), np.asarray(exponent, _F32), powf_u10, c_powf)


def kernel_split(base, exponent, vec, scalar):
    """``pow_tensor_tensor_kernel``'s split of two arrays of one dtype (either may be 0-d) between ``vec`` (SLEEF's
    function, two vectors a step) and ``scalar`` (the C library's): ``vector_loop``'s, and for operands broadcast
    against each other, row by row."""
    pair = 2 * _cpu.vector_bytes() // base.itemsize
    if base.ndim == 0 and exponent.ndim:
        if exponent.ndim > 1 and not exponent.flags.c_contiguous and exponent.strides[-1] != exponent.itemsize:
            # NOTE: number ** tensor's output is contiguous (pow.Scalar's meta gives no strides), so a transposed
            # exponent's inner loop is strided: all of it takes the scalar form
            return scalar(base, exponent)
        return vector_loop(exponent, lambda e, b: vec(b, e), lambda e, b: scalar(b, e), base)
    if exponent.ndim == 0 and base.ndim:
        return vector_loop(base, vec, scalar, exponent)
    if base.shape == exponent.shape:
        return vector_loop(base, vec, scalar, exponent)
    return _broadcast_rows(*np.broadcast_arrays(base, exponent), vec, scalar, pair)


def _broadcast_rows(base, exponent, vec, scalar, pair):
    """Operands broadcast against each other (same shape, strides 0 where broadcast), as TensorIterator loops over
    them: dims ordered by the operands' strides (``reorder_dimensions``: the first operand's decides, a broadcast
    stride defers to the next), the innermost ones coalesced where both stay contiguous across them, then row by row,
    each row vectorised where both operands are contiguous along it or one is constant (stride 0) and the other
    contiguous, with its own tail."""
    shape = base.shape
    dims = [d for d in range(base.ndim) if shape[d] != 1]
    order = _loop_order(dims, base, exponent)  # innermost first
    b, e = (np.transpose(a, [*reversed(order), *(d for d in range(a.ndim) if shape[d] == 1)])
            for a in (base, exponent))
    k = 1  # innermost dims that coalesce
    while k < len(order) and all(a.strides[-k - 1] == a.strides[-k] * a.shape[-k] for a in (b, e)):
        k += 1
    inner = int(np.prod(b.shape[len(order) - k:len(order)])) if order else 1
    rows_b, rows_e = (a.reshape(*a.shape[:len(order) - k], inner) for a in (b, e))
    steps = {rows_b.strides[-1], rows_e.strides[-1]}
    if inner < pair or steps not in ({base.itemsize}, {0, base.itemsize}):
        out = scalar(rows_b, rows_e)
    else:
        cut = inner - inner % pair
        out = np.empty(rows_b.shape, base.dtype)
        out[..., :cut] = vec(rows_b[..., :cut], rows_e[..., :cut])
        out[..., cut:] = scalar(rows_b[..., cut:], rows_e[..., cut:])
    out = np.asarray(out, base.dtype).reshape(b.shape)
    return np.transpose(out, np.argsort([*reversed(order), *(d for d in range(base.ndim) if shape[d] == 1)]))


def _loop_order(dims, *operands) -> list:
    """``dims`` innermost first as ``TensorIterator::reorder_dimensions`` sorts them (an insertion sort from the
    reversed order: a dim moves inward past another where the first operand with neither stride 0 has it at a
    smaller stride, or at an equal stride and a smaller size)."""
    def swap(d0, d1) -> int:
        for a in operands:
            s0, s1 = a.strides[d0], a.strides[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return 1 if s0 > s1 else -1
            if a.shape[d0] > a.shape[d1]:
                return 1
        return 0
    perm = list(reversed(dims))
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm
