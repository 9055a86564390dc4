"""``Module.set_submodule``: put a module at a dotted path (``"net_b.net_c.conv"``), PyTorch's checks and errors."""

from __future__ import annotations

__all__ = ["set_submodule"]


def set_submodule(root, target: str, module, strict: bool = False) -> None:
    """Replace (or, unless ``strict``, add) the submodule at ``target`` below ``root``."""
    from core.nn.module import Module  # module imports this file

    if target == "":
        raise ValueError("Cannot set the submodule without a target name!")
    if not isinstance(module, Module):
        raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
    path, _, name = target.rpartition(".")
    parent = root.get_submodule(path) if path else root
    if strict and not hasattr(parent, name):
        raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
    if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
        raise AttributeError(f"`{name}` is not an nn.Module")
    setattr(parent, name, module)
