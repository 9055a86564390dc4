"""vmap's batching rules for elementwise ops (operators and in-place ones too), copies and casts, ``new_*``
factories and reductions (``core._vmap_batched`` looks them up by name).

A rule takes ``(func, level, args, kwargs)`` and runs ``func`` once on the physical tensors of ``level``: elementwise
operands align from the right (size-1 dims after the batch dim), dim-taking reductions shift their dims past the
batch dim and reduce each sample's elements when no dim is given. What a rule cannot be sure of raises
``Unbatchable`` (vmap's loop runs instead); ops whose result's shape depends on the values raise ``Refusal``, as
PyTorch's vmap refuses them.
"""

from __future__ import annotations

import core
from core import _vmap_level
from core._vmap_level import (
    Refusal,
    Unbatchable,
    _arg,
    _journal,
    _ndim,
    _pad,
    _put,
    _rewrap,
    _shift,
    _size,
    _wrap,
    is_batched,
    physical_chain,
)

_DYNAMIC = ("vmap: We do not support batching operators that can output dynamic shape. Attempted to vmap over "
            "aten::{}. Please file an issue at https://github.com/pytorch/pytorch/issues if you need this feature.")
_DYNAMIC_OPS = {"nonzero": "nonzero", "where": "where", "unique": "_unique2",
                "unique_consecutive": "unique_consecutive"}
_MASKED_SELECT = ("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot support this "
                  "because for each batch this would return a differently shaped Tensor. Please file an issue at "
                  "https://github.com/pytorch/pytorch/issues if you need this feature.")


def _refuse_dynamic(func, level, args, kwargs):
    """An op whose result's shape depends on the values (``nonzero``, ``unique``, one-argument ``where``,
    ``masked_select`` by a batched mask): PyTorch's vmap refuses it even where every sample's shape would agree."""
    name = func.__name__
    if name == "masked_select":
        mask = args[1] if len(args) > 1 else kwargs.get("mask")
        if not is_batched(mask, level):
            raise Unbatchable(name)
        raise Refusal(_MASKED_SELECT)
    if not is_batched(args[0] if args else kwargs.get("input"), level):
        raise Unbatchable(name)
    if name == "nonzero" and kwargs.get("as_tuple"):
        raise Refusal("Batching rule not implemented for aten::nonzero_numpy. We could not generate a fallback.")
    dim = kwargs.get("dim", args[4] if name == "unique" and len(args) > 4 else None)
    raise Refusal(_DYNAMIC.format("unique_dim" if name == "unique" and dim is not None else _DYNAMIC_OPS[name]))


def _elementwise(func, level, args, kwargs):
    """Broadcasting ops: batched operands get size-1 dims after the batch dim up to the widest operand's rank.

    NOTE: every op of a batched function comes here, so ranks, dtypes and the result's batch size are read from
    the storages (``_data``: a BatchedTensor's is its logical meta storage) instead of through ``dim()``, ``dtype``
    and ``shape``, each a dispatching read (35 -> ~20 µs an op)."""
    cls = _vmap_level._class
    tensors = [a for a in ((*args, *kwargs.values()) if kwargs else args) if isinstance(a, core.Tensor)]
    if len(tensors) == 1 and func.__name__ == "where":
        _refuse_dynamic(func, level, args, kwargs)
    rank = max(t._data.ndim for t in tensors)
    if len(tensors) > 1 and len({t._data.dtype for t in tensors}) > 1 and any(
            t._data.ndim == 0 and type(t) is cls and t._level == level for t in tensors):
        raise Unbatchable("a 0-dim batched operand would change type promotion")

    def physical(a):
        if type(a) is not cls or a._level != level:
            return a
        p = a._phys
        return _pad(p, rank - a._data.ndim)

    new_args = tuple([physical(a) for a in args])
    ret = func(*new_args, **{k: physical(v) for k, v in kwargs.items()}) if kwargs else func(*new_args)
    if args and ret is new_args[0] and type(args[0]) is cls and args[0]._level == level:
        return args[0]  # an in-place op gives back its tensor
    size = _size(level)
    for r in ret if isinstance(ret, tuple) else (ret,):
        if isinstance(r, core.Tensor) and (r._data.ndim == 0 or r._data.shape[0] != size):
            raise Unbatchable("the result lost the batch dim")
    return _rewrap(ret, level)


def _inplace(func, level, args, kwargs):
    """In-place elementwise ops on a batched tensor whose rank no other operand exceeds."""
    if not is_batched(args[0], level):
        raise Unbatchable("in place on an unbatched tensor")
    own = _ndim(args[0], level)
    if any(isinstance(a, core.Tensor) and _ndim(a, level) > own for a in (*args[1:], *kwargs.values())):
        raise Unbatchable("in place with a wider operand")
    _journal(physical_chain(args[0])[-1])
    return _elementwise(func, level, args, kwargs)


def _unary_same(func, level, args, kwargs):
    """Ops that keep the shape and take no dims (copies, casts, ``*_like`` factories): run on the physical tensor."""
    if not is_batched(args[0], level) or any(isinstance(a, core.Tensor) and is_batched(a, level)
                                             for a in (*args[1:], *kwargs.values())):
        raise Unbatchable(func.__name__)
    ret = func(args[0]._phys, *args[1:], **kwargs)
    return args[0] if ret is args[0]._phys else _rewrap(ret, level)


def _new_factory(func, level, args, kwargs):
    """``x.new_zeros(size)``...: an unbatched tensor of ``x``'s dtype and device."""
    if any(is_batched(a, level) for a in (*args[1:], *kwargs.values())):
        raise Unbatchable(func.__name__)
    return func(args[0]._phys, *args[1:], **kwargs)


# max()/min()/median() of everything: the values of the dim-taking overload, as PyTorch's batching rule does
_FIRST_OF_PAIR = frozenset(("max", "min", "median", "nanmedian"))


def _reduction(func, level, args, kwargs, dim_required=False):
    """Reductions and dim-taking ops: logical dims move past the batch dim; no dim reduces each sample's elements."""
    x = args[0]
    if not is_batched(x, level) or len(args) > 1 and isinstance(args[1], core.Tensor):
        return _elementwise(func, level, args, kwargs)  # max(a, b), min(a, b): elementwise
    n = _ndim(x, level)
    dim = _arg(args, kwargs, 1, "dim")
    if any(is_batched(a, level) for a in (*args[1:], *kwargs.values())):
        raise Unbatchable(func.__name__)
    if dim is None:
        if dim_required or len(args) > 1 or "dim" in kwargs or kwargs.get("keepdim"):
            raise Unbatchable("no dim")
        name = func.__name__
        flat = x._phys.reshape(x._phys.shape[0], -1)
        ret = func(flat, 1, **kwargs)
        return _wrap(ret[0], level) if name in _FIRST_OF_PAIR else _rewrap(ret, level)
    if isinstance(dim, (tuple, list)):
        if not dim:
            raise Unbatchable("empty dims")
        shifted = type(dim)(_shift(d, n) for d in dim)
    else:
        shifted = _shift(dim, n)
    args, kwargs = _put(args, kwargs, 1, "dim", shifted)
    return _rewrap(func(x._phys, *args[1:], **kwargs), level)
