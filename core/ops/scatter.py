"""Indexing along one dim: index_select/add/fill/copy, gather, scatter(_add/_reduce), take_along_dim,
repeat_interleave (re-exported by ``core.ops.indexing``, the family's public module).

Each primitive's backward is another op of this module (gather <-> scatter_add, index_select <->
index_add), so gradients stay differentiable. Index tensors must be int64 (int32 where PyTorch
allows it), with PyTorch's messages.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._util import check_same_device, normalize_dim, xp_of
from core.ops.elementwise import check_inplace

__all__ = ["index_select", "index_add", "index_add_", "index_fill", "index_fill_", "index_copy", "index_copy_",
           "gather", "scatter", "scatter_", "scatter_add", "scatter_add_",
           "take_along_dim", "repeat_interleave"]

_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char", "int16": "Short",
          "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool"}


def _index_1d(what: str, index, ints=(_dtype.int64, _dtype.int32)):
    if not isinstance(index, Tensor) or index.dtype not in ints:
        raise RuntimeError(f"{what}(): Expected dtype int32/int64 for index")
    if index._data.ndim > 1:
        raise IndexError(f"{what}(): Index is supposed to be a vector")
    return index._data.reshape(-1).astype(np.int64, copy=False)


def _wrap_checked(idx, size: int, msg: str):
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if hi >= size or lo < -size:
            raise IndexError(msg)
    return xp_of(idx).where(idx < 0, idx + size, idx)


def _axis_key(ndim: int, dim: int, idx) -> tuple:
    return (slice(None),) * dim + (idx,)


# ----- index_select / index_add / index_fill / index_copy ----------------------------------------

class IndexSelect(Function):
    node_name = "IndexSelectBackward0"

    @staticmethod
    def forward(ctx, a, *, dim, idx):
        ctx.args = (a._data.shape, dim, idx)
        x = a._data.reshape(1) if a._data.ndim == 0 else a._data
        out = xp_of(x).take(x, idx, axis=dim)
        return out.reshape(()) if a._data.ndim == 0 else out

    @staticmethod
    def backward(ctx, g):
        from core.ops import zeros  # noqa: PLC0415

        shape, dim, idx = ctx.args
        return IndexAdd.apply(zeros(shape, dtype=g.dtype, device=g.device), g, dim=dim, idx=idx, alpha=1,
                              inplace=False)


def index_select(input: Tensor, dim, index: Tensor) -> Tensor:
    dim = normalize_dim(dim, input._data.ndim)
    idx = _index_1d("index_select", index)
    check_same_device(input, index)
    size = input._data.shape[dim] if input._data.ndim else 1
    return IndexSelect.apply(input, dim=dim, idx=_wrap_checked(idx, size, "index out of range in self"))


class IndexAdd(Function):
    node_name = "IndexAddBackward0"

    @staticmethod
    def forward(ctx, a, source, *, dim, idx, alpha, inplace):
        ctx.args = (dim, idx, alpha)
        target = a._data if inplace else a._data.copy()
        src = source._data.astype(target.dtype, copy=False)
        if alpha != 1:
            src = src * np.asarray(alpha).astype(target.dtype)
        t2 = target.reshape(1) if target.ndim == 0 else target
        s2 = src.reshape(1) if src.ndim == 0 else src
        xp_of(target).add.at(t2, _axis_key(t2.ndim, dim, idx), s2)
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
        n = source._data.shape[dim] if source._data.ndim else 1
        if n != idx.size:
            raise RuntimeError(f"{what}(): Number of indices ({idx.size}) should be equal to source.size(dim) ({n})")
    return dim, _wrap_checked(idx, size, f"{what}(): index out of range in self")


def index_add(input: Tensor, dim, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    dim, idx = _index_args("index_add", input, dim, index, source)
    return IndexAdd.apply(input, source, dim=dim, idx=idx, alpha=alpha, inplace=False)


def index_add_(input: Tensor, dim, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    dim, idx = _index_args("index_add_", input, dim, index, source)
    check_inplace(input)
    return IndexAdd.apply(input, source, dim=dim, idx=idx, alpha=alpha, inplace=True)


class IndexFill(Function):
    node_name = "IndexFillBackward0"

    @staticmethod
    def forward(ctx, a, *value, dim, idx, fill, inplace):
        ctx.args = (dim, idx)
        target = a._data if inplace else a._data.copy()
        v = value[0]._data.item() if value else fill
        t2 = target.reshape(1) if target.ndim == 0 else target
        t2[_axis_key(t2.ndim, dim, idx)] = np.asarray(v).astype(target.dtype)
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        from core.ops import sum as _sum  # noqa: PLC0415

        dim, idx = ctx.args
        gself = IndexFill.apply(g, dim=dim, idx=idx, fill=0, inplace=False) if ctx.needs_input_grad[0] else None
        if len(ctx.needs_input_grad) == 1:
            return gself
        gval = _sum(IndexSelect.apply(g, dim=dim, idx=idx)) if ctx.needs_input_grad[1] else None
        return gself, gval


class IndexFillTensor(IndexFill):
    node_name = "IndexFillBackward1"


def _index_fill(input, dim, index, value, inplace):
    what = "index_fill_" if inplace else "index_fill"
    dim, idx = _index_args(what, input, dim, index)
    if inplace:
        check_inplace(input)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        return IndexFillTensor.apply(input, value, dim=dim, idx=idx, fill=None, inplace=inplace)
    return IndexFill.apply(input, dim=dim, idx=idx, fill=value, inplace=inplace)


def index_fill(input: Tensor, dim, index: Tensor, value) -> Tensor:
    return _index_fill(input, dim, index, value, False)


def index_fill_(input: Tensor, dim, index: Tensor, value) -> Tensor:
    return _index_fill(input, dim, index, value, True)


class IndexCopy(Function):
    node_name = "IndexCopyBackward0"

    @staticmethod
    def forward(ctx, a, source, *, dim, idx, inplace):
        ctx.args = (dim, idx)
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
    dim, idx = _index_args("index_copy", input, dim, index, source)
    return IndexCopy.apply(input, source, dim=dim, idx=idx, inplace=False)


def index_copy_(input: Tensor, dim, index: Tensor, source: Tensor) -> Tensor:
    dim, idx = _index_args("index_copy_", input, dim, index, source)
    check_inplace(input)
    return IndexCopy.apply(input, source, dim=dim, idx=idx, inplace=True)


# ----- gather / scatter ---------------------------------------------------------------------------

def _gather_key(idx, dim: int) -> tuple:
    """Full index arrays: ``idx`` along ``dim``, the position itself along every other dim."""
    xp = xp_of(idx)
    nd = idx.ndim
    return tuple(idx if d == dim else xp.arange(idx.shape[d]).reshape([-1 if i == d else 1 for i in range(nd)])
                 for d in range(nd))


def _check_gather(what: str, input: Tensor, dim, index, src=None):
    """Wrapped dim and the checked int64 index array (as an N-d array, even for 0-d inputs)."""
    nd = input._data.ndim
    dim = normalize_dim(dim, nd)
    if not isinstance(index, Tensor) or index.dtype is not _dtype.int64:
        raise RuntimeError(f"{what}(): Expected dtype int64 for index")
    check_same_device(input, index, *([src] if isinstance(src, Tensor) else []))
    idx = index._data
    if idx.ndim != nd and idx.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    shape = input._data.shape if nd else (1,)
    idx = idx.reshape(-1) if nd == 0 else idx
    for d in range(idx.ndim):
        if d != dim and idx.shape[d] > shape[d]:
            raise RuntimeError(f"Size does not match at dimension {d} expected index {list(index.shape)} to be no "
                               f"larger than self {list(input.shape)} apart from dimension {dim}")
        if isinstance(src, Tensor) and src._data.ndim == nd and idx.shape[d] > (src._data.shape or (1,))[d]:
            raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than src {list(src.shape)} "
                               f"apart from dimension {dim} and to be no larger size than self "
                               f"{list(input.shape)}")
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if hi >= shape[dim] or lo < -shape[dim]:
            bad = hi if hi >= shape[dim] else lo
            raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {shape[dim]}")
    return dim, xp_of(idx).where(idx < 0, idx + shape[dim], idx)


class Gather(Function):
    node_name = "GatherBackward0"

    @staticmethod
    def forward(ctx, a, *, dim, idx):
        ctx.args = (a._data.shape, dim, idx)
        x = a._data.reshape(1) if a._data.ndim == 0 else a._data
        out = x[_gather_key(idx, dim)]
        return out.reshape(()) if a._data.ndim == 0 and out.size == 1 else out

    @staticmethod
    def backward(ctx, g):
        from core.ops import zeros  # noqa: PLC0415

        shape, dim, idx = ctx.args
        return ScatterAdd.apply(zeros(shape, dtype=g.dtype, device=g.device), g, dim=dim, idx=idx, inplace=False)


def gather(input: Tensor, dim, index: Tensor, *, sparse_grad: bool = False, out=None) -> Tensor:
    dim, idx = _check_gather("gather", input, dim, index)
    return Gather.apply(input, dim=dim, idx=idx)


def _src_part(src, idx):
    """The leading block of ``src`` that ``idx`` covers (scatter reads only that much)."""
    s = src.reshape(1) if src.ndim == 0 else src
    if s.ndim != idx.ndim:
        return s
    return s[tuple(slice(0, n) for n in idx.shape)]


def _embed(g: Tensor, shape) -> Tensor:
    """``g`` placed at the start of zeros of ``shape`` (the gradient of taking a leading block)."""
    from core.ops import reshape  # noqa: PLC0415
    from core.ops.indexing import Slice, ViewScatter  # noqa: PLC0415

    if not shape:
        return reshape(g, ())
    for d, (n, full) in enumerate(zip(g.shape, shape)):
        if n != full:
            target = tuple(g.shape[:d]) + (full,) + tuple(g.shape[d + 1:])
            g = ViewScatter.apply(g, shape=target, key=(slice(None),) * d + (slice(0, n, 1),),
                                  view=(Slice, d, 0, n, 1))
    return g


class Scatter(Function):
    node_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, a, *src, dim, idx, value, reduce, inplace):
        ctx.args = (dim, idx, src[0]._data.shape if src else None)
        target = a._data if inplace else a._data.copy()
        t2 = target.reshape(1) if target.ndim == 0 else target
        key = _gather_key(idx, dim)
        v = _src_part(src[0]._data, idx) if src else np.asarray(value)
        v = xp_of(target).asarray(v).astype(target.dtype, copy=False)
        if reduce is None:
            t2[key] = v
        else:
            getattr(xp_of(target), "add" if reduce == "add" else "multiply").at(t2, key, xp_of(t2).broadcast_to(
                v, idx.shape))
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        dim, idx, src_shape = ctx.args
        gself = Scatter.apply(g, dim=dim, idx=idx, value=0, reduce=None, inplace=False) \
            if ctx.needs_input_grad[0] else None
        if src_shape is None:
            return gself
        gsrc = _embed(Gather.apply(g, dim=dim, idx=idx), src_shape) if ctx.needs_input_grad[1] else None
        return gself, gsrc


class ScatterValue(Scatter):
    node_name = "ScatterBackward1"


def _scatter(what, input, dim, index, src, value, reduce, inplace):
    if reduce not in (None, "add", "multiply"):
        raise RuntimeError(f"reduce argument must be either add or multiply. Got {reduce}")
    if src is not None and not isinstance(src, Tensor):
        src, value = None, src
    dim, idx = _check_gather(what, input, dim, index, src)
    if isinstance(src, Tensor) and src.dtype is not input.dtype:
        raise RuntimeError(f"{what}(): Expected self.dtype to be equal to src.dtype")
    if inplace:
        check_inplace(input)
    if src is None:
        return ScatterValue.apply(input, dim=dim, idx=idx, value=value, reduce=reduce, inplace=inplace)
    return Scatter.apply(input, src, dim=dim, idx=idx, value=None, reduce=reduce, inplace=inplace)


def scatter(input: Tensor, dim, index: Tensor, src=None, *, value=None, reduce=None) -> Tensor:
    return _scatter("scatter", input, dim, index, src, value, reduce, False)


def scatter_(input: Tensor, dim, index: Tensor, src=None, *, value=None, reduce=None) -> Tensor:
    return _scatter("scatter_", input, dim, index, src, value, reduce, True)


class ScatterAdd(Function):
    node_name = "ScatterAddBackward0"

    @staticmethod
    def forward(ctx, a, src, *, dim, idx, inplace):
        ctx.args = (dim, idx, src._data.shape)
        target = a._data if inplace else a._data.copy()
        t2 = target.reshape(1) if target.ndim == 0 else target
        v = _src_part(src._data, idx).astype(target.dtype, copy=False)
        xp_of(target).add.at(t2, _gather_key(idx, dim), v)
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        dim, idx, src_shape = ctx.args
        gsrc = _embed(Gather.apply(g, dim=dim, idx=idx), src_shape) if ctx.needs_input_grad[1] else None
        return g, gsrc


def _scatter_add(what, input, dim, index, src, inplace):
    dim, idx = _check_gather(what, input, dim, index, src)
    if src.dtype is not input.dtype:
        raise RuntimeError(f"{what}(): Expected self.dtype to be equal to src.dtype")
    if inplace:
        check_inplace(input)
    return ScatterAdd.apply(input, src, dim=dim, idx=idx, inplace=inplace)


def scatter_add(input: Tensor, dim, index: Tensor, src: Tensor) -> Tensor:
    return _scatter_add("scatter_add", input, dim, index, src, False)


def scatter_add_(input: Tensor, dim, index: Tensor, src: Tensor) -> Tensor:
    return _scatter_add("scatter_add_", input, dim, index, src, True)


def take_along_dim(input: Tensor, indices: Tensor, dim=None) -> Tensor:
    """``gather`` after broadcasting input and indices over every dim but ``dim`` (flat when dim is None)."""
    from core.ops import expand, reshape  # noqa: PLC0415
    from core.ops._util import broadcast_shapes  # noqa: PLC0415

    if not isinstance(indices, Tensor) or indices.dtype is not _dtype.int64:
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{indices.dtype if isinstance(indices, Tensor) else type(indices).__name__}")
    if dim is None:
        return gather(reshape(input, -1), 0, reshape(indices, -1))
    nd = input._data.ndim
    if indices._data.ndim != nd:
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {nd} dimensions for input, and {indices._data.ndim} dimensions for indices")
    dim = normalize_dim(dim, nd)
    ishape, jshape = list(input.shape), list(indices.shape)
    ishape[dim] = jshape[dim] = 1
    b = list(broadcast_shapes(ishape, jshape))
    in_shape, idx_shape = b.copy(), b.copy()
    in_shape[dim], idx_shape[dim] = input.shape[dim], indices.shape[dim]
    inp = input if list(input.shape) == in_shape else expand(input, in_shape)
    ind = indices if list(indices.shape) == idx_shape else expand(indices, idx_shape)
    return gather(inp, dim, ind)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None) -> Tensor:
    """Each element (or slice along ``dim``) repeated; a tensor of counts gives an index_select."""
    from core.ops import expand, reshape, unsqueeze  # noqa: PLC0415
    from core.ops._util import wrap  # noqa: PLC0415

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
