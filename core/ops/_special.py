"""Special functions on backend arrays (erf, erfc, erfinv, lgamma, digamma, polygamma), in float64.

NumPy has none of them and SciPy is not a dependency: erf/erfc/lgamma use the correctly rounded
``math`` functions element by element on the host (a CUDA array round-trips through the host);
erfinv refines a rational first guess by Newton steps on erf; digamma and polygamma shift the
argument up by their recurrences and finish with the asymptotic series.
"""

from __future__ import annotations

import math

import numpy as np

from core import _backend, _glibc, _libm
from core._fused import fma
from core._sleef import expf_u10
from core.ops._util import xp_of

__all__ = ["erf", "erf_vector_form", "erfc", "erfinv", "lgamma", "digamma", "polygamma"]


def _on_host(fn, x):
    """``fn`` (a float -> float function) over every element, in float64, on x's device."""
    xp = xp_of(x)
    host = np.asarray(x, dtype=np.float64) if xp is np else _backend.to_numpy_array(x).astype(np.float64)
    res = np.asarray(np.frompyfunc(fn, 1, 1)(host), dtype=np.float64)
    return res if xp is np else xp.asarray(res)


def _lgamma_scalar(v: float) -> float:
    try:
        return math.lgamma(v)
    except ValueError:  # a pole (0, -1, -2...): PyTorch gives +inf
        return math.inf


def _erf_table(width: float = 0.125, top: float = 6.0, terms: int = 10):
    """Taylor coefficients of erf about the centres of ``[k w, (k+1) w)`` up to ``top`` (erf's k-th derivative is
    ``2/sqrt(pi) (-1)^(k-1) H_(k-1)(c) exp(-c^2)`` with Hermite polynomials H), highest degree first."""
    rows = []
    for j in range(int(top / width)):
        c = (j + 0.5) * width
        scale, hermite, row = 2.0 / math.sqrt(math.pi) * math.exp(-c * c), [1.0, 2.0 * c], [math.erf(c)]
        for k in range(1, terms + 1):
            if k >= 2:
                hermite.append(2.0 * c * hermite[-1] - 2.0 * (k - 1) * hermite[-2])
            row.append(scale * (-1) ** (k - 1) * hermite[k - 1] / math.factorial(k))
        rows.append(row[::-1])
    return [np.ascontiguousarray(c) for c in np.array(rows).T], width, top


_ERF_TABLE = _erf_table()


def _erf_vectorised(x: np.ndarray) -> np.ndarray:
    """erf in float64 from series (Maclaurin below 1/8, Taylor about the nearest 1/8-interval's centre above), to
    about 1e-16: the float32 results equal the correctly rounded ones of ``math.erf`` but cost no Python call per
    element (GELU calls erf over whole activations)."""
    columns, width, top = _ERF_TABLE
    a = np.abs(x, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        j = np.multiply(np.minimum(a, top - width / 2), 1 / width, out=np.zeros_like(a), where=a == a).astype(np.intp)
        h = a - (j + 0.5) * width
        out = np.take(columns[0], j)
        for column in columns[1:]:
            out *= h
            out += np.take(column, j)
        out[a >= top] = 1.0
        near0 = a < width
        if near0.any():  # the Maclaurin series: relative accuracy near 0, where the table's would be absolute
            b = a[near0]
            a2, term, small = b * b, b * (2.0 / math.sqrt(math.pi)), np.zeros_like(b)
            for n in range(10):
                small += term / (2 * n + 1)
                term *= -a2 / (n + 1)
            out[near0] = small
        out[np.isnan(a)] = np.nan
    return np.copysign(out, x)


_AS_P = np.float32(0.3275911)  # Abramowitz & Stegun 7.1.26: erf x = 1 - t (p1 + t (p2 + ...)) exp(-x^2)
_AS_COEFFS = [np.float32(c) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)]


