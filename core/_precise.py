"""Float32 transcendental functions rounded as PyTorch's CPU kernels round them: once, from float64.

NumPy's float32 ``exp``, ``log``, ``tanh``, ``sin``... are its own SIMD approximations: measured on a million
normal samples, 12–40% of their results are one unit in the last place away from the correctly rounded
value. PyTorch's CPU kernels (SLEEF's 1-ulp functions, glibc for short tensors) give the correctly rounded
value for 99–100% of elements (``exp``, ``tanh``, ``log1p``, ``expm1``, ``log2``, ``log10``, ``sinh``) and
92–95% for ``log``, ``sin``, ``cos``, ``atan``. Those one-ulp differences are what make a tutorial's training
loop drift away from PyTorch's printed numbers after a few hundred steps. So a float32 input is computed in
float64 and rounded once to float32 (correctly rounded but for ~1 in 10^9 double roundings), which agrees
with PyTorch on far more elements. A large array is cast in and out blockwise within the ufunc's one call (NumPy's
float64 time), a small one through two copies (~2 µs more than NumPy's float32 kernel). Other dtypes and CuPy
arrays (PyTorch's CUDA kernels are another story) take the function as is.
"""

from __future__ import annotations

import numpy as np

__all__ = ["precise"]

_F32 = np.dtype(np.float32)
_F64 = np.float64
_ndarray = np.ndarray
_empty_like = np.empty_like  # keeps x's layout (a transposed input gives a transposed result, as astype did)
_ufunc = np.ufunc
# NOTE: up to here two astype copies cost less than a ufunc's own float64 casting (~0.25 µs a call, minimums of
# many runs); above it the casting ufunc is several times faster (65536 elements: 0.28 of the copies' time)
_SMALL = 16384


def precise(f, x):
    """``f(x)``, for a float32 NumPy array computed in float64 and rounded once to float32."""
    if x.dtype is _F32 and type(x) is _ndarray:
        if type(f) is _ufunc and x.size > _SMALL:  # one call: the ufunc casts in and out blockwise, in cache
            return f(x, out=_empty_like(x), dtype=_F64, casting="same_kind")
        return f(x.astype(_F64)).astype(_F32)
    return f(x)
