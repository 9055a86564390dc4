"""Contractions and matrix functions: tensordot, kron, cross, det, inverse, solve, matrix_power, vector norms.

Part of the linear-algebra family (re-exported by ``core.ops.linalg``; ``core.linalg`` builds on it).
Gradients are written with differentiable core ops, so double backward works. The matrix
functions take floating tensors only and raise ``LinAlgError`` (a ``RuntimeError``) on singular input.
"""

from __future__ import annotations

import math

import numpy as np

from core import _dtype, _factories
from core._arg_types import require_tensors, tp_name
from core._cascade_sum import in_order
from core._errors import _LinAlgError
from core._norm_order import p_norm, two_norm
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._linalg_checks import _type_name
from core.ops._saved_attrs import NORM_SAVED, dims_shown
from core.ops._strided import row_major
from core.ops._util import broadcast_shapes, check_same_device, new_tensor, normalize_dim, normalize_dims, xp_of
from core.ops.comparison import where
from core.ops.complex_ops import conj_of
from core.ops.elementwise import add, mul
from core.ops.linalg import dot, matmul, mm
from core.ops.norm_backward import norm_backward
from core.ops.views import clone, permute, reshape, transpose, unsqueeze, view

__all__ = ["tensordot", "kron", "cross", "det", "slogdet", "logdet", "inverse", "matrix_power", "solve",
           "vector_norm", "LinAlgError"]


LinAlgError = _LinAlgError


def _mT(t: Tensor) -> Tensor:  # PyTorch's name
    return transpose(t, -2, -1)


def _mH(t: Tensor) -> Tensor:
    """The conjugate transpose (the transpose of a real matrix): what complex gradients of solves need."""
    return conj_of(transpose(t, -2, -1))


def _not_implemented(kernel):
    return NotImplementedError, f"\"{kernel}\" not implemented for 'Half'"


# What PyTorch (CPU) raises for float16 input: LAPACK has no half precision.
_HALF = {"linalg.det": _not_implemented("lu_cpu"), "linalg.solve": _not_implemented("lu_cpu"),
         "linalg.svd": _not_implemented("linalg_svd_cpu"), "linalg.svdvals": _not_implemented("linalg_svd_cpu"),
         "linalg.cholesky": _not_implemented("cholesky_cpu"), "linalg.eigh": _not_implemented("linalg_eigh_cpu"),
         "linalg.inv": (RuntimeError, "linalg.inv: Low precision dtypes not supported. Got Half"),
         "linalg.slogdet": (RuntimeError, "linalg.slogdet: Low precision dtypes not supported. Got Half")}


def _check_float(name: str, t: Tensor) -> None:
    if not isinstance(t, Tensor):
        raise TypeError(f"{name}(): argument 'A' must be Tensor, not {type(t).__name__}")
    if t._data.dtype.kind not in "fc" and not t.is_floating_point():  # (bfloat16 is ml_dtypes' kind 'V')
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {_type_name(t)}")
    if t._data.dtype == np.float16 and name in _HALF:
        exc, message = _HALF[name]
        raise exc(message)


def _check_square(name: str, t: Tensor) -> None:
    if t._data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    n, m = t._data.shape[-2:]
    if n != m:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {n} by {m} matrices")


# ----- tensordot, kron ----------------------------------------------------------------------------

def _contraction_dims(a: Tensor, b: Tensor, dims):
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.ndim, b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        return list(range(a.ndim - dims, a.ndim)), list(range(dims))
    da, db = dims
    da = [da] if isinstance(da, int) else list(da)
    db = [db] if isinstance(db, int) else list(db)
    if len(da) != len(db):
        raise RuntimeError(f"both dimension lists should have same length, but got {len(da)} and {len(db)}")
    return da, db


