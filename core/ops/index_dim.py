"""Indexing along one dim with a 1-D index: index_select/add/fill/copy and repeat_interleave.

Re-exported by ``core.ops.indexing`` (the family's public module). Each primitive's backward is
another op of this module (index_select <-> index_add), so gradients stay differentiable.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._factories import zeros
from core._scalar_fit import check_scalar_fits
from core._tensor import Tensor
from core.autograd.function import Function, note_untracked
from core.autograd.node_api import SavedFromCtx
from core.ops._saved_attrs import given, index_tensor
from core.ops._strided import copy_preserving_layout
from core.ops._util import check_same_device, normalize_dim, wrap, xp_of
from core.ops.elementwise import check_inplace, check_no_partial_overlap
from core.ops.reduction import sum as _sum
from core.ops.scatter import ufunc_at
from core.ops.views import expand, reshape, unsqueeze

__all__ = ["index_select", "index_add", "index_add_", "index_fill", "index_fill_", "index_copy", "index_copy_",
           "repeat_interleave"]

_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char", "int16": "Short",
          "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool"}


def _index_1d(what: str, index):
    """The index as a 1-D int64 array; PyTorch's per-op dtype and dimension errors."""
    op = what.rstrip("_")
    ok = (_dtype.int64,) if op == "index_fill" else (_dtype.int64, _dtype.int32)
    if not isinstance(index, Tensor) or index.dtype not in ok:
        if op == "index_fill":
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        raise RuntimeError(f"{what}(): Expected dtype int32{' or ' if op == 'index_select' else '/'}int64 for index")
    nd = index._data.ndim
    if nd > 1:
        if op == "index_fill":
            raise RuntimeError("Index has to be a vector/scalar")
        if op == "index_copy":
            raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {nd})")
        if op == "index_add":
            raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {nd} with type: "
                             f"{_NAMES[index.dtype.name]} and size: {list(index.shape)}")
        raise IndexError(f"{what}(): Index is supposed to be a vector")
    return index._data.reshape(-1).astype(np.int64, copy=False)


def _wrap_checked(idx, size: int, dim, negative: bool):
    """Bounds-check an index: negatives wrap (index_fill/copy) or raise; ``dim=None`` is index_select's error."""
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if hi >= size or lo < (-size if negative else 0):
            if dim is None:
                raise IndexError("index out of range in self")
            bad = hi if hi >= size else lo
            raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    return xp_of(idx).where(idx < 0, idx + size, idx)


def _axis_key(ndim: int, dim: int, idx) -> tuple:
    return (slice(None),) * dim + (idx,)


# ----- index_select / index_add / index_fill / index_copy ----------------------------------------

_SAVED_DIM = given(0, lambda c: c["dim"])  # (the dim and the index tensor as the call gave them)
_SAVED_INDEX = given(1, lambda c: index_tensor(c["idx"]), tensor=True)
_SAVED_SOURCE = given(2, lambda c: None, tensor=True)
_SAVED_SOURCE_DIM = given(3)


def _shown(dim, index, source=None) -> tuple:
    """What a node of this family shows as ``_saved_dim``/``_index``/``_source``/``_source_dim`` (torch keeps the
    source only where it needs a gradient)."""
    return dim, index, source if source is not None and source.requires_grad else None, \
        None if source is None else source.dim()


def _index_for_source(ctx: dict):
    """index_add's ``_saved_index``: torch keeps it for the source's gradient only (else None)."""
    shown = ctx.get("given")
    if shown is None:
        return index_tensor(ctx["idx"])
    return None if shown[2] is None else shown[1]


class IndexSelect(Function):
    node_name = "IndexSelectBackward0"
    _saved_dim, _saved_index = _SAVED_DIM, _SAVED_INDEX
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["args"][0])

    @staticmethod
    def forward(ctx, a, *, dim, idx, given=None):
        ctx.args, ctx.dim, ctx.idx, ctx.given = (a._data.shape, dim, idx), dim, idx, given
        x = a._data.reshape(1) if a._data.ndim == 0 else a._data
        out = xp_of(x).take(x, idx, axis=dim)
        return out.reshape(()) if a._data.ndim == 0 else out

    @staticmethod
    def backward(ctx, g):
        shape, dim, idx = ctx.args
        return IndexAdd.apply(zeros(shape, dtype=g.dtype, device=g.device), g, dim=dim, idx=idx, alpha=1,
                              inplace=False)


