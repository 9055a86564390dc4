"""``torch.special``'s orthogonal polynomials of integer degree n: Chebyshev T/U/V/W (and their shifted forms on
[0, 1]), physicists' and probabilists' Hermite, Laguerre and Legendre, evaluated as PyTorch's CPU kernels do.

Per element: a negative degree gives 0; the Chebyshev kinds give their closed values at the interval's ends and,
for high degrees inside it, their trigonometric forms (``cos(n acos x)``...); otherwise the three-term recurrence
runs in the result's dtype, each step a fused multiply-add as PyTorch's x86 build compiles it; ``acos``/``cos``/
``sin`` are the C library's, as PyTorch's scalar kernels call them (not NumPy's SIMD ones). The
degree is truncated to an integer, as PyTorch casts it. The results carry no gradient (PyTorch records none for
these functions).
"""

from __future__ import annotations

import math

import numpy as np

import core
from core import _glibc
from core._fused import fma
from core._tensor import Tensor

__all__ = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
           "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
           "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
           "laguerre_polynomial_l", "legendre_polynomial_p"]


def _operands(x, n, name: str):
    """``x`` and the degrees as arrays of the result dtype, broadcast, plus the dtype and device."""
    if not isinstance(x, Tensor) and not isinstance(n, Tensor):  # (PyTorch's overloads: one must be a tensor)
        raise TypeError(f"special_{name}() received an invalid combination of arguments - got "
                        f"({type(x).__name__}, {type(n).__name__}), but expected one of:\n"
                        " * (Tensor x, Tensor n, *, Tensor out = None)\n * (Number x, Tensor n, *, Tensor out = None)\n"
                        " * (Tensor x, Number n, *, Tensor out = None)\n")
    tx, tn = (t if isinstance(t, Tensor) else core.tensor(t) for t in (x, n))
    dtype = core.result_type(tx, tn)
    if not dtype.is_floating_point:
        dtype = core.get_default_dtype()
    xa = tx.detach().cpu().numpy().astype(dtype.np if hasattr(dtype, "np") else np.float64)
    na = tn.detach().cpu().numpy().astype(xa.dtype)
    xa, na = np.broadcast_arrays(xa, na)
    return xa, np.trunc(na).astype(np.int64), dtype, (tx if isinstance(x, Tensor) else tn).device


def _c_float(name: str, fn):
    """The C library's float ``name`` (what PyTorch's scalar kernel calls: glibc's ``acosf`` is not correctly
    rounded), one call per element; without glibc, the double function rounded once."""
    function = _glibc._c_library_float_function(name)
    if function is None:
        return lambda v: fn(np.asarray(v, dtype=np.float64)).astype(np.float32)

    def call(v):
        v = np.asarray(v, dtype=np.float32)
        out = np.full(v.shape, np.nan, dtype=np.float32)
        finite = np.isfinite(v)  # (only the trigonometric forms' elements are: the rest are NaN, see _chebyshev)
        out[finite] = [function(e) for e in v[finite].tolist()]
        return out

    return call


def _c_double(function):
    """The C library's double ``function`` (Python's ``math``), one call per element; NaN outside its domain."""
    def one(e):
        try:
            return function(e)
        except (ValueError, OverflowError):
            return math.nan

    def call(v):
        v = np.asarray(v, dtype=np.float64)
        out = np.full(v.shape, np.nan)
        finite = np.isfinite(v)  # (only the trigonometric forms' elements are: the rest are NaN, see _chebyshev)
        out[finite] = [one(e) for e in v[finite].tolist()]
        return out

    return call


def _fused(a, q, b):
    """``a * q - b`` with one rounding: PyTorch's x86 build contracts each recurrence step into a fused multiply-add
    (bit for bit where the two roundings of ``a * q - b`` differ on about half the elements)."""
    return fma(np, a, q, -b)


def _recurrence(x, n, q, step):
    """The recurrence from ``p = 1`` and ``q`` (degree 1) up to each element's degree; ``step(k, p, q)``."""
    p, out = np.ones_like(x), q.copy()
    for k in range(2, int(n.max(initial=1)) + 1):
        r = step(k, p, q)
        live = n >= k
        out = np.where(live, r, out)
        p, q = q, r
    return out


def _evaluate(x, n, *, q, step, ends=None, trig=None, threshold=None):
    """One polynomial: recurrence values, then the degree-0/1 values, the trig form and the ends laid over them."""
    with np.errstate(all="ignore"):
        out = _recurrence(x, n, q, step)
        out = np.where(n == 1, q, out)
        out = np.where(n == 0, np.ones_like(x), out)
        if trig is not None:
            inside = (n > threshold) & (np.abs(x if ends is None else ends[0]) < 1)
            out = np.where(inside, trig(), out)
        if ends is not None:
            out = np.where(ends[1], ends[2], out)
        out = np.where(n < 0, np.zeros_like(x), out)
    return out.astype(x.dtype)


def _wrap(values, dtype, device):
    return core.tensor(values, dtype=dtype, device=device)


