"""Bessel-type functions of ``torch.special`` evaluated on the host in float64 (``bessel_j0/j1/y0/y1`` are
``core._bessel_jy``'s): ``modified_bessel_k0/k1`` and their exponentially scaled forms, ``airy_ai``,
``spherical_bessel_j0`` and the Hurwitz ``zeta``.

Airy's Ai uses its power series for small arguments, its asymptotic expansion for large ones and in between
integral representations summed with tanh-sinh quadrature (double-exponential convergence for these analytic
integrands); ``K_nu`` uses the trapezoid rule on ``exp(-x (cosh t - 1)) cosh(nu t)``, which converges
exponentially. ``zeta`` sums the first terms and corrects with the Euler–Maclaurin formula, as Cephes does.
Agreement with PyTorch's Cephes kernels is to about 1e-14 (absolute near the zeros of the oscillating functions).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["bessel_k_scaled", "airy_ai", "spherical_bessel_j0", "zeta"]

_EULER = 0.57721566490153286061

_U = np.arange(-3.3, 3.3 + 1e-9, 1 / 40)  # tanh-sinh nodes and weights on [-1, 1]
_TS_X = np.tanh(np.pi / 2 * np.sinh(_U))
_TS_W = (np.pi / 2 * np.cosh(_U)) / np.cosh(np.pi / 2 * np.sinh(_U)) ** 2 / 40


def _integrate(f, a, b):
    """∫_a^b f(t) dt for each element (``a``, ``b``: arrays); ``f`` takes the (elements, nodes) grid of t."""
    a, b = np.asarray(a, float)[:, None], np.asarray(b, float)[:, None]
    t = (a + b) / 2 + (b - a) / 2 * _TS_X
    return ((b - a) / 2 * (f(t) * _TS_W)).sum(axis=1)


def _harmonic(k: int) -> float:
    return sum(1.0 / i for i in range(1, k + 1))


def _k_series(x, nu: int):
    """K_0/K_1 from their series (0 < x ≤ 2), unscaled."""
    half, q = x / 2, (x / 2) ** 2
    i_nu = _modified_series(x, nu)
    if nu == 0:
        total, power = np.zeros_like(x), np.ones_like(x)
        for k in range(1, 40):
            power = power * q / (k * k)
            total = total + power * _harmonic(k)
        return -(np.log(half) + _EULER) * i_nu + total
    total, power = np.zeros_like(x), half.copy()
    for k in range(40):
        total = total + power * (2 * (-_EULER) + _harmonic(k) + _harmonic(k + 1))
        power = power * q / ((k + 1) * (k + 2))
    return 1 / x + np.log(half) * i_nu - total / 2


def _modified_series(x, n: int):
    half, term, total = x / 2, (x / 2) ** n / math.factorial(n), np.zeros_like(x)
    for k in range(60):
        total = total + term
        term = term * half * half / ((k + 1) * (k + 1 + n))
    return total


def _k_integral_scaled(x, nu: float, points: int = 240):
    """e^x K_nu(x) = ∫_0^∞ exp(-x (cosh t - 1)) cosh(nu t) dt by the trapezoid rule (even integrand)."""
    end = np.arccosh(1 + 46 / x)[:, None]
    h = end / points
    t = h * np.arange(points + 1)
    f = np.exp(-x[:, None] * (np.cosh(t) - 1)) * np.cosh(nu * t)
    return (h[:, 0]) * (f.sum(axis=1) - f[:, 0] / 2)


def bessel_k_scaled(x: np.ndarray, nu: int, scaled: bool) -> np.ndarray:
    """K_0/K_1 of float64 ``x`` (or e^x K): inf at 0, NaN below."""
    out = np.full_like(x, np.nan)
    out[x == 0] = np.inf
    out[x == np.inf] = 0.0
    small, large = (x > 0) & (x <= 2), (x > 2) & np.isfinite(x)
    if small.any():
        out[small] = _k_series(x[small], nu) * (np.exp(x[small]) if scaled else 1.0)
    if large.any():
        value = _k_integral_scaled(x[large], nu)
        out[large] = value if scaled else value * np.exp(-x[large])
    return out


_AI0, _AIP0 = 0.355028053887817239260, 0.258819403792806798405  # Ai(0), -Ai'(0)


def _airy_series(x):
    f, g = np.ones_like(x), x.copy()
    tf, tg = np.ones_like(x), x.copy()
    for k in range(1, 80):
        tf = tf * x ** 3 / ((3 * k - 1) * (3 * k))
        tg = tg * x ** 3 / ((3 * k) * (3 * k + 1))
        f, g = f + tf, g + tg
    return _AI0 * f - _AIP0 * g


def _airy_negative_integral(x):
    """Ai(-z) = (√z / 3) (J_{1/3}(ζ) + J_{-1/3}(ζ)), ζ = 2/3 z^(3/2), each J_ν by its integral."""
    z = -x
    zeta = 2 / 3 * z ** 1.5
    total = np.zeros_like(z)
    for nu in (1 / 3, -1 / 3):
        oscillating = _integrate(lambda t, nu=nu: np.cos(nu * t - zeta[:, None] * np.sin(t)), np.zeros_like(z),
                                 np.full_like(z, np.pi)) / np.pi
        decaying = _integrate(lambda t, nu=nu: np.exp(-zeta[:, None] * np.sinh(t) - nu * t), np.zeros_like(z),
                              np.arcsinh(60 / zeta)) * math.sin(nu * np.pi) / np.pi
        total = total + oscillating - decaying
    return np.sqrt(z) / 3 * total


def _airy_negative_asymptotic(x):
    z = -x
    zeta = 2 / 3 * z ** 1.5
    p, q, term = np.ones_like(z), np.zeros_like(z), np.ones_like(z)
    for k in range(1, 30):  # u_k = Γ(3k+1/2) / (54^k k! Γ(k+1/2))
        term = term * (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216 * k) / zeta
        if k % 2:
            q = q + (-1) ** (k // 2) * term
        else:
            p = p + (-1) ** (k // 2) * term
    angle = zeta + np.pi / 4
    return (np.sin(angle) * p - np.cos(angle) * q) / (np.sqrt(np.pi) * z ** 0.25)


def airy_ai(x: np.ndarray) -> np.ndarray:
    """Ai(x); NaN at ±inf, as PyTorch's kernel gives."""
    out = np.full_like(x, np.nan)
    parts = ((x >= -3) & (x <= 1), _airy_series), ((x > 1) & np.isfinite(x), _airy_positive), \
        ((x < -3) & (x >= -12), _airy_negative_integral), ((x < -12) & np.isfinite(x), _airy_negative_asymptotic)
    for mask, fn in parts:
        if mask.any():
            out[mask] = fn(x[mask])
    return out


