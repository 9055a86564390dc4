"""``torch.utils._python_dispatch``: ``TorchDispatchMode`` and the helpers wrapper subclasses use.

A mode entered with ``with MyMode():`` receives every ATen operator the code inside runs, as
``__torch_dispatch__(func, types, args, kwargs)`` with ``func`` an ``OpOverload`` such as ``aten.add.Tensor``; calling
``func(*args, **kwargs)`` in the handler goes on to the next mode out, then to the kernel (``core._torch_dispatch``).
"""

from __future__ import annotations

import contextlib

from core import _torch_dispatch

__all__ = ["TorchDispatchMode", "is_traceable_wrapper_subclass", "is_traceable_wrapper_subclass_type",
           "is_in_torch_dispatch_mode", "transform_subclass", "return_and_correct_aliasing"]


class TorchDispatchMode:
    """A context manager that sees the ATen operators run inside it (innermost mode first). Subclass it and
    define ``__torch_dispatch__(self, func, types, args=(), kwargs=None)``."""

    supports_higher_order_operators = False

    def __init__(self, _dispatch_key=None):
        if _dispatch_key is not None:
            raise NotImplementedError("TorchDispatchMode(_dispatch_key=...): core has no dispatch keys")

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        _torch_dispatch.push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _torch_dispatch.pop_mode(self)

    @classmethod
    def push(cls, *args, **kwargs):
        """Deprecated in torch: ``with Mode.push(...)`` is ``with Mode(...)``."""
        return cls(*args, **kwargs)

    @classmethod
    def is_infra_mode(cls) -> bool:
        return False

    @classmethod
    def ignore_compile_internals(cls) -> bool:
        return False


class BaseTorchDispatchMode(TorchDispatchMode):
    """A mode that runs every operator unchanged (a base to log or count with)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def _get_current_dispatch_mode():
    """The innermost entered mode, or None."""
    stack = _torch_dispatch.mode_stack()
    return stack[-1] if stack else None


def _get_current_dispatch_mode_stack() -> list:
    return list(_torch_dispatch.mode_stack())


def _len_torch_dispatch_stack() -> int:
    return len(_torch_dispatch.mode_stack())


def _get_dispatch_stack_at(i: int):
    return _torch_dispatch.mode_stack()[i]


def is_in_torch_dispatch_mode(include_infra_modes: bool = True) -> bool:
    return bool(_torch_dispatch.mode_stack())


_is_in_torch_dispatch_mode = is_in_torch_dispatch_mode


def any_torch_dispatch_mode_on_stack(*, include_infra_modes: bool = True, respect_ignore_compile_internals=False):
    return bool(_torch_dispatch.mode_stack())


def _push_mode(mode) -> None:
    _torch_dispatch.push_mode(mode)


def _pop_mode(k=None):
    if k is not None:
        raise NotImplementedError("_pop_mode(k): core has no dispatch keys")
    return _torch_dispatch.pop_mode()


@contextlib.contextmanager
def _pop_mode_temporarily(k=None):
    """Leave the innermost mode for the duration of the block (and give it)."""
    old = _pop_mode(k)
    try:
        yield old
    finally:
        _push_mode(old)


@contextlib.contextmanager
def _disable_current_modes():
    """Leave every entered mode for the block (innermost first) and give them, outermost first."""
    popped = []
    while _torch_dispatch.mode_stack():
        popped.append(_torch_dispatch.pop_mode())
    try:
        yield list(reversed(popped))
    finally:
        for mode in reversed(popped):
            _torch_dispatch.push_mode(mode)


def is_traceable_wrapper_subclass(t) -> bool:
    """Whether ``t`` is a wrapper subclass that can be flattened (``__tensor_flatten__``/``__tensor_unflatten__``)."""
    from core._tensor import Tensor

    return isinstance(t, Tensor) and is_traceable_wrapper_subclass_type(type(t))


def is_traceable_wrapper_subclass_type(t) -> bool:
    from core._tensor import Tensor

    return (issubclass(t, Tensor) and t is not Tensor and hasattr(t, "__tensor_flatten__")
            and hasattr(t, "__tensor_unflatten__"))


def transform_subclass(t, callback, outer_size=None, outer_stride=None):
    """A new ``type(t)`` whose inner tensors are ``callback(name, inner)`` (the subclass's flatten protocol)."""
    outer_size = t.size() if outer_size is None else outer_size
    outer_stride = t.stride() if outer_stride is None else outer_stride
    attrs, ctx = t.__tensor_flatten__()
    inner = {attr: callback(attr, getattr(t, attr)) for attr in attrs}
    return type(t).__tensor_unflatten__(inner, ctx, outer_size, outer_stride)


def return_and_correct_aliasing(func, args, kwargs, out):
    """torch fixes the storages of a wrapper's outputs that alias its inputs; core's wrappers keep their own
    (uninitialised) storage, so the output is given as it is."""
    return out
