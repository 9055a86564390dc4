"""Stand-ins for what Opacus imports and is not installed here (``recipes_opacus``): SciPy's few functions.

The runner installs these (``modules()``) in both runs while a script whose folder holds ``opacus`` runs, and takes
them out afterwards. Opacus' accountants compute in NumPy and the standard library's ``math``, not in torch; they
import these from SciPy (the runner's own ``scipy`` stub answers every name with a stub):

- ``scipy.special.binom`` (the RDP accountant's binomial coefficients of a real order) and ``log_ndtr`` (its
  ``log(erfc(x))`` for large ``x``), ``erfc``;
- ``scipy.stats.norm.cdf`` (the GDP accountant's and its epsilon for a mu);
- ``scipy.optimize.root_scalar(f, bracket=..., method="brentq")`` (GDP's mu for an epsilon): Brent's method.

They are the textbook formulas, not SciPy's code, so their last digits may differ from SciPy's; both runs use the same
ones, and what the scripts compare is torch's part. The PRV accountant's modules import ``scipy.fft``'s ``rfft`` and
``irfft`` (NumPy's here), ``scipy.signal.convolve`` (1-D: NumPy's) and ``scipy.integrate.quad`` (adaptive
Gauss-Kronrod on a finite interval): ``PrivacyEngine()``'s default accountant is PRV.
"""

from __future__ import annotations

import importlib.machinery
import math
import sys
import types

import numpy as np


def _gamma_sign(x: float) -> float:
    """The sign of Gamma(x) for a real ``x`` that is not a pole."""
    return 1.0 if x > 0 else (-1.0) ** (math.floor(-x) + 1)


def _binom(n, k):
    """``n`` choose ``k`` for a real ``n`` and a whole ``k >= 0``: through log-gamma (the RDP accountant's series
    asks for hundreds of terms), the integer cases exact."""
    k = int(k)
    if k < 0:
        return 0.0
    if float(n).is_integer():
        if n >= 0:
            return float(math.comb(int(n), k)) if k <= n else 0.0
        value = 1.0  # (a negative whole n: the falling factorial)
        for j in range(k):
            value *= (n - j) / (j + 1)
        return value
    log = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    return _gamma_sign(n + 1) * _gamma_sign(n - k + 1) * math.exp(log)


def _log_ndtr_scalar(x: float) -> float:
    """log of the standard normal CDF at ``x``; below -20 the asymptotic series of Mills' ratio (erfc underflows)."""
    if x > -20.0:
        return math.log(0.5 * math.erfc(-x / math.sqrt(2.0)))
    x2 = x * x
    series, term = 1.0, 1.0
    for i in range(1, 8):
        term *= -(2 * i - 1) / x2
        series += term
    return -0.5 * x2 - math.log(-x) - 0.5 * math.log(2 * math.pi) + math.log(series)


_NUMBERS = (float, int, np.floating, np.integer)


def _vectorised(scalar):
    def function(x):
        if isinstance(x, _NUMBERS) or np.ndim(x) == 0:  # (a number first: the RDP series calls these 10^5 times)
            return np.float64(scalar(float(x)))
        return np.vectorize(scalar, otypes=[np.float64])(np.asarray(x, dtype=np.float64))

    return function


