"""``core.linalg``: PyTorch's ``torch.linalg`` namespace (norms, inv, det, solve, cross, matmul...).

Loaded lazily by ``core.__getattr__``. The primitives live in ``core.ops.linalg*`` (products, matrix
functions, SVD, decompositions); the matrix norms here are composites of them.
"""

import math as _math

from core import _c_namespaces
from core._tensor import Tensor as _Tensor
from core.ops import elementwise as _elementwise
from core.ops import movement as _movement
from core.ops import out_arg as _out_arg
from core.ops import reduction as _reduction
from core.ops import views as _views
from core.ops._util import normalize_dim as _normalize_dim
from core.ops.linalg import matmul
from core.ops.linalg_decomp import (
    cholesky,
    cond,
    eigh,
    eigvalsh,
    inv_ex,
    matrix_rank,
    pinv,
    qr,
    solve_triangular,
    tensorinv,
    tensorsolve,
    vander,
)
from core.ops.linalg_eig import eig, eigvals
from core.ops.linalg_householder import householder_product
from core.ops.linalg_ldl import ldl_factor, ldl_factor_ex, ldl_solve
from core.ops.linalg_lu import cholesky_ex, lstsq, lu, lu_factor, lu_factor_ex, lu_solve, matrix_exp, solve_ex
from core.ops.linalg_more import LinAlgError, det, matrix_power, slogdet, solve, vector_norm
from core.ops.linalg_more import cross as _cross
from core.ops.linalg_more import inverse as _inverse
from core.ops.linalg_svd import linalg_svd as svd
from core.ops.linalg_svd import svdvals

__all__ = ["matmul", "det", "slogdet", "inv", "solve", "cross", "vector_norm", "matrix_norm", "norm", "vecdot",
           "matrix_power", "multi_dot", "svd", "svdvals", "diagonal", "cholesky", "eigh", "eigvalsh", "pinv",
           "matrix_rank", "inv_ex", "cond", "solve_triangular", "tensorinv", "tensorsolve", "vander",
           "qr", "LinAlgError",
           "cholesky_ex", "lstsq", "lu", "lu_factor", "lu_factor_ex", "lu_solve", "matrix_exp", "solve_ex",
           "householder_product", "eig", "eigvals", "ldl_factor", "ldl_factor_ex", "ldl_solve"]

inv = _inverse


def cross(input, other, *, dim=-1):
    return _cross(input, other, dim=dim)


def vecdot(x, y, *, dim=-1):
    """Sum of ``x * y`` over ``dim`` (real tensors: no conjugation)."""
    return _reduction.sum(_elementwise.mul(x, y), dim)


def multi_dot(tensors):
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    out = tensors[0]
    for t in tensors[1:]:
        out = matmul(out, t)
    return out


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """'fro' is a 2-D vector norm; 1 / inf (and -1 / -inf) reduce column / row sums of |A|; 'nuc' / 2 / -2
    come from the singular values."""
    if not isinstance(A, _Tensor) or A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    d0, d1 = (_normalize_dim(d, A.ndim) for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({d0}, {d1})")
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if ord in ("nuc", 2, -2):
        if dtype is not None:
            A = A.to(dtype)
        s = svdvals(_movement.movedim(A, (d0, d1), (-2, -1)))
        out = (_reduction.sum(s, -1) if ord == "nuc"
               else _reduction.amax(s, -1) if ord == 2 else _reduction.amin(s, -1))
        return _views.unsqueeze(_views.unsqueeze(out, min(d0, d1)), max(d0, d1)) if keepdim else out
    if ord in (1, -1, _math.inf, -_math.inf):
        inner, outer = (d0, d1) if abs(ord) == 1 else (d1, d0)
        sums = vector_norm(A, 1, inner, True, dtype=dtype)
        out = _reduction.amax(sums, outer, keepdim=True) if ord > 0 else _reduction.amin(sums, outer, keepdim=True)
        return out if keepdim else _views.squeeze(out, (d0, d1))
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return _movement.diagonal(A, offset, dim1, dim2)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm for 1-D input / one dim, a matrix norm for 2-D input / two dims (PyTorch's rule)."""
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        return vector_norm(A, 2.0, dim, keepdim, dtype=dtype)  # (2.0: torch's grad_fn._saved_ord)
    if isinstance(ord, str) or (dim is not None and len(dim) == 2) or (dim is None and A.ndim == 2):
        return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    if dim is None and A.ndim != 1:
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                           f"Got {A.ndim}D.")
    return vector_norm(A, ord, dim, keepdim, dtype=dtype)


_ = (det, slogdet, solve, matrix_power, svd, svdvals, cholesky, eigh, eigvalsh, inv_ex, matrix_rank, pinv,
     cond, solve_triangular, tensorinv, tensorsolve, vander, qr)

_out_arg.install(globals(), (  # the functions torch.linalg gives out= (core.ops.out_arg)
    "cholesky", "cholesky_ex", "cond", "cross", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv", "inv_ex", "lu",
    "lu_factor", "lu_factor_ex", "lu_solve", "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm",
    "pinv", "qr", "slogdet", "solve", "solve_ex", "solve_triangular", "svd", "svdvals", "tensorinv", "tensorsolve",
    "vecdot", "vector_norm"))

_c_namespaces.publish(globals())  # torch.linalg.X is linalg_X (core._c_namespaces): last, after every rebinding above
