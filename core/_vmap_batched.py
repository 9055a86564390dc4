"""vmap's batched path: ``func`` runs once on tensors that carry the whole batch.

Each mapped input becomes a ``BatchedTensor``: a tensor that looks like one sample (its shape, ``dim()``, ``size()``
are the logical ones) and holds the physical tensor, the batch in front, as functorch's BatchedTensor does. Every op
``func`` calls on one reaches ``BatchedTensor.__torch_function__``, which finds the op's batching rule, runs the op
once on the physical tensors (elementwise ops align their operands from the right, dim-taking ops shift their dims
past the batch dim, matrix products and views say where the batch goes) and wraps the result. Nested ``vmap``
calls have levels: a rule unwraps its own level, and ops on the tensors below reach the outer level's rules.

An op without a rule, a random draw or any error raises ``Unbatchable``, or the error itself, out of ``func``;
``core._vmap`` then runs ``func`` as its loop does, so the results, errors and randomness are the loop's wherever the
batched path cannot be sure of them. An in-place op on a mapped input is undone before the loop runs (``_journal``),
so the loop's own in-place op counts once (a BatchNorm's ``num_batches_tracked`` under ``functional_call``). A value
read of a batched tensor (``.item()``, ``float(x)``, ``bool(x)`` and Python control flow, ``tolist()``,
``numpy()``) raises ``Refusal``, which vmap turns into PyTorch's RuntimeError: PyTorch refuses these too, as it
refuses the ops whose result's shape depends on the values (``nonzero``, ``unique``, ``where(condition)``...).

Autograd through it: the physical tensors carry the graph, samples never mix, so a backward pass over the physical
outputs gives each sample its gradient (``core.func``'s ``grad``/``vjp``/``jvp``/``jacrev`` inside ``vmap`` call
``grads`` here). An argument ``grad`` differentiates that is not batched is broadcast over the batch first
(``broadcast_entered``), so each sample gets its own gradient, as functorch's per-sample gradients.
"""

from __future__ import annotations

import functools
import itertools
import string
import threading

import core
from core import _dtype

__all__ = ["Refusal", "Unbatchable", "batched_vjp", "call", "current", "grads", "is_batched", "physical_chain",
           "broadcast_entered"]


class Unbatchable(BaseException):
    """``func`` cannot run batched: vmap runs its loop instead. (A BaseException: ``except Exception`` in user code
    must not swallow it.)"""


class Refusal(Unbatchable):
    """A value read of a batched tensor: ``vmap`` raises ``error`` (PyTorch's RuntimeError) instead of running its
    loop; callers with their own fallback (``batched_only``) take it as Unbatchable."""

    def __init__(self, message: str):
        super().__init__(message)
        self.error = RuntimeError(message)


_ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() on a "
         "Tensor, please try to rewrite what you're doing with other operations. If error is occurring somewhere "
         "inside PyTorch internals, please file a bug report.")
_REFUSALS = {
    **dict.fromkeys(("item", "__float__", "__int__", "__complex__"), _ITEM),
    "__bool__": ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. We "
                 "don't support that yet, please file an issue at https://github.com/pytorch/pytorch/issues ."),
    **dict.fromkeys(("tolist", "numpy", "data_ptr"), "Cannot access data pointer of Tensor that doesn't have storage"),
}


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


def _per_sample(func, level, args, kwargs):
    """An op without a rule, as functorch's slow fallback runs it: once per sample on the physical slices, the
    results stacked into a batched tensor, so the function goes on batched (a later ``.item()`` is still refused,
    as in PyTorch). An in-place or ``out=`` op, a non-tensor result or samples of different shapes raise
    Unbatchable (vmap's loop then runs the function); a random draw raises as it does anywhere here."""
    name = getattr(func, "__name__", "") or ""
    if (name.endswith("_") and not name.endswith("__")) or "out" in kwargs:
        raise Unbatchable(getattr(func, "__qualname__", repr(func)))

    def pick(a, i):
        if type(a) is _class and a._level == level:
            return a._phys[i]
        if type(a) in (list, tuple):
            return type(a)(pick(b, i) for b in a)
        return a

    outs = [func(*[pick(a, i) for a in args], **{k: pick(v, i) for k, v in kwargs.items()})
            for i in range(_size(level))]
    first = outs[0]
    if isinstance(first, core.Tensor) and all(isinstance(o, core.Tensor) and o.shape == first.shape for o in outs):
        return _wrap(core.stack(outs), level)
    if type(first) is tuple and first and all(
            type(o) is tuple and len(o) == len(first) and all(isinstance(t, core.Tensor) and t.shape == f.shape
                                                              for t, f in zip(o, first)) for o in outs):
        return tuple(_wrap(core.stack([o[j] for o in outs]), level) for j in range(len(first)))
    raise Unbatchable(getattr(func, "__qualname__", repr(func)))


