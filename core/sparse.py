"""``core.sparse``: ``torch.sparse``'s functions on core's COO tensors (``core._sparse_coo``); results are dense."""

from __future__ import annotations

from core._sparse_coo import SparseCooTensor, spmm

__all__ = ["mm", "sum"]


def mm(mat1, mat2):
    """``torch.sparse.mm``: a sparse matrix times a dense one (a dense result, as PyTorch's for these inputs)."""
    return spmm(mat1, mat2)


def sum(input, dim=None, dtype=None):  # PyTorch's name
    """``torch.sparse.sum``: the sum of all entries, or over ``dim`` (dense here, where PyTorch keeps sparse dims)."""
    dense = input.to_dense() if isinstance(input, SparseCooTensor) else input
    out = dense.sum() if dim is None else dense.sum(dim)
    return out if dtype is None else out.to(dtype)