def tensordot(a, b, dims=2, out=None):
    """Contract ``dims`` of ``a`` with ``dims`` of ``b`` by permute + reshape + one ``mm``."""
    check_same_device(a, b)
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    ca, cb = _contraction_dims(a, b, dims)
    for i, j in zip(ca, cb):  # a size-1 dim contracts with any size: the other side is summed first, as PyTorch's
        i, j = normalize_dim(i, a.ndim), normalize_dim(j, b.ndim)
        if b._data.shape[j] == 1:  # (a's too where both are 1: SumBackward1 in the graph, as torch's)
            a = a.sum(i, keepdim=True)
        elif a._data.shape[i] == 1 and b._data.shape[j] != 1:
            b = b.sum(j, keepdim=True)
    sa, sb = a._data.shape, b._data.shape
    for i, j in zip(ca, cb):
        if sa[normalize_dim(i, a.ndim)] != sb[normalize_dim(j, b.ndim)]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {sa[i]} in dim {i} and "
                               f"second has size {sb[j]} in dim {j}")
    ca = [normalize_dim(i, a.ndim) for i in ca]
    cb = [normalize_dim(j, b.ndim) for j in cb]
    fa = [i for i in range(a.ndim) if i not in ca]
    fb = [j for j in range(b.ndim) if j not in cb]
    k = math.prod(sa[i] for i in ca)
    if not fa and not fb:
        return reshape(_full_contraction(permute(a, ca), permute(b, cb), k), ())
    left = reshape(permute(a, fa + ca), (math.prod(sa[i] for i in fa), k))
    right = reshape(permute(b, cb + fb), (k, math.prod(sb[j] for j in fb)))
    return reshape(mm(left, right), tuple(sa[i] for i in fa) + tuple(sb[j] for j in fb))


def _full_contraction(pa: Tensor, pb: Tensor, k: int) -> Tensor:
    """PyTorch's tensordot over every dim (so ``inner`` of two vectors), on the permuted operands: a ``dot`` (MKL's
    sdot order; DotBackward0, not mm's GEMM) of the vectors, or of both flattened where both are contiguous (a
    view each); otherwise, as a flattening would copy, the sum of the squeezed operands' product (SumBackward0
    over MulBackward0)."""
    if pa.ndim == 1:
        return dot(pa, pb)
    if pa.is_contiguous() and pb.is_contiguous():
        return dot(reshape(pa, (k,)), reshape(pb, (k,)))
    return mul(pa.squeeze(), pb.squeeze()).sum()


def kron(input, other):
    """Interleave the dims of both (padded to one rank), multiply, merge each pair."""
    require_tensors("kron", input=(1, input), other=(2, other))
    nd = max(input.ndim, other.ndim)
    sa = (1,) * (nd - input.ndim) + tuple(input.shape)
    sb = (1,) * (nd - other.ndim) + tuple(other.shape)
    a = reshape(input, tuple(x for s in sa for x in (s, 1)))
    b = reshape(other, tuple(x for s in sb for x in (1, s)))
    # NOTE: torch's KronImpl _unsafe_views the product, laid out as its operands: a transposed input's refuses the
    # merge with view's error (torch.kron(x.t(), ones(2, 1)) raises in torch 2.13), a contiguous one's is a view
    return view(mul(a, b), tuple(x * y for x, y in zip(sa, sb)))


# ----- cross ------------------------------------------------------------------------------------

class LinalgCross(Function):
    node_name = "LinalgCrossBackward0"

    @staticmethod
    def forward(ctx, a, b, *, dim):
        ctx.save_for_backward(a, b)
        ctx.dim = dim
        x, y = a._data, b._data
        shape = broadcast_shapes(x.shape, y.shape)
        xp = xp_of(x)
        # NOTE: torch's linalg_cross allocates its output contiguous (NumPy's moves ``dim`` last and back)
        return row_major(xp.cross(xp.broadcast_to(x, shape), xp.broadcast_to(y, shape), axis=dim))

    @staticmethod
    def backward(ctx, g):
        a, b = ctx._unpacked
        ga = _cross(b, g, ctx.dim) if ctx.needs_input_grad[0] else None
        gb = _cross(g, a, ctx.dim) if ctx.needs_input_grad[1] else None
        return ga, gb


def _cross(a, b, dim):
    return LinalgCross.apply(a, b, dim=dim)


