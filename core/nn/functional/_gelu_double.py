"""Float64 GELU's ``approximate='tanh'`` forward and gradient as ATen's AVX-512 ``GeluKernel`` computes them, bit for
bit (torch 2.13, measured 2026-12-06 on an AMD EPYC Zen 4)::

    inner = kBeta * fma(kKappa, x * x * x, x)            kBeta = sqrt(2) * (2 / sqrt(pi)) * 0.5, kKappa = 0.044715
    gelu  = 0.5 * x * (1 + tanh(inner))
    grad  = dy * (0.5 * (1 + t) + 0.5 * x * fma(-t, t, 1) * (kBeta * fma(3 kKappa, x * x, 1)))     t = tanh(inner)

with SLEEF's ``tanhd_u10`` (``Vectorized<double>::tanh``, ``core._sleef_tanhd``) on the 16-double steps of the vector
loop and glibc's ``tanh`` for the last ``n % 16``, a short or a strided tensor (``core._sleef.vector_loop``); the
compiled loops fuse the multiply-adds shown in both forms, as float32's do. NumPy's tanh and unfused steps differed
from torch's in ~13% of outputs and ~50% of gradients.
"""

from __future__ import annotations

import math

import numpy as np

from core import _glibc
from core._fused import fma
from core._sleef import vector_loop
from core._sleef_tanhd import tanhd_u10

__all__ = ["gelu_tanh_double", "gelu_tanh_grad_double"]

_BETA = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5  # (M_SQRT2 * M_2_SQRTPI * 0.5, in double)
_KAPPA = 0.044715


def _glibc_tanh(v):
    return _glibc.tanh(v, any_size=True)  # NOTE: a large strided tensor's too (~0.3 us an element: < tanhd_u10)


def _inner(v):
    return _BETA * fma(np, _KAPPA, v * v * v, v)


def _forward(tanh):
    def form(v):
        return 0.5 * v * (1 + tanh(_inner(v)))
    return form


def _backward(tanh):
    def form(v, dy):
        t = tanh(_inner(v))
        right = 0.5 * v * fma(np, -t, t, 1.0) * (_BETA * fma(np, 3 * _KAPPA, v * v, 1.0))
        return dy * (0.5 * (1 + t) + right)
    return form


def gelu_tanh_double(x: np.ndarray) -> np.ndarray:
    """GELU's tanh form of a float64 NumPy array (module docstring)."""
    with np.errstate(all="ignore"):
        return vector_loop(x, _forward(tanhd_u10), _forward(_glibc_tanh))


def gelu_tanh_grad_double(x: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Its gradient, ``dy`` of ``x``'s shape (module docstring)."""
    with np.errstate(all="ignore"):
        return vector_loop(x, _backward(tanhd_u10), _backward(_glibc_tanh), dy)
