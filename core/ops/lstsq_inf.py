"""What ``linalg.lstsq`` gives for an infinity in A or B, as PyTorch's CPU build (MKL's LAPACK) gives it.

LAPACK's least-squares drivers first scale a matrix whose largest entry exceeds the overflow threshold down to it:
an infinite norm makes the factor 0, so the finite entries become 0 and the infinities NaN, and scaling back
multiplies by infinity. What the user sees follows from that:

- an infinity in B (A finite) makes that batch element's whole solution NaN for every driver; its residuals
  (where PyTorch returns them) are NaN for the columns holding an infinity and 0 for the others, which stayed
  scaled to zero;
- ``gels`` with an infinity in A factors the scaled matrix (QR, or LQ for a wide one) and its triangular solve
  refuses a zero on the diagonal: PyTorch's "does not have full rank (error code: k)";
- ``gelsd`` calls ``?lascl`` with the NaN norm of the scaled matrix, an illegal argument 4, as for a NaN in A.

``gelsy`` and ``gelss`` with an infinity in A give NaNs and zeros that depend on MKL's pivoting and SVD internals;
core leaves them to its own route (``gelsy`` agrees where no pivot sees a NaN).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["refuse_inf", "nan_for_inf_rhs"]


def _batched(a, b):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:])


def _zero_pivot(nan: np.ndarray) -> int:
    """The first zero on R's diagonal (1-based, 0 for none) of the Householder QR of a matrix of zeros with NaNs at
    ``nan``: a column with a NaN below the diagonal gets a NaN reflection that fills the columns after it with NaN;
    one without is left as it is (``?larfg``'s tau = 0), so its diagonal is 0 unless it holds a NaN."""
    nan = nan.copy()
    for j in range(min(nan.shape)):
        if nan[j + 1:, j].any():
            nan[j:, j + 1:] = True
        elif not nan[j, j]:
            return j + 1
    return 0


def refuse_inf(name: str, A, rhs, driver: str) -> None:
    """PyTorch's error for an infinity in A under ``gels`` (no full rank) or ``gelsd`` (illegal argument 4)."""
    if driver not in ("gels", "gelsd"):
        return
    a, b = np.asarray(A.detach().cpu().numpy()), np.asarray(rhs.detach().cpu().numpy())
    if not np.isinf(a).any() or b.ndim > a.ndim or a.shape[-2] != b.shape[-2]:
        return
    try:
        a = _batched(a, b)[0]
    except ValueError:
        return
    many = math.prod(a.shape[:-2]) > 1
    for index, mat in enumerate(a.reshape(-1, *a.shape[-2:])):
        if not np.isinf(mat).any():
            continue
        where = f"(Batch element {index}): " if many else ""
        if driver == "gelsd":
            raise RuntimeError(f'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
                               f'BatchLinearAlgebra.cpp":1613, please report a bug to PyTorch. {name}: {where}'
                               f"Argument 4 has illegal value. Most certainly there is a bug in the implementation "
                               f"calling the backend library.")
        scaled = np.isinf(mat)
        code = _zero_pivot(scaled if mat.shape[0] >= mat.shape[1] else scaled.T)
        if code:
            from core.ops.linalg_more import _LinAlgError

            raise _LinAlgError(f"{name}: {where}The least squares solution could not be computed because the input "
                               f"matrix does not have full rank (error code: {code}).")


def nan_for_inf_rhs(A, rhs, solution, residuals):
    """``(solution, residuals)`` with each batch element whose B holds an infinity (and A none) given LAPACK's
    NaN solution and its residuals (NaN for a column with an infinity, else 0); the tensors themselves otherwise."""
    a, b = np.asarray(A.detach().cpu().numpy()), np.asarray(rhs.detach().cpu().numpy())
    if not np.isinf(b).any():
        return solution, residuals
    a, b = _batched(a, b)
    inf_cols = np.isinf(b).any(-2) & ~np.isinf(a).any((-2, -1))[..., None]  # (batch..., columns)
    hit = inf_cols.any(-1)
    if not hit.any():
        return solution, residuals
    import core

    with core.no_grad():
        fill = core.tensor(np.where(hit, np.nan, 0.0), dtype=solution.dtype)
    solution = solution + fill[..., None, None]
    if residuals.numel():
        values = core.tensor(np.where(inf_cols, np.nan, 0.0), dtype=residuals.dtype)
        residuals = core.where(core.tensor(hit)[..., None], values, residuals)
    return solution, residuals
