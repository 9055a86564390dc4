"""The COO ops that ``torch.sparse`` records with graphs of their own, as PyTorch's SparseCPU kernels: ``transpose``
(``TransposeBackward0``, ``t()``'s ``TBackward0``), ``torch.sparse.softmax``/``log_softmax`` over the entries of each
slice, and ``torch.sparse.mm`` of a COO matrix and a dense one. ``core._sparse_coo_ops`` re-exports them.
"""

from __future__ import annotations

import numpy as np

from core._arg_types import refuse_bool_dim
from core._backend import to_numpy_array
from core._dtype import SCALAR_NAMES
from core._sparse_coo import SparseCooTensor, _make
from core._sparse_coo_autograd import _coalesced_indices, _masked_grad
from core._sparse_coo_ops import _coalesced
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled, no_grad


class _SparseTranspose(Function):
    """``s.t()``/``s.transpose`` of a COO tensor that needs grad: the gradient transposed back (sparse stays)."""

    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, t, *, dims):
        ctx.args = dims
        return t.transpose(*dims)

    @staticmethod
    def backward(ctx, g):
        return g.transpose(*ctx.args)


class SparseT(_SparseTranspose):
    node_name = "TBackward0"


def transpose(t: SparseCooTensor, dim0: int, dim1: int, node=_SparseTranspose):
    return node.apply(t, dims=(dim0, dim1))


def _softmax_groups(t: SparseCooTensor, dim: int):
    """For each entry, the group of entries ``softmax`` along sparse ``dim`` normalises it with (the entries that
    share every other sparse index)."""
    rest = [d for d in range(t.sparse_dim()) if d != dim]
    if not rest or not t._nnz():
        return np.zeros(t._nnz(), np.int64), 1
    keys = np.ravel_multi_index(tuple(t._sp_indices[rest]), tuple(t.shape[d] for d in rest))
    uniq, groups = np.unique(keys, return_inverse=True)
    return groups.reshape(-1), len(uniq)


def _group_sum(x: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros((n,) + x.shape[1:], dtype=x.dtype)
    np.add.at(out, groups, x)
    return out[groups]


def _softmax_values(t: SparseCooTensor, dim: int, log: bool) -> np.ndarray:
    v = t._sp_values
    if dim >= t.sparse_dim():  # a dense dim: each entry's values on their own
        axis = dim - t.sparse_dim() + 1
        shifted = v - v.max(axis=axis, keepdims=True) if v.size else v
        total = np.exp(shifted).sum(axis=axis, keepdims=True)
    else:
        groups, n = _softmax_groups(t, dim)
        top = np.full((n,) + v.shape[1:], -np.inf, dtype=v.dtype)
        np.maximum.at(top, groups, v)
        shifted = v - top[groups]
        total = _group_sum(np.exp(shifted), groups, n)
    return shifted - np.log(total) if log else np.exp(shifted) / total


def sparse_softmax(input, dim, dtype=None, log: bool = False):
    """``torch.sparse.softmax``/``log_softmax``: along ``dim`` over the entries only (the unspecified ones count as
    -inf), a coalesced COO result; of a tensor that needs grad with ``SparseSoftmaxBackward0``
    (``SparseLogSoftmaxBackward0``)."""
    from core.ops._util import normalize_dim  # (ops import tensors)

    name = "log_softmax" if log else "softmax"
    refuse_bool_dim("_sparse_" + name, dim)
    if not isinstance(input, SparseCooTensor):
        raise NotImplementedError(f"Could not run 'aten::_sparse_{name}' with arguments from the 'CPU' backend.")
    dim = normalize_dim(dim, input.dim())
    if dtype is not None:
        input = input.to(dtype)
    if not (input.is_floating_point() or input.is_complex()):
        raise NotImplementedError(f"\"{name}\" not implemented for '{SCALAR_NAMES[input._data.dtype.name]}'")
    if input.requires_grad and is_grad_enabled():
        return (_SparseLogSoftmax if log else _SparseSoftmax).apply(input, dim=dim, log=log)
    c = _coalesced(input)
    return _make(c._sp_indices, _softmax_values(c, dim, log), c.shape, True)


class _SparseSoftmax(Function):
    """The gradient of ``softmax`` over the entries: ``out * (g - sum(g * out))`` per group (``g - exp(out) *
    sum(g)`` for ``log_softmax``), with ``g`` the incoming gradient at the output's entries."""

    node_name = "SparseSoftmaxBackward0"

    @staticmethod
    def forward(ctx, t, *, dim, log):
        c = _coalesced(t)
        values = _softmax_values(c, dim, log)
        out = _make(c._sp_indices, values, c.shape, True)
        ctx.args = (c, values, dim, log)
        return out

    @staticmethod
    def backward(ctx, g):
        c, out, dim, log = ctx.args
        at = np.asarray(to_numpy_array((g.to_dense() if g.is_sparse else g)._data))[tuple(c._sp_indices)]
        at = at.astype(out.dtype, copy=False)
        if dim >= c.sparse_dim():
            axis = dim - c.sparse_dim() + 1
            total = (at if log else at * out).sum(axis=axis, keepdims=True)
        else:
            groups, n = _softmax_groups(c, dim)
            total = _group_sum(at if log else at * out, groups, n)
        grad = at - np.exp(out) * total if log else out * (at - total)
        return _make(c._sp_indices, grad, c.shape, coalesced=False)


class _SparseLogSoftmax(_SparseSoftmax):
    node_name = "SparseLogSoftmaxBackward0"


def sparse_mm(s: SparseCooTensor, m: Tensor) -> Tensor:
    """``torch.sparse.mm(s, dense)`` with a graph: ``SparseAddmmBackward0``, whose gradient of ``s`` is the product's
    gradient at ``s``'s entries (a COO tensor, as PyTorch's), and of the dense matrix ``s.t() @ g``."""
    return _SparseMM.apply(s, m)


class _SparseMM(Function):
    node_name = "SparseAddmmBackward0"

    @staticmethod
    def forward(ctx, s, m):
        from core.ops.linalg import mm  # (ops import tensors)

        ctx.save_for_backward(s, m)
        return mm(s, m)

    @staticmethod
    def backward(ctx, g):
        s, m = ctx._unpacked
        gs = gm = None
        with no_grad():
            if ctx.needs_input_grad[0]:
                full = g.detach() @ m.detach().t()
                gs = _masked_grad(full, _coalesced_indices(s), s.shape, coalesced=False)
            if ctx.needs_input_grad[1]:
                gm = new_tensor(np.ascontiguousarray(s._data.T)) @ g
        return gs, gm
