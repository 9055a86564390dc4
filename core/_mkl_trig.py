"""PyTorch's float32 ``sin``, ``cos`` and ``tan`` as MKL's vector math computes them: the same steps in NumPy.

torch 2.13's float32 ``sin`` and ``cos`` (any size from one element, any layout, in place, ``out=``: ATen's
``vml::vsin``/``vcos``) are MKL's ``vmsSin``/``vmsCos`` with ``VML_HA``, which are not correctly rounded: about 5%
of the results for |x| in [0.25, 4096] are an ulp from the correctly rounded ones core computes elsewhere
(``core._precise``), 1% for larger |x|. Every sinusoidal positional encoding prints them. Measured against torch
2.13 on an AMD EPYC Zen 4 (2026-12-06), and the steps read with objdump from MKL's SSE kernels in libtorch_cpu
(``mkl_vml_kernel_sSin_EXHAynn``, ``..._sCos_EXHAynn``) and checked by calling them through ctypes:

- |x| <= 10000 (the SSE kernels, and MKL's AVX2 and AVX-512 ones that torch runs on an Intel CPU but for 2 sines
  and 8 cosines of these 2.4e9 floats, at results near +-1: 7428.2964, 3279.823...):
  ``a = |x|`` in float32, ``t = a * (1/pi) + 1.5 * 2^23`` (cos: ``t = (a + pi/2) * (1/pi) + 1.5 * 2^23``), each step
  rounded to float32, ``n = t - 1.5 * 2^23`` (cos: ``- 0.5`` more), then in float64::

    r = (a - n * PI_1) - n * PI_2                  # PI_1: pi's leading 36 fraction bits, PI_2 = pi - PI_1
    y = ((((S4 r^2 + S3) r^2 + S2) r^2 + S1) r^2) r + r

  rounded once to float32, its sign flipped where n is odd (sin: and where x is negative). S1..S4 are the kernel's
  minimax coefficients (its bit patterns). Bit for bit with torch on every float32 with |x| <= 10000 (sin and cos);
  core takes these steps on every CPU;
- |x| > 10000 (MKL's SSE kernels, which torch runs on an AMD CPU): all in float32 but the reduction. x/(2 pi)'s
  fraction to 64 bits from x's 24-bit mantissa times 96 bits of 1/(2 pi) picked by x's exponent, in 16-bit limbs
  of which the lowest three partial products are dropped (``_reduce``), split in three float32s; ``j``: the nearest
  multiple of 1/256, ``R = (fraction - j/256) * 2 pi`` as a float32 pair (``Rh + Rl``), and
  sin(2 pi j/256 + R) = S_j cos R + C_j sin R with the table S_j (two float32s) and C_j (a power of two plus a
  float32) and float32 polynomials for cos R - 1 and sin R - R (``_big``); cos takes j + 64 (a quarter turn).
  Measured bit for bit on 4M random |x| in (10000, 2^128) (sin and cos) against the SSE kernel and on each binade
  sampled against torch; MKL's AVX2 and AVX-512 kernels, which torch runs on an Intel CPU, differ from them in
  0.024% of those inputs (core's correctly rounded float64 route differs in 1%);
- inf and NaN give NaN.

``tan`` (2026-12-06; on an AMD CPU only: MKL's AVX2/AVX-512 kernels that torch runs on an Intel CPU differ in ~18%
of x in [-10, 10]): for |x| <= 10000 its SSE kernel takes n = round(|x| * 2/pi) in float32 as above, r = (|x| -
n * PI_1/2) - n * PI_2/2 and ``num = r - (T0 r) r^2``, ``den = (T1 r^2 + T2) r^2 + 1`` in float64 (T0..T2: the
kernel's bit patterns), then ``num / den`` (n even) or ``-den / num`` (n odd), rounded once, with x's sign: bit for
bit with torch on every float32 in [0, 10000] (core's correctly rounded tan differed in 18% of x in [-10, 10]).
Beyond, the kernel's table method (``vstan_data``, ten float32s a row, and the CPU's ``rcpps`` estimate) is not
reproduced: core keeps the correctly rounded tan there, which differs from torch's in 0.1% of such inputs.

Float64 and the half types keep core's own routes (``core._precise``). Cost (``benchmarks/bench_mkl_vml.py``, CPU
time, 2026-12-06, load ~5): 10^6 float32 in [-10, 10] ~5 ms (the float64 route core took before ~17 ms, NumPy's
float32 SIMD sin 0.5 ms, torch 1.3 ms), 200 of them ~17 us (float64 route 3 us); the |x| > 10000 path runs only on
the elements that need it.
"""

