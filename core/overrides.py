"""``torch.overrides``: the ``__torch_function__`` protocol's helpers that library code calls.

Functions written against PyTorch's protocol start with ``if has_torch_function(args): return
handle_torch_function(f, args, ...)``. core's own tensors define no ``__torch_function__``, so for them the check
is False and the function runs on; an object whose class defines ``__torch_function__`` (a tensor-like) gets
the call handed to it as PyTorch does: subclasses before their bases, the first answer that is not
``NotImplemented`` wins, and a TypeError when every one declines. core's ops do not consult the protocol
themselves.
"""

from __future__ import annotations

from core._tensor import Tensor

__all__ = ["has_torch_function", "has_torch_function_unary", "has_torch_function_variadic",
           "handle_torch_function", "is_tensor_like", "resolve_name"]


_PUBLIC_PACKAGES = ("core.nn.functional", "core.nn.init", "core.linalg", "core.fft", "core.special")


def _overrides(obj) -> bool:
    return type(obj) is not Tensor and hasattr(type(obj), "__torch_function__")


def has_torch_function(relevant_args) -> bool:
    return any(_overrides(a) for a in relevant_args)


def has_torch_function_unary(obj) -> bool:
    return _overrides(obj)


def has_torch_function_variadic(*args) -> bool:
    return any(_overrides(a) for a in args)


def is_tensor_like(inp) -> bool:
    return isinstance(inp, Tensor) or hasattr(type(inp), "__torch_function__")


def resolve_name(f) -> str | None:
    """``torch.add``, ``torch.Tensor.add``, ``torch.nn.functional.relu``: PyTorch's dotted name of ``f``."""
    qualname = getattr(f, "__qualname__", None)
    if qualname is None:
        return None
    if qualname.startswith("Tensor."):
        return f"torch.{qualname}"
    module = getattr(f, "__module__", None) or ""
    if module == "core" or module.startswith("core."):  # core.ops.elementwise.add is torch.add
        package = next((p for p in _PUBLIC_PACKAGES if module == p or module.startswith(p + ".")), "core")
        module = "torch" + package[len("core"):]
    return f"{module}.{qualname}"


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Hand ``public_api(*args, **kwargs)`` to the ``__torch_function__`` of the tensor-likes among
    ``relevant_args``: subclasses first, then in argument order, until one does not return NotImplemented."""
    overloaded: list = []  # one argument per type, subclasses before their bases
    for arg in relevant_args:
        kind = type(arg)
        if not _overrides(arg) or any(type(seen) is kind for seen in overloaded):
            continue
        position = next((i for i, seen in enumerate(overloaded) if issubclass(kind, type(seen))), len(overloaded))
        overloaded.insert(position, arg)
    types = tuple(type(arg) for arg in overloaded)
    for arg in overloaded:
        result = arg.__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    raise TypeError(f"no implementation found for '{resolve_name(public_api)}' on types that implement "
                    f"__torch_function__: {list(types)}")

