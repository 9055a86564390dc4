"""Symmetric decompositions and what builds on the SVD: cholesky, eigh, eigvalsh, pinv, matrix_rank, inv_ex.

Backward formulas are PyTorch's real-case ones (``cholesky_backward``, the Hermitian branch of
``linalg_eig_backward``), written with differentiable core ops. Triangular solves are done with the
inverse of the factor: these are small-matrix teaching tools, not a LAPACK replacement.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core.autograd.function import Function
from core.ops._util import new_tensor, xp_of
from core.ops.linalg import matmul
from core.ops.linalg_more import _check_float, _check_square, _LinAlgError, _mT, inverse
from core.ops.linalg_svd import linalg_svd, svdvals

__all__ = ["cholesky", "eigh", "eigvalsh", "pinv", "matrix_rank", "inv_ex"]


class LinalgCholeskyEx(Function):
    node_name = "LinalgCholeskyExBackward0"

    @staticmethod
    def forward(ctx, a, *, upper):
        x = a._data
        xp = xp_of(x)
        try:
            low = xp.linalg.cholesky(x)
        except np.linalg.LinAlgError:
            raise _LinAlgError("linalg.cholesky: The factorization could not be completed because the input is "
                               "not positive-definite.") from None
        if not bool(xp.isfinite(low).all()):  # CuPy returns NaN instead of raising
            raise _LinAlgError("linalg.cholesky: The factorization could not be completed because the input is "
                               "not positive-definite.")
        low = new_tensor(xp.ascontiguousarray(low.astype(x.dtype, copy=False)))
        ctx.upper = upper
        ctx.save_for_backward(low)
        return new_tensor(xp.ascontiguousarray(xp.swapaxes(low._data, -1, -2))) if upper else low

    @staticmethod
    def backward(ctx, g):
        # NOTE: Murray (2016): gA = L^-T Phi(L^T gL) L^-1, Phi = lower triangle with a halved diagonal.
        from core import ops  # noqa: PLC0415 - tril lives in another family

        (low,) = ctx.saved_tensors
        if ctx.upper:
            g = _mT(g)
        ga = ops.tril(matmul(_mT(low), g))
        ga = (ga + _mT(ops.tril(ga, -1))) * 0.5
        inv = inverse(low)
        return matmul(matmul(_mT(inv), ga), inv)


def cholesky(A, *, upper=False):  # noqa: N803 - PyTorch's argument name
    _check_float("linalg.cholesky", A)
    _check_square("linalg.cholesky", A)
    return LinalgCholeskyEx.apply(A, upper=bool(upper))


class eigh_result(tuple):  # noqa: N801 - torch.return_types.linalg_eigh
    __slots__ = ()

    def __new__(cls, eigenvalues, eigenvectors):
        return tuple.__new__(cls, (eigenvalues, eigenvectors))

    eigenvalues = property(lambda self: self[0])
    eigenvectors = property(lambda self: self[1])


class LinalgEigh(Function):
    node_name = "LinalgEighBackward0"

    @staticmethod
    def forward(ctx, a, *, uplo):
        x = a._data
        xp = xp_of(x)
        w, v = xp.linalg.eigh(x, UPLO=uplo)
        outs = (new_tensor(w.astype(x.dtype, copy=False)), new_tensor(xp.ascontiguousarray(v.astype(x.dtype))))
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(*outs)
        return outs

    @staticmethod
    def backward(ctx, gL, gV):  # noqa: N803 - the math's names
        # NOTE: gA = V (skew(V^T gV) / 2 / E + diag(gL)) V^T with E_ij = L_j - L_i (1 on the diagonal).
        from core import ops  # noqa: PLC0415

        if gL is None and gV is None:
            return None
        L, V = ctx.saved_tensors  # noqa: N806
        n = L.shape[-1]
        inner = ops.diag_embed(gL) if gL is not None else None
        if gV is not None:
            VtgV = matmul(_mT(V), gV)  # noqa: N806
            E = L.unsqueeze(-2) - L.unsqueeze(-1) + ops.eye(n, dtype=L.dtype, device=L.device)  # noqa: N806
            proj = (VtgV - _mT(VtgV)) * 0.5 / E
            inner = proj if inner is None else proj + inner
        return matmul(V, matmul(inner, _mT(V)))


def eigh(A, UPLO="L"):  # noqa: N803
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix (only the ``UPLO`` triangle is read)."""
    _check_float("linalg.eigh", A)
    _check_square("linalg.eigh", A)
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return eigh_result(*LinalgEigh.apply(A, uplo=UPLO))


def eigvalsh(A, UPLO="L"):  # noqa: N803
    return eigh(A, UPLO)[0]


def _tolerance(S, atol, rtol, shape):
    """PyTorch's cut-off: max(atol, rtol * largest singular value); rtol defaults to eps * max(m, n)."""
    from core import ops  # noqa: PLC0415

    smax = ops.amax(S, -1, keepdim=True).detach() if S.shape[-1] else S.detach().sum(-1, keepdim=True)
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else _dtype.finfo(S.dtype).eps * max(shape[-2:])
    return ops.clamp_min(smax * rtol, 0.0 if atol is None else float(atol))


def pinv(A, *, atol=None, rtol=None, hermitian=False):  # noqa: N803
    """``V diag(1/S) U^T`` over the singular values above the tolerance (differentiable through the SVD)."""
    from core import ops  # noqa: PLC0415

    U, S, Vh = linalg_svd(A, full_matrices=False)  # noqa: N806
    keep = S > _tolerance(S, atol, rtol, A.shape)
    s_inv = ops.where(keep, 1.0 / ops.where(keep, S, ops.ones_like(S)), ops.zeros_like(S))
    return matmul(_mT(Vh) * s_inv.unsqueeze(-2), _mT(U))


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False):  # noqa: N803
    S = svdvals(A).detach()  # noqa: N806
    return (S > _tolerance(S, atol, rtol, A.shape)).sum(-1)


def inv_ex(A, *, check_errors=False):  # noqa: N803
    """``(inverse, info)``; ``info`` is 0 where the inverse exists. Singular input raises like ``inv``."""
    from core import ops  # noqa: PLC0415

    inv = inverse(A)
    return tuple.__new__(_InvExResult, (inv, ops.zeros(A.shape[:-2], dtype=_dtype.int32, device=A.device)))


class _InvExResult(tuple):
    __slots__ = ()
    inverse = property(lambda self: self[0])
    info = property(lambda self: self[1])