def _chebyshev(kind: str, x, n, shifted: bool):
    xa, na, dtype, device = _operands(x, n, f"{'shifted_' if shifted else ''}chebyshev_polynomial_{kind}")
    one = xa.dtype.type(1)
    s = xa + xa - one if shifted else xa
    odd_sign = np.where(na % 2 == 0, one, -one)
    hi, lo = (xa == 1, xa == 0) if shifted else (s == 1, s == -1)
    acos, cos, sin = (_c_float("acosf", np.arccos), _c_float("cosf", np.cos), _c_float("sinf", np.sin)) \
        if xa.dtype == np.float32 else (_c_double(math.acos), _c_double(math.cos), _c_double(math.sin))
    threshold = 4 if shifted and kind == "w" else 6 if shifted or kind == "t" else 8  # (PyTorch's, per kind)
    with np.errstate(all="ignore"):
        theta = acos(np.where((na > threshold) & (np.abs(s) < 1), s, np.nan))  # (only where the trig form is used)
        nf = na.astype(xa.dtype)
        first = {"t": s, "u": s + s, "v": s + s - one, "w": s + s + one}[kind]
        end_hi = {"t": one, "u": nf + 1, "v": one, "w": nf + nf + 1}[kind]
        end_lo = {"t": odd_sign, "u": odd_sign * (nf + 1), "v": odd_sign * (nf + nf + 1), "w": odd_sign}[kind]
        trig = {"t": lambda: cos(nf * theta),
                "u": lambda: np.where(sin(theta) != 0, sin((nf + 1) * theta) / sin(theta),
                                      (nf + 1) * cos((nf + 1) * theta) / s),
                "v": lambda: np.where(sin(theta / 2) != 1, cos((nf + xa.dtype.type(0.5)) * theta)
                                      / cos(theta / 2), odd_sign * (nf + nf + 1)),
                "w": lambda: np.where(cos(theta / 2) != 1, sin((nf + xa.dtype.type(0.5)) * theta)
                                      / sin(theta / 2), odd_sign if shifted else np.where(s > 0, nf + nf + 1,
                                                                                           odd_sign))}[kind]
    values = _evaluate(s, na, q=first, step=lambda k, p, q: _fused(s + s, q, p), trig=trig, threshold=threshold,
                       ends=(s, hi | lo, np.where(hi, end_hi, end_lo)))
    return _wrap(values, dtype, device)


def chebyshev_polynomial_t(input, n, *, out=None):
    return _write(_chebyshev("t", input, n, False), out)


def chebyshev_polynomial_u(input, n, *, out=None):
    return _write(_chebyshev("u", input, n, False), out)


def chebyshev_polynomial_v(input, n, *, out=None):
    return _write(_chebyshev("v", input, n, False), out)


def chebyshev_polynomial_w(input, n, *, out=None):
    return _write(_chebyshev("w", input, n, False), out)


def shifted_chebyshev_polynomial_t(input, n, *, out=None):
    return _write(_chebyshev("t", input, n, True), out)


def shifted_chebyshev_polynomial_u(input, n, *, out=None):
    return _write(_chebyshev("u", input, n, True), out)


def shifted_chebyshev_polynomial_v(input, n, *, out=None):
    return _write(_chebyshev("v", input, n, True), out)


def shifted_chebyshev_polynomial_w(input, n, *, out=None):
    return _write(_chebyshev("w", input, n, True), out)


def hermite_polynomial_h(input, n, *, out=None):
    """Physicists' Hermite: ``H_k = 2x H_{k-1} - 2(k-1) H_{k-2}``."""
    x, na, dtype, device = _operands(input, n, "hermite_polynomial_h")
    values = _evaluate(x, na, q=x + x, step=lambda k, p, q: _fused(x + x, q, (2 * (k - 1)) * p))
    return _write(_wrap(values, dtype, device), out)


def hermite_polynomial_he(input, n, *, out=None):
    """Probabilists' Hermite: ``He_k = x He_{k-1} - (k-1) He_{k-2}``."""
    x, na, dtype, device = _operands(input, n, "hermite_polynomial_he")
    values = _evaluate(x, na, q=x.copy(), step=lambda k, p, q: _fused(x, q, (k - 1) * p))
    return _write(_wrap(values, dtype, device), out)


def laguerre_polynomial_l(input, n, *, out=None):
    """Laguerre: ``L_k = ((2k - 1 - x) L_{k-1} - (k-1) L_{k-2}) / k``; 1 at x = 0."""
    x, na, dtype, device = _operands(input, n, "laguerre_polynomial_l")
    one = x.dtype.type(1)
    values = _evaluate(x, na, q=one - x, step=lambda k, p, q: _fused(2 * (k - 1) + (one - x), q, (k - 1) * p) / k,
                       ends=(x, (x == 0) & (na >= 0), np.ones_like(x)))
    return _write(_wrap(values, dtype, device), out)


def legendre_polynomial_p(input, n, *, out=None):
    """Legendre: ``P_k = ((2k - 1) x P_{k-1} - (k-1) P_{k-2}) / k``; ±1 at the ends."""
    x, na, dtype, device = _operands(input, n, "legendre_polynomial_p")
    one = x.dtype.type(1)
    ends = np.where((x > 0) | (na % 2 == 0), one, -one)
    values = _evaluate(x, na, q=x.copy(), step=lambda k, p, q: _fused((2 * k - 1) * x, q, (k - 1) * p) / k,
                       ends=(x, np.abs(x) == 1, ends))
    return _write(_wrap(values, dtype, device), out)


def _write(result, out):
    return result if out is None else out.copy_(result)