def _refuse_read(func, level, args, kwargs):
    if not is_batched(args[0], level):
        raise Unbatchable(func.__name__)
    raise Refusal(_REFUSALS[func.__name__])


class _Level:
    __slots__ = ("level", "size", "roots")

    def __init__(self, level: int, size: int, roots: frozenset = frozenset()):
        self.level, self.size, self.roots = level, size, roots  # roots: ids of the mapped inputs' arrays


class _Active(threading.local):
    def __init__(self):
        self.levels: list = []  # this thread's batched vmap calls running, innermost last
        self.journal: list = []  # (array, its values before) for each mapped input an in-place op changed


_active = _Active()
_numbers = itertools.count(1)
_class = None  # BatchedTensor, made at the first batched call (defining it turns on __torch_function__ dispatch)


def current():
    """The innermost batched vmap call running (``.level``, ``.size``), or None."""
    levels = _active.levels
    return levels[-1] if levels else None


def is_batched(x, level=None) -> bool:
    """Whether ``x`` is a BatchedTensor (of ``level``, when given)."""
    return _class is not None and type(x) is _class and (level is None or x._level == level)


def physical_chain(t) -> list:
    """``t`` and the tensors it wraps, level by level (their ids mark a transform's own leaves)."""
    chain = [t]
    while is_batched(chain[-1]):
        chain.append(chain[-1]._phys)
    return chain


# ----- the wrapper -----------------------------------------------------------------------------------------------
def _batched_class():
    global _class
    if _class is None:
        class BatchedTensor(core.Tensor):
            """One sample's view of a batch: ``_phys`` holds the batch, its dim 0 the batch dim of ``_level``."""

            __slots__ = ("_phys", "_level")

            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                rule = _rule_for(func)
                level = _top_level(args, kwargs)
                _size(level)  # (an escaped batched tensor: RuntimeError)
                if rule is None:
                    return _per_sample(func, level, args, kwargs)
                return rule(func, level, args, kwargs)

        _class = BatchedTensor
    return _class


@functools.lru_cache(maxsize=256)
def _meta_storage(shape: tuple, storage_dtype):
    """A meta tensor of ``shape`` whose storage's dtype is ``storage_dtype`` (keyed by the storage's dtype, which
    maps one to one to a tensor's, as ``Tensor.dtype`` reads it: the ``dtype`` property dispatches)."""
    return core.empty(shape, dtype=_dtype._BY_NP[storage_dtype], device="meta")


def _wrap(phys, level: int):
    """A BatchedTensor of ``level`` over ``phys`` (its dim 0 the batch)."""
    cls = _class
    data = phys._data  # (the storage's shape and dtype: ``.shape`` and ``.dtype`` dispatch)
    meta = _meta_storage(data.shape[1:], data.dtype)
    out = object.__new__(cls)
    out._data, out._root, out._vc = meta._data, meta._root, meta._vc
    out._phys, out._level = phys, level
    return out


def _top_level(args, kwargs) -> int:
    found, cls = 0, _class
    for a in (*args, *kwargs.values()) if kwargs else args:
        kind = type(a)
        if kind is cls:
            if a._level > found:
                found = a._level
        elif kind is list or kind is tuple:
            found = max([found] + [b._level for b in a if type(b) is cls])
    return found


def _size(level: int) -> int:
    for entry in _active.levels:
        if entry.level == level:
            return entry.size
    raise RuntimeError("vmap: a batched tensor was used outside the vmap call that made it (a tensor created inside "
                       "the function escaped it, through a global or a closure)")


def _ndim(x, level: int) -> int:
    """``x``'s logical number of dims at ``level``."""
    return x._data.ndim  # (a BatchedTensor's storage is its logical meta storage; ``dim()`` dispatches)


def _phys(x, level: int):
    return x._phys if is_batched(x, level) else x


def _rewrap(ret, level: int):
    """An op's physical result(s) as BatchedTensors of ``level``."""
    if isinstance(ret, core.Tensor):
        return _wrap(ret, level)
    if isinstance(ret, (tuple, list)):
        items = [_rewrap(r, level) for r in ret]
        return type(ret)._make(items) if hasattr(type(ret), "_make") else type(ret)(items)
    return ret


def _as_batched(x, level: int):
    """``x``'s physical tensor with the batch in front, broadcast over the batch when ``x`` is not batched."""
    if is_batched(x, level):
        return x._phys
    return x.unsqueeze(0).expand((_size(level), *x.shape))


def _pad(p, missing: int):
    """The physical ``p`` with ``missing`` size-1 dims after the batch dim (views: they broadcast as a lower rank
    operand's leading dims would)."""
    for _ in range(missing):
        p = p.unsqueeze(1)
    return p