def index_select(input: Tensor, dim, index: Tensor) -> Tensor:
    shown = _shown(dim, index)
    dim = normalize_dim(dim, input._data.ndim)
    idx = _index_1d("index_select", index)
    check_same_device(input, index)
    size = input._data.shape[dim] if input._data.ndim else 1
    return IndexSelect.apply(input, dim=dim, idx=_wrap_checked(idx, size, None, False), given=shown)


class IndexAdd(Function):
    node_name = "IndexAddBackward0"
    _saved_dim, _saved_source = _SAVED_DIM, _SAVED_SOURCE
    _saved_source_dim = _SAVED_SOURCE_DIM
    _saved_alpha = SavedFromCtx(lambda c: c["args"][2])
    _saved_index = SavedFromCtx(lambda c: _index_for_source(c), tensor=True)

    @staticmethod
    def forward(ctx, a, source, *, dim, idx, alpha, inplace, given=None):
        ctx.args, ctx.dim, ctx.idx, ctx.given = (dim, idx, alpha), dim, idx, given
        target = a._data if inplace else a._data.copy()
        src = source._data.astype(target.dtype, copy=False)
        if alpha != 1:
            src = src * np.asarray(alpha).astype(target.dtype)[()]
        t2 = target.reshape(1) if target.ndim == 0 else target
        s2 = src.reshape(1) if src.ndim == 0 else src
        ufunc_at("add", t2, _axis_key(t2.ndim, dim, idx), s2)
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        dim, idx, alpha = ctx.args
        gsrc = None
        if ctx.needs_input_grad[1]:
            gsrc = IndexSelect.apply(g, dim=dim, idx=idx)
            gsrc = gsrc if alpha == 1 else gsrc * alpha
        return g, gsrc


def _index_args(what: str, input: Tensor, dim, index, source=None):
    nd = input._data.ndim
    dim = normalize_dim(dim, nd)
    idx = _index_1d(what, index)
    check_same_device(input, index, *(() if source is None else (source,)))
    size = input._data.shape[dim] if nd else 1
    if source is not None:
        if source.dtype is not input.dtype:
            raise RuntimeError(f"{what}(): self ({_NAMES[input.dtype.name]}) and source "
                               f"({_NAMES[source.dtype.name]}) must have the same scalar type")
        adding = what.startswith("index_add")
        if adding and source.ndim and dim >= source.ndim:
            raise RuntimeError(f"index_add_(): Indexing dim {dim} is out of bounds of the source tensor with dim "
                               f"{source.ndim}")
        n = source._data.shape[dim] if source._data.ndim else 1
        if n != idx.size:
            raise RuntimeError(f"{what}(): Number of indices ({idx.size}) should be equal to source.size(dim) ({n})")
        if adding and (source.ndim != nd or any(a != b for i, (a, b) in enumerate(zip(input.shape, source.shape))
                                                if i != dim)):
            raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified dimension. "
                               f"Got self.shape = {list(input.shape)} source.shape = {list(source.shape)}")
    return dim, _wrap_checked(idx, size, dim, what.startswith(("index_fill", "index_copy")))


