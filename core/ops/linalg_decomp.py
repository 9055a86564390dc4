"""Decompositions (cholesky, eigh, qr) and what builds on them or on the SVD (pinv, cond, matrix_rank...).

Backward formulas are PyTorch's real-case ones (``cholesky_backward``, the Hermitian branch of
``linalg_eig_backward``), written with differentiable core ops. Triangular solves are done with the
inverse of the factor: these are small-matrix teaching tools, not a LAPACK replacement.
"""

from __future__ import annotations

import math

import numpy as np

from core import _dtype
from core._factories import eye, ones_like, zeros, zeros_like
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._linalg_checks import _type_name
from core.ops._util import new_tensor, xp_of
from core.ops.comparison import where
from core.ops.cumulative import cumprod
from core.ops.joining import cat
from core.ops.linalg import matmul
from core.ops.linalg_more import _check_float, _check_square, _LinAlgError, _mH, _mT, inverse, solve
from core.ops.linalg_svd import linalg_svd, svdvals
from core.ops.math_binary import clamp_min
from core.ops.rearranging import diag_embed, tril, triu
from core.ops.reduction import amax, amin, named_repr, return_types
from core.ops.views import permute
from core.overrides import handle_torch_function, has_torch_function_unary, has_torch_function_variadic

__all__ = ["cholesky", "eigh", "eigvalsh", "pinv", "matrix_rank", "inv_ex", "cond", "solve_triangular", "tensorinv",
           "tensorsolve", "vander", "qr"]


def _not_positive_definite(name: str, x) -> _LinAlgError:
    """PyTorch's error for a matrix (or a batch's first such matrix) that has no Cholesky factor: the batch
    element and the order of its first leading minor that is not positive-definite (LAPACK's ``info``)."""
    from core.ops.linalg_lu import first_bad_minor  # (linalg_lu builds on this module)

    info = first_bad_minor(np.asarray(x.get() if hasattr(x, "get") else x)).reshape(-1)
    element = int(np.flatnonzero(info)[0]) if info.any() else 0
    where = f"(Batch element {element}): " if x.ndim > 2 else ""
    order = int(info[element])
    return _LinAlgError(f"{name}: {where}The factorization could not be completed because the input is not "
                        f"positive-definite (the leading minor of order {order} is not positive-definite).")


class LinalgCholeskyEx(Function):
    node_name = "LinalgCholeskyExBackward0"

    @staticmethod
    def forward(ctx, a, *, upper):
        x = a._data
        xp = xp_of(x)
        try:
            low = xp.linalg.cholesky(x)
        except np.linalg.LinAlgError:
            raise _not_positive_definite("linalg.cholesky", x) from None
        if not bool(xp.isfinite(low).all()):  # CuPy returns NaN instead of raising
            raise _not_positive_definite("linalg.cholesky", x)
        low = new_tensor(xp.ascontiguousarray(low.astype(x.dtype, copy=False)))
        ctx.upper = upper
        ctx.save_for_backward(low)
        if not upper:
            return low
        up = xp.swapaxes(low._data, -1, -2)
        if up.dtype.kind == "c":  # U = L^H (+ 0: LAPACK's zeros are +0, not the conjugate's -0)
            up = up.conj() + 0
        return new_tensor(xp.ascontiguousarray(up))

    @staticmethod
    def backward(ctx, g):
        # NOTE: Murray (2016): gA = L^-T Phi(L^T gL) L^-1, Phi = lower triangle with a halved diagonal.

        (low,) = ctx._unpacked
        if ctx.upper:
            g = _mH(g)
        ga = tril(matmul(_mH(low), g))  # (conjugate transposes: PyTorch's complex formula, the same for real)
        ga = (ga + _mH(tril(ga, -1))) * 0.5
        inv = inverse(low)
        return matmul(matmul(_mH(inv), ga), inv)


def cholesky(A, *, upper=False):  # PyTorch's argument name
    _check_float("linalg.cholesky", A)
    _check_square("linalg.cholesky", A)
    return LinalgCholeskyEx.apply(A, upper=bool(upper))


class eigh_result(tuple):  # torch.return_types.linalg_eigh
    __slots__ = ()

    def __new__(cls, eigenvalues, eigenvectors):
        return tuple.__new__(cls, (eigenvalues, eigenvectors))

    eigenvalues = property(lambda self: self[0])
    eigenvectors = property(lambda self: self[1])
    __repr__ = __str__ = named_repr("linalg_eigh", ("eigenvalues", "eigenvectors"))


return_types.linalg_eigh = eigh_result  # isinstance(r, torch.return_types.linalg_eigh)


