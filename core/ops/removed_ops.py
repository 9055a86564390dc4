"""PyTorch's deprecated and removed top-level functions that old tutorials still call.

``range`` (inclusive of ``end``, default dtype, a UserWarning each call) and ``triangular_solve`` (a warning once,
``(solution, cloned_coefficient)``) still work in PyTorch 2.13, so they work here. ``solve``, ``lstsq``,
``symeig``, ``eig`` and ``matrix_rank`` were removed in 1.9 and now raise a RuntimeError naming their
replacements; core raises the same, so a script that calls them stops with PyTorch's message.
"""

from __future__ import annotations

import math

import numpy as np

import core
from core._tensor import new_tensor
from core._user_warning import warn_user
from core._warn_once import warn_once
from core.autograd._transform_guard import set_requires_grad as _set_requires_grad
from core.ops.reduction import _return_type

__all__ = ["range", "triangular_solve", "solve", "lstsq", "symeig", "eig", "matrix_rank"]

_REMOVED = "This function was deprecated since version 1.9 and is now removed. "
_MESSAGES = {
    "solve": "`torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has its arguments "
             "reversed and does not return the LU factorization.\n\nTo get the LU factorization see `torch.lu`, "
             "which can be used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should "
             "be replaced with:\nX = torch.linalg.solve(A, B)",
    "lstsq": "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has reversed "
             "arguments and does not return the QR decomposition in the returned tuple (although it returns other "
             "information about the problem).\n\nTo get the QR decomposition consider using `torch.linalg.qr`.\n\n"
             "The returned solution in `torch.lstsq` stored the residuals of the solution in the last m - n columns "
             "of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field "
             "'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ = "
             "torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution",
    "symeig": "The default behavior has changed from using the upper triangular portion of the matrix by default to "
              "using the lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) should be replaced with:\n"
              "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, "
              "eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')",
    "eig": "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real tensors "
           "mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = "
           "torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
           "L_complex, V_complex = torch.linalg.eig(A)",
    "matrix_rank": "\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter 'symmetric' was "
                   "renamed in `torch.linalg.matrix_rank()` to 'hermitian'.",
}
triangular_solve_result = _return_type("triangular_solve", "solution cloned_coefficient")


def _removed(name: str):
    def removed(*args, **kwargs):
        raise RuntimeError((_REMOVED.rstrip(" ") if name == "matrix_rank" else _REMOVED) + _MESSAGES[name])
    removed.__name__ = removed.__qualname__ = name
    removed.__doc__ = f"Removed in PyTorch 1.9: raises PyTorch's RuntimeError naming the replacement of ``{name}``."
    return removed


solve, lstsq, symeig, eig, matrix_rank = (_removed(n) for n in ("solve", "lstsq", "symeig", "eig", "matrix_rank"))


def range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """``start, start + step, ..., end`` with ``end`` included, in the default dtype unless ``dtype`` is given."""
    warn_user("torch.range is deprecated and will be removed in a future release because its behavior is "
              "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
              "[start, end).")
    start, end, step = (float(v) if isinstance(v, core.Tensor) else v for v in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (step > 0 and start > end) or (step < 0 and start < end):
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    size = int(math.floor((end - start) / step)) + 1
    dtype = core.get_default_dtype() if dtype is None else dtype
    values = start + np.arange(size, dtype=np.float64) * step
    result = new_tensor(values).to(dtype=dtype, device=device)
    _set_requires_grad(result, requires_grad)
    if out is not None:
        out.resize_(result.shape)
        out.copy_(result)
        return out
    return result


def triangular_solve(b, A, upper: bool = True, transpose: bool = False, unitriangular: bool = False, *, out=None):
    """``(solution, cloned_coefficient)`` of ``op(A) X = b`` for triangular ``A`` (a warning once, as PyTorch's)."""
    warn_once("triangular_solve", "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand "
              "will be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed "
              "and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be "
              "replaced with\nX = torch.linalg.solve_triangular(A, B).")  # (PyTorch's TORCH_WARN_ONCE)
    coefficient = A.mT if transpose else A
    solution = core.linalg.solve_triangular(coefficient, b, upper=upper != bool(transpose),
                                            unitriangular=unitriangular)
    return triangular_solve_result(solution, A.clone())
