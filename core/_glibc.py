"""glibc's float32 ``expf``, as PyTorch's scalar CPU loops call it (``std::exp`` of a float).

PyTorch's elementwise kernels such as sigmoid's take SLEEF's vectorised exp two vectors at a time and
``std::exp`` for the rest: all of a tensor under 32 elements, the tail of a longer one. That is glibc's
``expf`` (sysdeps/ieee754/flt-32/e_expf.c, since 2.27): ``2^(k/32)`` from a table times a cubic in the
remainder, all in double, then one rounding to float. It is not correctly rounded (within 0.502 ulp): about
1 input in 300 gets the other neighbour of exp(x), and a small network's sigmoid (XOR) hits one within a
few hundred training steps. The double arithmetic here is glibc's, step for step; its x86-64 build fuses
some multiply-adds, which moves the double result by ~1e-16 and so the float only where it lies that close
to a rounding midpoint (about 1 input in 10^8).
"""

from __future__ import annotations

import numpy as np

__all__ = ["expf"]

_N = 32
_TAB = np.array([
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540], np.uint64)
_INV_LN2_N = float.fromhex("0x1.71547652b82fep+0") * _N
_SHIFT = float.fromhex("0x1.8p+52")
_C0 = float.fromhex("0x1.c6af84b912394p-5") / _N / _N / _N
_C1 = float.fromhex("0x1.ebfce50fac4f3p-3") / _N / _N
_C2 = float.fromhex("0x1.62e42ff0c52d6p-1") / _N
_OVER, _UNDER = np.float32(float.fromhex("0x1.62e42ep6")), np.float32(float.fromhex("-0x1.9fe368p6"))


def expf(x: np.ndarray) -> np.ndarray:
    """glibc's ``expf`` of a float32 NumPy array (any shape), element for element."""
    x = np.asarray(x, np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        z = _INV_LN2_N * x.astype(np.float64)  # x N / ln 2 = k + r, r in [-1/2, 1/2]
        kd = z + _SHIFT  # k in the low bits of kd's mantissa
        ki = kd.view(np.uint64)
        kd = kd - _SHIFT
        r = z - kd
        s = (_TAB[ki % _N] + (ki << np.uint64(52 - 5))).view(np.float64)  # 2^(k/N)
        y = _C2 * r + 1 + (_C0 * r + _C1) * (r * r)  # (y = C2 r + 1; y = z r^2 + y: added in glibc's order)
        out = (y * s).astype(np.float32)
        odd = ~(np.abs(x) < 88)  # |x| >= 88 or nan: glibc's special cases
        if odd.any():
            xo = x[odd]
            fix = out[odd]
            fix[xo > _OVER] = np.inf
            fix[xo < _UNDER] = 0
            fix[np.isnan(xo)] = np.nan
            fix[xo == np.inf] = np.inf
            out[odd] = fix
    return out