def cross(input, other, dim=None):
    """``torch.cross``: ``dim=None`` picks the first dim of size 3 (``core.linalg.cross`` defaults to -1)."""
    require_tensors("cross", input=(1, input), other=(2, other))
    check_same_device(input, other)
    if input._data.dtype != other._data.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(input)} but found {_type_name(other)}")
    if input.ndim != other.ndim:
        raise RuntimeError(f"linalg.cross: inputs must have the same number of dimensions. Got {input.ndim} "
                           f"and {other.ndim}")
    shape = broadcast_shapes(input._data.shape, other._data.shape)
    if dim is None:
        dim = next((i for i, s in enumerate(shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    d = normalize_dim(dim, len(shape))
    if input._data.shape[d] != 3 or other._data.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input._data.shape[d]} and {other._data.shape[d]}")
    return LinalgCross.apply(input, other, dim=d)


# ----- det, inverse, solve, matrix_power ----------------------------------------------------------

class LinalgDet(Function):
    node_name = "LinalgDetBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        x = a._data
        parts = _lu_diagonal(x)
        if parts is not None:  # the product of U's diagonal in order, as PyTorch's kernel takes it
            diag, sign = parts
            for i in range(diag.shape[-1]):
                sign = sign * diag[..., i]
            return sign
        return xp_of(x).asarray(xp_of(x).linalg.det(x), dtype=x.dtype)

    @staticmethod
    def backward(ctx, g):
        # NOTE: d det(A) = det(A) * inv(A)^T. A singular matrix gets a zero gradient, as PyTorch gives
        # (its LU-based first-order formula); it is swapped for I so the inverse exists.
        (a,) = ctx._unpacked
        d = det(a)
        singular = d._data == 0
        if bool(singular.any()):
            eye = _factories.eye(a.shape[-1], dtype=a.dtype, device=a.device)
            a = where(new_tensor(singular[..., None, None]), eye, a)
        return mul(unsqueeze(unsqueeze(mul(g, conj_of(d)), -1), -1), _mH(inverse(a)))  # (g conj(f') if complex)


def det(input):
    _check_float("linalg.det", input)
    _check_square("linalg.det", input)
    return LinalgDet.apply(input)


def _lu_diagonal(x):
    """``(diag(U), permutation sign)`` of PyTorch's float32/float64 LU for det and slogdet, where ``_getrf``
    reproduces MKL (up to 16 wide; a 1x1 matrix is its own U), else None. NOTE: LAPACK reads the row-major matrix
    as column-major, so torch factors A^T."""
    from core.ops.linalg_lu import _getrf, _mkl_like  # (linalg_lu builds on this module)

    if type(x) is np.ndarray and x.dtype.kind == "f" and x.shape[-2:] == (1, 1):
        return x[..., 0, :], np.ones(x.shape[:-2], x.dtype)  # (NumPy's det would be exp(log|a|) * sign)
    if not _mkl_like(x) or x.shape[-1] != x.shape[-2]:
        return None
    lu, pivots, _ = _getrf(np.ascontiguousarray(np.swapaxes(x, -1, -2)))
    swaps = (pivots != np.arange(1, x.shape[-1] + 1, dtype=np.int32)).sum(-1)
    return np.diagonal(lu, axis1=-2, axis2=-1), np.where(swaps % 2, -1, 1).astype(x.dtype)


class slogdet_result(tuple):  # PyTorch's torch.return_types name
    """``(sign, logabsdet)``, also by name, like ``torch.return_types.linalg_slogdet``."""

    __slots__ = ()

    def __new__(cls, sign, logabsdet):
        return tuple.__new__(cls, (sign, logabsdet))

    sign = property(lambda self: self[0])
    logabsdet = property(lambda self: self[1])

    def __repr__(self) -> str:
        return f"torch.return_types.linalg_slogdet(\nsign={self[0]!r},\nlogabsdet={self[1]!r})"


class LinalgSlogdet(Function):
    node_name = "LinalgSlogdetBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        x = a._data
        xp = xp_of(x)
        parts = _lu_diagonal(x)
        if parts is not None:  # sign(det) and the sum of log|U_ii| in order
            from core.ops import math_unary, reduction  # (they build on core's tensors as this module does)

            diag, sign = parts
            sign = sign * np.prod(np.sign(diag), axis=-1, dtype=x.dtype)
            logs = math_unary.log(math_unary.abs(new_tensor(np.ascontiguousarray(diag))))
            return sign, reduction.sum(logs, -1)._data  # torch's log and its vectorised sum
        sign, logabs = xp.linalg.slogdet(x)
        return xp.asarray(sign, dtype=x.dtype), xp.asarray(logabs, dtype=x.dtype)

    @staticmethod
    def backward(ctx, g_sign, g_logabs):
        # NOTE: the sign is piecewise constant: only logabsdet carries a gradient, g * inv(A)^T.
        (a,) = ctx._unpacked
        return mul(unsqueeze(unsqueeze(g_logabs, -1), -1), _mT(inverse(a)))


def slogdet(input):
    _check_float("linalg.slogdet", input)
    _check_square("linalg.slogdet", input)
    return slogdet_result(*LinalgSlogdet.apply(input))


def logdet(input):
    """``log(det(A))``: NaN for a negative determinant, -inf for a singular matrix."""
    sign, logabs = slogdet(input)
    s = sign._data
    xp = xp_of(s)
    shift = xp.where(s > 0, 0.0, xp.where(s == 0, -xp.inf, xp.nan)).astype(s.dtype)
    from core.nn._fused_names import fused_name  # (core.nn builds on the ops)

    return fused_name(add(logabs, new_tensor(shift)), "WhereBackward0")  # torch's where(sign < 0, nan, logabsdet)


def _singular(name: str, x) -> _LinAlgError:
    """PyTorch's error for a singular matrix (or a batch's first one): the batch element and LAPACK's first zero
    diagonal element of U in its LU factorisation."""
    from core.ops.linalg_lu import lu_factor_ex  # (linalg_lu builds on the modules this one does)

    info = np.asarray(lu_factor_ex(new_tensor(x)).info.cpu()._data).reshape(-1)
    element = int(np.flatnonzero(info)[0]) if info.any() else 0
    where = f"(Batch element {element}): " if x.ndim > 2 else ""
    return _LinAlgError(f"{name}: {where}The diagonal element {int(info[element])} is zero, the inversion could not "
                        f"be completed because the input matrix is singular.")


class LinalgInvEx(Function):
    node_name = "LinalgInvExBackward0"

    @staticmethod
    def forward(ctx, a):
        x = a._data
        xp = xp_of(x)
        try:
            out = xp.linalg.inv(x)
        except np.linalg.LinAlgError:
            raise _singular("linalg.inv", x) from None
        if not bool(xp.isfinite(out).all()):  # CuPy does not raise on singular input
            raise _LinAlgError("linalg.inv: The inversion could not be completed because the input matrix is "
                               "singular.")
        res = new_tensor(out.astype(x.dtype, copy=False))
        ctx.save_for_backward(res)
        return res

    @staticmethod
    def backward(ctx, g):
        (inv,) = ctx._unpacked
        inv_t = _mH(inv)
        return -matmul(matmul(inv_t, g), inv_t)


def inverse(input):
    _check_float("linalg.inv", input)
    _check_square("linalg.inv", input)
    return LinalgInvEx.apply(input)


class LinalgSolveEx(Function):
    node_name = "LinalgSolveExBackward0"

    @staticmethod
    def forward(ctx, a, b, *, vector):
        x, y = a._data, b._data
        xp = xp_of(x)
        if vector:
            y = y[..., None]
        batch = broadcast_shapes(x.shape[:-2], y.shape[:-2])
        try:
            out = xp.linalg.solve(xp.broadcast_to(x, batch + x.shape[-2:]), xp.broadcast_to(y, batch + y.shape[-2:]))
        except np.linalg.LinAlgError:
            raise _LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.") from None
        res = new_tensor(out[..., 0] if vector else out)
        ctx.vector = vector
        ctx.save_for_backward(a, res)
        return res

    @staticmethod
    def backward(ctx, g):
        a, x = ctx._unpacked
        gb = solve(_mH(a), g)
        if not ctx.needs_input_grad[0]:
            return None, gb
        if ctx.vector:
            ga = -matmul(unsqueeze(gb, -1), conj_of(unsqueeze(x, -2)))
        else:
            ga = -matmul(gb, _mH(x))
        return ga, gb


def solve(A, B, *, left=True):
    """``X`` with ``A @ X = B`` (``left=False``: ``X @ A = B``); ``B`` is a batch of vectors when it has one dim
    fewer than ``A`` (or one dim), as torch's ``linalg_solve_is_vector_rhs``, which ``X @ A`` refuses: torch checks
    the vector as a column (n x 1), which ``XA = B`` never fits."""
    _check_float("linalg.solve", A)
    check_same_device(A, B)
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                           f"{_type_name(A)} and B of type {_type_name(B)} instead")
    _check_square("linalg.solve", A)
    if B.ndim == 0:
        raise RuntimeError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    rows, cols = (B._data.shape[-1], 1) if vector else B._data.shape[-2:]
    if (rows if left else cols) != A._data.shape[-1]:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {'AX' if left else 'XA'} "
                           f"= B ({A.shape[-2]}x{A.shape[-1]} and {rows}x{cols})")
    if not left:
        broadcast_shapes(B.shape[:-2], A.shape[:-2])  # (torch's message names B's batch first from this side)
        return _mT(solve(_mT(A), _mT(B)))
    return LinalgSolveEx.apply(A, B, vector=vector)


