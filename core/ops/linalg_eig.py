"""``torch.linalg.eig`` and ``eigvals``: eigen-decomposition of a general square matrix, in complex numbers.

NumPy's ``eig`` is LAPACK's geev, as PyTorch's CPU kernel: eigenvectors are unit-norm columns, each fixed
only up to a phase (a factor e^{i phi}), so results are compared through ``A @ V == V @ diag(L)``. A real
input gives complex64 (float32) or complex128 (float64) results. The backward is PyTorch's
``linalg_eig_backward`` (general case), written with differentiable core ops; a real input's gradient is
its real part (the engine takes it).
"""

from __future__ import annotations

import numpy as np

from core._factories import eye
from core.autograd.function import Function
from core.ops._util import new_tensor, xp_of
from core.ops.complex_ops import imag, real
from core.ops.linalg import matmul
from core.ops.linalg_more import _check_float, _check_square, solve
from core.ops.rearranging import diag_embed
from core.ops.reduction import named_repr, return_types

__all__ = ["eig", "eigvals"]


class eig_result(tuple):  # torch.return_types.linalg_eig
    __slots__ = ()

    def __new__(cls, eigenvalues, eigenvectors):
        return tuple.__new__(cls, (eigenvalues, eigenvectors))

    eigenvalues = property(lambda self: self[0])
    eigenvectors = property(lambda self: self[1])
    __repr__ = __str__ = named_repr("linalg_eig", ("eigenvalues", "eigenvectors"))


return_types.linalg_eig = eig_result  # isinstance(r, torch.return_types.linalg_eig)


def _complex_of(np_dtype):
    return np.complex128 if np_dtype in (np.float64, np.complex128) else np.complex64


class LinalgEig(Function):
    node_name = "LinalgEigBackward0"

    @staticmethod
    def forward(ctx, a):
        x = a._data
        xp = xp_of(x)
        if not bool(xp.isfinite(x).all()):
            raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
        w, v = np.linalg.eig(x)
        cd = _complex_of(x.dtype)
        outs = (new_tensor(np.ascontiguousarray(w.astype(cd))), new_tensor(np.ascontiguousarray(v.astype(cd))))
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(*outs)
        return outs

    @staticmethod
    def backward(ctx, gL, gV):
        if gL is None and gV is None:
            return None
        L, V = ctx._unpacked
        Vh = V.mH
        if gV is not None:
            VhgV = matmul(Vh, gV)
            diag = VhgV.diagonal(0, -2, -1)
            if not np.allclose(imag(diag).detach().numpy(), 0, rtol=1e-2, atol=1e-2):
                raise RuntimeError("linalg_eig_backward: The eigenvectors in the complex case are specified up to "
                                   "multiplication by e^{i phi}. The specified loss function depends on this "
                                   "quantity, so it is ill-defined.")
            # NOTE: project onto the skew-Hermitian tangent space: the loss can't depend on each column's phase
            gA = VhgV - matmul(Vh, V * real(diag).unsqueeze(-2))
            if gL is not None:
                gA = gA + diag_embed(gL)
        else:
            gA = diag_embed(gL)
        Lc = L.conj()
        n = L.shape[-1]
        E = Lc.unsqueeze(-2) - Lc.unsqueeze(-1) + eye(n, dtype=L.dtype)  # 1 on the diagonal
        return solve(Vh, matmul(gA / E, Vh))


def eig(A):
    """``(eigenvalues, eigenvectors)`` of a square matrix (or a batch), complex, with ``A V = V diag(L)``."""
    _check_float("linalg.eig", A)
    _check_square("linalg.eig", A)
    return eig_result(*LinalgEig.apply(A))


def eigvals(A):
    """The eigenvalues of ``eig``, complex (in LAPACK's order)."""
    return eig(A)[0]
