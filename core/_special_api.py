"""The ``torch.special`` functions added by the API sweep: Bessel functions of the first and second kind, modified
Bessel functions (plain and exponentially scaled), the Airy function Ai, the spherical Bessel j0, the Hurwitz
zeta function and the orthogonal polynomials (``core._special_polynomials``).

They take PyTorch's dtypes (floating inputs keep theirs, integers give the default dtype; values are computed in
float64 by ``core._special_bessel_more`` (``core._bessel_jy``: PyTorch's own J0/J1/Y0/Y1 approximations) and rounded
once) and, as in PyTorch, record no gradient, except ``zeta``,
whose graph node refuses backward with PyTorch's message.
"""

from __future__ import annotations

import numpy as np

import core
from core import _bessel, _bessel_jy
from core import _special_bessel_more as _more
from core._special_polynomials import *  # noqa: F403
from core._special_polynomials import __all__ as _POLYNOMIALS
from core._tensor import Tensor
from core.autograd import Function

__all__ = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
           "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
           "airy_ai", "spherical_bessel_j0", "zeta", *_POLYNOMIALS]

_EXP_OVERFLOW = 709.782712893384  # exp(x) overflows float64 above this


def _unary(input, fn, out):
    x = input if isinstance(input, Tensor) else core.tensor(input)
    dtype = x.dtype if x.is_floating_point() else core.get_default_dtype()
    values = fn(x.detach().cpu().numpy().astype(np.float64))
    result = core.tensor(values, dtype=dtype, device=x.device)
    return result if out is None else out.copy_(result)


def bessel_j0(input, *, out=None):
    return _unary(input, lambda x: _bessel_jy.j0(x), out)


def bessel_j1(input, *, out=None):
    return _unary(input, lambda x: _bessel_jy.j1(x), out)


def bessel_y0(input, *, out=None):
    return _unary(input, lambda x: _bessel_jy.y0(x), out)


def bessel_y1(input, *, out=None):
    return _unary(input, lambda x: _bessel_jy.y1(x), out)


def _modified_i(x, order: int):
    with np.errstate(all="ignore"):
        values = _bessel._unscaled(x, order)
    overflow = np.abs(x) > _EXP_OVERFLOW  # PyTorch's kernel overflows in exp(|x|) first, and gives NaN at ±inf
    return np.where(np.isinf(x), np.nan, np.where(overflow, np.sign(x) ** order * np.inf, values))


def modified_bessel_i0(input, *, out=None):
    return _unary(input, lambda x: _modified_i(x, 0), out)


def modified_bessel_i1(input, *, out=None):
    return _unary(input, lambda x: _modified_i(x, 1), out)


def modified_bessel_k0(input, *, out=None):
    return _unary(input, lambda x: _more.bessel_k_scaled(x, 0, False), out)


def modified_bessel_k1(input, *, out=None):
    return _unary(input, lambda x: _more.bessel_k_scaled(x, 1, False), out)


def scaled_modified_bessel_k0(input, *, out=None):
    return _unary(input, lambda x: _more.bessel_k_scaled(x, 0, True), out)


def scaled_modified_bessel_k1(input, *, out=None):
    return _unary(input, lambda x: _more.bessel_k_scaled(x, 1, True), out)


def airy_ai(input, *, out=None):
    return _unary(input, _more.airy_ai, out)


def spherical_bessel_j0(input, *, out=None):
    return _unary(input, _more.spherical_bessel_j0, out)


class Zeta(Function):
    node_name = "SpecialZetaBackward0"

    @staticmethod
    def forward(ctx, x, q, *, dtype):
        values = _more.zeta(x.detach().cpu().numpy().astype(np.float64), q.detach().cpu().numpy().astype(np.float64))
        return core.tensor(values, dtype=dtype, device=x.device)._data

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("the derivative for 'zeta' is not implemented.")


def refuse_two_numbers(name: str, input, other) -> None:
    """PyTorch's TypeError when neither operand of a binary special function is a tensor."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({type(input).__name__}, "
                        f"{type(other).__name__}), but expected one of:\n"
                        " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                        " * (Number self, Tensor other, *, Tensor out = None)\n"
                        " * (Tensor input, Number other, *, Tensor out = None)\n")


def zeta(input, other, *, out=None):
    """The Hurwitz zeta function ``Σ_k (k + other)^-input``."""
    refuse_two_numbers("special_zeta", input, other)
    x, q = (t if isinstance(t, Tensor) else core.tensor(t) for t in (input, other))
    dtype = core.result_type(input, other)
    if not dtype.is_floating_point:
        dtype = core.get_default_dtype()
    x, q = core.broadcast_tensors(x, q)
    result = Zeta.apply(x, q, dtype=dtype)
    return result if out is None else out.copy_(result.detach())
