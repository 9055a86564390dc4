"""The autograd nodes of sparse compressed tensors, as PyTorch records them: a tensor made from values that need
grad (``SparseCompressedTensorBackward0``), ``values()``, ``to_dense()`` (also the base of COO's) and
``torch.sparse.mm`` of a CSR matrix (``SparseAddmmBackward0``). A compressed leaf's gradient keeps its layout and
pattern (``_pattern_grad``). ``core._sparse_compressed`` re-exports what its tensor class uses.
"""

from __future__ import annotations

import numpy as np

from core._backend import to_numpy_array
from core._sparse_compressed import SparseCompressedTensor, _build, _gather, sparse_csr
from core._tensor import Tensor
from core.autograd.function import Function


class _FromValues(Function):
    """A compressed tensor made from ``values``: its gradient is the incoming one read at the entries."""

    node_name = "SparseCompressedTensorBackward0"

    @staticmethod
    def forward(ctx, values, layout, compressed, plain, shape):
        out = _build(layout, compressed, plain, to_numpy_array(values._data), shape)
        ctx.positions = out._sc_positions()
        return out

    @staticmethod
    def backward(ctx, g):
        return _gather(g, *ctx.positions), None, None, None, None


def _grad_pattern(t) -> tuple:
    """What a gradient of compressed ``t`` needs: its layout, indices and shape, and whether torch would refuse it
    (a CSC, BSR or BSC leaf: ``_pattern_grad``)."""
    return t._sc_layout, t._sc_compressed, t._sc_plain, tuple(t.shape), t.grad_fn is None and t._sc_layout is not \
        sparse_csr


def _pattern_grad(pattern: tuple, values: np.ndarray) -> SparseCompressedTensor:
    """The gradient of a compressed tensor: one of its layout and indices holding ``values`` (a CSR leaf's ``.grad``
    is CSR, as torch's).

    NOTE: torch's AccumulateGrad refuses a CSC, BSR or BSC gradient for a leaf ("Sparse CSC tensors do not have
    is_contiguous"); the nodes raise that error where their input is such a leaf (a tensor made from values that
    need grad passes the gradient on to them, as torch's)."""
    layout, compressed, plain, shape, refused = pattern
    if refused:
        raise RuntimeError(f"Sparse {layout.enum[6:].upper()} tensors do not have is_contiguous")
    return _build(layout, compressed, plain, values, shape)


class _Values(Function):
    """``values()`` of a compressed tensor that needs grad, torch's ``ValuesBackward0``: the entries; their gradient
    is the compressed tensor of the incoming values (``_pattern_grad``)."""

    node_name = "ValuesBackward0"

    @staticmethod
    def forward(ctx, t):
        ctx.args = _grad_pattern(t)
        return t._sc_alias(t._sc_values, base=t)  # a view of the entries, as torch's (COO's too)

    @staticmethod
    def backward(ctx, g):
        return _pattern_grad(ctx.args, to_numpy_array(g._data))


class _ToDense(Function):
    """``to_dense()`` of a sparse tensor (compressed or COO) that needs grad: the dense gradient passes through (the
    sparse tensor's own node takes each value's entry of it)."""

    node_name = "ToDenseBackward0"

    @staticmethod
    def forward(ctx, t):
        return t._data.copy()

    @staticmethod
    def backward(ctx, g):
        return g


class _CompressedToDense(_ToDense):
    """``to_dense()`` of a compressed tensor that needs grad: the dense gradient read at the entries, a compressed
    tensor (``_pattern_grad``: torch's ``ToDenseBackward0`` masks it to the tensor's pattern)."""

    node_name = "ToDenseBackward0"

    @staticmethod
    def forward(ctx, t):
        ctx.args = (_grad_pattern(t), t._sc_positions())
        return t._data.copy()

    @staticmethod
    def backward(ctx, g):
        pattern, positions = ctx.args
        return _pattern_grad(pattern, _gather(np.asarray(to_numpy_array(g._data)), *positions))


class _SparseMm(Function):
    """``torch.sparse.mm`` of a CSR matrix and a dense one: the CSR operand's gradient keeps its pattern (masked)."""

    node_name = "SparseAddmmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a._data @ b._data

    @staticmethod
    def backward(ctx, g):
        a, b = ctx._unpacked
        ga = gb = None
        if ctx.needs_input_grad[0]:
            ga = _from_values(a._sc_layout, a._sc_compressed, a._sc_plain, _gather(g @ b.t(), *a._sc_positions()),
                              a.shape)
        if ctx.needs_input_grad[1]:
            gb = a.to_dense().t() @ g
        return ga, gb


def sparse_mm(a, b) -> Tensor:
    """``torch.sparse.mm(csr, dense)``: recorded as PyTorch's ``SparseAddmmBackward0``."""
    return _SparseMm.apply(a, b)


def _from_values(layout, compressed, plain, values: Tensor, shape) -> SparseCompressedTensor:
    if not values.requires_grad:
        return _build(layout, compressed, plain, to_numpy_array(values._data), tuple(shape))
    return _FromValues.apply(values, layout, compressed, plain, tuple(shape))