def matrix_power(input, n):
    """Repeated squaring with ``matmul``; ``n < 0`` inverts first, ``n == 0`` gives identities."""
    _check_square("linalg.matrix_power", input)
    if n == 0:
        x = input._data
        eye = new_tensor(xp_of(x).eye(x.shape[-1], dtype=x.dtype))
        return add(mul(input, 0), eye)  # NOTE: still on the graph (zero gradient), as in PyTorch
    if n < 0:
        _check_float("linalg.inv", input)
        input, n = inverse(input), -n
    if n == 1:
        return clone(input)
    result, base = None, input
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


# ----- vector norms -------------------------------------------------------------------------------

class LinalgVectorNorm(Function):
    node_name = "LinalgVectorNormBackward0"
    saved_names = ("self", "result")
    _saved_ord, _saved_dim, _saved_keepdim = NORM_SAVED

    @staticmethod
    def forward(ctx, a, *, ord, dims, keepdim, dt, named, shown=None):
        ctx.shown = (ord, dims) if shown is None else shown  # (the ord and dims as the call gave them)
        # NOTE: half precision accumulates in float32 (as PyTorch does), so squares do not overflow.
        x = a._data.astype(np.float32 if dt is _dtype.float16 or dt is _dtype.bfloat16 else dt.np, copy=False)
        xp = xp_of(x)
        with np.errstate(all="ignore"):  # (the 0- and 2-norms read no |x|: the Inspector's norm of 25M elements)
            out = _norm_array(xp, x, x if ord in (0.0, 2.0) else xp.abs(x), ord, dims)
        ctx.ord, ctx.dims, ctx.keepdim, ctx.named = ord, dims, keepdim, named  # (named: the dims the caller gave)
        out = out.astype(dt.np, copy=False)
        kept = tuple(s for i, s in enumerate(out.shape) if i not in dims)
        res = new_tensor(row_major(out if keepdim else out.reshape(kept)))  # (torch's result: contiguous)
        ctx.save_for_backward(a, res)  # (the result: torch's norm_backward reads it, a node of the double backward)
        return res

    @staticmethod
    def backward(ctx, g):
        a, norm = ctx._unpacked
        if a.dtype is not norm.dtype:  # (a dtype= norm: the gradient is taken in the norm's dtype)
            a = a.to(norm.dtype)
        return norm_backward(g, a, ctx.ord, norm, ctx.named, ctx.keepdim)

    @staticmethod
    def jvp(ctx, t):
        """The tangent summed against d norm / d x (backward's formula with a unit gradient)."""
        a, norm = ctx.inputs[0], ctx.output
        slope = norm_backward(_factories.ones_like(norm), a if a.dtype is norm.dtype else a.to(norm.dtype),
                              ctx.ord, norm, ctx.named, ctx.keepdim)
        if slope is None:  # the 0 "norm" counts non-zeros: a zero tangent
            return _factories.zeros_like(ctx.output)
        return (slope * t).sum(ctx.dims, keepdim=ctx.keepdim) if ctx.dims else slope * t