def _shift(dim, ndim: int) -> int:
    """A logical dim of a tensor with ``ndim`` dims as its physical dim (past the batch dim)."""
    if isinstance(dim, bool) or not isinstance(dim, int) or ndim == 0 or not -ndim <= dim < ndim:
        raise Unbatchable("dim")
    return dim % ndim + 1


def _arg(args, kwargs, index: int, name: str, default=None):
    if len(args) > index:
        return args[index]
    return kwargs.get(name, default)


def _put(args, kwargs, index: int, name: str, value):
    """``(args, kwargs)`` with the argument at ``index`` (or keyword ``name``) replaced."""
    if len(args) > index:
        return (*args[:index], value, *args[index + 1:]), kwargs
    return args, {**kwargs, name: value}


# ----- rules -----------------------------------------------------------------------------------------------------
def _elementwise(func, level, args, kwargs):
    """Broadcasting ops: batched operands get size-1 dims after the batch dim up to the widest operand's rank.

    NOTE: every op of a batched function comes here, so ranks, dtypes and the result's batch size are read from
    the storages (``_data``: a BatchedTensor's is its logical meta storage) instead of through ``dim()``, ``dtype``
    and ``shape``, each a dispatching read (35 -> ~20 µs an op)."""
    cls = _class
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


def _journal(real) -> None:
    """Keep the values of a mapped input's array before its first in-place change, for ``call`` to put back when the
    loop runs instead (which changes it again)."""
    root = real._root
    if any(id(root) in entry.roots for entry in _active.levels) and all(a is not root for a, _ in _active.journal):
        _active.journal.append((root, root.copy()))


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


def _norm(func, level, args, kwargs):
    """Tensor.norm/torch.norm and linalg.vector_norm: no dim is each sample's norm over all its elements."""
    x = args[0]
    if not is_batched(x, level) or any(is_batched(a, level) for a in (*args[1:], *kwargs.values())):
        raise Unbatchable(func.__name__)
    if func.__name__ == "linalg_norm":
        raise Unbatchable("linalg.norm: matrix norms")  # (its ord means a matrix norm for 2-d inputs)
    p_name = "ord" if func.__name__ == "linalg_vector_norm" else "p"
    p = _arg(args, kwargs, 1, p_name, 2 if p_name == "ord" else "fro")
    dim, keepdim = _arg(args, kwargs, 2, "dim"), _arg(args, kwargs, 3, "keepdim", False)
    rest = {k: v for k, v in kwargs.items() if k not in (p_name, "dim", "keepdim")}
    if len(args) > 4 or p not in (1, 2, "fro", float("inf")):
        raise Unbatchable(func.__name__)
    n = _ndim(x, level)
    if dim is None:
        if keepdim:
            raise Unbatchable("keepdim without dims")
        flat = x._phys.reshape(x._phys.shape[0], -1)
        return _wrap(func(flat, 2 if p == "fro" else p, 1, False, **rest), level)
    dims = tuple(_shift(d, n) for d in dim) if isinstance(dim, (tuple, list)) else _shift(dim, n)
    return _wrap(func(x._phys, p, dims, keepdim, **rest), level)


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


def _shape_arg(args, kwargs):
    shape = args[1:] if len(args) > 1 else kwargs.get("shape", kwargs.get("size"))
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, core.Size)):
        shape = tuple(shape[0])
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in shape):
        raise Unbatchable("shape")
    return tuple(shape)


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


def _matmul(func, level, args, kwargs):
    """matmul and the products it generalises: 1-d operands become matrices, the batch dims line up behind the
    batch in front (an unbatched operand broadcasts over it)."""
    if kwargs:
        raise Unbatchable("out")
    a, b = args[:2]
    if func.__name__ == "__rmatmul__":
        a, b = b, a
    if not isinstance(a, core.Tensor) or not isinstance(b, core.Tensor):
        raise Unbatchable("matmul")
    na, nb = _ndim(a, level), _ndim(b, level)
    needed = {"mm": (2, 2), "bmm": (3, 3), "mv": (2, 1), "dot": (1, 1), "inner": (1, 1)}.get(func.__name__)
    if needed is not None and (na, nb) != needed or na == 0 or nb == 0:
        raise Unbatchable("shapes")
    if a.dtype != b.dtype:
        raise Unbatchable("dtypes")
    if not is_batched(b, level) and (na == 1 and nb <= 2 or na >= 2 and nb <= 2):
        return _wrap(core.matmul(a._phys, b), level)  # the batch rides in a's rows or batch dims
    pa = _as_batched(a, level)
    pb = _as_batched(b, level)
    if na == nb == 1:  # NOTE: a product and a sum, whose backward is the dot's (grad * other); rounding may differ
        return _wrap((pa * pb).sum(-1), level)
    if na == 1:
        pa = pa.unsqueeze(-2)
    if nb == 1:
        pb = pb.unsqueeze(-1)
    rank = max(pa.dim(), pb.dim())
    pa, pb = _pad(pa, rank - pa.dim()), _pad(pb, rank - pb.dim())
    out = core.matmul(pa, pb)
    if nb == 1:
        out = out.squeeze(-1)
    if na == 1:
        out = out.squeeze(-1 if nb == 1 else -2)
    return _wrap(out, level)


