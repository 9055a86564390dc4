"""Float64 GELU's ``approximate='tanh'`` forward and gradient as ATen's AVX-512 ``GeluKernel`` computes them, bit for
bit (torch 2.13, measured 2026-12-06 on an AMD EPYC Zen 4)::

    inner = kBeta * fma(kKappa, x * x * x, x)            kBeta = sqrt(2) * (2 / sqrt(pi)) * 0.5, kKappa = 0.044715
    gelu  = 0.5 * x * (1 + tanh(inner))
    grad  = dy * (0.5 * (1 + t) + 0.5 * x * fma(-t, t, 1) * (kBeta * fma(3 kKappa, x * x, 1)))     t = tanh(inner)

with SLEEF's ``tanhd_u10`` (``Vectorized<double>::tanh``, ``core._sleef_tanhd``) on the 16-double steps of the vector
loop and glibc's ``tanh`` for the last ``n % 16``, a short or a strided tensor (``core._sleef.vector_loop``); the
compiled loops fuse the multiply-adds shown in both forms, as float32's do. NumPy's tanh and unfused steps differed
from torch's in ~13% of outputs and ~50% of gradients.

The exact form (``approximate='none'``), its kernel's double steps::

    gelu = (x * 0.5) * (1 + erf(x * kAlpha))                                  kAlpha = M_SQRT1_2
    grad = dy * (cdf + x * pdf)      cdf = 0.5 * (1 + erf(x * kAlpha)),  pdf = kBeta2 * exp((x * x) * -0.5)

with SLEEF's ``erfd_u10`` and ``expd_u10`` (``core._sleef_erfd``, ``core.nn.functional._flash_cpu``) on the vector
steps, where ``cdf + x * pdf`` is one fused multiply-add, and glibc's ``erf`` and ``exp`` in the scalar loop, unfused
there (kBeta2 = M_2_SQRTPI * M_SQRT1_2 * 0.5). core's formula (its own erf) differed in ~19% of outputs and ~24% of
gradients. Cost (CPU, load ~8): 200 elements ~0.5 ms, 512x512 ~80 ms forward (the formula 38 us and 26-39 ms):
the emulated fused multiply-adds of erfd_u10's polynomial and double-double steps.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from core import _glibc
from core._fused import fma
from core._mkl_tanhd import one_minus_square
from core._sleef import vector_loop
from core._sleef_erfd import erfd_u10
from core._sleef_logd import _fma
from core._sleef_tanhd import tanhd_u10
from core.nn.functional._flash_cpu import expd_u10

__all__ = ["gelu_erf_double", "gelu_erf_grad_double", "gelu_tanh_double", "gelu_tanh_grad_double"]

_BETA = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5  # (M_SQRT2 * M_2_SQRTPI * 0.5, in double)
_KAPPA = 0.044715
_ALPHA = 0.7071067811865476  # M_SQRT1_2
_BETA2 = 1.1283791670955126 * 0.7071067811865476 * 0.5  # M_2_SQRTPI * M_SQRT1_2 * 0.5
_TINY_PRODUCT = 2.0 ** -968  # below, Dekker's product error underflows: the fma is taken exactly


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
        right = 0.5 * v * _one_minus_square(t) * (_BETA * fma(np, 3 * _KAPPA, v * v, 1.0))
        return dy * (0.5 * (1 + t) + right)
    return form


def _one_minus_square(t):
    """``fma(-t, t, 1)``: ``core._mkl_tanhd.one_minus_square`` (~2x fewer passes, the same bits) for a tanh's
    output, ``core._fused.fma`` where an element lies outside [-1, 1] (NaN)."""
    factor = one_minus_square(t) if type(t) is np.ndarray else None
    return fma(np, -t, t, 1.0) if factor is None else factor


def gelu_tanh_double(x: np.ndarray) -> np.ndarray:
    """GELU's tanh form of a float64 NumPy array (module docstring)."""
    with np.errstate(all="ignore"):
        return vector_loop(x, _forward(tanhd_u10), _forward(_glibc_tanh))


def gelu_tanh_grad_double(x: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Its gradient, ``dy`` of ``x``'s shape (module docstring)."""
    with np.errstate(all="ignore"):
        return vector_loop(x, _backward(tanhd_u10), _backward(_glibc_tanh), dy)


def _fma_exact(a, b, c):
    """``a * b + c`` rounded once, also where ``a * b`` is so small that Dekker's error term underflows (GELU's
    gradient of x < -36, where ``pdf`` is subnormal: there ``c`` is 0, so ``a * b``; else exactly, by fractions)."""
    r = _fma(a, b, c)
    tiny = np.abs(a * b) < _TINY_PRODUCT
    if tiny.any():
        at = tiny & (c == 0)  # a * b rounded, with its sign; a zero operand's +-0 summed with c's as IEEE sums zeros
        r[at] = np.where((a == 0) | (b == 0), a * b + c, a * b)[at]
        for i in np.flatnonzero(tiny & (c != 0)):
            r.flat[i] = float(Fraction(float(a.flat[i])) * Fraction(float(b.flat[i])) + Fraction(float(c.flat[i])))
    return r


def _erf_forward(erf):
    def form(v):
        return (v * 0.5) * (1 + erf(v * _ALPHA))
    return form


def _erf_grad_vec(v, dy):
    cdf = 0.5 * (1 + erfd_u10(v * _ALPHA))
    return dy * _fma_exact(v, _BETA2 * expd_u10((v * v) * -0.5), cdf)


def _erf_grad_scalar(v, dy):
    cdf = 0.5 * (1 + _glibc.erf(v * _ALPHA))
    return dy * (cdf + v * (_BETA2 * _glibc.exp((v * v) * -0.5, any_size=True)))


def gelu_erf_double(x: np.ndarray) -> np.ndarray:
    """GELU's exact form of a float64 NumPy array (module docstring)."""
    with np.errstate(all="ignore"):
        return vector_loop(x, _erf_forward(erfd_u10), _erf_forward(_glibc.erf))


def gelu_erf_grad_double(x: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Its gradient, ``dy`` of ``x``'s shape (module docstring)."""
    with np.errstate(all="ignore"):
        return vector_loop(x, _erf_grad_vec, _erf_grad_scalar, dy)
