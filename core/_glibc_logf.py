"""glibc's float32 ``logf`` and ``log1pf`` on arrays, bit for bit, at NumPy's speed.

PyTorch's ``binary_cross_entropy`` is a scalar CPU loop: ``std::log`` and ``std::log1p`` of a float, glibc's
``logf`` and ``log1pf``, neither correctly rounded (``log1pf`` differs from the rounded double on ~7% of sigmoid
outputs' ``log1p(-x)``). ``core._glibc`` calls them through ctypes, ~1 µs an element: too slow for an
autoencoder's (128, 784) loss every step. Here are both algorithms in NumPy:

- ``logf`` (sysdeps/ieee754/flt-32/e_logf.c, glibc 2.28 on): ``x = 2^k z``, ``log(x) = k ln2 + log(c) + log1p(r)``
  with ``1/c`` and ``log(c)`` from its 16-entry table and ``r = z/c - 1``, a cubic in ``r``, all in double, one
  rounding to float. x86-64's FMA build fuses its multiply-adds, which moves the double by a few units in its last
  place: where that double lies so near halfway between two floats that this could move the float (~1 input in
  10^5), and for zero, subnormal, negative and non-finite inputs, the C library is asked.
- ``log1pf`` (sysdeps/ieee754/flt-32/s_log1pf.c, fdlibm's): every step in float, which NumPy's float32 arithmetic
  rounds as the C code does (its x86-64 build has no FMA variant). Its two main branches (``|x| <= 0.2929`` and
  positive ``x``: ``f = x``; ``-1 < x < -0.2929`` and ``x >= 0.41422``: ``1 + x = 2^k (1 + f)`` with a correction
  ``c``) are ported; the rare others (``|f| < 2^-20``, ``|x| < 2^-29``, ``x >= 2^53``, ``x <= -1``, non-finite)
  ask the C library.

On first use each port is checked against the C library on a fixed sample; where that library is not glibc or
computes otherwise, ``available()`` is False and callers keep their own route.
"""

from __future__ import annotations

import numpy as np

from core import _glibc

__all__ = ["available", "log1pf", "logf"]

_LOGF_TABLE = np.array([float.fromhex(v) for v in """
    0x1.661ec79f8f3bep+0 -0x1.57bf7808caadep-2 0x1.571ed4aaf883dp+0 -0x1.2bef0a7c06ddbp-2
    0x1.49539f0f010b0p+0 -0x1.01eae7f513a67p-2 0x1.3c995b0b80385p+0 -0x1.b31d8a68224e9p-3
    0x1.30d190c8864a5p+0 -0x1.6574f0ac07758p-3 0x1.25e227b0b8ea0p+0 -0x1.1aa2bc79c8100p-3
    0x1.1bb4a4a1a343fp+0 -0x1.a4e76ce8c0e5ep-4 0x1.12358f08ae5bap+0 -0x1.1973c5a611cccp-4
    0x1.0953f419900a7p+0 -0x1.252f438e10c1ep-5 0x1.0000000000000p+0 0x0.0p+0
    0x1.e608cfd9a47acp-1 0x1.aa5aa5df25984p-5 0x1.ca4b31f026aa0p-1 0x1.c5e53aa362eb4p-4
    0x1.b2036576afce6p-1 0x1.526e57720db08p-3 0x1.9c2d163a1aa2dp-1 0x1.bc2860d224770p-3
    0x1.886e6037841edp-1 0x1.1058bc8a07ee1p-2 0x1.767dcf5534862p-1 0x1.4043057b6ee09p-2""".split()]).reshape(16, 2)
_INVC, _LOGC = _LOGF_TABLE[:, 0].copy(), _LOGF_TABLE[:, 1].copy()
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_A0, _A1, _A2 = (float.fromhex(v) for v in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))
_OFF = 0x3F330000
_MARGIN = 2.0 ** -40  # relative: the fused and unfused doubles differ by far less (a few 2^-53)

_F = np.float32
_LN2_HI, _LN2_LO = _F(6.9313812256e-01), _F(9.0580006145e-06)
_LP = [_F(v) for v in (6.6666668653e-01, 4.0000000596e-01, 2.8571429849e-01, 2.2222198546e-01, 1.8183572590e-01,
                       1.5313838422e-01, 1.4798198640e-01)]
_checked: bool | None = None


def _with_c_library(out: np.ndarray, x: np.ndarray, ask: np.ndarray, function) -> np.ndarray:
    """``out`` with the C library's ``function`` of ``x`` where ``ask`` is set."""
    if ask.any():
        out[ask] = function(x[ask])
    return out


