"""PyTorch's reparameterised gradients of gamma and Dirichlet draws, element for element.

``torch._standard_gamma_grad(alpha, x)`` is ``dx/dalpha`` of a ``Gamma(alpha, 1)`` draw held at its quantile,
``-(dP(alpha, x)/dalpha) / p(x; alpha)``; ``torch._dirichlet_grad(x, alpha, total)`` the same for a
``Beta(alpha, total - alpha)`` draw, scaled by ``1 / (1 - x)``, which ``Dirichlet.rsample``'s backward builds on
(Jankowiak and Obermeyer, 2018). ATen approximates both by cases (Taylor series for small ``x``, Rice saddle-point
expansions for large parameters, rational fits elsewhere), accurate to about 1e-3 relative, not exactly: the
exact derivative's training curve (Pyro's SVI on a Beta guide) leaves torch's in the fourth digit. So the cases
are ATen's (``standard_gamma_grad_one``, ``dirichlet_grad_one``, ``native/Distributions.h``), step for step in the
precision ATen's CPU loop uses: the gamma gradient in double, the Dirichlet one partly in the input's own precision
(float32's Taylor series and digammas run in float32, as ``scalar_t``), with the C library's ``logf``/``powf`` for
those. One Python call per element: the tensors are a model's parameters.
"""

from __future__ import annotations

import ctypes
import math
import os

import numpy as np

__all__ = ["standard_gamma_grad", "dirichlet_grad"]


def _c_function(name: str, kind, arity: int):
    """The C library's ``name`` through ctypes (glibc, as PyTorch's CPU build calls it), else None."""
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc"):
            return None
        function = getattr(ctypes.CDLL("libm.so.6"), name)
    except (ValueError, OSError, AttributeError):
        return None
    function.restype, function.argtypes = kind, [kind] * arity
    return function


_C = {name: _c_function(name, kind, arity) for name, kind, arity in (
    ("log", ctypes.c_double, 1), ("exp", ctypes.c_double, 1), ("pow", ctypes.c_double, 2),
    ("tan", ctypes.c_double, 1), ("logf", ctypes.c_float, 1), ("powf", ctypes.c_float, 2),
    ("tanf", ctypes.c_float, 1))}


class _Scalars:
    """ATen's ``scalar_t`` as NumPy scalars of type ``of`` (each operation rounds to it, as C's arithmetic) and the C
    library's ``log``/``pow``/``tan`` of that type (``suffix`` "f": ``logf``...; without glibc: the double result
    rounded once). As doubles, NumPy's float64 gives IEEE results where Python's floats raise (``1 / 0.0``)."""

    def __init__(self, of, suffix: str):
        self.of = of
        self._log, self._pow, self._tan = (_C[name + suffix] for name in ("log", "pow", "tan"))

    def log(self, x):
        return self.of(self._log(x) if self._log else np.log(np.float64(x)))

    def pow(self, x, y):
        return self.of(self._pow(x, y) if self._pow else np.power(np.float64(x), np.float64(y)))

    def tan(self, x):
        return self.of(self._tan(x) if self._tan else np.tan(np.float64(x)))


_Double = _Scalars(np.float64, "")  # scalar_t = double
_Single = _Scalars(np.float32, "f")  # scalar_t = float


def _exp(x):
    return np.float64(_C["exp"](x) if _C["exp"] else np.exp(np.float64(x)))


_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)
_F = np.float32  # a C ``f`` literal, compared with a double


def _digamma(x, s):
    """ATen's ``digamma_one<scalar_t, double>``: ``x`` and its recurrence in ``s``'s precision, the sums in double."""
    x = s.of(x)
    if x == 0:
        return s.of(math.inf)
    extra = np.float64(0)
    if x < 0:
        if x == math.floor(x):
            return s.of(math.inf)
        pi = s.of(math.pi)
        extra = np.float64(-pi / s.tan(pi * x))
        x = s.of(1) - x
    result = np.float64(0)
    while x < 10:
        result -= np.float64(s.of(1) / x)
        x = x + s.of(1)
    if x == 10:
        return s.of(result + _PSI_10 + extra)
    y = np.float64(0)
    if x < np.float64(_F(1.0e17)):
        z = 1.0 / np.float64(x * x)
        poly = np.float64(0)
        for a in _DIGAMMA_A:
            poly = poly * z + a
        y = z * poly
    return s.of(result + np.float64(s.log(x)) - np.float64(s.of(0.5) / x) - y + extra)


def _standard_gamma_grad_one(alpha, x):
    """ATen's ``standard_gamma_grad_one`` in double (its ``accscalar_t`` for float and double)."""
    d = _Double
    alpha, x = np.float64(alpha), np.float64(x)
    if x < np.float64(_F(0.8)):  # a Taylor series for small x
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = d.pow(x, alpha)
        gamma_pdf = d.pow(x, alpha - 1) * _exp(-x)
        gamma_cdf = pow_x_alpha * series1
        gamma_cdf_alpha = (d.log(x) - _digamma(alpha, d)) * gamma_cdf - pow_x_alpha * series2
        result = -gamma_cdf_alpha / gamma_pdf
        return np.float64(0) if math.isnan(result) else result
    if alpha > 8.0:  # a Rice saddle-point expansion for large alpha
        if np.float64(_F(0.9)) * alpha <= x <= np.float64(_F(1.1)) * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + alpha * (107 + 3600 * x)
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = np.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = d.pow(x - alpha - alpha * d.log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = d.log(x / alpha) * term23 - np.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        numer = x * term1
        return -stirling * numer / denom
    u, v = d.log(x / alpha), d.log(alpha)  # a bivariate rational approximation
    coef = [_GAMMA_UV[0][i] + u * (_GAMMA_UV[1][i] + u * _GAMMA_UV[2][i]) for i in range(8)]
    p = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]))
    q = coef[4] + v * (coef[5] + v * (coef[6] + v * coef[7]))
    return _exp(p / q)


