"""``a * b + c`` rounded once, as PyTorch's vectorised CPU kernels compute it with their fused multiply-add.

``add(x, y, alpha=a)`` (so every optimizer's ``param.add_(grad, alpha=-lr)``), ``lerp`` and ``addcmul`` use
``fmadd`` in PyTorch's x86 kernels: one rounding where ``c + a * b`` written out rounds twice, and about one
element in fifty differs in the last bit. NumPy has no fma ufunc, so: float32 computes in float64 and rounds
once more (a product of two float32 values is exact in float64, and the sum's second rounding lands where the
fused one does; checked element for element against torch on millions of values); float64 takes the exact
two-product fma of ``core._arange_values``; other dtypes and CuPy arrays (whose GPU kernels torch's CUDA
kernels don't mirror here) compute ``a * b + c``.
"""

from __future__ import annotations

import numpy as np

from core._arange_values import fma as _fma64

__all__ = ["fma", "fma_", "scaled_add", "scaled_add_", "lerp_"]

_f32, _f64 = np.dtype(np.float32), np.dtype(np.float64)


def fma(xp, a, b, c):
    """``a * b + c`` with one rounding, in the arrays' result dtype (Python numbers are weak, as in NumPy)."""
    dt = xp.result_type(a, b, c)
    if xp is np and dt == _f32:
        return np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64).astype(np.float32)
    if xp is np and dt == _f64:
        exact = _fma64(a, b, c)
        if np.isfinite(exact).all():
            return exact
        return np.where(np.isfinite(exact), exact, np.multiply(a, b) + c)  # inf, nan, or a split that overflowed
    if xp is np and (dt.kind == "V" or dt.char == "e"):  # bfloat16 (ml_dtypes), float16: in float64, rounded
        return np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64).astype(dt)  # once (float32 opmath)
    return a * b + c


def scaled_add(xp, x, y, alpha):
    """PyTorch's ``x.add(y, alpha=alpha)`` on arrays: ``fma(alpha, y, x)`` with ``alpha`` in ``x``'s dtype."""
    if alpha == 1:
        return x + y
    dt = xp.result_type(x, y)
    if (dt.kind == "V" or dt.char == "e") and xp is np:  # bfloat16, float16: PyTorch's add kernel, its tail too
        from core.ops._float32_compute import add_scaled_bfloat16  # (the ops import this module)

        return add_scaled_bfloat16(x, y, alpha)
    return fma(xp, dt.type(alpha) if dt.kind == "f" else alpha, y, x)


def fma_(xp, c, a, b) -> None:
    """``c = a * b + c`` in place, rounded once (``c`` an array; ``a``/``b`` arrays or numbers of ``c``'s dtype)."""
    if xp is np and c.dtype == _f32:
        t = np.multiply(a, b, dtype=np.float64)
        t += c
        np.copyto(c, t, casting="same_kind")
    else:
        c[...] = fma(xp, a, b, c)


def scaled_add_(xp, x, y, alpha: float) -> None:
    """PyTorch's ``x.add_(y, alpha=alpha)`` on arrays, in place (every optimizer's ``param.add_(d_p, alpha=-lr)``).

    NOTE: an optimizer's hot path: float32 takes three NumPy calls (the product in float64, the sum, the store
    that rounds to float32), two more than the unfused ``x -= y * lr``'s cost in Python overhead only.
    """
    if xp is np and x.dtype == _f32 and y.dtype == _f32:
        t = y * np.float64(np.float32(alpha))
        t += x
        x[...] = t
    else:
        x[...] = scaled_add(xp, x, y, alpha)


def lerp_(xp, start, end, weight: float) -> None:
    """PyTorch's ``start.lerp_(end, weight)`` on arrays, for a number ``weight`` (its CPU kernel's fused form)."""
    w = start.dtype.type(weight)
    if abs(w) < 0.5:
        fma_(xp, start, w, end - start)
    else:
        start[...] = fma(xp, w - 1, end - start, end)
