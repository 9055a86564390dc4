"""The ``meta`` device: tensors with a shape, dtype and strides but no data, as PyTorch's.

A meta tensor's array is a ``MetaArray``: a read-only NumPy view with zero strides over one element, so it
takes no memory whatever its size. Core makes meta tensors with ``.to("meta")`` (a module's ``.to("meta")``
included), with factories given ``device="meta"`` and inside ``with core.device("meta"):`` (or after
``core.set_default_device("meta")``); random factories draw nothing then, as in PyTorch. They print as
PyTorch prints them (``tensor(..., device='meta', size=(2, 3))``) and refuse what PyTorch refuses (``item``,
``tolist``, copying out).

Ops on meta tensors compute shapes only where NumPy lets an array type take over: every ufunc (elementwise
ops, ``matmul``, reductions) and the array functions below answer with a new ``MetaArray`` of the result's
shape and dtype, without touching data; an op whose kernel writes into buffers of its own checks
``is_meta`` and returns ``meta_array(shape, dtype)`` (convolution, pooling). Other NumPy functions run on the
zeros behind the view, which is exact for shapes and fine for small tensors.
"""

from __future__ import annotations

import numpy as np

__all__ = ["MetaArray", "meta_array", "is_meta", "contiguous_strides", "NO_DATA", "META_XP"]

NO_DATA = "Cannot copy out of meta tensor; no data!"


def _shape_of(x) -> tuple:
    return np.shape(x)


def _sample(x):
    """A one-element stand-in of ``x``'s dtype (Python scalars stay themselves: NumPy's weak scalars)."""
    if isinstance(x, np.ndarray):
        return np.zeros((), dtype=x.dtype)
    return x


def _reduced_shape(shape: tuple, axis, keepdims: bool) -> tuple:
    if axis is None:
        axes = set(range(len(shape)))
    else:
        axes = {a % len(shape) for a in (axis if isinstance(axis, tuple) else (axis,))}
    if keepdims:
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in axes)


def _matmul_shape(a: tuple, b: tuple) -> tuple:
    a2, b2 = (1,) + a if len(a) == 1 else a, b + (1,) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ValueError(f"matmul: mismatch in core dimension ({a2[-1]} vs {b2[-2]})")
    batch = np.broadcast_shapes(a2[:-2], b2[:-2])
    return batch + (a2[-2],) * (len(a) > 1) + (b2[-1],) * (len(b) > 1)