def _norm_cdf_scalar(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


class _Norm:
    """``scipy.stats.norm``: the standard normal's ``cdf``, ``sf``, ``ppf`` is not used."""

    cdf = staticmethod(_vectorised(_norm_cdf_scalar))
    sf = staticmethod(_vectorised(lambda x: 0.5 * math.erfc(x / math.sqrt(2.0))))
    logcdf = staticmethod(_vectorised(_log_ndtr_scalar))


class _RootResults:
    def __init__(self, root, iterations, converged):
        self.root, self.iterations, self.converged = root, iterations, converged
        self.flag = "converged" if converged else "convergence error"


def _brentq(f, a, b, xtol=2e-12, rtol=4 * np.finfo(float).eps, maxiter=100):
    """Brent's root finder on ``[a, b]`` (inverse quadratic interpolation, secant and bisection steps)."""
    fa, fb = f(a), f(b)
    if fa * fb > 0:
        raise ValueError("f(a) and f(b) must have different signs")
    if fa == 0:
        return _RootResults(a, 0, True)
    if fb == 0:
        return _RootResults(b, 0, True)
    c, fc, d = a, fa, b - a
    e = d
    for iteration in range(1, maxiter + 1):
        if fb * fc > 0:
            c, fc = a, fa
            d = e = b - a
        if abs(fc) < abs(fb):
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol = 2 * rtol * abs(b) + xtol / 2
        m = (c - b) / 2
        if abs(m) <= tol or fb == 0:
            return _RootResults(b, iteration, True)
        if abs(e) >= tol and abs(fa) > abs(fb):
            s = fb / fa
            if a == c:
                p, q = 2 * m * s, 1 - s
            else:
                q, r = fa / fc, fb / fc
                p = s * (2 * m * q * (q - r) - (b - a) * (r - 1))
                q = (q - 1) * (r - 1) * (s - 1)
            if p > 0:
                q = -q
            p = abs(p)
            if 2 * p < min(3 * m * q - abs(tol * q), abs(e * q)):
                e, d = d, p / q
            else:
                d = e = m
        else:
            d = e = m
        a, fa = b, fb
        b += d if abs(d) > tol else (tol if m > 0 else -tol)
        fb = f(b)
    return _RootResults(b, maxiter, False)


def _root_scalar(f, args=(), method=None, bracket=None, xtol=None, rtol=None, maxiter=None, **kwargs):
    if method not in (None, "brentq") or bracket is None:
        raise NotImplementedError("this stand-in of scipy.optimize.root_scalar has only method='brentq' on a bracket")
    options = {k: v for k, v in (("xtol", xtol), ("rtol", rtol), ("maxiter", maxiter)) if v is not None}
    return _brentq(lambda x: f(x, *args), *bracket, **options)


def _convolve(in1, in2, mode="full", method="auto"):
    if np.ndim(in1) != 1 or np.ndim(in2) != 1:
        raise NotImplementedError("this stand-in of scipy.signal.convolve takes 1-D arrays")
    return np.convolve(in1, in2, mode=mode)


# the 15-point Kronrod nodes on [-1, 1] (the symmetric half) with their weights, and the 7-point Gauss weights of
# the odd-indexed nodes: the textbook G7-K15 pair
_KRONROD_NODES = (0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                  0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                  0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                  0.207784955007898467600689403773245, 0.0)
_KRONROD_WEIGHTS = (0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                    0.204432940075298892414161999234649, 0.209482141084727828012999174891714)
_GAUSS_WEIGHTS = (0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                  0.381830050505118944950369775488975, 0.417959183673469387755102040816327)


_NODES = np.array([-x for x in _KRONROD_NODES[:-1]] + list(reversed(_KRONROD_NODES)))
_WEIGHTS_K = np.array(list(_KRONROD_WEIGHTS[:-1]) + list(reversed(_KRONROD_WEIGHTS)))
_WEIGHTS_G = np.zeros(15)
_WEIGHTS_G[[1, 3, 5, 7, 9, 11, 13]] = [*_GAUSS_WEIGHTS[:3], _GAUSS_WEIGHTS[3], *reversed(_GAUSS_WEIGHTS[:3])]


def _values(f, points):
    """``f`` at the 15 ``points``: in one call where ``f`` takes an array (the PRV's vectorised CDF)."""
    try:
        values = np.asarray(f(points), dtype=np.float64)
        if values.shape == points.shape:
            return values
    except Exception:  # a function of one number: point by point
        pass
    return np.array([float(f(float(x))) for x in points])


def _kronrod(f, a, b):
    """G7-K15 on [a, b]: the Kronrod estimate and its difference from Gauss' as the error."""
    centre, half = (a + b) / 2, (b - a) / 2
    values = _values(f, centre + half * _NODES)
    kronrod, gauss = float(values @ _WEIGHTS_K), float(values @ _WEIGHTS_G)
    return kronrod * half, abs((kronrod - gauss) * half)


def _quad(func, a, b, args=(), epsabs=1.49e-8, epsrel=1.49e-8, limit=50, **kwargs):
    """``scipy.integrate.quad`` on a finite interval: adaptive G7-K15, the interval with the largest error estimate
    halved until the total error is within the tolerances or ``limit`` intervals (QUADPACK's plan without its
    extrapolation); ``(integral, error)``."""
    def f(x):
        return func(x, *args)

    pieces = [(a, b, *_kronrod(f, a, b))]
    while len(pieces) < limit:
        total, error = sum(p[2] for p in pieces), sum(p[3] for p in pieces)
        if error <= max(epsabs, epsrel * abs(total)):
            break
        worst = max(range(len(pieces)), key=lambda i: pieces[i][3])
        lo, hi, _, _ = pieces.pop(worst)
        mid = (lo + hi) / 2
        pieces += [(lo, mid, *_kronrod(f, lo, mid)), (mid, hi, *_kronrod(f, mid, hi))]
    return sum(p[2] for p in pieces), sum(p[3] for p in pieces)


def modules() -> dict:
    """The stand-in modules by name (all of them: the runner's ``scipy`` stub is out of the way meanwhile)."""
    names = ("scipy", "scipy.special", "scipy.stats", "scipy.optimize", "scipy.fft", "scipy.signal", "scipy.integrate")
    made = {name: types.ModuleType(name) for name in names}
    made["scipy"].__path__ = []
    made["scipy"].__version__ = "1.16.0"
    special, stats, optimize = made["scipy.special"], made["scipy.stats"], made["scipy.optimize"]
    special.binom = lambda n, k: (np.float64(_binom(float(n), k)) if isinstance(n, _NUMBERS) and isinstance(k, _NUMBERS)
                                  else np.vectorize(_binom, otypes=[np.float64])(n, k))
    special.log_ndtr = _vectorised(_log_ndtr_scalar)
    special.erfc = _vectorised(math.erfc)
    special.ndtr = _vectorised(_norm_cdf_scalar)
    stats.norm = _Norm()
    optimize.root_scalar = _root_scalar
    optimize.brentq = lambda f, a, b, args=(), **kw: _brentq(lambda x: f(x, *args), a, b, **kw).root
    made["scipy.fft"].rfft, made["scipy.fft"].irfft = np.fft.rfft, np.fft.irfft
    made["scipy.signal"].convolve = _convolve
    made["scipy.integrate"].quad = _quad
    for name in names[1:]:
        setattr(made["scipy"], name.partition(".")[2], made[name])
    for name, module in made.items():  # (torch asks importlib.util.find_spec whether some packages exist)
        module.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=hasattr(module, "__path__"))
    return {name: module for name, module in made.items() if name not in sys.modules}
