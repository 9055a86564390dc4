"""Group norm's gradients as PyTorch computes them while recording a graph: with grad mode on (``create_graph=True``),
or when the mean or rstd it returns (``native_group_norm``'s ``result1``/``result2``) receive a gradient,
``NativeGroupNormBackward0`` uses FunctionsManual's ``infinitely_differentiable_native_group_norm_backward``, a
composite of differentiable ops (no double-backward node, unlike layer and batch norm). So the first-order values are
that formula's roundings, the recorded graph is its ops, and its mean and rstd are the forward node's own outputs: a
second-order gradient flows back into the forward node through them and comes out of ``var_mean_backward``. This is
that formula term for term with core ops.

NOTE: C++'s ``unsqueeze_`` (``UnsqueezeBackward1``) is core's ``unsqueeze_`` on the fresh sum; a C++ Scalar operand
(``s = 1 / (D * HxW)``, ``-0.5``, ``2 / n``) is ``core.ops.scalar_forms.mul_s`` (``MulBackward1``).
"""

from __future__ import annotations

import math

from core._tensor import Tensor
from core.ops.scalar_forms import div_s, mul_s

__all__ = ["group_norm_gradients"]


def _var_mean_backward(dvar, dmean, X):
    """FunctionsManual's ``var_mean_backward`` over dims (2, 3) of ``X`` (N, G, D, HxW), correction 0, keepdim."""
    n = X.shape[2] * X.shape[3]
    gX = mul_s(dvar, 2.0 / n) * (X - X.mean((2, 3), True))
    aux = div_s(dmean.expand(X.shape), n)
    return gX + aux


def _input_grad(dY, X, ds, db, mean, rstd, rstd_cube, gamma_t, s):
    """``dX = a dY + b X + c`` of the formula, in the ``(N, G, D, HxW)`` shape."""
    a = rstd if gamma_t is None else rstd * gamma_t
    b = (ds.sum(2) if gamma_t is None else (ds * gamma_t).sum(2)).unsqueeze_(-2)
    c = (db.sum(2) if gamma_t is None else (db * gamma_t).sum(2)).unsqueeze_(-2)
    b = mul_s((c * mean - b) * rstd_cube, s)
    c = -b * mean - mul_s(c * rstd, s)
    return a * dY + b * X + c


def group_norm_gradients(dY, dmean, drstd, X: Tensor, mean: Tensor, rstd: Tensor, gamma, groups: int, eps: float,
                         need, channels=None) -> tuple:
    """``(dX, dgamma, dbeta)`` (None where ``need`` says not or nothing flows) for the gradients ``dY``, ``dmean``,
    ``drstd`` (None where none arrived) of ``native_group_norm(X, gamma, ...)`` whose outputs ``mean`` and ``rstd``
    are ``(N, G)``; ``channels``: C of an ``X`` not shaped (N, C, ...), read as (N, C, HxW) as ATen does."""
    n, c = X.shape[0], X.shape[1] if channels is None else channels
    d, hxw = c // groups, math.prod(X.shape[1:]) // c
    s = 1.0 / (d * hxw)
    X4 = X.reshape(n, groups, d, hxw)
    mean4, rstd4 = mean.reshape(n, groups, 1, 1), rstd.reshape(n, groups, 1, 1)
    ds = db = None
    if dY is not None:
        dY4 = dY.reshape(n, groups, d, hxw)
        ds = (dY4 * X4).sum(3).unsqueeze_(-1)
        db = dY4.sum(3).unsqueeze_(-1)
    dX = dgamma = dbeta = None
    if need[0]:
        gamma_t = None if gamma is None else gamma.reshape(1, groups, d, 1)
        both = dmean is not None and drstd is not None
        rstd_cube = rstd4 * rstd4 * rstd4
        if both:
            dvar = mul_s(rstd_cube, -0.5) * drstd.view(n, groups, 1, 1)
        if dY is not None:
            dX = _input_grad(dY4, X4, ds, db, mean4, rstd4, rstd_cube, gamma_t, s)
            if both:
                dX = dX + _var_mean_backward(dvar, dmean.view(n, groups, 1, 1), X4)
            dX = dX.reshape_as(X)
        elif both:
            dX = _var_mean_backward(dvar, dmean.view(n, groups, 1, 1), X4).reshape_as(X)
    if need[1] and dY is not None:
        dgamma = ((ds - db * mean4) * rstd4).sum(0).reshape_as(gamma)
    if len(need) > 2 and need[2] and dY is not None:
        dbeta = db.sum(0).reshape_as(gamma)
    return dX, dgamma, dbeta