_SERIAL_NORM = 32768  # elements up to which PyTorch's reduction runs on one thread (its GRAIN_SIZE)


def _one_norm_array(xp, ax, dims):
    """The 1-norm of ``ax`` (|x|) as PyTorch's CPU kernel adds it (``NormOneOps``, not vectorised): each output's
    terms one after another in memory order, as for other p below (one thread per output, or one thread up to its
    grain size); NumPy's pairwise sum differed in the last bit of ~half the norms of 16 or more terms."""
    if xp is not np or ax.dtype not in (np.float32, np.float64) or not ax.size:
        return ax.sum(axis=dims, keepdims=True)
    moved = np.moveaxis(ax, dims, tuple(range(ax.ndim - len(dims), ax.ndim)))
    kept = moved.shape[:moved.ndim - len(dims)]
    if math.prod(kept) == 1 and ax.size > _SERIAL_NORM:  # (a long full reduction is split among the threads)
        return ax.sum(axis=dims, keepdims=True)
    total = in_order(np.ascontiguousarray(moved).reshape(math.prod(kept), -1), axis=1).reshape(kept)
    return np.expand_dims(total, tuple(sorted(dims))) if dims else total


def _norm_array(xp, x, ax, ord, dims):
    if ord == math.inf:
        return ax.max(axis=dims, keepdims=True)
    if ord == -math.inf:
        return ax.min(axis=dims, keepdims=True)
    if ord == 0:
        return (x != 0).sum(axis=dims, keepdims=True).astype(x.dtype)
    if ord == 1:
        return _one_norm_array(xp, ax, dims)
    if ord == 2:
        out = two_norm(x, dims, True)  # float32 over trailing dims: PyTorch's order
        return xp.sqrt((x * x).sum(axis=dims, keepdims=True)) if out is None else out
    out = p_norm(ax, ord, dims) if dims else None  # (PyTorch's in-order NormOps sum, float32 and float64)
    if out is not None:
        return out
    return (ax ** ord).sum(axis=dims, keepdims=True) ** (1.0 / ord)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    _check_float("linalg.vector_norm", x)
    if x.is_complex():  # the norm of the magnitudes (a real result)
        real_dt = None if dtype is None else _dtype.to_dtype(dtype).to_real()
        return vector_norm(x.abs(), ord, dim, keepdim, dtype=real_dt)
    dt = _dtype.to_dtype(dtype) if dtype is not None else x.dtype
    if isinstance(dim, (bool, float)):  # (no int to PyTorch's parser: no norm over dim 1)
        raise TypeError(f"linalg_vector_norm(): argument 'dim' (position 3) must be tuple of ints, not {tp_name(dim)}")
    shown = (ord, dims_shown(dim))
    if isinstance(dim, int):
        dim = (dim,)
    dims = normalize_dims(dim, x.ndim) if x.ndim else ()
    ord = float(ord)
    if (ord < 0 or ord == math.inf) and any(x.shape[d] == 0 for d in dims):
        raise RuntimeError(f"linalg.vector_norm cannot compute the {ord:g} norm on an empty tensor because "
                           "the operation does not have an identity")
    named = () if dim is None or isinstance(dim, (tuple, list)) and not dim else dims
    return LinalgVectorNorm.apply(x, ord=ord, dims=dims, keepdim=bool(keepdim), dt=dt, named=named, shown=shown)