def logf(x: np.ndarray) -> np.ndarray:
    """glibc's ``logf`` of each element of float32 ``x`` (a new float32 array of its shape)."""
    x = np.ascontiguousarray(x, _F)
    ix = x.view(np.uint32).astype(np.int64)
    special = (ix - 0x00800000) & 0xFFFFFFFF >= 0x7F800000 - 0x00800000  # zero, subnormal, negative, inf, nan
    ix = np.where(special, 0x3F800000, ix)
    tmp = ix - _OFF
    i = (tmp >> 19) % 16
    k = (tmp.astype(np.int32) >> 23).astype(np.float64)  # (an arithmetic shift of the 32-bit difference)
    z = (ix - (tmp & (0x1FF << 23))).astype(np.uint32).view(_F).astype(np.float64)
    r = z * _INVC[i] - 1
    y0 = _LOGC[i] + k * _LN2
    r2 = r * r
    y = (_A0 * r2 + (_A1 * r + _A2)) * r2 + (y0 + r)
    out = y.astype(_F)
    wobble = np.abs(y) * _MARGIN
    near_half = (y - wobble).astype(_F) != (y + wobble).astype(_F)
    return _with_c_library(out, x, special | near_half, _glibc.logf)


def log1pf(x: np.ndarray) -> np.ndarray:
    """glibc's ``log1pf`` of each element of float32 ``x`` (a new float32 array of its shape)."""
    x = np.ascontiguousarray(x, _F)
    hx = x.view(np.int32)
    ax = hx & 0x7FFFFFFF
    one = _F(1)
    with np.errstate(all="ignore"):
        small_f = (hx > 0) | (hx <= np.int32(-1097468385))  # (int32)0xbe95f61f: -0.2929 <= x, f = x, k = 0
        main = (hx < 0x3ED413D7) & (ax < 0x3F800000) & (ax >= 0x31000000) & small_f
        wide = ((hx < 0x3ED413D7) & (ax < 0x3F800000) & (ax >= 0x31000000) & ~small_f) | \
            ((hx >= 0x3ED413D7) & (hx < 0x5A000000))  # 1 + x = 2^k (1 + f), with a correction c
        u = one + x
        hu = u.view(np.int32)
        k = (hu >> 23) - 127
        c = np.where(k > 0, one - (u - x), x - (u - one)) / u
        hu = hu & 0x007FFFFF
        low = hu < 0x3504F7
        k = np.where(low, k, k + 1)
        un = np.where(low, hu | 0x3F800000, hu | 0x3F000000).astype(np.int32).view(_F)
        hu = np.where(low, hu, (0x00800000 - hu) >> 2)
        f = np.where(wide, un - one, x)
        c = np.where(wide, c, _F(0))
        k = np.where(wide, k, 0)
        ask = ~(main | wide) | (wide & (hu == 0))  # NOTE: hu == 0 is fdlibm's |f| < 2^-20 branch
        hfsq = _F(0.5) * f * f
        s = f / (_F(2) + f)
        z = s * s
        poly = _LP[6]
        for coefficient in reversed(_LP[:6]):
            poly = coefficient + z * poly
        big_r = z * poly
        kf = k.astype(_F)
        near_zero = f - (hfsq - s * (hfsq + big_r))
        shifted = kf * _LN2_HI - ((hfsq - (s * (hfsq + big_r) + (c + kf * _LN2_LO))) - f)
        out = np.where(k == 0, near_zero, shifted).astype(_F)
    return _with_c_library(out, x, ask, _glibc.log1pf)


def available() -> bool:
    """Whether both ports give the C library's results on a fixed sample (glibc with these algorithms)."""
    global _checked
    if _checked is None:
        if _glibc._C_LOGF is None or _glibc._C_LOG1PF is None:
            _checked = False
        else:
            rng = np.random.default_rng(19)
            sample = np.concatenate([rng.random(3000, _F), -rng.random(3000, _F), rng.random(500, _F) * 100,
                                     np.exp(rng.uniform(-80, 80, 500)).astype(_F)])
            _checked = bool(np.array_equal(logf(np.abs(sample)), _per_element(_glibc._C_LOGF, np.abs(sample)))
                            and np.array_equal(log1pf(sample), _per_element(_glibc._C_LOG1PF, sample)))
    return _checked


def _per_element(function, x):
    return np.fromiter(map(function, x.tolist()), _F, x.size)
