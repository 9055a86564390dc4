"""``core.special``: ``torch.special``'s functions with PyTorch's names, dtypes and gradients.

Most are PyTorch's aliases of ``core`` ops (``expit`` is ``sigmoid``, ``gammaln`` is ``lgamma``...)
or compositions of them (``ndtr``, ``entr``, ``xlog1py``, ``multigammaln``), so autograd
differentiates them. The few with no ``core`` op underneath (``erfcx``, ``log_ndtr``, ``ndtri``,
the modified Bessel functions ``i0``/``i0e``/``i1``/``i1e``) are named ``Function`` classes that
evaluate in float64 on the host and write their backward with ``core`` ops, as PyTorch's
formulas do. ``gammainc``/``gammaincc`` reuse the regularised incomplete gamma function of
``core.distributions``.
"""

import math as _math

import numpy as _np

import core
from core import _bessel, _c_namespaces
from core._tensor import Tensor
from core.autograd import Function as _Function

__all__ = ["expit", "logit", "erf", "erfc", "erfcx", "erfinv", "gammaln", "digamma", "psi", "polygamma",
           "multigammaln", "xlogy", "xlog1py", "log_softmax", "softmax", "logsumexp", "i0", "i0e", "i1", "i1e",
           "ndtr", "ndtri", "log_ndtr", "entr", "sinc", "gammainc", "gammaincc", "exp2", "expm1", "log1p",
           "round"]

from core._special_api import *  # noqa: F403  (bessel_j0, zeta, the orthogonal polynomials...)
from core._special_api import __all__ as _MORE
from core._special_api import refuse_two_numbers as _refuse_two_numbers

__all__ += _MORE

_SQRT2 = _math.sqrt(2.0)
_SQRT_2PI = _math.sqrt(2.0 * _math.pi)


def _floating(x):
    """A tensor of ``x`` in a floating dtype (integers and bools promote to the default dtype)."""
    if not isinstance(x, Tensor):
        x = core.tensor(x)
    return x if x.is_floating_point() else x.to(core.get_default_dtype())


def _host(t) -> _np.ndarray:
    return t.detach().cpu().numpy().astype(_np.float64)


def _like(array: _np.ndarray, t):
    return core.tensor(_np.asarray(array), dtype=t.dtype, device=t.device)


# ----- aliases of core ops ----------------------------------------------------------------------------------------
def expit(input, *, out=None):
    return core.sigmoid(input, out=out)


def logit(input, eps=None, *, out=None):
    return core.logit(input, eps, out=out)


def erf(input, *, out=None):
    return core.erf(input, out=out)


def erfc(input, *, out=None):
    return core.erfc(input, out=out)


def erfinv(input, *, out=None):
    return core.erfinv(input, out=out)


def gammaln(input, *, out=None):
    return core.lgamma(input, out=out)


def digamma(input, *, out=None):
    return core.digamma(input, out=out)


psi = digamma


def polygamma(n, input, *, out=None):
    return core.polygamma(n, input, out=out)


def xlogy(input, other, *, out=None):
    return core.xlogy(input, other, out=out)


def exp2(input, *, out=None):
    return core.exp2(input, out=out)


def expm1(input, *, out=None):
    return core.expm1(input, out=out)


def log1p(input, *, out=None):
    return core.log1p(input, out=out)


def round(input, *, decimals=0, out=None):  # torch.special.round
    return core.round(input, decimals=decimals, out=out)


def sinc(input, *, out=None):
    return core.sinc(input, out=out)


def softmax(input, dim, *, dtype=None):
    return core.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return core.log_softmax(input, dim, dtype=dtype)


def logsumexp(input, dim, keepdim=False, *, out=None):
    return _write(core.logsumexp(input, dim, keepdim), out)