def _linear(func, level, args, kwargs):
    x, weight = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "weight")
    bias = _arg(args, kwargs, 2, "bias")
    if not is_batched(weight, level) and (bias is None or not is_batched(bias, level)):
        if not is_batched(x, level) or _ndim(x, level) == 0:
            raise Unbatchable("linear")
        return _wrap(func(x._phys, weight, bias), level)
    out = core.matmul(x, weight.mT if _ndim(weight, level) == 2 else weight)  # (these dispatch to the rules above)
    return out if bias is None else out + bias


def _einsum(func, level, args, kwargs):
    equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    if kwargs or not isinstance(equation, str) or "->" not in equation:
        raise Unbatchable("einsum")
    free = [c for c in string.ascii_letters if c not in equation]
    letter = free[0]
    inputs, output = equation.replace(" ", "").split("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise Unbatchable("einsum")
    terms = [letter + t if is_batched(o, level) else t for t, o in zip(terms, operands)]
    return _wrap(core.einsum(",".join(terms) + "->" + letter + output, *(_phys(o, level) for o in operands)), level)


def _dropout(func, level, args, kwargs):
    p = _arg(args, kwargs, 1, "p", 0.5)
    training = _arg(args, kwargs, 2, "training", True)
    if training and p != 0:
        raise Unbatchable("random")
    return _unary_same(func, level, args, kwargs)


def _layer_norm(func, level, args, kwargs):
    if any(is_batched(a, level) for a in (*args[1:], *kwargs.values())) or not is_batched(args[0], level):
        raise Unbatchable("layer_norm")
    return _wrap(func(args[0]._phys, *args[1:], **kwargs), level)


def _embedding(func, level, args, kwargs):
    if any(is_batched(a, level) for a in (*args[1:], *kwargs.values())) or not is_batched(args[0], level):
        raise Unbatchable("embedding")
    return _wrap(func(args[0]._phys, *args[1:], **kwargs), level)


def _spatial_dims(func) -> int:
    return int(func.__name__.rstrip("d")[-1])


def _flatten_leading(p, keep: int):
    """``p`` (batch in front) with its dims before the last ``keep`` merged into one: ``(B * N, C, *spatial)``."""
    return p.reshape((-1, *p.shape[p.dim() - keep:]))


def _conv(func, level, args, kwargs):
    """conv1d/2d/3d: an unbatched weight sees the batch as more images; a batched weight (per-sample gradients,
    ensembles) runs as one grouped convolution, each sample's images on its own group of channels."""
    x, weight = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "weight")
    bias = _arg(args, kwargs, 2, "bias")
    rest = [_arg(args, kwargs, i, name, default) for i, name, default in
            ((3, "stride", 1), (4, "padding", 0), (5, "dilation", 1), (6, "groups", 1))]
    spatial, nx = _spatial_dims(func), _ndim(x, level)
    if nx not in (spatial + 1, spatial + 2) or _ndim(weight, level) != spatial + 2 or any(
            isinstance(r, core.Tensor) for r in rest):
        raise Unbatchable(func.__name__)
    size = _size(level)
    if not is_batched(weight, level) and (bias is None or not is_batched(bias, level)):
        if not is_batched(x, level):
            raise Unbatchable(func.__name__)
        p = x._phys
        out = func(_flatten_leading(p, spatial + 1), weight, bias, *rest)
        return _wrap(out.reshape((*p.shape[:p.dim() - spatial - 1], *out.shape[1:])), level)
    px = _as_batched(x, level)
    if nx == spatial + 1:
        px = px.unsqueeze(1)
    n, channels = px.shape[1], px.shape[2]
    images = px.movedim(0, 1).reshape((n, size * channels, *px.shape[3:]))
    pw = _as_batched(weight, level)
    pw = pw.reshape((size * pw.shape[1], *pw.shape[2:]))
    pb = None if bias is None else _as_batched(bias, level).reshape(-1)
    out = func(images, pw, pb, *rest[:3], rest[3] * size)
    out = out.reshape((n, size, -1, *out.shape[2:])).movedim(1, 0)
    return _wrap(out.squeeze(1) if nx == spatial + 1 else out, level)