class LinalgEigh(Function):
    node_name = "LinalgEighBackward0"

    @staticmethod
    def forward(ctx, a, *, uplo):
        x = a._data
        xp = xp_of(x)
        w, v = xp.linalg.eigh(x, UPLO=uplo)  # (a Hermitian matrix's eigenvalues are real)
        outs = (new_tensor(w.astype(x.real.dtype, copy=False)), new_tensor(xp.ascontiguousarray(v.astype(x.dtype))))
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(*outs)
        return outs

    @staticmethod
    def backward(ctx, gL, gV):  # the math's names
        # NOTE: gA = V (skew(V^T gV) / 2 / E + diag(gL)) V^T with E_ij = L_j - L_i (1 on the diagonal).

        if gL is None and gV is None:
            return None
        L, V = ctx._unpacked
        n = L.shape[-1]
        inner = diag_embed(gL) if gL is not None else None
        if gV is not None:
            VtgV = matmul(_mH(V), gV)
            E = L.unsqueeze(-2) - L.unsqueeze(-1) + eye(n, dtype=L.dtype, device=L.device)
            proj = (VtgV - _mH(VtgV)) * 0.5 / E
            if V.is_complex():  # the skew-Hermitian part's imaginary diagonal is the phases' gauge, not A's
                proj = proj - diag_embed(proj.diagonal(0, -2, -1))
            inner = proj if inner is None else proj + inner
        elif V.is_complex():
            inner = inner.to(V.dtype)
        return matmul(V, matmul(inner, _mH(V)))


def eigh(A, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix (only the ``UPLO`` triangle is read)."""
    if not isinstance(A, Tensor) and has_torch_function_unary(A):  # a tensor-like (GPyTorch's LinearOperator)
        import core.linalg

        return handle_torch_function(core.linalg.eigh, (A,), A, *(() if UPLO == "L" else (UPLO,)))
    _check_float("linalg.eigh", A)
    _check_square("linalg.eigh", A)
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return eigh_result(*LinalgEigh.apply(A, uplo=UPLO))


def eigvalsh(A, UPLO="L"):
    return eigh(A, UPLO)[0]


def _tolerance(S, atol, rtol, shape):
    """PyTorch's cut-off: max(atol, rtol * largest singular value); rtol defaults to eps * max(m, n)."""

    smax = amax(S, -1, keepdim=True).detach() if S.shape[-1] else S.detach().sum(-1, keepdim=True)
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else _dtype.finfo(S.dtype).eps * max(shape[-2:])
    return clamp_min(smax * rtol, 0.0 if atol is None else float(atol))


_PINV_OVERLOADS = "".join(f" * (Tensor input, {args})\n" for args in (
    "*, Tensor atol = None, Tensor rtol = None, bool hermitian = False, Tensor out = None",
    "*, float atol = None, float rtol = None, bool hermitian = False, Tensor out = None",
    "Tensor rcond, bool hermitian = False, *, Tensor out = None",
    "float rcond, bool hermitian = False, *, Tensor out = None"))


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    """``V diag(1/S) U^T`` over the singular values above the tolerance (differentiable through the SVD).

    ``rcond`` is torch's older overload (``linalg.pinv(A, rcond=1e-4)``, Captum's tests): a tolerance relative to the
    largest singular value, with no absolute one; it does not mix with ``atol``/``rtol``."""

    if rcond is not None:
        if atol is not None or rtol is not None:
            given = ", ".join(f"{k}={type(v).__name__ if not isinstance(v, Tensor) else 'Tensor'}"
                              for k, v in (("atol", atol), ("rtol", rtol), ("rcond", rcond)) if v is not None)
            raise TypeError(f"linalg_pinv() received an invalid combination of arguments - got (Tensor, {given}), "
                            f"but expected one of:\n{_PINV_OVERLOADS}")
        rtol = rcond.unsqueeze(-1) if isinstance(rcond, Tensor) and rcond.ndim else rcond
        atol = 0.0
    if A.ndim < 2 or A.dtype not in (_dtype.float32, _dtype.float64, _dtype.complex64, _dtype.complex128):
        raise RuntimeError(f"linalg.pinv({_type_name(A)}{{{list(A.shape)}}}): expected a tensor with 2 or more "
                           "dimensions of float, double, cfloat or cdouble types")
    return LinalgPinv.apply(A, atol=atol, rtol=rtol, hermitian=hermitian)


class LinalgPinv(Function):
    """The pseudo-inverse, differentiated as torch's ``pinv_backward`` does: by the projection formula of Golub and
    Pereyra on A and A+ (not through the SVD), so singular values below the tolerance contribute nothing."""

    node_name = "LinalgPinvBackward0"

    @staticmethod
    def forward(ctx, a, *, atol, rtol, hermitian):
        if hermitian:  # PyTorch inverts the eigenvalues of the (lower triangle's) Hermitian matrix
            L, V = eigh(a)
            keep = L.abs() > _tolerance(L.abs(), atol, rtol, a.shape)
            l_inv = where(keep, 1.0 / where(keep, L, ones_like(L)), zeros_like(L))
            p = matmul(V * l_inv.unsqueeze(-2), _mH(V))
        else:
            U, S, Vh = linalg_svd(a, full_matrices=False)
            keep = S > _tolerance(S, atol, rtol, a.shape)
            s_inv = where(keep, 1.0 / where(keep, S, ones_like(S)), zeros_like(S))
            p = matmul(_mH(Vh) * s_inv.unsqueeze(-2), _mH(U))
        ctx.save_for_backward(a, p)
        return p

    @staticmethod
    def backward(ctx, grad):
        # NOTE: gA = -P^H G P^H + (I - A P) G^H P P^H + P^H P G^H (I - P A) with P = A+, grouped as K = G^H P.
        A, P = ctx._unpacked
        Ph, Gh = _mH(P), _mH(grad)
        K = matmul(Gh, P)
        KPh = matmul(K, Ph)
        return -_mH(matmul(P, K)) + KPh - matmul(matmul(A, P), KPh) + matmul(matmul(Ph, P), Gh - matmul(K, A))


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False):
    """The number of singular values (with ``hermitian``: eigenvalues' magnitudes) above the tolerance."""
    S = eigvalsh(A).abs().detach() if hermitian else svdvals(A).detach()
    return (S > _tolerance(S, atol, rtol, A.shape)).sum(-1)