def index_add(input: Tensor, dim, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    shown = _shown(dim, index, source)
    dim, idx = _index_args("index_add", input, dim, index, source)
    return IndexAdd.apply(input, source, dim=dim, idx=idx, alpha=alpha, inplace=False, given=shown)


def index_add_(input: Tensor, dim, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    shown = _shown(dim, index, source)
    dim, idx = _index_args("index_add_", input, dim, index, source)
    check_inplace(input)
    return IndexAdd.apply(input, source, dim=dim, idx=idx, alpha=alpha, inplace=True, given=shown)


class IndexFill(Function):
    node_name = "IndexFillBackward0"
    _saved_dim, _saved_index = _SAVED_DIM, _SAVED_INDEX

    @staticmethod
    def forward(ctx, a, *value, dim, idx, fill, inplace, given=None):
        ctx.args, ctx.dim, ctx.idx, ctx.given = (dim, idx), dim, idx, given
        target = a._data if inplace else copy_preserving_layout(a._data)  # (torch: clone(Preserve).index_fill_)
        v = value[0]._data.item() if value else fill
        t2 = target.reshape(1) if target.ndim == 0 else target
        t2[_axis_key(t2.ndim, dim, idx)] = np.asarray(v).astype(target.dtype)[()]  # a NumPy scalar: CuPy takes it too
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        dim, idx = ctx.args
        gself = IndexFill.apply(g, dim=dim, idx=idx, fill=0, inplace=False) if ctx.needs_input_grad[0] else None
        if len(ctx.needs_input_grad) == 1:
            return gself
        # (each filled place once: torch sums the gradient at the index's unique entries)
        gval = _sum(IndexSelect.apply(g, dim=dim, idx=xp_of(idx).unique(idx))) if ctx.needs_input_grad[1] else None
        return gself, gval


class IndexFillTensor(IndexFill):
    node_name = "IndexFillBackward1"


def _index_fill(input, dim, index, value, inplace):
    what = "index_fill_" if inplace else "index_fill"
    shown = _shown(dim, index)
    dim, idx = _index_args(what, input, dim, index)
    if inplace:
        check_inplace(input)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        return IndexFillTensor.apply(input, value, dim=dim, idx=idx, fill=None, inplace=inplace, given=shown)
    return IndexFill.apply(input, dim=dim, idx=idx, fill=value, inplace=inplace, given=shown)


def index_fill(input: Tensor, dim, index: Tensor, value) -> Tensor:
    check_scalar_fits(value, input.dtype)
    return _index_fill(input, dim, index, value, False)


def index_fill_(input: Tensor, dim, index: Tensor, value) -> Tensor:
    check_scalar_fits(value, input.dtype)
    return _index_fill(input, dim, index, value, True)


class IndexCopy(Function):
    node_name = "IndexCopyBackward0"
    _saved_dim, _saved_index, _saved_source = _SAVED_DIM, _SAVED_INDEX, _SAVED_SOURCE
    _saved_source_dim = _SAVED_SOURCE_DIM

    @staticmethod
    def forward(ctx, a, source, *, dim, idx, inplace, given=None):
        ctx.args, ctx.dim, ctx.idx, ctx.given = (dim, idx), dim, idx, given
        target = a._data if inplace else a._data.copy()
        t2 = target.reshape(1) if target.ndim == 0 else target
        s2 = source._data.reshape(1) if source._data.ndim == 0 else source._data
        t2[_axis_key(t2.ndim, dim, idx)] = s2
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        dim, idx = ctx.args
        gself = IndexFill.apply(g, dim=dim, idx=idx, fill=0, inplace=False) if ctx.needs_input_grad[0] else None
        gsrc = IndexSelect.apply(g, dim=dim, idx=idx) if ctx.needs_input_grad[1] else None
        return gself, gsrc


def index_copy(input: Tensor, dim, index: Tensor, source: Tensor) -> Tensor:
    shown = _shown(dim, index, source)
    dim, idx = _index_args("index_copy", input, dim, index, source)
    return IndexCopy.apply(input, source, dim=dim, idx=idx, inplace=False, given=shown)


def index_copy_(input: Tensor, dim, index: Tensor, source: Tensor) -> Tensor:
    shown = _shown(dim, index, source)
    dim, idx = _index_args("index_copy_", input, dim, index, source)
    check_inplace(input)
    check_no_partial_overlap(input, source, same_is_fine=False)  # torch's assert_no_overlap
    return IndexCopy.apply(input, source, dim=dim, idx=idx, inplace=True, given=shown)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None) -> Tensor:
    """Each element (or slice along ``dim``) repeated; a tensor of counts gives an index_select."""
    if repeats is None or isinstance(repeats, Tensor):
        note_untracked("repeat_interleave with a tensor of counts gives a result whose shape depends on the values")
    if repeats is None:  # repeat_interleave(counts): indices 0..n-1 repeated by counts
        counts = input._data.reshape(-1)
        xp = xp_of(counts)
        return wrap(xp.repeat(xp.arange(counts.size, dtype=np.int64), counts))
    if dim is None:
        input, dim = reshape(input, -1), 0
    dim = normalize_dim(dim, input._data.ndim)
    if isinstance(repeats, Tensor) and repeats._data.size != 1:
        if repeats._data.ndim != 1 or repeats._data.size != input._data.shape[dim]:
            raise RuntimeError("repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{repeats._data.size} and input.size({dim}) = {input._data.shape[dim]}")
        if bool((repeats._data < 0).any()):
            raise RuntimeError("repeats can not be negative")
        return index_select(input, dim, repeat_interleave(repeats))
    r = int(repeats.item() if isinstance(repeats, Tensor) else repeats)
    if r < 0:
        raise RuntimeError("repeats can not be negative")
    shape = list(input.shape)
    big = shape[:dim + 1] + [r] + shape[dim + 1:]
    out_shape = shape[:dim] + [shape[dim] * r] + shape[dim + 1:]
    return reshape(expand(unsqueeze(input, dim + 1), big), out_shape)