from __future__ import annotations

import decimal
import functools

import numpy as np

from core import _cpu, _mkl_vml
from core._precise import precise

__all__ = ["vsin", "vcos", "vtan", "sin", "cos", "tan"]

_U32, _F32, _F64 = np.uint32, np.dtype(np.float32), np.dtype(np.float64)
_U64_ZERO = np.uint64(0)
_BLOCK = 16384  # elements per step: the temporaries stay in cache
_SSE = _cpu.mkl_vml_sse()


def _f32(bits: int) -> np.ndarray:
    """The float32 with these bits, as a 0-d array (the fastest scalar operand of a ufunc)."""
    return np.array(bits, _U32).view(np.float32)


# -- |x| <= 10000: a float64 polynomial after a Cody-Waite reduction by pi

_LIMIT = _f32(0x461C4000)                                 # 10000: larger |x| (and NaN) take _big
_INV_PI, _HALF_PI = _f32(0x3EA2F983), _f32(0x3FC90FDB)    # 1/pi and pi/2 rounded to float32
_SHIFT, _MINUS_HALF = _f32(0x4B400000), _f32(0xBF000000)  # 1.5 * 2^23, -0.5
_D_SHIFT, _D_SHIFT_COS = 1.5 * 2.0 ** 23, 1.5 * 2.0 ** 23 + 0.5
_PI_1 = float.fromhex("0x1.921fb54440000p+1")             # pi's leading 36 fraction bits (n * _PI_1 is exact)
_PI_2 = float.fromhex("0x1.68c234c4c6629p-38")            # pi - _PI_1, rounded
# the kernel's minimax coefficients of (sin r - r) / r^3 in r^2, highest first (its bit patterns)
_S = tuple(float.fromhex(h) for h in ("0x1.5dbdf0e4c7deep-19", "-0x1.9f6ffeea73463p-13", "0x1.110ed3804ca96p-7",
                                      "-0x1.55554bc836587p-3"))
_SIGN = _U32(0x80000000)
# NOTE: the float64 steps' constants as 0-d arrays: a ufunc converts a Python number operand into an array on every
# call (~0.2 µs of a small block's ~0.6 µs call); a 0-d float64 array gives the same values
_K_PI_1, _K_PI_2, _K_SHIFT, _K_SHIFT_COS = (np.array(c) for c in (_PI_1, _PI_2, _D_SHIFT, _D_SHIFT_COS))
_K_S = tuple(np.array(c) for c in _S)
_K_31 = np.array(31, _U32)


def _small(x: np.ndarray, out: np.ndarray, cos: bool, a: np.ndarray | None = None) -> None:
    """MKL's steps for |x| <= 10000 (module docstring) of float32 ``x`` into ``out`` (``a``: |x|, if computed
    already); garbage elsewhere."""
    if a is None:
        a = np.abs(x)
    if cos:
        t = a + _HALF_PI
        t *= _INV_PI
    else:
        t = a * _INV_PI
    t += _SHIFT
    n = t.astype(np.float64)
    n -= _K_SHIFT_COS if cos else _K_SHIFT  # (exact: t - 1.5 * 2^23 is an integer, cos's less 0.5)
    r = a.astype(np.float64)
    p = n * _K_PI_1
    r -= p
    np.multiply(n, _K_PI_2, out=p)
    r -= p
    r2 = np.multiply(r, r, out=n)
    np.multiply(r2, _K_S[0], out=p)
    for c in _K_S[1:]:
        p += c
        p *= r2
    p *= r
    p += r
    bits = t.view(_U32)
    bits <<= _K_31                          # n's parity as the sign
    if not cos:
        bits ^= x.view(_U32) & _SIGN
    np.bitwise_xor(p.astype(np.float32).view(_U32), bits, out=out.view(_U32))