def _per_image(func, level, args, kwargs):
    """Pooling (and batch norm in eval mode): each image on its own, so the batch joins the images' dim."""
    x = args[0]
    if not is_batched(x, level) or any(is_batched(a, level) for a in (*args[1:], *kwargs.values())):
        raise Unbatchable(func.__name__)
    spatial = _spatial_dims(func) if func.__name__[-2:] in ("1d", "2d", "3d") else _ndim(x, level) - 2
    n = _ndim(x, level)
    if func.__name__ == "batch_norm":
        if _arg(args, kwargs, 5, "training", False) or n < 2:
            raise Unbatchable("batch norm in training mode mixes samples")
        spatial = n - 2
    elif n not in (spatial + 1, spatial + 2):
        raise Unbatchable(func.__name__)
    p = x._phys
    lead = p.shape[:p.dim() - spatial - 1]
    ret = func(_flatten_leading(p, spatial + 1), *args[1:], **kwargs)
    if isinstance(ret, tuple):
        return type(ret)(_wrap(r.reshape((*lead, *r.shape[1:])), level) for r in ret)
    return _wrap(ret.reshape((*lead, *ret.shape[1:])), level)


def _pointwise_loss(func, level, args, kwargs):
    """mse_loss, l1_loss...: the unreduced loss per element, then each sample's mean or sum."""
    x, target = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "target")
    reduction = _arg(args, kwargs, 4, "reduction", "mean")
    rest = {k: v for k, v in kwargs.items() if k not in ("input", "target", "reduction", "size_average", "reduce")}
    if len(args) > 2 or kwargs.get("size_average") is not None or kwargs.get("reduce") is not None or any(
            isinstance(v, core.Tensor) for v in rest.values()):
        raise Unbatchable(func.__name__)
    if tuple(x.shape) != tuple(target.shape) or x.dtype != target.dtype:
        raise Unbatchable("shapes")
    out = func(_as_batched(x, level), _as_batched(target, level), reduction="none", **rest)
    if reduction == "none":
        return _wrap(out, level)
    flat = out.reshape(out.shape[0], -1)
    return _wrap(flat.mean(1) if reduction == "mean" else flat.sum(1), level)


def _cross_entropy(func, level, args, kwargs):
    """Class-index targets without weights: the unreduced loss per sample's rows, then each sample's mean/sum."""
    x, target = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "target")
    reduction = _arg(args, kwargs, 6, "reduction", "mean")
    ignore = _arg(args, kwargs, 4, "ignore_index", -100)
    extra = {k: v for k, v in kwargs.items() if k in ("label_smoothing",)}
    if len(args) > 2 or _arg(args, kwargs, 2, "weight") is not None or kwargs.get("size_average") is not None \
            or kwargs.get("reduce") is not None or target.is_floating_point():
        raise Unbatchable(func.__name__)
    nx, nt = _ndim(x, level), _ndim(target, level)
    if nx not in (1, 2) or nt != nx - 1:
        raise Unbatchable("shapes")
    px, pt = _as_batched(x, level), _as_batched(target, level)
    if nx == 2:
        px = px.transpose(1, 2)  # (batch, class, row)
    if reduction == "mean" and nx == 2 and bool((pt == ignore).any()):
        raise Unbatchable("ignored targets")
    out = func(px, pt, ignore_index=ignore, reduction="none", **extra)
    if reduction == "none" or nx == 1:
        return _wrap(out, level)
    return _wrap(out.mean(1) if reduction == "mean" else out.sum(1), level)


def _property(func, level, args, kwargs):
    x = args[0]
    name = func.__self__.__name__
    if not is_batched(x, level):
        raise Unbatchable(name)
    p = x._phys
    if name == "shape":
        return core.Size(p.shape[1:])
    if name == "ndim":
        return p.dim() - 1
    if name in ("T", "mT", "mH", "H"):
        n = p.dim() - 1
        if name in ("mT", "mH"):
            if n < 2:
                raise Unbatchable(name)
            t = p.transpose(-2, -1)
            return _wrap(t.conj() if name == "mH" else t, level)
        if n > 2 and name == "T":
            return _wrap(p.permute((0, *range(n, 0, -1))), level)
        if n == 2:
            t = p.transpose(1, 2)
            return _wrap(t.conj() if name == "H" else t, level)
        if n < 2:
            return x
        raise Unbatchable(name)
    if name == "data":
        return _wrap(p.data, level)
    if name in ("dtype", "device", "requires_grad", "is_leaf", "grad_fn", "layout", "is_cuda", "is_sparse",
                "is_quantized", "is_meta", "is_mkldnn", "is_nested", "is_complex", "is_cpu", "output_nr",
                "_grad_fn"):
        return getattr(p, name)
    raise Unbatchable(name)


