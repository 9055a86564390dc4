"""The batched vmap calls running and the layout of their BatchedTensors (``core._vmap_batched``'s state).

A BatchedTensor of level ``n`` holds its physical tensor in ``_phys``, the batch in dim 0, and a meta storage of
the logical (one sample's) shape and dtype in ``_data``, so ``_wrap``, ``_ndim`` and the rules read ranks and
dtypes without dispatching. Each thread keeps its running calls (``_Level``: level, batch size, the mapped inputs'
arrays) innermost last, and the journal of in-place changes to mapped inputs that ``call`` undoes when the loop
runs instead. The helpers here are the batching rules' common vocabulary: the physical tensor of an operand, a
logical dim shifted past the batch dim, an argument read or replaced by position or keyword. ``Unbatchable``
(the loop runs instead) and ``Refusal`` (PyTorch's RuntimeError) are the two ways out of the batched path.
"""

from __future__ import annotations

import functools
import itertools
import threading

import core
from core import _dtype


class Unbatchable(BaseException):
    """``func`` cannot run batched: vmap runs its loop instead. (A BaseException: ``except Exception`` in user code
    must not swallow it.)"""


class Refusal(Unbatchable):
    """A value read of a batched tensor: ``vmap`` raises ``error`` (PyTorch's RuntimeError) instead of running its
    loop; callers with their own fallback (``batched_only``) take it as Unbatchable."""

    def __init__(self, message: str):
        super().__init__(message)
        self.error = RuntimeError(message)


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


def batched_class(make):
    """The BatchedTensor class, ``make()``'s at the first batched call (defining a Tensor subclass with
    ``__torch_function__`` turns on dispatch for every op, so not before a vmap needs it)."""
    global _class
    if _class is None:
        _class = make()
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


def _journal(real) -> None:
    """Keep the values of a mapped input's array before its first in-place change, for ``call`` to put back when the
    loop runs instead (which changes it again)."""
    root = real._root
    if any(id(root) in entry.roots for entry in _active.levels) and all(a is not root for a, _ in _active.journal):
        _active.journal.append((root, root.copy()))


def _shape_arg(args, kwargs):
    shape = args[1:] if len(args) > 1 else kwargs.get("shape", kwargs.get("size"))
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, core.Size)):
        shape = tuple(shape[0])
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in shape):
        raise Unbatchable("shape")
    return tuple(shape)