# ----- compositions -------------------------------------------------------------------------------------------------
def xlog1py(input, other, *, out=None):
    """``input * log1p(other)``, zero where ``input`` is zero (NaN ``other`` stays NaN)."""
    _refuse_two_numbers("special_xlog1py", input, other)
    if not isinstance(input, Tensor):
        input = core.tensor(input, dtype=other.dtype if isinstance(other, Tensor) else None)
    if not isinstance(other, Tensor):
        other = core.tensor(other, dtype=input.dtype if input.is_floating_point() else None)
    input, other = _floating(input), _floating(other)
    product = input * core.log1p(other)
    zero = (input == 0) & ~core.isnan(other)
    return _write(core.where(zero, core.zeros_like(product), product), out)


def entr(input, *, out=None):
    """``-x log x`` for x > 0, 0 at 0, -inf below 0 (NaN stays NaN)."""
    x = _floating(input)
    positive = x > 0
    safe = core.where(positive, x, core.ones_like(x))
    value = core.where(positive, -safe * core.log(safe), core.zeros_like(x))
    value = core.where(x < 0, core.full_like(x, -_math.inf), value)
    return _write(core.where(core.isnan(x), x, value), out)


def ndtr(input, *, out=None):
    """The standard normal CDF, ``(1 + erf(x / sqrt 2)) / 2`` as PyTorch computes it (0 below about -8.3)."""
    x = _floating(input)
    return _write((1 + core.erf(x / _SQRT2)) * 0.5, out)


def multigammaln(input, p: int, *, out=None):
    """The log multivariate gamma function of dimension ``p`` (PyTorch 2.13 no longer checks the domain)."""
    x = _floating(input)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    steps = core.arange(p, dtype=x.dtype, device=x.device) * -0.5
    value = core.lgamma(x.unsqueeze(-1) + steps).sum(-1) + p * (p - 1) / 4 * _math.log(_math.pi)
    return _write(value, out)


def gammainc(input, other, *, out=None):
    """The regularised lower incomplete gamma function ``P(input, other)``."""
    from core.distributions._samplers import gamma_cdf  # rare and heavy: it loads all of core.distributions

    a, x = _floating(input), _floating(other)
    return _write(gamma_cdf(a, x), out)


def gammaincc(input, other, *, out=None):
    """The regularised upper incomplete gamma function ``Q = 1 - P``."""
    return _write(1 - gammainc(input, other), out)


def _write(result, out):
    if out is None:
        return result
    out.copy_(result.detach() if not out.requires_grad else result)
    return out


# ----- functions with no core op underneath -------------------------------------------------------------------------
_ERFC = _np.frompyfunc(_math.erfc, 1, 1)


def _erfc_array(x: _np.ndarray) -> _np.ndarray:
    """``math.erfc`` elementwise as a float64 array (also for a 0-d ``x``, where frompyfunc gives a float)."""
    return _np.asarray(_ERFC(x), dtype=_np.float64)


def _erfcx_array(x: _np.ndarray) -> _np.ndarray:
    """``exp(x^2) erfc(x)``: directly below 26, the asymptotic series above (where erfc underflows)."""
    out = _np.empty_like(x)
    big = x >= 26.0
    small = ~big
    with _np.errstate(over="ignore", invalid="ignore"):
        xs = x[small]
        out[small] = _np.exp(xs * xs) * _erfc_array(xs)
        xb = x[big]
        inv2 = 1.0 / (2.0 * xb * xb)
        series, term = _np.ones_like(xb), _np.ones_like(xb)
        for k in range(1, 8):
            term = -term * (2 * k - 1) * inv2
            series = series + term
        out[big] = series / (xb * _math.sqrt(_math.pi))
    return out


class _Erfcx(_Function):
    """d/dx erfcx(x) = 2 x erfcx(x) - 2 / sqrt(pi)."""

    node_name = "SpecialErfcxBackward0"  # (torch's)

    @staticmethod
    def forward(ctx, x):
        result = _like(_erfcx_array(_host(x)), x)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx._unpacked
        return grad * (2 * x * result - 2 / _math.sqrt(_math.pi))