def _metadata(func, level, args, kwargs):
    x = args[0]
    if not is_batched(x, level):
        raise Unbatchable(func.__name__)
    p, name = x._phys, func.__name__
    n = p.dim() - 1
    if name in ("dim", "ndimension"):
        return n
    if name in ("size",):
        d = _arg(args, kwargs, 1, "dim")
        return core.Size(p.shape[1:]) if d is None else p.shape[_shift(d, n)]
    if name in ("numel", "nelement"):
        return p.numel() // p.shape[0]
    if name == "__len__":
        if n == 0:
            raise Unbatchable("len")
        return p.shape[1]
    if name == "requires_grad_":
        p.requires_grad_(_arg(args, kwargs, 1, "requires_grad", True))
        return x
    return getattr(p, name)(*args[1:], **kwargs)


_ELEMENTWISE = (
    "add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow float_power neg negative "
    "abs absolute exp exp2 expm1 log log2 log10 log1p sqrt rsqrt square sin cos tan asin acos atan sinh cosh tanh "
    "asinh acosh atanh sigmoid relu relu6 gelu silu mish elu selu celu leaky_relu softplus softsign hardtanh "
    "hardsigmoid hardswish logsigmoid tanhshrink sign sgn floor ceil round trunc frac reciprocal erf erfc erfinv "
    "lgamma digamma atan2 arctan2 hypot maximum minimum fmax fmin clamp clip clamp_min clamp_max where eq ne lt le "
    "gt ge greater less greater_equal less_equal not_equal logical_and logical_or logical_not logical_xor "
    "bitwise_and bitwise_or bitwise_xor bitwise_not isnan isinf isfinite nan_to_num lerp addcmul addcdiv "
    "masked_fill xlogy logaddexp logit square positive real imag conj angle "
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ __rfloordiv__ "
    "__mod__ __rmod__ __pow__ __rpow__ __neg__ __pos__ __abs__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ "
    "__and__ __rand__ __or__ __ror__ __xor__ __rxor__ __invert__").split()
_INPLACE = ("add_ sub_ mul_ div_ pow_ neg_ clamp_ clamp_min_ clamp_max_ relu_ exp_ log_ sqrt_ tanh_ sigmoid_ abs_ "
            "masked_fill_ zero_ fill_ __iadd__ __isub__ __imul__ __itruediv__").split()
_UNARY_SAME = ("contiguous clone detach detach_ float double half bfloat16 int long bool to type_as cpu "
               "zeros_like ones_like full_like empty_like").split()
_NEW = "new_zeros new_ones new_full new_empty new_tensor".split()
_REDUCTIONS = ("sum mean nansum nanmean prod amax amin max min std var argmax argmin all any "
               "count_nonzero std_mean var_mean median nanmedian").split()
_DIM_REQUIRED = "softmax log_softmax cumsum cumprod logcumsumexp cummax cummin logsumexp".split()
_METADATA = ("dim ndimension size numel nelement is_floating_point is_complex element_size get_device "
             "is_contiguous requires_grad_ __len__ is_signed").split()


def _build_rules() -> dict:
    rules: dict = {}
    for name in _ELEMENTWISE:
        rules[name] = _elementwise
    for name in _INPLACE:
        rules[name] = _inplace
    for name in _UNARY_SAME:
        rules[name] = _unary_same
    for name in _NEW:
        rules[name] = _new_factory
    for name in _REDUCTIONS:
        rules[name] = _reduction
    for name in _DIM_REQUIRED:
        rules[name] = functools.partial(_reduction, dim_required=True)
    for name in _METADATA:
        rules[name] = _metadata
    for name in _REFUSALS:
        rules[name] = _refuse_read
    for name in (*(n for n in _DYNAMIC_OPS if n != "where"), "masked_select"):
        rules[name] = _refuse_dynamic
    rules.update({
        "reshape": _reshape, "view": _reshape, "view_as": _view_as, "expand": _expand, "expand_as": _expand_as,
        "permute": _permute,
        "t": _t, "squeeze": _squeeze, "__getitem__": _getitem,
        "transpose": _dims_rule(1, 2), "swapaxes": _dims_rule(1, 2), "swapdims": _dims_rule(1, 2),
        "movedim": _dims_rule(1, 2), "moveaxis": _dims_rule(1, 2), "select": _dims_rule(1), "narrow": _dims_rule(1),
        "flatten": _flatten, "unsqueeze": _dims_rule(1, keep_rank=False),
        "diagonal": _dims_rule(2, 3, defaults=(0, 0, 1)), "unflatten": _dims_rule(1),
        "sort": _dim_at(1, default=-1), "argsort": _dim_at(1, default=-1), "topk": _dim_at(2, default=-1),
        "kthvalue": _dim_at(2, default=-1), "normalize": _dim_at(2, default=1), "tril": _last_two_dims,
        "triu": _last_two_dims, "flip": _flip, "repeat": _repeat, "tile": _repeat, "norm": _norm,
        "vector_norm": _norm, "gather": _gather, "pad": _constant_pad, "one_hot": _one_hot,
        "cat": _joining, "concat": _joining, "concatenate": _joining,
        "stack": functools.partial(_joining, extra_rank=1),
        "split": _splitting, "chunk": _splitting, "unbind": _splitting, "tensor_split": _splitting,
        "matmul": _matmul, "__matmul__": _matmul, "__rmatmul__": _matmul, "mm": _matmul, "bmm": _matmul,
        "mv": _matmul, "dot": _matmul, "inner": _matmul, "linear": _linear, "einsum": _einsum,
        "dropout": _dropout, "layer_norm": _layer_norm, "embedding": _embedding,
        "mse_loss": _pointwise_loss, "l1_loss": _pointwise_loss, "cross_entropy": _cross_entropy,
        "nll_loss": _cross_entropy, "conv1d": _conv, "conv2d": _conv, "conv3d": _conv, "batch_norm": _per_image,
        **{f"{kind}_pool{d}d": _per_image for kind in ("max", "avg", "adaptive_avg", "adaptive_max", "lp")
           for d in (1, 2, 3)},
    })
    return {k: v for k, v in rules.items() if v is not None}


