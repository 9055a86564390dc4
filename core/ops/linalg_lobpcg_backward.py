"""The backward of ``torch.lobpcg``: gradients of a symmetric ``A`` from its (partial) eigenpairs ``(D, U)``.

With every eigenpair (``U`` square) it is the usual ``U (diag(dD) + (U^T dU) * F) U^T``, ``F_ij = 1/(d_j - d_i)``.
With only k of m eigenpairs the part of the gradient outside span(U) solves the Sylvester equation
``U_o^T A U_o dX - dX D = -U_o^T A U`` through its polynomial solution (Hu and Cheng 2006) built from the
characteristic polynomial of D, as PyTorch's ``torch/_lobpcg.py`` does; ``U_o`` spans the orthogonal complement
of span(U) (a random projection drawn from a fixed-seed generator). Everything is written with differentiable core
ops, out of place.
"""

from __future__ import annotations

import core

__all__ = ["symeig_backward"]


def _complete_eigenspace(D_grad, U_grad, A, D, U):
    F = D.unsqueeze(-2) - D.unsqueeze(-1)
    diagonal = core.eye(F.shape[-1], dtype=core.bool, device=F.device)
    F = core.where(diagonal, core.full_like(F, float("inf")), F).pow(-1)  # F_ii = 0
    Ut = U.mT.contiguous()
    return core.matmul(U, core.matmul(core.diag_embed(D_grad) + core.matmul(Ut, U_grad) * F, Ut))


def _coefficients_given_roots(roots):
    """``(a_0, ..., a_n = 1)`` with ``prod_i (x - r_i) = sum_j a_j x^j`` (batched over leading dims)."""
    coefficients = core.ones(roots.shape[:-1] + (1,), dtype=roots.dtype, device=roots.device)
    zero = core.zeros(roots.shape[:-1] + (1,), dtype=roots.dtype, device=roots.device)
    for i in range(roots.shape[-1]):  # multiply by (x - r_i)
        root = roots[..., i : i + 1]
        coefficients = core.cat((zero, coefficients), -1) - root * core.cat((coefficients, zero), -1)
    return coefficients


def _vector_polynomial(poly, x):
    """``poly(x)`` elementwise by Horner's rule; ``poly``'s leading coefficient is taken as 1."""
    result = core.ones_like(x)
    for k in range(poly.shape[-1] - 2, -1, -1):
        result = core.addcmul(poly[..., k].unsqueeze(-1), x, result)
    return result


def _matrix_polynomial(poly, A):
    """``poly(A)`` for a square matrix by Horner's rule; ``poly``'s leading coefficient is taken as 1."""
    eye = core.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    result = eye
    for k in range(poly.shape[-1] - 2, -1, -1):
        result = core.matmul(A, result) + poly[..., k] * eye
    return result


def _partial_eigenspace(D_grad, U_grad, A, D, U, largest):
    Ut = U.mT.contiguous()
    projection = core.eye(A.shape[-1], dtype=A.dtype, device=A.device) - core.matmul(U, Ut)
    generator = core.Generator(A.device)  # NOTE: a fixed default seed, so the gradient is deterministic
    noise = core.randn((*A.shape[:-1], A.shape[-1] - D.shape[-1]), dtype=A.dtype, device=A.device,
                       generator=generator)
    U_ortho = core.matmul(projection, noise)
    U_ortho_t = U_ortho.mT.contiguous()
    chr_poly_D = _coefficients_given_roots(D)
    # sum_k chr_poly_D[k] sum_{i<k} A^(k-1-i) U_grad D^i, accumulated without powers of A
    U_grad_projected = U_grad
    series_acc = core.zeros_like(U_grad)
    for k in range(1, chr_poly_D.shape[-1]):
        series_acc = series_acc + U_grad_projected * _vector_polynomial(chr_poly_D[..., k:], D).unsqueeze(-2)
        U_grad_projected = core.matmul(A, U_grad_projected)
    chr_poly_D_at_A = _matrix_polynomial(chr_poly_D, A)
    restricted = core.matmul(U_ortho_t, core.matmul(chr_poly_D_at_A, U_ortho))
    # NOTE: chr_poly_D(A) on span(U_o) is positive definite unless the k largest are asked for and k is odd
    sign = -1 if (largest and D.shape[-1] % 2 == 1) else +1
    L = core.linalg.cholesky(sign * restricted)
    result = _complete_eigenspace(D_grad, U_grad, A, D, U)
    solved = sign * core.cholesky_solve(core.matmul(U_ortho_t, series_acc), L)
    return result - core.matmul(core.matmul(U_ortho, solved), Ut)


def symeig_backward(D_grad, U_grad, A, D, U, largest):
    """``A``'s gradient from those of its eigenvalues ``D`` and eigenvectors ``U`` (``A`` symmetric)."""
    if U.shape[-1] == U.shape[-2]:
        return _complete_eigenspace(D_grad, U_grad, A, D, U)
    return _partial_eigenspace(D_grad, U_grad, A, D, U, largest)
