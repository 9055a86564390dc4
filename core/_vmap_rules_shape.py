"""vmap's batching rules for views, movement and indexing: reshapes and expands, permutes and transposes,
squeezes, dim-taking ops such as sort and topk, ``__getitem__`` (batched index tensors too), joining and splitting,
``gather``, constant ``pad`` and ``one_hot`` (``core._vmap_batched`` looks them up by name).

Each rule moves the op's logical dims past the batch dim in front, or says where the batch goes in the physical
result, and raises ``Unbatchable`` (vmap's loop runs instead) where it cannot keep the batch in front.
"""

from __future__ import annotations

import core
from core._vmap_level import (
    Unbatchable,
    _arg,
    _as_batched,
    _ndim,
    _pad,
    _phys,
    _put,
    _rewrap,
    _shape_arg,
    _shift,
    _size,
    _wrap,
    is_batched,
)


def _dims_rule(*positions, keep_rank=True, defaults=()):
    """Ops whose dim arguments at ``positions`` shift past the batch dim (``keep_rank``: dims of the input's rank;
    else of a rank one more, as unsqueeze's); ``defaults`` fill the arguments after the tensor that the call left
    out (diagonal's offset and dims). Keyword arguments: the loop."""
    def rule(func, level, args, kwargs):
        x = args[0]
        if kwargs or not is_batched(x, level) or any(is_batched(a, level) for a in args[1:]):
            raise Unbatchable(func.__name__)
        n = _ndim(x, level) + (0 if keep_rank else 1)
        new_args = list(args) + list(defaults[len(args) - 1:])
        for p in positions:
            if len(new_args) > p:
                new_args[p] = _shift(new_args[p], n)
        return _rewrap(func(x._phys, *new_args[1:], **kwargs), level)
    return rule


def _flatten(func, level, args, kwargs):
    x = args[0]
    if not is_batched(x, level):
        raise Unbatchable("flatten")
    p, n = x._phys, _ndim(x, level)
    if n == 0:
        return _wrap(p.reshape(p.shape[0], 1), level)
    start, end = _arg(args, kwargs, 1, "start_dim", 0), _arg(args, kwargs, 2, "end_dim", -1)
    return _wrap(p.flatten(_shift(start, n), _shift(end, n)), level)


def _dim_at(position: int, name: str = "dim", default=None):
    """Ops with one dim argument at ``position`` (or keyword ``name``), ``default`` when left out (None: required)."""
    def rule(func, level, args, kwargs):
        x = args[0]
        if not is_batched(x, level) or any(is_batched(a, level) for a in (*args[1:], *kwargs.values())):
            raise Unbatchable(func.__name__)
        dim = _arg(args, kwargs, position, name, default)
        if dim is None:
            raise Unbatchable(f"{func.__name__} without a dim")
        shifted = _shift(dim, _ndim(x, level))
        if len(args) > position or name in kwargs:
            args, kwargs = _put(args, kwargs, position, name, shifted)
        else:
            kwargs = {**kwargs, name: shifted}
        return _rewrap(func(x._phys, *args[1:], **kwargs), level)
    return rule


def _last_two_dims(func, level, args, kwargs):
    """tril/triu: the last two dims, whatever comes before them."""
    x = args[0]
    if not is_batched(x, level) or _ndim(x, level) < 2 or any(is_batched(a, level) for a in
                                                                (*args[1:], *kwargs.values())):
        raise Unbatchable(func.__name__)
    return _wrap(func(x._phys, *args[1:], **kwargs), level)


def _flip(func, level, args, kwargs):
    x = args[0]
    if kwargs or not is_batched(x, level):
        raise Unbatchable("flip")
    dims = _shape_arg(args, {})
    return _wrap(x._phys.flip(tuple(_shift(d, _ndim(x, level)) for d in dims)), level)


def _repeat(func, level, args, kwargs):
    x = args[0]
    if kwargs or not is_batched(x, level):
        raise Unbatchable("repeat")
    sizes = _shape_arg(args, {})
    n = _ndim(x, level)
    if len(sizes) < n:
        raise Unbatchable("repeat")
    return _wrap(_pad(x._phys, len(sizes) - n).repeat((1, *sizes)), level)


