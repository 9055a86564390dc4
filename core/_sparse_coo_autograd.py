"""The autograd nodes of sparse COO tensors, as PyTorch records them: ``values()`` (``ValuesBackward0``),
``to_dense()``, ``torch.sparse.sum``, the scalings ``s * 2``, ``s / 2``, ``-s`` and casts that stay sparse,
``coalesce()`` and ``_coalesced_()``. A leaf's gradient through them is a COO tensor over its entries
(``_masked_grad``), as torch's.
"""

from __future__ import annotations

import numpy as np

from core._backend import to_numpy_array
from core._sparse_compressed import _ToDense
from core._sparse_coo import SparseCooTensor, _make
from core._sparse_coo_make import to_sparse
from core._tensor import new_tensor
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled


class _Values(Function):
    """``values()`` of a COO tensor that needs grad: each value's gradient goes back to its entry (duplicates of an
    index add up there), a dense gradient of the sparse tensor's shape, as the constructor's backward takes it."""

    node_name = "ValuesBackward0"

    @staticmethod
    def forward(ctx, t):
        ctx.args = (t._sp_indices, t._data.shape)
        return t._sp_values_alias(base=t)  # a view of the entries, as torch's

    @staticmethod
    def backward(ctx, g):  # torch's values_backward: a COO gradient over the same indices (not marked coalesced)
        indices, shape = ctx.args
        return _make(indices, np.array(to_numpy_array(g._data)), shape, coalesced=False)


def _masked_grad(g, indices: np.ndarray, shape, coalesced: bool) -> SparseCooTensor:
    """A COO gradient with ``indices`` (a coalesced input's) and the incoming gradient ``g`` (dense or sparse, of
    ``shape``) there, as torch's backward of ``to_dense``/``sparse.sum`` gives a sparse leaf (marked coalesced where
    torch's is: a gradient from ``to_dense`` or ``sparse.sum(s, dim)`` is not, so ``.grad.values()`` refuses)."""
    arr = np.broadcast_to(np.asarray(to_numpy_array(g._data)), tuple(shape))  # (the sparse mirror is dense)
    return _make(indices, np.ascontiguousarray(arr[tuple(indices)]), shape, coalesced)


def _coalesced_indices(t: SparseCooTensor) -> np.ndarray:
    return t._sp_indices if t._sp_coalesced else t._sp_coalesce()._sp_indices


class _CooToDense(_ToDense):
    """``to_dense()`` of a COO tensor that needs grad: the gradient is the incoming one at the tensor's entries, a COO
    tensor (torch's ``to_dense_backward`` masks it with the input)."""

    node_name = "ToDenseBackward0"  # (a Function's node is named from its own class body)

    @staticmethod
    def forward(ctx, t):
        ctx.args = (_coalesced_indices(t), t._data.shape)
        return t._data.copy()

    @staticmethod
    def backward(ctx, g):
        return _masked_grad(g, *ctx.args, coalesced=False)


def sparse_sum(input: SparseCooTensor, dims: list | None, left: int = 0, dtype=None):
    """``torch.sparse.sum(s, dim)`` of a COO tensor: the sum over ``dims``, sparse where ``left`` sparse dims remain
    (all of them, ``dims=None``: a dense 0-d sum); of one that needs grad with torch's node (``SparseSumBackward0``,
    ``SumBackward0`` for all dims) giving a COO gradient over the input's entries."""
    node = _SparseSum if dims is not None else _SparseSumAll
    dims = tuple(range(input.dim())) if dims is None else tuple(dims)
    if input.requires_grad and is_grad_enabled():
        return node.apply(input, dims=dims, left=left, dtype=dtype, coalesced_grad=node is _SparseSumAll)
    return _SparseSum._sum(input, dims, left, dtype)


