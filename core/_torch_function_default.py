"""``Tensor.__torch_function__``'s default handler, and torch's TypeError when every handler declines a call.

``default_torch_function`` runs the op with argument dispatch off and gives tensor results the subclass (torch's
``_convert``: ``convert``); ``_declined_message`` words the TypeError ``dispatch`` raises as torch's C++ functions
or its Python-level functions do. Split from ``_torch_function`` (which re-exports them) as the part that runs
after a handler is chosen; like it, frame walks skip this module (``core._user_warning._WRAPPERS``,
``core.export``'s ``_MACHINERY``), so a warning of an op run here names the caller's line as before.
"""

from __future__ import annotations

from core._torch_function import DisableTorchFunctionSubclass

__all__ = ["convert", "default_torch_function"]


def _declined_message(public, types_, python_level: bool) -> str:
    """torch's TypeError when every handler declined: its C++ functions and methods word it one way, the
    functions written in Python (``torch.nn.functional``, ``torch.functional``, user code) another."""
    from core.overrides import resolve_name

    module = getattr(public, "__module__", None) or ""
    name = resolve_name(public) or f"{module}.{getattr(public, '__name__', public)}"
    if python_level or not module.startswith("core") or module.startswith(("core.nn.functional", "core.functional")):
        return f"no implementation found for '{name}' on types that implement __torch_function__: {list(types_)}"
    listed = "".join(f"\n  - tensor subclass {t}" for t in types_)
    return (f"Multiple dispatch failed for '{name}'; all __torch_function__ handlers returned NotImplemented:\n"
            f"{listed}\n\nFor more information, try re-running with TORCH_LOGS=not_implemented")


def convert(ret, cls):
    """torch's ``_convert``: the tensors in an op's result (lists and tuples too) seen as ``cls``."""
    from core._tensor import Tensor

    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        return ret.as_subclass(cls)
    if isinstance(ret, (tuple, list)):
        items = [convert(r, cls) for r in ret]
        return type(ret)._make(items) if hasattr(type(ret), "_make") else type(ret)(items)
    return ret


def default_torch_function(cls, func, types, args=(), kwargs=None):
    """``Tensor.__torch_function__``: run ``func`` with argument dispatch off and give tensor results the
    class ``cls``; ``NotImplemented`` when some overriding type is not a base of ``cls``. (torch's default
    no-wrap functions, ``grad``'s and ``_base``'s getters, give their result as it is.)"""
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        ret = func(*args, **(kwargs or {}))
    if getattr(getattr(func, "__self__", None), "nowrap", False) and func.__name__ == "__get__":
        return ret
    return convert(ret, cls)