def inv_ex(A, *, check_errors=False):
    """``(inverse, info)``; ``info`` is 0 where the inverse exists. Singular input raises like ``inv``."""

    inv = inverse(A)
    return tuple.__new__(_InvExResult, (inv, zeros(A.shape[:-2], dtype=_dtype.int32, device=A.device)))


class _InvExResult(tuple):
    __slots__ = ()
    inverse = property(lambda self: self[0])
    info = property(lambda self: self[1])
    __repr__ = __str__ = named_repr("linalg_inv_ex", ("inverse", "info"))


# ----- composites: cond, solve_triangular, tensorinv, tensorsolve, vander -----------------------------

def cond(A, p=None):
    """``||A|| * ||A^-1||``; for ``p`` None / 2 / -2 the ratio of extreme singular values."""
    from core.linalg import matrix_norm  # core.linalg builds on this module

    if p in (None, 2, -2):
        s = svdvals(A)
        hi, lo = amax(s, -1), amin(s, -1)
        return hi / lo if p in (None, 2) else lo / hi
    return matrix_norm(A, p) * matrix_norm(inverse(A), p)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """Only the ``upper`` / lower triangle of ``A`` is read (so only it gets a gradient)."""
    if not (isinstance(A, Tensor) and isinstance(B, Tensor)) and has_torch_function_variadic(A, B):  # a tensor-like
        import core.linalg

        given = {**({} if left else {"left": left}), **({"unitriangular": True} if unitriangular else {})}
        return handle_torch_function(core.linalg.solve_triangular, (A, B), A, B, upper=upper, **given)

    T = triu(A) if upper else tril(A)
    if unitriangular:
        n = A.shape[-1]
        identity = eye(n, dtype=A.dtype, device=A.device)
        T = T * (1 - identity) + identity
    if not left:
        return _mT(_solve_triangular(_mT(T), _mT(B), not upper))
    return _solve_triangular(T, B, upper)


def _solve_triangular(T, B, upper):
    """PyTorch's triangular solve (BLAS trsm) never checks the diagonal: a zero there gives inf and nan (kornia's
    RANSAC solves with the LU factors of singular minimal samples and drops those models); the LU solve refuses
    such a matrix, so then the rows are substituted one at a time (with autograd, as trsm's backward).
    ``B`` is always a matrix (or a batch of them) here: its batch dimensions are broadcast first, as ``solve`` would
    otherwise read a ``B`` shaped like ``T.shape[:-1]`` as a batch of vectors (GPyTorch's batched Cholesky solve
    against an unbatched identity)."""
    try:
        batch = np.broadcast_shapes(tuple(T.shape[:-2]), tuple(B.shape[:-2]))
    except ValueError:  # (solve gives PyTorch's error for batches that do not broadcast)
        batch = tuple(B.shape[:-2])
    if tuple(B.shape[:-2]) != batch:
        B = B.expand(*batch, *B.shape[-2:])
    try:
        return solve(T, B)
    except _LinAlgError:
        pass
    n = T.shape[-1]
    rows: list = [None] * n
    for i in (range(n - 1, -1, -1) if upper else range(n)):
        known = slice(i + 1, n) if upper else slice(0, i)
        acc = B[..., i:i + 1, :]
        if known.start != known.stop:
            acc = acc - matmul(T[..., i:i + 1, known], cat(rows[known], dim=-2))
        rows[i] = acc / T[..., i:i + 1, i:i + 1]
    return cat(rows, dim=-2)