def erf_vector_form(x: np.ndarray) -> np.ndarray:
    """``Vectorized<float>::erf()`` of PyTorch's AVX-512 build on a float32 array: Abramowitz & Stegun's 7.1.26
    (about 1e-7 off erf) with float32 fused multiply-adds and SLEEF's exp, what its half-precision erf computes
    in its vector loop (float32's ``torch.erf`` goes to MKL instead, and the scalar loop to the C library).

    NOTE: each fma is the float64 product (exact) plus the addend, rounded to float32 (``core._fused``)."""
    f = np.float32
    with np.errstate(over="ignore", invalid="ignore"):
        t = f(1) / fma(np, _AS_P, np.abs(x), f(1))
        r = _AS_COEFFS[0]
        for c in _AS_COEFFS[1:]:
            r = fma(np, r, t, c)
        y = fma(np, -expf_u10(-(x * x)) * t, r, f(1))
    return np.copysign(y, x)


def erf(x):
    if isinstance(x, np.ndarray) and x.dtype != np.float64 and x.size > 64:  # float32, float16, bfloat16 inputs
        return _erf_vectorised(x)
    return _on_host(math.erf, x)


def erfc(x):
    return _on_host(math.erfc, x)


def lgamma(x):
    return _on_host(_lgamma_scalar, x)


_GILES_SMALL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_GILES_LARGE = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _horner(coeffs, w):
    p = coeffs[0]
    for c in coeffs[1:]:
        p = c + p * w
    return p


# Giles' double-precision erfinv ("Approximating the erfinv function", GPU Computing Gems 2, 2010): polynomials in
# w = -log((1 - y)(1 + y)), shifted, for w < 6.25, w < 16 and above (highest degree first); relative error ~1e-15
_GILES_CENTRAL = (  # w < 6.25, in w - 3.125
    -3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18, 1.115787767802518096e-17,
    -1.333171662854620906e-16, 2.0972767875968561637e-17, 6.6376381343583238325e-15, -4.0545662729752068639e-14,
    -8.1519341976054721522e-14, 2.6335093153082322977e-12, -1.2975133253453532498e-11,
    -5.4154120542946279317e-11, 1.051212273321532285e-09, -4.1126339803469836976e-09,
    -2.9070369957882005086e-08, 4.2347877827932403518e-07, -1.3654692000834678645e-06,
    -1.3882523362786468719e-05, 0.0001867342080340571352, -0.00074070253416626697512,
    -0.0060336708714301490533, 0.24015818242558961693, 1.6536545626831027356)
_GILES_MIDDLE = (  # w < 16, in sqrt(w) - 3.25
    2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07, 1.8239629214389227755e-08,
    1.5027403968909827627e-06, -4.013867526981545969e-06, 2.9234449089955446044e-06, 1.2475304481671778723e-05,
    -4.7318229009055733981e-05, 6.8284851459573175448e-05, 2.4031110387097893999e-05,
    -0.0003550375203628474796, 0.00095328937973738049703, -0.0016882755560235047313,
    0.0024914420961078508066, -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
    3.0838856104922207635)
_GILES_TAIL = (  # above, in sqrt(w) - 5
    -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
    -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
    2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
    -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
    7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
    1.0103004648645343977, 4.8499064014085844221)


