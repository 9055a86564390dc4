"""Sparse COO MaskedTensors: the data and mask are ``torch.sparse_coo`` tensors with the same indices.

As in torch, a COO MaskedTensor keeps the mask's specified elements; the data are restricted to the mask's indices
when their numbers of specified elements differ (an element the data leave unspecified reads 0). Elementwise ops
run on the values and keep the indices; binary ops need equal indices; reductions over all elements reduce the
values the mask keeps. Core's sparse tensors take no part in autograd, so neither do sparse MaskedTensors, and
reductions along a dim and shape ops raise as torch's do or with a clear error.
"""

from __future__ import annotations

import core

__all__ = ["prepare", "same_indices", "on_values", "reduce_all", "to_sparse"]

NOT_SUPPORTED = "{} of a sparse COO MaskedTensor is not supported in core (only strided MaskedTensors have it)"


def prepare(data, mask):
    """Coalesced data and mask, the data restricted to the mask's indices when their nnz differ."""
    data, mask = data.coalesce(), mask.coalesce()
    if data._nnz() != mask._nnz():
        indices = mask.indices()
        values = data.to_dense()[tuple(indices)]
        data = core.sparse_coo_tensor(indices, values, tuple(data.shape)).coalesce()
    return data, mask


def same_indices(a, b) -> bool:
    ia, ib = a.indices(), b.indices()
    return ia.shape == ib.shape and bool(core.eq(ia, ib).all().item())


def on_values(fn, data, *args, **kwargs):
    """``fn`` on the values of coalesced ``data`` (and of sparse ``args``), with the same indices."""
    values = fn(data.values(), *(a.values() if _is_coo(a) else a for a in args), **kwargs)
    return core.sparse_coo_tensor(data.indices(), values, tuple(data.shape)).coalesce()


def _is_coo(x) -> bool:
    return isinstance(x, core.Tensor) and x.layout == core.sparse_coo


def reduce_all(name: str, data, mask):
    """Reduction ``name`` over the values ``mask`` keeps; argmax/argmin give the flat (float) index, as torch's."""
    values, keep = data.values(), mask.values()
    if name == "all":
        result = values.masked_fill(~keep, True).all()
    elif name in ("argmax", "argmin"):
        k = int(getattr(core.masked, name)(values, mask=keep).item())
        index = data.indices()[:, k]
        stride = data.numel() / core.tensor(list(data.shape)).cumprod(0)
        result = core.sum(index * stride)
    else:
        result = getattr(core.masked, name)(values, mask=keep)
    return result, core.any(keep)


def to_sparse(data, mask):
    """A strided MaskedTensor's data and mask as COO tensors that specify the mask's True elements."""
    sparse_mask = mask.to_sparse_coo().coalesce()
    return data.sparse_mask(sparse_mask), sparse_mask
