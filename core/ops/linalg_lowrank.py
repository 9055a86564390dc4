"""``torch.svd_lowrank`` and ``torch.pca_lowrank``: randomised low-rank SVD (Halko et al. 2009, algorithm 5.1)
and PCA on top of it, step for step as PyTorch's ``torch/_lowrank.py`` takes them.

The random test matrix comes from ``core.randn``, which draws PyTorch's numbers, so after the same
``manual_seed`` the factors agree with PyTorch's to rounding (QR and SVD are LAPACK's in both). Everything is
written with differentiable core ops.
"""

from __future__ import annotations

import core

__all__ = ["svd_lowrank", "pca_lowrank"]


def _approximate_basis(A, q: int, niter: int, M=None):
    """An orthonormal basis Q (n x q) whose span approximates A's range, after ``niter`` power iterations."""
    dtype = A.dtype if A.is_floating_point() else core.float32
    R = core.randn(A.shape[-1], q, dtype=dtype, device=A.device)
    X = A @ R
    if M is not None:
        X = X - M @ R
    Q = core.linalg.qr(X).Q
    for _ in range(niter):
        X = A.mH @ Q
        if M is not None:
            X = X - M.mH @ Q
        Q = core.linalg.qr(X).Q
        X = A @ Q
        if M is not None:
            X = X - M @ Q
        Q = core.linalg.qr(X).Q
    return Q


def svd_lowrank(A, q=6, niter=2, M=None):
    """``(U, S, V)`` with ``A - M ≈ U diag(S) V^H`` of rank ``q`` (default 6), ``niter`` power iterations."""
    q = 6 if q is None else q
    niter = 2 if niter is None else niter
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.size())
    if m < n:
        A = A.mH
        if M is not None:
            M = M.mH
    Q = _approximate_basis(A, q, niter, M)
    B = Q.mH @ A
    if M is not None:
        B = B - Q.mH @ M
    U, S, Vh = core.linalg.svd(B, full_matrices=False)
    V, U = Vh.mH, Q.matmul(U)
    return (V, S, U) if m < n else (U, S, V)


def pca_lowrank(A, q=None, center=True, niter=2):
    """``(U, S, V)`` of the (column-centred) data matrix ``A``: its principal directions are V's columns."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return svd_lowrank(A, q, niter=niter)
    return svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter=niter)