_RULES = _build_rules()
_PROPERTY_NAMES = frozenset(("shape", "ndim", "T", "mT", "mH", "H", "data", "dtype", "device", "requires_grad",
                             "is_leaf", "grad_fn", "layout", "is_cuda", "is_sparse", "is_quantized", "is_meta",
                             "is_mkldnn", "is_nested", "is_complex", "is_cpu", "output_nr", "_grad_fn"))


@functools.lru_cache(maxsize=None)
def _rule_for(func):
    """The batching rule of the public function, method or property ``func`` (None: none)."""
    owner = getattr(func, "__self__", None)
    if getattr(func, "__name__", None) == "__get__" and owner is not None and hasattr(owner, "undispatched"):
        return _property if owner.__name__ in _PROPERTY_NAMES else None
    module = getattr(func, "__module__", "") or ""
    if not module.startswith("core"):
        return None
    name = getattr(func, "__name__", None)
    if module.startswith("core._C._"):  # core._C._linalg.linalg_vector_norm: vector_norm's (core._c_namespaces)
        name = name.removeprefix(module.removeprefix("core._C.")[1:] + "_")
    return _RULES.get(name)


# ----- a whole call ----------------------------------------------------------------------------------------------
def call(func, args, kwargs, leaves, spec, dims, size, columns):
    """``func``'s flat outputs, each with the batch in front (None where ``func``'s output is unbatched and its out
    dim is None), from one batched call; ``columns(first)`` gives the outputs' out dims. Raises Unbatchable (or
    the error) where the loop must run instead."""
    from core import _random
    from core.utils._pytree import tree_flatten, tree_unflatten

    _batched_class()
    levels = _active.levels
    level = next(_numbers)  # (increasing: an inner vmap's level is above its outer one's, and never reused)
    state = _random.vmap_state
    saved_error = state.error
    state.error, state.depth = True, state.depth + 1  # a random draw fails over to the loop, which draws as it should
    roots = frozenset(id(physical_chain(x)[-1]._root) for x, d in zip(leaves, dims) if d is not None)
    levels.append(_Level(level, size, roots))
    journal, mark = _active.journal, len(_active.journal)
    try:
        wrapped = [x if d is None else _wrap(x.movedim(d, 0), level) for x, d in zip(leaves, dims)]
        out = func(*tree_unflatten(wrapped, spec), **kwargs)
        flat, out_spec = tree_flatten(out)
        outs = columns(out)
        meta_in = any(isinstance(x, core.Tensor) and x.is_meta for x in leaves)
        results = []
        for leaf, d in zip(flat, outs):
            if not isinstance(leaf, core.Tensor):
                if d is not None:
                    raise Unbatchable("a non-tensor output")
                results.append(leaf)
                continue
            if d is None:
                if is_batched(leaf, level):
                    raise Unbatchable("a batched output with out_dim None")
                results.append(leaf)
                continue
            phys = _as_batched(leaf, level)
            if phys.is_meta and not meta_in:
                raise Unbatchable("a value read through the placeholder storage")
            results.append(phys if d == 0 else phys.movedim(0, d))
        return tree_unflatten(results, out_spec)
    except Refusal:
        raise
    except BaseException:
        for root, before in reversed(journal[mark:]):  # NOTE: the loop that runs next changes them again
            root[...] = before
        del journal[mark:]
        raise
    finally:
        if len(levels) == 1:
            journal.clear()  # (an inner call's entries wait for its outer call, whose loop would undo them too)
        levels.pop()
        state.error, state.depth = saved_error, state.depth - 1