def _airy_positive(x):
    zeta = 2 / 3 * x ** 1.5
    return np.sqrt(x / 3) / np.pi * _k_integral_scaled(zeta, 1 / 3) * np.exp(-zeta)


def spherical_bessel_j0(x: np.ndarray) -> np.ndarray:
    """sin(x)/x, its Taylor polynomial below 0.5 in magnitude, 0 at ±inf."""
    x2 = x * x
    taylor = 1 + x2 * (-1 / 6 + x2 * (1 / 120 + x2 * (-1 / 5040 + x2 * (1 / 362880 + x2 * (-1 / 39916800
                                                                                        + x2 / 6227020800)))))
    with np.errstate(all="ignore"):
        out = np.where(np.abs(x) < 0.5, taylor, np.sin(x) / x)
    return np.where(np.isinf(x), 0.0, out)


def _bernoulli(m: int) -> Fraction:
    b = [Fraction(1)]
    for n in range(1, m + 1):
        b.append(-sum(math.comb(n + 1, k) * b[k] for k in range(n)) / (n + 1))
    return b[m]


_ZETA_A = [float(Fraction(math.factorial(2 * i + 2)) / _bernoulli(2 * i + 2)) for i in range(12)]  # (2k)!/B_2k
_MACHEP = 1.11022302462515654042e-16


def zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The Hurwitz zeta function Σ_k (k + q)^-x, as Cephes sums it."""
    x, q = np.broadcast_arrays(np.asarray(x, float), np.asarray(q, float))
    out = np.full(x.shape, np.nan)
    flat_x, flat_q, flat = x.ravel(), q.ravel(), out.reshape(-1)
    for i, (s, a) in enumerate(zip(flat_x.tolist(), flat_q.tolist())):
        flat[i] = _zeta_one(s, a)
    return out


def _zeta_one(x: float, q: float) -> float:
    if x == 1:
        return math.inf
    if x < 1 or math.isnan(x) or math.isnan(q):
        return math.nan
    if q <= 0:
        if q == math.floor(q):
            return math.inf
        if x != math.floor(x):
            return math.nan
    s, a, i, b = q ** -x, q, 0, 0.0
    while i < 9 or a <= 9.0:
        i, a = i + 1, a + 1.0
        b = a ** -x
        s += b
        if -_MACHEP * s < b < _MACHEP * s:
            return s
    w = a
    s += b * w / (x - 1)
    s -= 0.5 * b
    a, k = 1.0, 0.0
    for coefficient in _ZETA_A:
        a *= x + k
        b /= w
        t = a * b / coefficient
        s += t
        if abs(t / s) < _MACHEP:
            return s
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return s