def _erfinv_low_precision(y: np.ndarray) -> np.ndarray:
    """erfinv of a float32 (float16, bfloat16) array in float64 from Giles' double-precision polynomials: ~1e-15
    relative, so rounding it to float32 gives the bits the Newton-refined float64 value gives (within an ulp of
    PyTorch's MKL kernel), at a few in-place NumPy passes per element (``trunc_normal_`` inverts every weight of
    a ViT). The central polynomial runs on the whole array, the two tails only on the few elements in them."""
    y = y.astype(np.float64)
    with np.errstate(all="ignore"):
        w = np.subtract(1.0, y)
        w *= np.add(1.0, y)
        np.log(w, out=w)
        np.negative(w, out=w)
        central = w < 6.25
        if central.all():
            out = _polynomial(_GILES_CENTRAL, w - 3.125)
        else:
            out = np.empty_like(w)
            out[central] = _polynomial(_GILES_CENTRAL, w[central] - 3.125)
            middle = ~central & (w < 16.0)
            out[middle] = _polynomial(_GILES_MIDDLE, np.sqrt(w[middle]) - 3.25)
            tail = ~central & ~middle
            out[tail] = _polynomial(_GILES_TAIL, np.sqrt(w[tail]) - 5.0)
        out *= y
        edge = ~(np.abs(y) < 1.0)
        if edge.any():  # +-1: +-inf; beyond, and NaN: NaN
            out[edge] = np.where(np.abs(y[edge]) == 1.0, np.copysign(np.inf, y[edge]), np.nan)
    return out


def _polynomial(coeffs, v: np.ndarray) -> np.ndarray:
    """Horner's rule in place: one multiply and one add pass per coefficient, no temporaries."""
    p = np.full_like(v, coeffs[0])
    for c in coeffs[1:]:
        p *= v
        p += c
    return p


def erfinv(y):
    """Giles' single-precision guess, then two Newton steps on erf to double precision; a float32 (float16,
    bfloat16) array of more than 64 elements takes Giles' double-precision polynomials instead
    (``_erfinv_low_precision``: the same float32 bits without erf's cost)."""
    xp = xp_of(y)
    if xp is np and y.dtype != np.float64 and y.size > 64:  # (as erf: small ones on the host)
        return _erfinv_low_precision(y)
    y = y.astype(np.float64)
    with np.errstate(all="ignore"):
        w = -xp.log((1.0 - y) * (1.0 + y))
        small = _horner(_GILES_SMALL, w - 2.5)
        large = _horner(_GILES_LARGE, xp.sqrt(w) - 3.0)
        x = xp.where(w < 5.0, small, large) * y
        finite = xp.abs(y) < 1.0
        x = xp.where(finite, x, 0.0)
        for _ in range(2):
            x = x - (erf(x) - y) / (2.0 / math.sqrt(math.pi) * xp.exp(-x * x))
        x = xp.where(finite, x, xp.where(xp.abs(y) == 1.0, xp.copysign(xp.inf, y), xp.nan))
    return x


_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)


def digamma(x):
    """psi(x), step for step PyTorch's CPU ``calc_digamma`` (ATen's Math.h, from Cephes): float32 in float32
    arithmetic with glibc's ``logf``, float64 in double with glibc's ``log``; the reflection ``pi / tan(pi r)`` of a
    negative x's fraction r in double. Upward recurrence to x >= 10, then the asymptotic series."""
    if xp_of(x) is not np:
        return _digamma_series(x)
    single = x.dtype == np.float32
    f, log = (np.float32, _glibc.logf) if single else (np.float64, _libm.log)
    x = np.array(x, dtype=f)
    original = x.copy()
    with np.errstate(all="ignore"):
        negative = x < 0
        reflection = np.zeros(x.shape, np.float64)
        if negative.any():
            fraction = np.modf(x[negative].astype(np.float64))[0]
            reflection[negative] = math.pi / _libm.tan(math.pi * fraction)
            x[negative] = f(1) - x[negative]
        result = np.zeros_like(x)
        low = x < 10
        while low.any():
            result[low] -= f(1) / x[low]
            x[low] += f(1)
            low = x < 10
        z = f(1) / (x * x)
        poly = np.zeros_like(x)
        for a in _DIGAMMA_A:
            poly = poly * z + f(a)
        y = np.where(x < f(1.0e17), z * poly, f(0))
        out = result + log(x) - f(0.5) / x - y
        out = np.where(x == 10, result + f(_PSI_10), out).astype(f)
        if negative.any():
            out[negative] = out[negative] - reflection[negative].astype(f)
        out[negative & (original == np.trunc(original))] = np.nan
        out = np.where(original == 0, np.copysign(f(np.inf), -original), out)
    return out


