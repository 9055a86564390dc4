"""``linalg.matrix_exp`` as PyTorch's CPU kernel computes it, step for step.

PyTorch evaluates Bader, Blanes and Casas' optimised Taylor polynomials (degree 1, 2, 4, 8, 12 or 18, chosen by the
matrix's 1-norm against per-dtype bounds) and, above the degree-18 bound, scales by 2^-s and squares s times. In
float32 its result carries that scheme's own rounding (a few 1e-6 relative for a norm of 30); the same steps here,
with the products taken by core's batched matmul (which rounds as PyTorch's) and the linear combinations summed in
its order, give its values to the last bits. The gradient is PyTorch's: the top-right block of the exponential of
``[[A^H, G], [0, A^H]]``.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._backend import to_numpy_array
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function

__all__ = ["matrix_exp_forward", "MatrixExp"]

_THETAS = {  # the upper norm bound of degrees 1, 2, 4, 8, 12 and 18
    np.float32: (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02, 5.800524627688768e-01,
                 1.461661507209034e+00, 3.010066362817634e+00),
    np.float64: (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04, 4.991228871115323e-02,
                 2.996158913811580e-01, 1.090863719290036e+00),
}
_B12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740),
        (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989),
        (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230),
        (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359))
_B18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
         -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
         -6.98210122488052056106e-03, 3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
         2.95552570429315521194e-02, -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05))
_SQRT_177 = 0.1330413469565007072504e+2


def _mm(a, b):
    """A batched product rounded as PyTorch's bmm (core's matmul of (batch, n, n) stacks)."""
    from core.ops.linalg import matmul

    return np.asarray(matmul(new_tensor(a), new_tensor(b))._data)


def _combine(matrices, coeffs, real):
    """sum_i coeffs[i] * matrices[i], accumulated from zero in order, each coefficient in the real dtype."""
    out = np.zeros_like(matrices[0])
    for m, c in zip(matrices, coeffs):
        out = out + m * real(c)
    return out


def _powers(a, count):
    """[I, A, A^2, A^3, A^6][:count]."""
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape).copy()
    out = [eye, a]
    if count > 2:
        out.append(_mm(a, a))
    if count > 3:
        out.append(_mm(a, out[2]))
    if count > 4:
        out.append(_mm(out[3], out[3]))
    return out


def _t1(a, real):
    return _combine(_powers(a, 2), (1.0, 1.0), real)


def _t2(a, real):
    eye, x, x2 = _powers(a, 3)
    return eye + x + x2 / real(2.0)


def _t4(a, real):
    p = _powers(a, 3)
    p.append(_mm(p[2], _combine(p, (1 / 2.0, 1 / 6.0, 1 / 24.0), real)))
    return _combine(p, (1.0, 1.0, 0.0, 1.0), real)


def _t8(a, real):
    x3 = 2. / 3.
    x1, x2 = x3 * ((1. + _SQRT_177) / 88.), x3 * ((1. + _SQRT_177) / 352.)
    x4, x5 = (-271. + 29. * _SQRT_177) / (315. * x3), (-11. + 11. * _SQRT_177) / (1260. * x3)
    x6, x7 = (-99. + 11. * _SQRT_177) / (5040. * x3), (89. - _SQRT_177) / (5040. * x3)
    y2 = (857. - 58. * _SQRT_177) / 630.
    p = _powers(a, 3)
    p.append(_mm(p[2], _combine(p[1:3], (x1, x2), real)))  # A4
    p.append(_mm(_combine(p[2:4], (x3, 1.0), real), _combine(p[0:4], (x4, x5, x6, x7), real)))  # A8
    return _combine(p, (1.0, 1.0, y2, 0.0, 1.0), real)


def _t12(a, real):
    p = _powers(a, 4)
    b = [_combine(p, row, real) for row in _B12]
    b[2] = b[2] + _mm(b[3], b[3])
    return b[0] + _mm(b[1] + b[2], b[2])


def _t18(a, real):
    p = _powers(a, 5)
    b = [_combine(p, row, real) for row in _B18]
    b[3] = b[3] + _mm(b[0], b[4])
    b[2] = b[2] + b[3]
    return b[1] + _mm(b[2], b[3])


def _t18_scale_square(a, norm, theta, real):
    with np.errstate(divide="ignore"):
        s = np.maximum(0, np.ceil(np.log2(norm / real(theta)))).astype(np.int64)
    scaled = a / (2.0 ** s).astype(real)[:, None, None]
    out = _t18(scaled, real)
    for i in range(out.shape[0]):  # (each matrix squared on its own, as a batch of one)
        m = out[i:i + 1]
        for _ in range(int(s[i])):
            m = _mm(m, m)
        out[i] = m[0]
    return out


def matrix_exp_forward(a: np.ndarray) -> np.ndarray:
    """exp of each matrix of a float or complex NumPy stack (n >= 2), by PyTorch's degree choice."""
    shape = a.shape
    a = a.reshape((-1,) + shape[-2:])
    real = np.float32 if a.dtype in (np.float32, np.complex64) else np.float64
    thetas = _THETAS[real]
    norm = np.abs(a).sum(-2).max(-1).astype(real)
    if a.shape[0] > 1:  # PyTorch takes degree 18 (scaled and squared as needed) for every matrix of a batch
        return _t18_scale_square(a, norm, thetas[5], real).reshape(shape)
    out = np.empty_like(a)
    for i, fn in enumerate((_t1, _t2, _t4, _t8, _t12)):
        low = real(-1) if i == 0 else real(thetas[i - 1])
        chosen = np.nonzero((low < norm) & (norm <= real(thetas[i])))[0]
        if chosen.size:
            out[chosen] = fn(a[chosen], real)
    large = np.nonzero(norm >= real(thetas[4]))[0]
    if large.size:
        out[large] = _t18_scale_square(a[large], norm[large], thetas[5], real)
    nan = np.isnan(norm)  # (no bound holds for NaN)
    if nan.any():
        out[nan] = np.nan
    return out.reshape(shape)


class MatrixExp(Function):
    node_name = "LinalgMatrixExpBackward0"

    @staticmethod
    def forward(ctx, a: Tensor):
        ctx.save_for_backward(a)
        data = to_numpy_array(a._data)
        if data.shape[-1] == 1:  # (PyTorch's exp kernel)
            from core.ops.math_unary import exp

            return exp(a.detach())
        half = a.dtype in (_dtype.float16, _dtype.bfloat16)  # (computed in float32, rounded once)
        host = data.astype(np.float32) if half else data
        return new_tensor(matrix_exp_forward(host).astype(data.dtype, copy=False)).to(a.device)

    @staticmethod
    def backward(ctx, g):
        # NOTE: PyTorch's backward_analytic_function_of_a_matrix: exp([[A^H, G], [0, A^H]])'s top-right block
        from core import _factories
        from core.ops.joining import cat
        from core.ops.linalg_more import _mH

        (a,) = ctx._unpacked
        n = a.shape[-1]
        ah = _mH(a)
        top = cat([ah, g], -1)
        bottom = cat([_factories.zeros_like(ah), ah], -1)
        return MatrixExp.apply(cat([top, bottom], -2))[..., :n, n:]