def _gather(func, level, args, kwargs):
    x, dim, index = args[0], _arg(args, kwargs, 1, "dim"), _arg(args, kwargs, 2, "index")
    if len(args) > 3 or set(kwargs) - {"dim", "index"} or _ndim(index, level) != _ndim(x, level):
        raise Unbatchable("gather")
    return _wrap(core.gather(_as_batched(x, level), _shift(dim, _ndim(x, level)), _as_batched(index, level)), level)


def _constant_pad(func, level, args, kwargs):
    x, pad = args[0], _arg(args, kwargs, 1, "pad")
    mode = _arg(args, kwargs, 2, "mode", "constant")
    if not is_batched(x, level) or mode != "constant" or len(pad) // 2 > _ndim(x, level) or any(
            is_batched(a, level) for a in (*args[1:], *kwargs.values())):
        raise Unbatchable("pad")
    return _wrap(func(x._phys, *args[1:], **kwargs), level)


def _one_hot(func, level, args, kwargs):
    x, classes = args[0], _arg(args, kwargs, 1, "num_classes", -1)
    if not is_batched(x, level) or classes < 0:
        raise Unbatchable("one_hot: the number of classes from the whole batch's maximum")
    return _wrap(func(x._phys, classes), level)


def _reshape(func, level, args, kwargs):
    x = args[0]
    if not is_batched(x, level):
        raise Unbatchable(func.__name__)
    p = x._phys
    return _wrap(getattr(p, func.__name__)((p.shape[0], *_shape_arg(args, {k: v for k, v in kwargs.items()}))), level)


def _view_as(func, level, args, kwargs):
    x, other = args[0], _arg(args, kwargs, 1, "other")
    if not is_batched(x, level):
        raise Unbatchable("view_as")
    return _wrap(x._phys.view((x._phys.shape[0], *other.shape)), level)


def _expand(func, level, args, kwargs):
    x = args[0]
    if not is_batched(x, level) or set(kwargs) - {"size"}:
        raise Unbatchable("expand")
    sizes = _shape_arg(args, kwargs)
    p, n = x._phys, _ndim(x, level)
    if len(sizes) < n:
        raise Unbatchable("expand")
    p = _pad(p, len(sizes) - n)
    return _wrap(p.expand((p.shape[0], *sizes)), level)


def _expand_as(func, level, args, kwargs):
    return _expand(func, level, (args[0], tuple(args[1].shape)), {})  # (other's logical shape)


def _permute(func, level, args, kwargs):
    x = args[0]
    dims = _shape_arg(args, {"shape": kwargs.get("dims")}) if len(args) > 1 or "dims" in kwargs else None
    if not is_batched(x, level) or dims is None:
        raise Unbatchable("permute")
    n = _ndim(x, level)
    return _wrap(x._phys.permute((0, *(_shift(d, n) for d in dims))), level)


def _t(func, level, args, kwargs):
    x = args[0]
    n = _ndim(x, level)
    if not is_batched(x, level) or n > 2:
        raise Unbatchable("t")
    return x if n < 2 else _wrap(x._phys.transpose(1, 2), level)


def _squeeze(func, level, args, kwargs):
    x = args[0]
    if not is_batched(x, level):
        raise Unbatchable("squeeze")
    n = _ndim(x, level)
    dim = _arg(args, kwargs, 1, "dim")
    if dim is None:
        dims = tuple(i + 1 for i in range(n) if x._phys.shape[i + 1] == 1)
    elif isinstance(dim, (tuple, list)):
        dims = tuple(_shift(d, n) for d in dim)
    elif n == 0:
        return x
    else:
        dims = (_shift(dim, n),)
    return _wrap(x._phys.squeeze(dims) if dims else x._phys, level)


