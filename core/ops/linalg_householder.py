"""``linalg.householder_product`` (and its alias ``orgqr``) and ``geqrf``: QR as reflections, as PyTorch has them.

For ``A`` of shape ``(*, m, n)`` (m >= n) and ``tau`` of shape ``(*, k)`` (k <= n), the result is the first n
columns of ``H_1 H_2 ... H_k`` with ``H_i = I - tau_i v_i v_i^H`` and ``v_i`` column i of ``A`` below the
diagonal with a 1 on it. Composed from core ops (one matrix update per reflection), so autograd differentiates it
with respect to both ``A`` and ``tau``; PyTorch's checks and messages come first. ``geqrf(A)`` is LAPACK's
reflector form of QR (``(a, tau)``: R on and above the diagonal, the reflectors below), from NumPy's ``raw`` QR;
like PyTorch's it has no derivative.
"""

from __future__ import annotations

import numpy as np

import core
from core._dtype import SCALAR_NAMES
from core._tensor import new_tensor
from core.ops.reduction import _return_type

geqrf_result = _return_type("geqrf", "a tau")  # torch.return_types.geqrf

__all__ = ["householder_product", "orgqr", "geqrf"]

_NAME = "torch.linalg.householder_product"


def _check(a, tau) -> None:
    if a.dim() < 2:
        raise RuntimeError(f"{_NAME}: input must have at least 2 dimensions.")
    if a.size(-2) < a.size(-1):
        raise RuntimeError(f"{_NAME}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if a.size(-1) < tau.size(-1):
        raise RuntimeError(f"{_NAME}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if tau.dim() != a.dim() - 1:
        raise RuntimeError(f"{_NAME}: Expected tau to have one dimension less than input, but got tau.ndim equal to "
                           f"{tau.dim()} and input.ndim is equal to {a.dim()}")
    if tau.dtype != a.dtype:
        raise RuntimeError(f"{_NAME}: tau dtype {SCALAR_NAMES[tau.dtype.name]} does not match input dtype "
                           f"{SCALAR_NAMES[a.dtype.name]}")


def householder_product(A, tau, *, out=None):
    _check(A, tau)
    m, n = A.size(-2), A.size(-1)
    below = A.tril(-1) + core.eye(m, n, dtype=A.dtype, device=A.device)  # v_i in column i
    q = core.eye(m, dtype=A.dtype, device=A.device).expand(*A.shape[:-2], m, m)
    for i in range(tau.size(-1)):
        v = below[..., :, i:i + 1]
        q = q - (q @ v) * tau[..., i:i + 1].unsqueeze(-1) @ v.mH
    result = q[..., :, :n]
    if not tau.size(-1) and A.requires_grad:  # no reflector: I, yet torch's node still sends A its (zero) gradient
        result = core.where(core.zeros(result.shape, dtype=core.bool, device=A.device), A[..., :, :n], result)
    if out is not None:
        out.resize_(result.shape)
        out.copy_(result)
        return out
    return result


orgqr = householder_product


def geqrf(input):
    """``(a, tau)``: the QR factorisation of ``input`` in LAPACK's reflector form (no gradient, as PyTorch's)."""
    if input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    h, tau = np.linalg.qr(input.detach().cpu().numpy(), mode="raw")
    a = new_tensor(np.ascontiguousarray(np.swapaxes(h, -1, -2))).to(input.device)
    return geqrf_result(a, new_tensor(np.ascontiguousarray(tau)).to(input.device))