class MetaArray(np.ndarray):
    """The array behind a meta tensor (a zero-stride view: no memory, no data); ``elem_strides`` are the
    strides the tensor reports."""

    elem_strides: tuple = ()

    def __array_finalize__(self, obj) -> None:
        self.elem_strides = contiguous_strides(self.shape)  # a view NumPy made: contiguous, unless meta_array says

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if out is not None and all(isinstance(o, MetaArray) for o in out):  # in place on meta: nothing to write
            return out[0] if len(out) == 1 else out
        samples = [_sample(x) for x in inputs]
        if method == "__call__" and ufunc is np.matmul:
            dtype = np.result_type(*[s.dtype if isinstance(s, np.ndarray) else s for s in samples])
            return meta_array(_matmul_shape(_shape_of(inputs[0]), _shape_of(inputs[1])), dtype)
        if method == "__call__" and ufunc.signature is None:
            shape = np.broadcast_shapes(*[_shape_of(x) for x in inputs])
            result = ufunc(*samples, **kwargs)
            if isinstance(result, tuple):
                return tuple(meta_array(shape, np.asarray(r).dtype) for r in result)
            return meta_array(shape, np.asarray(result).dtype)
        if method in ("reduce", "accumulate"):
            shape = _shape_of(inputs[0])
            axis, dtype = kwargs.get("axis", 0), kwargs.get("dtype")
            one = getattr(ufunc, method)(np.zeros((1,), dtype=inputs[0].dtype), dtype=dtype)
            if method == "accumulate":
                return meta_array(shape, one.dtype)
            return meta_array(_reduced_shape(shape, axis, kwargs.get("keepdims", False)), np.asarray(one).dtype)
        plain = [x.view(np.ndarray) if isinstance(x, MetaArray) else x for x in inputs]
        return _as_meta(getattr(ufunc, method)(*plain, **kwargs))

    def __array_function__(self, func, types, args, kwargs):
        rule = _FUNCTIONS.get(func)
        if rule is not None:
            return rule(*args, **kwargs)
        return _as_meta(super().__array_function__(func, types, args, kwargs))

    def __setitem__(self, key, value) -> None:  # writing into a meta tensor writes nothing
        pass

    def fill(self, value) -> None:
        pass

    def __getitem__(self, key):
        parts = key if isinstance(key, tuple) else (key,)
        if not all(p is None or p is Ellipsis or isinstance(p, (int, np.integer, slice)) for p in parts):
            return super().__getitem__(key)  # advanced indexing: computed on the zeros behind the view
        # NOTE: basic indexing only computes a view's shape and strides, so a probe with the reported strides
        # over one element gives them without reading memory
        isz = self.itemsize
        probe = np.lib.stride_tricks.as_strided(np.zeros(1, self.dtype), self.shape,
                                                [st * isz for st in self.elem_strides], writeable=False)[key]
        return meta_array(probe.shape, self.dtype, [st // isz for st in probe.strides])

    def transpose(self, *axes):
        axes = axes[0] if len(axes) == 1 and np.iterable(axes[0]) else axes
        axes = tuple(axes) or tuple(range(self.ndim))[::-1]
        return meta_array([self.shape[a] for a in axes], self.dtype, [self.elem_strides[a] for a in axes])

    def astype(self, dtype, *args, **kwargs):
        return meta_array(self.shape, dtype)

    def copy(self, order="C"):
        return meta_array(self.shape, self.dtype)


def _as_meta(result):
    if isinstance(result, tuple):
        return tuple(_as_meta(r) for r in result)
    if isinstance(result, np.ndarray) and not isinstance(result, MetaArray):
        return meta_array(result.shape, result.dtype)
    return result


def meta_array(shape, dtype, strides=None) -> MetaArray:
    """A read-only ``MetaArray`` of ``shape`` and ``dtype`` and no storage. ``strides`` (in elements, contiguous
    when None) are the ones the tensor reports: NumPy's own strides are zeros."""
    shape = tuple(shape)
    one = np.zeros(1, dtype=dtype)
    arr = np.lib.stride_tricks.as_strided(one, shape=shape, strides=(0,) * len(shape), writeable=False)
    arr = arr.view(MetaArray)
    if strides is not None:
        arr.elem_strides = tuple(strides)
    return arr


def contiguous_strides(shape) -> tuple:
    """Element strides of a contiguous tensor of ``shape`` (a size-0 dim counts as 1, as PyTorch's): core's one
    definition (here, below everything that needs it: views, memory formats, saving)."""
    strides, acc = [], 1
    for size in reversed(shape):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(strides[::-1])


def is_meta(arr) -> bool:
    return isinstance(arr, MetaArray)


def _like(a, dtype=None, *args, shape=None, **kwargs):
    return meta_array(np.shape(a) if shape is None else shape, dtype or a.dtype)


def _full_like(a, fill_value, dtype=None, *args, shape=None, **kwargs):
    return _like(a, dtype, shape=shape)


def _dot(a, b, out=None):
    sa, sb = _shape_of(a), _shape_of(b)
    if not sa or not sb:
        shape = sa or sb
    elif len(sb) == 1:
        shape = sa[:-1]
    else:
        shape = sa[:-1] + sb[:-2] + sb[-1:]
    return meta_array(shape, np.result_type(a, b))


def _einsum(subscripts, *operands, out=None, **kwargs):
    """Shape-only ``einsum``: each output letter's size from the operand that names it."""
    if "->" not in subscripts:
        return np.einsum(subscripts, *[np.broadcast_to(np.zeros((), o.dtype), o.shape) for o in operands])
    ins, result = subscripts.replace(" ", "").split("->")
    sizes: dict = {}
    for spec, op in zip(ins.split(","), operands):
        if "..." in spec:
            return _as_meta(np.einsum(subscripts, *[o.view(np.ndarray) for o in operands], **kwargs))
        for letter, size in zip(spec, np.shape(op)):
            sizes[letter] = max(sizes.get(letter, 1), size)
    return meta_array(tuple(sizes[c] for c in result), np.result_type(*operands))


def _concatenate(arrays, axis=0, out=None, dtype=None, **kwargs):
    arrays = list(arrays)
    if axis is None:
        return meta_array((sum(int(np.prod(np.shape(a))) for a in arrays),), dtype or np.result_type(*arrays))
    first = np.shape(arrays[0])
    axis %= len(first)
    size = sum(np.shape(a)[axis] for a in arrays)
    return meta_array(first[:axis] + (size,) + first[axis + 1:], dtype or np.result_type(*arrays))


_FUNCTIONS = {np.concatenate: _concatenate, np.empty_like: _like, np.zeros_like: _like, np.ones_like: _like,
              np.full_like: _full_like, np.dot: _dot, np.einsum: _einsum,
              np.copy: lambda a, *args, **kwargs: meta_array(a.shape, a.dtype),
              np.copyto: lambda dst, src, *args, **kwargs: None}  # writing into a meta array writes nothing


def _sizes(shape) -> tuple:
    return tuple(shape) if np.iterable(shape) else (shape,)


class _MetaModule:
    """The array module factories use for ``device="meta"``: arrays of the right shape and dtype, no data."""

    def __getattr__(self, name):
        obj = getattr(np, name)
        if callable(obj) and not isinstance(obj, (type, np.ufunc)):  # NumPy's functions: results kept meta
            def meta_result(*args, **kwargs):
                return _as_meta(obj(*args, **kwargs))
            return meta_result
        return obj

    @staticmethod
    def ascontiguousarray(a, dtype=None, **kwargs):
        return meta_array(np.shape(a), dtype or a.dtype)

    @staticmethod
    def empty(shape, dtype=float, *args, **kwargs):
        return meta_array(_sizes(shape), dtype)

    zeros = ones = empty

    @staticmethod
    def full(shape, fill_value, dtype=None, *args, **kwargs):
        return meta_array(_sizes(shape), dtype or np.asarray(fill_value).dtype)

    @staticmethod
    def eye(n, m=None, *args, dtype=float, **kwargs):
        return meta_array((n, n if m is None else m), dtype)

    @staticmethod
    def array(obj, dtype=None, *args, **kwargs):
        if isinstance(obj, MetaArray):
            return meta_array(obj.shape, dtype or obj.dtype)
        return meta_array(np.shape(obj), dtype or np.asarray(obj).dtype)

    asarray = array

    class lib:  # ``xp.lib.stride_tricks.as_strided``, as NumPy spells it
        class stride_tricks:
            @staticmethod
            def as_strided(x, shape=None, strides=None, **kwargs):
                """A meta view: its strides are recorded, never used to reach memory."""
                shape = x.shape if shape is None else tuple(shape)
                elems = None if strides is None else [st // x.itemsize for st in strides]
                return meta_array(shape, x.dtype, elems)


META_XP = _MetaModule()