_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma_series(x):
    """psi(x) on another array library's device: reflection for x < 0, upward recurrence to x >= 6, asymptotic
    series, in float64."""
    xp = xp_of(x)
    x = x.astype(np.float64)
    with np.errstate(all="ignore"):
        neg = x < 0
        z = xp.where(neg, 1.0 - x, x)
        acc = xp.where(neg, -math.pi / xp.tan(math.pi * x), 0.0)
        for _ in range(6):
            low = z < 6.0
            acc = acc - xp.where(low, 1.0 / z, 0.0)
            z = xp.where(low, z + 1.0, z)
        inv2 = 1.0 / (z * z)
        series = xp.zeros_like(z)
        for k in range(len(_BERNOULLI), 0, -1):
            series = (series + _BERNOULLI[k - 1] / (2 * k)) * inv2
        out = xp.log(z) - 0.5 / z - series + acc
        out = xp.where(neg & (x == xp.floor(x)), xp.nan, out)
        out = xp.where(x == 0, xp.copysign(xp.inf, -x), out)
    return out


def trigamma_float32(x):
    """psi^(1)(x) in float32 arithmetic, step for step PyTorch's CPU ``trigamma(float)``: its reflection's
    ``sinf(pi * x)`` loses digits near the negative poles, which a double computation would not (torch's float32
    polygamma(1, x) at x = -7.95 is ~2e-5 off the true value, and users compare against torch)."""
    xp = xp_of(x)
    f = np.float32
    x = x.astype(f)
    pi = f(math.pi)
    with np.errstate(all="ignore"):
        reflect = x < f(0.5)
        sin_pi_x = xp.sin((pi * x).astype(np.float64)).astype(f)  # (glibc's sinf: the double sine, rounded)
        result = xp.where(reflect, f(0) - (pi * pi) / (sin_pi_x * sin_pi_x), f(0)).astype(f)
        z = xp.where(reflect, f(1) - x, x).astype(f)
        for _ in range(6):
            result = result + f(1) / (z * z)
            z = z + f(1)
        ixx = f(1) / (z * z)
        tail = ixx * (f(1 / 6) - ixx * (f(1 / 30) - ixx * f(1 / 42)))
        result = result + (f(1) + f(1) / (f(2) * z) + tail) / z
    return xp.where(reflect, -result, result).astype(f)


def polygamma(n: int, x):
    """psi^(n)(x) for n >= 1: recurrence up to x >= 15, then the asymptotic series."""
    if n == 0:
        return digamma(x)
    if n == 1 and x.dtype == np.float32:
        return trigamma_float32(x)
    xp = xp_of(x)
    x = x.astype(np.float64)
    sign = 1.0 if n % 2 else -1.0
    fact = math.factorial(n)
    with np.errstate(all="ignore"):
        z = x.copy()
        acc = xp.zeros_like(z)
        while True:
            low = (z < 15.0) & xp.isfinite(z)
            if not bool(low.any()):
                break
            acc = acc + xp.where(low, fact / z ** (n + 1), 0.0)
            z = xp.where(low, z + 1.0, z)
        series = math.factorial(n - 1) / z ** n + fact / (2.0 * z ** (n + 1))
        for k, b in enumerate(_BERNOULLI, start=1):
            series = series + b * math.factorial(2 * k + n - 1) / math.factorial(2 * k) / z ** (2 * k + n)
        out = sign * (series + acc)
        # NOTE: at the poles PyTorch's n! * zeta(n + 1, x) is (-1)^(n+1) * inf: -inf for an even n
        out = xp.where((x <= 0) & (x == xp.floor(x)), xp.inf if n % 2 else -xp.inf, out)
    return out