def tensorinv(A, ind=2):

    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, cols = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    if math.prod(rows) != math.prod(cols):
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {math.prod(cols)} != {math.prod(rows)}")
    return inverse(A.reshape(math.prod(rows), math.prod(cols))).reshape(cols + rows)


def tensorsolve(A, B, dims=None):


    if dims is not None:
        dims = [d % A.ndim for d in dims]
        A = permute(A, [d for d in range(A.ndim) if d not in dims] + dims)
    rest = tuple(A.shape[B.ndim:])
    return solve(A.reshape(B.numel(), math.prod(rest)), B.reshape(-1)).reshape(rest)


def vander(x, *, N=None):
    """Columns ``x**0 ... x**(N-1)`` (increasing powers, like ``torch.linalg.vander``)."""

    if x.dtype is _dtype.bool:
        raise RuntimeError("linalg.vander supports floating point, complex, and integer tensors, but got Bool")
    x = x.unsqueeze(-1) if x.ndim == 0 else x  # (PyTorch's: a 0-d x is one point)
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = cumprod(x.unsqueeze(-1).expand(*x.shape, n - 1), -1)
    return cat([ones_like(x).unsqueeze(-1), powers], -1)


# ----- QR ---------------------------------------------------------------------------------------------

class qr_result(tuple):  # torch.return_types.linalg_qr
    __slots__ = ()

    def __new__(cls, Q, R):
        return tuple.__new__(cls, (Q, R))

    Q = property(lambda self: self[0])
    R = property(lambda self: self[1])
    __repr__ = __str__ = named_repr("linalg_qr", ("Q", "R"))


return_types.linalg_qr = qr_result


class LinalgQr(Function):
    node_name = "LinalgQrBackward0"

    @staticmethod
    def forward(ctx, a, *, mode):
        x = a._data
        xp = xp_of(x)
        if mode == "r":
            r = xp.linalg.qr(x, mode="r")
            q = xp.zeros((0,), dtype=x.dtype)
        else:
            q, r = xp.linalg.qr(x, mode=mode)
        outs = tuple(new_tensor(xp.ascontiguousarray(o.astype(x.dtype, copy=False))) for o in (q, r))
        ctx.mode = mode
        ctx.save_for_backward(a, *outs)
        return outs

    @staticmethod
    def backward(ctx, gQ, gR):
        a, Q, R = ctx._unpacked
        m, n = a.shape[-2], a.shape[-1]
        if ctx.mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
                               "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
        if m >= n:
            return _qr_backward_tall(gQ, gR, Q, R)
        # NOTE: wide A = Q [R1 R2]: R1 is the QR of the first m columns and R2 = Q^T A[:, m:].

        gR1, gR2 = gR[..., :m], gR[..., m:]
        gX = _qr_backward_tall(gQ + matmul(a[..., m:], _mT(gR2)), gR1, Q, R[..., :m])
        return cat([gX, matmul(Q, gR2)], -1)


def _qr_backward_tall(gQ, gR, Q, R):
    """A = QR with m >= n: gA = Q (gR + tril(Q^T gQ - gQ^T Q + R gR^T - gR R^T) R^-T) + (gQ - Q Q^T gQ) R^-T."""

    qdq = matmul(_mT(Q), gQ)
    rdr = matmul(R, _mT(gR))
    low = tril(qdq - _mT(qdq) + rdr - _mT(rdr))
    r_inv_t = _mT(inverse(R))
    return matmul(Q, gR + matmul(low, r_inv_t)) + matmul(gQ - matmul(Q, qdq), r_inv_t)


def qr(A, mode="reduced"):
    _check_float("linalg.qr", A)
    if A.ndim < 2:
        raise RuntimeError("linalg.qr: The input tensor A must have at least 2 dimensions.")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or "
                           "'complete'")
    return qr_result(*LinalgQr.apply(A, mode=mode))