class _LogNdtr(_Function):
    """log(ndtr(x)): ``log1p(-erfc(x / sqrt 2) / 2)`` above -1, ``log(erfcx(-x / sqrt 2) / 2) - x^2 / 2`` below."""

    node_name = "SpecialLogNdtrBackward0"  # (torch's)

    @staticmethod
    def forward(ctx, x):
        h = _host(x)
        t = h / _SQRT2
        with _np.errstate(divide="ignore", invalid="ignore"):
            upper = _np.log1p(-_erfc_array(t) / 2)
            lower = _np.log(_erfcx_array(-t) / 2) - t * t
        result = _like(_np.where(h < -1.0, lower, upper), x)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx._unpacked
        return grad / _SQRT_2PI * core.exp(-(result + x * x / 2))


def _ndtri_lower(r: _np.ndarray) -> _np.ndarray:
    """ndtri for 0 < r <= 1/2: Abramowitz and Stegun's 26.2.23 guess, then Newton steps on log ndtr."""
    t = _np.sqrt(-2.0 * _np.log(r))
    x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3))
    for _ in range(4):
        scaled = _erfcx_array(-x / _SQRT2)
        log_cdf = _np.log(scaled / 2) - x * x / 2
        x = x - (log_cdf - _np.log(r)) * scaled / _math.sqrt(2 / _math.pi)
    cdf = 0.5 * _erfc_array(-x / _SQRT2)
    x = x - (cdf - r) * _SQRT_2PI * _np.exp(x * x / 2)  # a last step on ndtr itself: exact near 1/2
    return _np.where(r == 0.5, 0.0, x)


class _Ndtri(_Function):
    """The standard normal quantile; d/dp ndtri(p) = sqrt(2 pi) exp(ndtri(p)^2 / 2)."""

    node_name = "SpecialNdtriBackward0"  # (torch's)

    @staticmethod
    def forward(ctx, p):
        h = _host(p)
        inside = (h > 0) & (h < 1)
        q = _np.where(inside, h, 0.5)
        with _np.errstate(all="ignore"):
            lower = _ndtri_lower(_np.minimum(q, 1 - q))
            central = _SQRT2 * core.erfinv(core.tensor(2 * q - 1)).numpy()  # 2q - 1 is exact here
        x = _np.where(_np.abs(q - 0.5) < 0.25, central, _np.where(q > 0.5, -lower, lower))
        x = _np.where(h == 0, -_np.inf, _np.where(h == 1, _np.inf, _np.where(inside, x, _np.nan)))
        result = _like(x, p)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx._unpacked
        return grad * _SQRT_2PI * core.exp(result * result / 2)


def i0(input, *, out=None):
    """The modified Bessel function of the first kind, order 0."""
    return _write(_bessel.i0(input), out)


def i0e(input, *, out=None):
    """``exp(-|x|) i0(x)``."""
    return _write(_bessel.i0e(input), out)


def i1(input, *, out=None):
    """The modified Bessel function of the first kind, order 1."""
    return _write(_bessel.i1(input), out)


def i1e(input, *, out=None):
    """``exp(-|x|) i1(x)``."""
    return _write(_bessel.i1e(input), out)


def erfcx(input, *, out=None):
    """The scaled complementary error function ``exp(x^2) erfc(x)``."""
    return _write(_Erfcx.apply(_floating(input)), out)


def log_ndtr(input, *, out=None):
    """``log(ndtr(x))``, accurate far into the lower tail."""
    return _write(_LogNdtr.apply(_floating(input)), out)


def ndtri(input, *, out=None):
    """The inverse of ``ndtr``: -inf at 0, inf at 1, NaN outside [0, 1]."""
    return _write(_Ndtri.apply(_floating(input)), out)

_c_namespaces.publish(globals())  # torch.special.X is special_X (core._c_namespaces): last, after every rebinding above
