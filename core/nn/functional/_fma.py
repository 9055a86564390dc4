"""``fma(a, b, c)``: ``a * b + c`` rounded once, as the fused multiply-adds PyTorch's compiled CPU kernels use.

NumPy has no fused multiply-add. A float32 product is exact in float64, so float32 adds it there and rounds
once (the float64 sum's own rounding can, very rarely, move a tie); float64 writes the product as an exact
unevaluated sum (Dekker's product with Veltkamp's splits) and adds the rounding errors back. Either works on
NumPy and CuPy arrays of the same dtype (or NumPy scalars).
"""

from __future__ import annotations

import numpy as np

__all__ = ["fma"]

_SPLIT = 134217729.0  # 2^27 + 1: splits a float64 into two 26-bit halves


def _split(x):
    c = _SPLIT * x
    hi = c - (c - x)
    return hi, x - hi


def fma(a, b, c, xp=np):
    """``a * b + c`` with one rounding, in c's dtype (float32 or float64)."""
    if c.dtype == np.float32:
        return (a.astype(np.float64) * b.astype(np.float64) + c).astype(np.float32)
    p = a * b
    (ah, al), (bh, bl) = _split(a), _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # p + e == a * b exactly
    s = p + c
    v = s - p
    r = s + (((p - (s - v)) + (c - v)) + e)  # s plus the sum's and the product's rounding errors
    return xp.where(xp.isfinite(r), r, a * b + c)  # (the splits overflow, or turn an inf into nan)