# ----- autograd ------------------------------------------------------------------------------------------------
def broadcast_entered(leaf):
    """A transform's input ``leaf`` (unbatched at the innermost batched vmap) broadcast over its batch, so that
    its gradient is per sample."""
    top = _active.levels[-1]
    return _wrap(leaf.unsqueeze(0).expand((top.size, *leaf.shape)), top.level)


def any_batched(*groups) -> bool:
    return _class is not None and any(is_batched(t) for g in groups if g is not None for t in g)


def refuse(*values) -> None:
    """Raise Unbatchable where a batched tensor reaches code that would read its placeholder storage (the engine
    called directly, forward-mode duals): only the loop gives such code real tensors."""
    if _class is None:
        return
    for v in values:
        if is_batched(v) or isinstance(v, (tuple, list)) and any(is_batched(t) for t in v):
            raise Unbatchable("autograd on a batched tensor outside core.func")


def batched_vjp(batched_grad, outputs, inputs, grad_outputs, **kwargs):
    """``vmap`` over ``autograd.grad(outputs, inputs, v)`` where only ``v`` is batched (plain outputs and inputs, one
    level): PyTorch's batched backward, one vector-Jacobian product per sample. ``batched_grad`` (the engine's
    ``is_grads_batched`` path) runs them on the physical grad_outputs, an unbatched one expanded, keeping the graph
    until the last sample, so ``retain_graph=False`` frees it once as PyTorch's single backward does (the loop would
    call ``grad`` per sample and find the graph freed at the second). None where the case is not this one."""
    if _class is None or grad_outputs is None:
        return None
    if any(is_batched(t) for t in (*outputs, *inputs)):
        return None
    levels = {g._level for g in grad_outputs if is_batched(g)}
    if len(levels) != 1:
        return None
    level = levels.pop()
    size = next(g._phys.shape[0] for g in grad_outputs if is_batched(g))
    phys = [g if g is None else g._phys if is_batched(g) else g.expand(size, *g.shape) for g in grad_outputs]
    found = batched_grad(outputs, inputs, phys, **kwargs)
    return tuple(None if g is None else _wrap(g, level) for g in found)


def grads(engine_grad, outputs, inputs, grad_outputs, **kwargs):
    """``engine_grad(outputs, inputs, grad_outputs, **kwargs)`` on the physical tensors of the top level among
    them, the results batched again: samples never mix, so the physical backward gives per-sample gradients."""
    level = max(t._level for g in (outputs, inputs, grad_outputs or ()) for t in g if is_batched(t))
    grad_outputs = [None] * len(outputs) if grad_outputs is None else list(grad_outputs)
    phys_outs, phys_gouts = [], []
    for o, g in zip(outputs, grad_outputs):
        if not is_batched(o, level):
            raise Unbatchable("an unbatched output under a batched backward")
        if g is None:
            if _ndim(o, level) != 0:
                raise Unbatchable("implicit grad of a non-scalar")
            g = core.ones_like(o._phys)
        else:
            g = g._phys if is_batched(g, level) else g.expand(o._phys.shape)
        phys_outs.append(o._phys)
        phys_gouts.append(g)
    if not all(is_batched(x, level) for x in inputs):
        raise Unbatchable("an unbatched input under a batched backward")
    found = engine_grad(phys_outs, [x._phys for x in inputs], phys_gouts, **kwargs)
    return [None if g is None else _wrap(g, level) for g in found]


def make_dual(leaf, directions):
    """jacfwd's dual of a batched ``leaf``: its physical tensor carries the basis ``directions`` (``(n,
    *leaf.shape)``) for every sample, the batch dim behind the directions' dim as forward mode's batch wants."""
    from core.autograd import forward_ad

    p = leaf._phys
    tangents = directions.unsqueeze(1).expand((directions.shape[0], p.shape[0], *directions.shape[1:]))
    return _wrap(forward_ad._make_batched_dual(p, tangents), leaf._level)


def unpack_dual(out):
    """``(primal, tangent)`` of a batched output of jacfwd's function, both batched (the tangent ``(n, *shape)``)."""
    from core.autograd import forward_ad

    unpacked = forward_ad.unpack_dual(out._phys)
    tangent = unpacked.tangent
    return forward_ad.UnpackedDualTensor(_wrap(unpacked.primal, out._level),
                                         None if tangent is None else _wrap(tangent.movedim(1, 0), out._level))