# -- |x| > 10000: a float32 table method after an exact-ish reduction by 2 pi

_PI2_HI, _PI2_LO, _PI2 = _f32(0x40C91000), _f32(0x3795777A), _f32(0x40C90FDB)  # 2pi = HI - LO (HI: 11 bits); f32
_Q1, _Q2, _Q3 = _f32(0x3C08885C), _f32(0xBE2AAAAB), _f32(0x3D2AAA7C)  # kernel's: sin R - R, cos R - 1 polynomials
_TURN_SHIFT, _MINUS_TURN_SHIFT = _f32(0x47400000), _f32(0xC7400000)  # +-1.5 * 2^15: rounds to 1/256


def _pi_bits(bits: int) -> int:
    """floor(pi * 2^bits) (Machin's formula in integers, 32 guard bits; exact unless pi's next bits are all ones
    or zeros for 32 bits)."""
    one = 1 << (bits + 32)

    def atan_inv(k: int) -> int:
        total, term, n, sign = 0, one // k, 1, 1
        while term:
            total += sign * (term // n)
            term //= k * k
            n, sign = n + 2, -sign
        return total

    return (16 * atan_inv(5) - 4 * atan_inv(239)) >> 32


@functools.cache
def _inv_2pi_words() -> np.ndarray:
    """(256, 3) uint32: floor(2^(e - 55) / pi) mod 2^96 for each float32 exponent field e, in 32-bit words."""
    inv = (1 << 600) // _pi_bits(400)                   # floor(2^200 / pi): 2^(e - 55) / pi for e - 55 <= 200
    words = np.zeros((256, 3), _U32)
    for e in range(55, 256):
        w = (inv >> (200 - (e - 55))) & ((1 << 96) - 1)
        words[e] = [(w >> 64) & 0xFFFFFFFF, (w >> 32) & 0xFFFFFFFF, w & 0xFFFFFFFF]
    return words


@functools.cache
def _turn_table() -> np.ndarray:
    """(256, 4) float32 for theta = 2 pi j / 256: C_j - P_j, S_j rounded, S_j's rest rounded, P_j (C_j = cos theta,
    S_j = sin theta, P_j = C_j's sign times the power of two nearest C_j in log scale, 0 where C_j = 0); from
    ``decimal`` to 40 places, each rounded to float64 and then to float32 (the kernel's table, checked bit for bit)."""
    d = decimal.Decimal
    with decimal.localcontext() as ctx:
        ctx.prec = 45
        pi = d(_pi_bits(200)) / d(2) ** 200
        rows = []
        for j in range(256):
            theta = 2 * pi * j / 256
            s, c, term, k = d(0), d(0), d(1), 0
            while abs(term) > d(10) ** -44 or k < 2:   # Taylor: term = theta^k / k!
                if k % 2:
                    s += term if k % 4 == 1 else -term
                else:
                    c += term if k % 4 == 0 else -term
                k += 1
                term = term * theta / k
            s, c = (v.quantize(d(10) ** -40) + 0 for v in (s, c))  # exact (and +0) at the quarter turns
            power = 0.0
            if c:
                e = int(np.floor(float(abs(c).ln() / d(2).ln()) + 0.5))
                power = float(np.copysign(2.0 ** e, float(c)))
            high = float(np.float32(float(s)))
            rows.append([np.float32(float(c - d(power))), high, np.float32(float(s - d(high))), power])
    return np.array(rows, np.float64).astype(np.float32)


def _reduce(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """x/(2 pi) mod 1 as MKL's kernel forms it: the 32 top bits, the next 32, and the two 16-bit carries' sums it
    builds the float32 pieces from (V3, V4 below)."""
    bits = x.view(_U32)
    w = _inv_2pi_words()[(bits >> _U32(23)) & _U32(255)]
    low16, half = _U32(0xFFFF), _U32(16)
    mh = ((bits >> half) & _U32(0x7F)) | _U32(0x80)   # the mantissa's top 8 bits and its low 16
    ml = bits & low16
    a5, a4, a3, a2, a1, a0 = (w[:, 0] >> half, w[:, 0] & low16, w[:, 1] >> half, w[:, 1] & low16, w[:, 2] >> half,
                              w[:, 2] & low16)
    u5 = ((a4 * ml) >> half) + a5 * ml + a4 * mh       # (uint32 sums wrap as the kernel's)
    u4 = ((a4 * ml) & low16) + ((a3 * ml) >> half) + a3 * mh
    u3 = ((a3 * ml) & low16) + a2 * mh + ((a2 * ml) >> half)
    u2 = ((a0 * mh) >> half) + ((a2 * ml) & low16) + ((a1 * ml) >> half) + a1 * mh
    v3 = (u2 >> half) + u3
    v4 = (v3 >> half) + u4
    return (u5 << half) + v4, (u2 & low16) | (v3 << half), v3, v4


def _big(x: np.ndarray, quarter: int) -> np.ndarray:
    """MKL's SSE kernel's sin of float32 ``x`` (finite, |x| > 10000) turned by ``quarter`` * pi/2 (1: cos)."""
    top, low, v3, v4 = _reduce(x)
    sign = x.view(_U32) & _SIGN
    f1 = (sign | _U32(0x3F800000) | (top >> _U32(9))).view(np.float32)   # 1 + the first 23 bits (signed)
    y = f1 + _TURN_SHIFT
    f1 -= y + _MINUS_TURN_SHIFT                                          # less the nearest multiple of 1/256
    k3, k2 = sign | _U32(0x28800000), sign | _U32(0x34000000)          # +-2^-46, +-2^-23
    f3 = (k3 | ((low << _U32(5)) & _U32(0x7FFFE0))).view(np.float32) - k3.view(np.float32)
    f2 = (k2 | ((v4 << _U32(14)) & _U32(0x7FC000)) | ((v3 << _U32(16)) >> _U32(18))).view(np.float32) \
        - k2.view(np.float32)
    s = f2 + f1
    lo = ((f1 - s) + f2) + f3
    hi = (s.view(_U32) & _U32(0xFFFFF000)).view(np.float32)
    rest = s - hi
    a = hi * _PI2_HI
    c = (lo * _PI2 - rest * _PI2_LO) + (rest * _PI2_HI - hi * _PI2_LO)
    rh = a + c
    rl = (a - rh) + c
    r2 = rh * rh
    t0, t1, t2, t3 = _turn_table()[(y.view(_U32) + _U32(64 * quarter)) & _U32(255)].T
    x8 = t3 * rh + t1
    x11 = t0 * rh
    x3 = x11 + x8
    x8 = ((x8 - x3) + x11) + ((t1 - x8) + t3 * rh)
    cos_m1 = (r2 * _Q3 + _MINUS_HALF) * r2 * t1
    x1 = (t3 + t0) - rh * t1
    cos_m1 += rl * x1 + t2
    x1 *= (r2 * _Q1 + _Q2) * r2 * rh
    return ((x1 + x8) + cos_m1) + x3


# -- tan, |x| <= 10000: a float64 rational function after a Cody-Waite reduction by pi/2

_TWO_OVER_PI = _f32(0x3F22F983)                           # 2/pi rounded to float32
_HALF_PI_1 = float.fromhex("0x1.921fb54440000p+0")        # _PI_1 / 2, _PI_2 / 2
_HALF_PI_2 = float.fromhex("0x1.68c234c4c6629p-39")
# the kernel's coefficients (its bit patterns): tan r ~ (r - T0 r^3) / ((T1 r^2 + T2) r^2 + 1)
_T0, _T1, _T2 = (float.fromhex(h) for h in ("0x1.8867706ed6612p-4", "0x1.3e66ea6aa37f2p-7", "-0x1.b76f5e7f08c11p-2"))


def _tan_small(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's SSE tan for |x| <= 10000 (module docstring) of float32 ``x`` into ``out``; garbage elsewhere."""
    a = np.abs(x)
    t = a * _TWO_OVER_PI
    t += _SHIFT
    n = t.astype(np.float64)
    n -= _D_SHIFT
    r = a.astype(np.float64)
    p = n * _HALF_PI_1
    r -= p
    np.multiply(n, _HALF_PI_2, out=p)
    r -= p
    r2 = np.multiply(r, r, out=n)
    num = r * _T0
    num *= r2
    np.subtract(r, num, out=num)               # r - (T0 r) r^2
    np.multiply(r2, _T1, out=p)
    p += _T2
    p *= r2
    p += 1.0                                   # the denominator
    bits = t.view(_U32)
    swap = (bits & _U32(1)).astype(np.uint64)
    np.subtract(_U64_ZERO, swap, out=swap)     # all ones where n is odd: -cot r = -den / num
    flip = num.view(np.uint64) ^ p.view(np.uint64)
    flip &= swap
    num.view(np.uint64)[...] ^= flip           # (a bitwise select: no branchy masked copies)
    p.view(np.uint64)[...] ^= flip
    num /= p
    bits <<= _U32(31)
    bits ^= x.view(_U32) & _SIGN
    np.bitwise_xor(num.astype(np.float32).view(_U32), bits, out=out.view(_U32))


def _tan_steps(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's SSE tan of a float32 block into ``out`` for |x| <= 10000; beyond, where its kernel takes a table method
    core does not reproduce, the correctly rounded tan (``core._precise``), which differs from it in ~1%."""
    if np.abs(x).max() <= _LIMIT:  # (a NaN fails)
        _tan_small(x, out)
        return
    with np.errstate(all="ignore"):
        _tan_small(x, out)
        off = ~(np.abs(x) <= _LIMIT)
        out[off] = precise(np.tan, x[off])


def _steps(x: np.ndarray, out: np.ndarray, cos: bool) -> None:
    """MKL's sin (or cos) of a float32 block into ``out``: ``_small``, then ``_big`` where |x| > 10000, NaN for
    inf and NaN."""
    a = np.abs(x)
    if np.maximum.reduce(a) <= _LIMIT:  # (a NaN fails; NOTE: one reduction of |x|, which the steps take anyway)
        _small(x, out, cos, a)
        return
    with np.errstate(all="ignore"):
        _small(x, out, cos)
        off = ~(np.abs(x) <= _LIMIT)
        finite = np.isfinite(x)
        big = off & finite
        if big.any():
            out[big] = _big(np.abs(x[big]) if cos else x[big], int(cos))
        bad = ~finite
        out[bad] = x[bad] - x[bad]


def _blockwise(x: np.ndarray, cos: bool) -> np.ndarray:
    return _mkl_vml.blockwise(x, _steps, cos, block=_BLOCK)


def vtan(x: np.ndarray) -> np.ndarray:
    """MKL's float32 SSE vector tan for |x| <= 10000 (correctly rounded beyond) of a float32 NumPy array."""
    return _mkl_vml.blockwise(x, _tan_steps, block=_BLOCK)


def vsin(x: np.ndarray) -> np.ndarray:
    """MKL's float32 vector sin of a float32 NumPy array (module docstring), C-ordered."""
    return _blockwise(x, False)


def vcos(x: np.ndarray) -> np.ndarray:
    """MKL's float32 vector cos of a float32 NumPy array (module docstring), C-ordered."""
    return _blockwise(x, True)


# -- what core's ops call

def sin(xp, x):
    """torch's ``sin`` of a backend array: MKL's steps where ``x`` is a float32 NumPy array, else ``core._precise``'s
    correctly rounded one."""
    if x.dtype is _F32 and type(x) is np.ndarray:
        return vsin(x)
    return precise(xp.sin, x)


def cos(xp, x):
    """torch's ``cos`` of a backend array: as ``sin``."""
    if x.dtype is _F32 and type(x) is np.ndarray:
        return vcos(x)
    return precise(xp.cos, x)


def tan(xp, x):
    """torch's ``tan`` of a backend array: MKL's SSE steps where ``core._cpu.mkl_vml_sse()`` holds (an AMD CPU) and
    ``x`` is a float32 NumPy array, else ``core._precise``'s correctly rounded one."""
    if _SSE and x.dtype is _F32 and type(x) is np.ndarray:
        return vtan(x)
    return precise(xp.tan, x)
