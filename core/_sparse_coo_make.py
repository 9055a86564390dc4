"""Making sparse COO tensors: ``torch.sparse_coo_tensor`` from indices and values (with PyTorch's index checks, and
its ``SparseCooTensorWithDimsAndTensorsBackward0`` where the values need grad), ``Tensor.to_sparse()``, ``stack`` of
COO tensors, ``dense.sparse_mask(mask)``, and the products ``torch.spmm``/``torch.dsmm``. ``core._sparse_coo``
(the tensor class and ``_make``) re-exports them.
"""

from __future__ import annotations

import numpy as np

from core import _backend
from core._backend import to_numpy_array
from core._device import device as _device
from core._sparse_compressed_checks import invariant_checks_enabled
from core._sparse_coo import SparseCooTensor, _make
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled


def stack(tensors, dim: int):
    """``torch.stack`` of COO tensors of one shape along a sparse dim (``dim`` at most their sparse dims): each
    tensor's entries with its position as the new index row, in order, marked uncoalesced (PyTorch's cat of
    unsqueezed tensors); ``None`` where the dense route applies (autograd recording, a dense dim)."""
    sparse = tensors[0]._sp_indices.shape[0]
    if dim > sparse or any(t._sp_indices.shape[0] != sparse for t in tensors) \
            or any(t.requires_grad for t in tensors) and is_grad_enabled():
        return None
    indices = np.concatenate([np.insert(t._sp_indices, dim, k, axis=0) for k, t in enumerate(tensors)], axis=1)
    values = np.concatenate([t._sp_values for t in tensors])
    shape = tensors[0]._data.shape
    return _make(indices, values, shape[:dim] + (len(tensors),) + shape[dim:], False)


def sparse_mask(self: Tensor, mask) -> SparseCooTensor:
    """``dense.sparse_mask(mask)``: a sparse COO tensor with ``mask``'s indices and this tensor's values there."""
    if not getattr(mask, "is_sparse", False):  # (PyTorch has no kernel for a strided mask)
        raise NotImplementedError("Could not run 'aten::sparse_mask' with arguments from the 'CPU' backend.")
    if tuple(mask.shape) != tuple(self.shape):
        raise RuntimeError("sparse_mask(): operands have incompatible sizes; self has size "
                           f"{list(self.shape)} but mask has size {list(mask.shape)}")
    values = np.asarray(to_numpy_array(self.detach()._data))[tuple(mask._sp_indices)]
    return _make(mask._sp_indices.copy(), values, mask._data.shape, mask._sp_coalesced)


def to_sparse(t: Tensor, sparse_dim: int | None = None) -> SparseCooTensor:
    """``t.to_sparse(sparse_dim)``: the entries of ``t`` whose slice over the dense dims holds a nonzero."""
    arr = to_numpy_array(t._data)
    sd = arr.ndim if sparse_dim is None else sparse_dim
    if not 0 <= sd <= arr.ndim:
        raise RuntimeError(f"sparse_dim argument must be in [0, {arr.ndim}] range, but {sd} is given")
    mask = arr != 0 if sd == arr.ndim else (arr != 0).reshape(arr.shape[:sd] + (-1,)).any(-1)
    indices = np.stack(np.nonzero(mask)).astype(np.int64).reshape(sd, -1)
    return _make(indices, arr[tuple(indices)], arr.shape, coalesced=True)


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory=False,
                      requires_grad=False, check_invariants=None, is_coalesced=None) -> SparseCooTensor:
    """``torch.sparse_coo_tensor``: entries ``values[k]`` at ``indices[:, k]`` (duplicates add up when used)."""
    from core._factories import tensor  # factories import Tensor

    if requires_grad:
        raise NotImplementedError("core's sparse tensors do not take part in autograd")
    if device is not None and _device(device).type == "cuda":  # core's sparse tensors are NumPy arrays
        if not _backend.cuda_available():
            raise RuntimeError("PyTorch is not linked with support for cuda devices")  # PyTorch's CPU build
        raise NotImplementedError("core's sparse COO tensors live on the CPU")
    idx = indices if isinstance(indices, Tensor) else tensor(indices)
    vals = values if isinstance(values, Tensor) else tensor(values)
    if dtype is not None:
        vals = vals.to(dtype)
    idx_arr = to_numpy_array(idx._data)
    if idx_arr.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(idx_arr.shape)}")
    idx_arr = idx_arr.astype(np.int64)
    val_arr = to_numpy_array(vals._data)
    if size is None:
        size = tuple(int(m) + 1 for m in idx_arr.max(1)) if idx_arr.shape[1] else (0,) * idx_arr.shape[0]
        size += val_arr.shape[1:]
    size = tuple(int(s) for s in size)
    if check_invariants is None:
        invariant_checks_enabled()  # (reading the unset flag gives PyTorch's one-time note)
    _check_index_bounds(idx_arr, size)  # NOTE: even unchecked: core's dense mirror cannot hold an index outside size
    if vals.requires_grad and is_grad_enabled():
        return _SparseFromValues.apply(vals, indices=idx_arr, size=size, coalesced=bool(is_coalesced))
    return _make(idx_arr, val_arr, size, coalesced=bool(is_coalesced))


class _SparseFromValues(Function):
    """``sparse_coo_tensor`` of values that need grad: the gradient of each value is the (dense) incoming
    gradient at its index, duplicates each getting it in full (their sum is the entry), as PyTorch's
    ``sparse_constructor_values_backward`` gives it."""

    node_name = "SparseCooTensorWithDimsAndTensorsBackward0"

    @staticmethod
    def forward(ctx, values, *, indices, size, coalesced):
        ctx.args = indices
        return _make(indices, to_numpy_array(values._data), size, coalesced)

    @staticmethod
    def backward(ctx, g):
        grad = g.to_dense() if getattr(g, "is_sparse", False) else g
        return new_tensor(np.ascontiguousarray(np.asarray(to_numpy_array(grad._data))[tuple(ctx.args)]))


def _check_index_bounds(idx_arr: np.ndarray, size: tuple) -> None:
    """PyTorch's ``_validate_sparse_coo_tensor_args`` with invariant checks on: every index within its dim's size,
    negative ones reported first. PyTorch skips it when checks are off (and may crash later); core always checks."""
    if not idx_arr.shape[1]:
        return
    lows, highs = idx_arr.min(1), idx_arr.max(1)
    for d, low in enumerate(lows):
        if low < 0:
            raise RuntimeError(f"found negative index {low} for dim {d}")
    for d, high in enumerate(highs):
        if high >= size[d]:
            raise RuntimeError(f"size is inconsistent with indices: for dim {d}, size is {size[d]} but found index "
                               f"{high}")


def spmm(input: Tensor, mat2: Tensor) -> Tensor:
    """``torch.spmm``: a sparse (or dense) matrix times a dense matrix, a dense result."""
    from core.ops.linalg import mm  # ops import tensors

    return mm(input, mat2)


def dsmm(input: Tensor, mat2: Tensor) -> Tensor:
    """``torch.dsmm``: the older name of the same product (``mm``'s autograd, checks and errors; linear_operator's
    batched sparse interpolation calls it)."""
    return spmm(input, mat2)