_GAMMA_UV = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
     -1.5247877e-07),
)


def _beta_grad_alpha_small(x, alpha, beta, s):
    """d/dalpha of a Beta draw near 0 by a Taylor series, in ``s``'s precision."""
    factor = _digamma(alpha, s) - _digamma(alpha + beta, s) - s.log(x)
    numer = s.of(1)
    series = numer / alpha * (factor + s.of(1) / alpha)
    for i in range(1, 11):
        ci = s.of(i)
        numer *= (ci - beta) * x / ci
        denom = alpha + ci
        series += numer / denom * (factor + s.of(1) / denom)
    result = x * s.pow(s.of(1) - x, -beta) * series
    return s.of(0) if math.isnan(result) else result


def _beta_grad_beta_small(x, alpha, beta, s):
    """d/dbeta of a Beta draw near 0 by a Taylor series, in ``s``'s precision."""
    factor = _digamma(alpha + beta, s) - _digamma(beta, s)
    numer, betas, dbetas, series = s.of(1), s.of(1), s.of(0), factor / alpha
    for i in range(1, 9):
        ci = s.of(i)
        numer *= -x / ci
        dbetas = dbetas * (beta - ci) + betas
        betas = betas * (beta - ci)
        series += numer / (alpha + ci) * (dbetas + factor * betas)
    result = -s.pow(s.of(1) - x, s.of(1) - beta) * series
    return s.of(0) if math.isnan(result) else result


def _beta_grad_alpha_mid(x, alpha, beta):
    """d/dalpha of a Beta draw with both parameters large, by a Rice saddle-point expansion in double."""
    d = _Double
    total = alpha + beta
    mean = alpha / total
    std = np.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:  # the singularity at x = mean
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                        8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / np.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = np.sqrt(2 * alpha / beta) * d.pow(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * d.log(alpha / (total * x))
    term3_num = np.sqrt(8 * alpha * beta / total)
    term3_den = beta * x + alpha * (x - 1)
    term3 = term3_num / term3_den
    term4_base = beta * d.log(beta / (total * (1 - x))) + alpha * d.log(alpha / (total * x))
    term4 = d.pow(term4_base, -1.5)
    term1234 = term1 + term2 * (term3 + (term4 if x < mean else -term4))
    return stirling * prefactor * term1234


_DIRICHLET_C = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))),
)


def _dirichlet_grad_one(x, alpha, total, s):
    """ATen's ``dirichlet_grad_one<scalar_t, double>``: ``-(dF/dalpha) / f / (1 - x)`` of ``Beta(alpha,
    total - alpha)`` at ``x``, ``F`` and ``f`` its CDF and density."""
    x, alpha, total = s.of(x), s.of(alpha), s.of(total)
    x_, alpha_, total_ = np.float64(x), np.float64(alpha), np.float64(total)
    beta, beta_ = total - alpha, total_ - alpha_
    boundary = total * x * (s.of(1) - x)
    if x <= 0.5 and boundary < 2.5:  # x near 0
        return _beta_grad_alpha_small(x, alpha, beta, s)
    if x >= 0.5 and boundary < 0.75:  # x near 1
        return -_beta_grad_beta_small(s.of(1) - x, beta, alpha, s)
    if alpha > 6 and beta > 6:  # both parameters large
        return s.of(_beta_grad_alpha_mid(x_, alpha_, beta_))
    d = _Double  # a rational correction to an analytic approximation
    u = d.log(x_)
    a = d.log(alpha_) - u
    b = d.log(total_) - a
    pow_u, pow_a = (1, u, u * u), (1, a, a * a)
    p = q = np.float64(0)
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            cp, cq = _DIRICHLET_C[0][i][j], _DIRICHLET_C[1][i][j]
            p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = x_ * np.float64(_digamma(total_, s) - _digamma(alpha_, s)) / beta_
    return s.of(p / q * approx)


def _kind(dtype) -> type:
    return _Single if np.dtype(dtype) == np.float32 else _Double


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``torch._standard_gamma_grad``: ``dx/dalpha`` of standard gamma draws ``x`` (broadcast arrays of one float
    dtype), in that dtype."""
    alpha, x = np.broadcast_arrays(alpha, x)
    with np.errstate(all="ignore"):
        out = [_standard_gamma_grad_one(a, v) for a, v in zip(alpha.astype(np.float64).ravel().tolist(),
                                                               x.astype(np.float64).ravel().tolist())]
    return np.array(out, dtype=np.float64).astype(x.dtype).reshape(x.shape)


def dirichlet_grad(x: np.ndarray, alpha: np.ndarray, total: np.ndarray) -> np.ndarray:
    """``torch._dirichlet_grad``: per element, the Beta(alpha, total - alpha) draw ``x``'s scaled derivative."""
    x, alpha, total = np.broadcast_arrays(x, alpha, total)
    s = _kind(x.dtype)
    with np.errstate(all="ignore"):
        out = [float(_dirichlet_grad_one(*v, s)) for v in zip(x.ravel().tolist(), alpha.ravel().tolist(),
                                                              total.ravel().tolist())]
    return np.array(out, dtype=np.float64).astype(x.dtype).reshape(x.shape)
