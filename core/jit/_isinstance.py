"""``torch.jit.isinstance`` in eager mode: ``isinstance`` that also checks the element types of ``List[int]``,
``Dict[str, Tensor]``, ``Tuple[...]`` and ``Optional``/``Union`` hints, as TorchScript refines them (torchaudio's
``spectrogram`` branches on ``torch.jit.isinstance(normalized, str)``)."""

from __future__ import annotations

import collections.abc
import types
import typing
import warnings

_BARE = {dict: "dict", list: "list", tuple: "tuple", typing.Dict: "Dict", typing.List: "List",
         typing.Optional: "Optional", typing.Tuple: "Tuple"}


def _check_parameterised(target) -> None:
    """A container hint without its element types is refused, as TorchScript cannot refine to it."""
    try:
        name = _BARE.get(target)
    except TypeError:  # an unhashable hint
        return
    if name is None:
        return
    if name.endswith("ict"):
        raise RuntimeError(f"Attempted to use {name} without contained types. Please add contained type, e.g. "
                           f"{name}[int, int]")
    raise RuntimeError(f"Attempted to use {name} without a contained type. Please add a contained type, e.g. "
                       f"{name}[int]")


def _warn_if_empty(obj) -> None:
    if obj == [] or obj == {} or obj == ():
        warnings.warn("The inner type of a container is lost when calling torch.jit.isinstance in eager mode. For "
                      "example, List[int] would become list and therefore falsely return True for List[float] or "
                      "List[str].", stacklevel=3)


def _matches(value, hint) -> bool:
    """``value`` against one element hint: a nested container hint is checked recursively."""
    return _container_matches(value, hint) if typing.get_origin(hint) else builtin_isinstance(value, hint)


def _container_matches(obj, target) -> bool:
    origin = typing.get_origin(target)
    _check_parameterised(target)
    args = typing.get_args(target)
    if origin is list:
        _warn_if_empty(obj)
        return builtin_isinstance(obj, list) and all(_matches(v, args[0]) for v in obj)
    if origin is dict:
        _warn_if_empty(obj)
        return builtin_isinstance(obj, dict) and all(builtin_isinstance(k, args[0]) and _matches(v, args[1])
                                                     for k, v in obj.items())
    if origin is tuple:
        _warn_if_empty(obj)
        return builtin_isinstance(obj, tuple) and len(obj) == len(args) and all(map(_matches, obj, args))
    if origin is typing.Union or origin is types.UnionType:  # Optional[T] too: None always matches
        if obj is None:
            return True
        for hint in args:  # PyTorch returns the first container member's verdict
            if typing.get_origin(hint):
                return _container_matches(obj, hint)
            if builtin_isinstance(obj, hint):
                return True
    return False


builtin_isinstance = isinstance


def jit_isinstance(obj, target_type) -> bool:
    """Whether ``obj`` is of ``target_type``: a class, a tuple of them, or a typing hint with its element types."""
    if builtin_isinstance(target_type, collections.abc.Container):
        if not builtin_isinstance(target_type, tuple):
            raise RuntimeError("The second argument to `torch.jit.isinstance` must be a type or a tuple of types")
        return any(jit_isinstance(obj, t) for t in target_type)
    if typing.get_origin(target_type):
        return _container_matches(obj, target_type)
    _check_parameterised(target_type)
    return builtin_isinstance(obj, target_type)