def _getitem(func, level, args, kwargs):
    """Indexing with ints, slices, None, Ellipsis and at most one unbatched index tensor: the batch dim stays in
    front behind a leading full slice."""
    x, index = args
    items = index if isinstance(index, tuple) else (index,)
    if not is_batched(x, level) or any(is_batched(i, level) for i in items):
        return _advanced_index(x, items, level)
    tensors = 0
    for item in items:
        if isinstance(item, core.Tensor):
            if is_batched(item, level):
                raise Unbatchable("a batched index")
            tensors += 1
        elif isinstance(item, (list, bool)) or not (item is None or item is Ellipsis or isinstance(item, (int, slice))):
            raise Unbatchable("index")
    if tensors > 1:
        return _advanced_index(x, items, level)
    if x._phys.dim() == 1 and any(item is not None and item is not Ellipsis for item in items):
        raise Unbatchable("indexing a 0-dim tensor")  # (PyTorch's IndexError, from the loop; None and ... are fine)
    return _wrap(x._phys[(slice(None), *items)], level)


def _advanced_index(x, items, level):
    """Indexing by integer index tensors (some batched: ``table[b, k]`` at batched positions), ints and slices.
    Batched index tensors get size-1 dims up to the widest index's rank and a batched ``x`` an index of the batch
    in front, so the advanced indices' broadcast shape starts with the batch. NumPy's rule places that shape first
    when the advanced indices are apart, else where the first one is (ints select first, as PyTorch's indexing
    does): from there it moves to the front."""
    if not all(isinstance(i, slice) or isinstance(i, int) and not isinstance(i, bool) or isinstance(i, core.Tensor)
               and not i.is_floating_point() and i.dtype != core.bool for i in items) or len(items) > _ndim(x, level):
        raise Unbatchable("index")
    rank = max((_ndim(i, level) for i in items if isinstance(i, core.Tensor)), default=0)
    size = _size(level)

    def physical(i):
        return _pad(i._phys, rank - i._phys.dim() + 1) if is_batched(i, level) else i

    index = tuple(physical(i) for i in items)
    if is_batched(x, level):
        index = (core.arange(size, device=x._phys.device).reshape((size,) + (1,) * rank), *index)
    kept = [i for i in index if not (isinstance(i, int) and not isinstance(i, bool))]  # ints select first (torch)
    places = [n for n, i in enumerate(kept) if isinstance(i, core.Tensor)]
    out = _phys(x, level)[index]
    if places == list(range(places[0], places[-1] + 1)) and places[0]:  # adjacent, after slices
        out = out.movedim(places[0], 0)
    elif is_batched(x, level) and rank and len(places) > 1 and places[1] > 1 \
            and places[1:] == list(range(places[1], places[-1] + 1)):
        # the sample's own indices are adjacent, after slices: its result has their broadcast dims there, where the
        # batch's index in front (apart from them) put them first, behind the batch
        for k in range(places[1] - 1):  # (the slices' dims in front of them, one at a time: an int dim at a time is
            out = out.movedim(1 + rank + k, 1 + k)  # what an outer level's rule takes)
    if out.dim() == 0 or out.shape[0] != size:
        raise Unbatchable("the result lost the batch dim")
    return _wrap(out, level)


def _joining(func, level, args, kwargs, extra_rank=0):
    tensors = _arg(args, kwargs, 0, "tensors")
    if not isinstance(tensors, (tuple, list)) or not tensors or set(kwargs) - {"dim", "tensors"}:
        raise Unbatchable(func.__name__)
    n = max(_ndim(t, level) for t in tensors) + extra_rank
    dim = _arg(args, kwargs, 1, "dim", 0)
    if any(_ndim(t, level) + extra_rank != n for t in tensors):
        raise Unbatchable("ranks differ")  # (cat's legacy 1-d empty tensors, errors: the loop's)
    return _wrap(func([_as_batched(t, level) for t in tensors], _shift(dim, n)), level)


def _splitting(func, level, args, kwargs):
    """split/chunk/unbind/tensor_split: the dim (args[2], or args[1] for unbind) shifts; each piece is batched."""
    x = args[0]
    if not is_batched(x, level):
        raise Unbatchable(func.__name__)
    index = 1 if func.__name__ == "unbind" else 2
    n = _ndim(x, level)
    args, kwargs = _put(args, kwargs, index, "dim", _shift(_arg(args, kwargs, index, "dim", 0), n))
    return _rewrap(func(x._phys, *args[1:], **kwargs), level)