class _SparseSum(Function):
    node_name = "SparseSumBackward0"

    @staticmethod
    def _sum(t, dims, left, dtype):
        dense = new_tensor(t._data.copy())
        out = (dense if dtype is None else dense.to(dtype)).sum(list(dims))
        return to_sparse(out, left) if left else out

    @staticmethod
    def forward(ctx, t, *, dims, left, dtype, coalesced_grad):
        ctx.args = (_coalesced_indices(t), t._data.shape, sorted(dims), t._data.dtype, coalesced_grad)
        return _SparseSum._sum(t, dims, left, dtype)

    @staticmethod
    def backward(ctx, g):
        indices, shape, dims, dt, coalesced = ctx.args
        arr = np.asarray(to_numpy_array(g._data)).astype(dt, copy=False)
        for d in dims:
            arr = np.expand_dims(arr, d)
        return _masked_grad(new_tensor(arr), indices, shape, coalesced)


class _SparseSumAll(_SparseSum):
    node_name = "SumBackward0"


class _SparseScaled(Function):
    """``sparse * 2``, ``2 * sparse``, ``sparse / 2``, ``-sparse`` of a COO tensor that needs grad: a COO result
    whose entries are ``fn`` of the input's; the gradient is ``fn`` of the incoming one (dense), as the map is
    linear (torch's MulBackward0, DivBackward0, NegBackward0)."""

    @staticmethod
    def forward(ctx, t, *, fn):
        ctx.args = fn
        values = fn(t._values())
        return _make(t._sp_indices, to_numpy_array(values._data), t._data.shape, t._sp_coalesced)

    @staticmethod
    def backward(ctx, g):
        return ctx.args(g)  # (a COO gradient stays one: the map of its entries)


class _SparseMul(_SparseScaled):
    node_name = "MulBackward0"


class _SparseDiv(_SparseScaled):
    node_name = "DivBackward0"


class _SparseNeg(_SparseScaled):
    node_name = "NegBackward0"


class _SparseToCopy(Function):
    """``s.to(dtype)`` of a COO tensor that needs grad: the gradient cast back to the input's dtype (sparse stays)."""

    node_name = "ToCopyBackward0"

    @staticmethod
    def _cast(t, dtype) -> SparseCooTensor:
        values = t._sp_values_alias().to(dtype)  # (core's cast of the entries)
        return _make(t._sp_indices, to_numpy_array(values._data), t._data.shape, t._sp_coalesced)

    @staticmethod
    def forward(ctx, t, *, dtype):
        ctx.args = t.dtype
        return _SparseToCopy._cast(t, dtype)

    @staticmethod
    def backward(ctx, g):
        return g.to(ctx.args)


class _SparseDivRounding(_SparseScaled):
    """``s.div(2, rounding_mode=...)``: a step function, whose gradient torch gives as a COO tensor with no entries."""

    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, t, *, fn):
        out = _SparseScaled.forward(ctx, t, fn=fn)
        ctx.args = (t.sparse_dim(), t._sp_values.shape[1:], t._data.shape)
        return out

    @staticmethod
    def backward(ctx, g):
        sparse_dim, dense_shape, shape = ctx.args
        dt = np.asarray(to_numpy_array(g._data)).dtype
        return _make(np.zeros((sparse_dim, 0), np.int64), np.zeros((0,) + dense_shape, dt), shape, coalesced=True)


class _Coalesce(Function):
    """``coalesce()`` of a COO tensor that needs grad: the same matrix, so its gradient passes through (dense)."""

    node_name = "CoalesceBackward0"

    @staticmethod
    def forward(ctx, t):
        return t._sp_coalesce()

    @staticmethod
    def backward(ctx, g):
        return g


class _MarkCoalesced(Function):
    """``_coalesced_`` on a non-leaf that needs grad: torch's node (``NotImplemented``), which has no derivative."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, t, *, coalesced):
        t._sp_coalesced = coalesced
        ctx.mark_dirty(t)
        return t

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("derivative for aten::_coalesced_ is not implemented")
