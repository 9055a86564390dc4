"""``torch.jit.interface`` in eager mode: the decorator TorchScript uses to declare an interface type (torchaudio's
HiFi-GAN declares its residual blocks' with it). Eager code only needs the class back, checked and marked as
PyTorch does, with the name TorchScript would give it."""

from __future__ import annotations

import inspect
import warnings


def _script_name(cls) -> str:
    """TorchScript's qualified name of a class: ``__torch__.<module>.<name>`` (``__torch__.<name>`` in a script)."""
    module = cls.__module__.replace("<", "_").replace(">", "_")
    return f"__torch__.{cls.__name__}" if module == "__main__" else f"__torch__.{module}.{cls.__name__}"


def interface(obj):
    """The class itself, marked ``__torch_script_interface__``; a non-class, or a class with a base other than
    ``object`` or ``nn.Module``, is refused as PyTorch refuses it."""
    from core.nn.module import Module

    warnings.warn("`torch.jit.interface` is deprecated. Please use `torch.compile` instead.", DeprecationWarning,
                  stacklevel=2)
    if not inspect.isclass(obj):
        raise RuntimeError("interface must be applied to a class")
    is_module_interface = issubclass(obj, Module) and len(obj.mro()) == 3
    if not is_module_interface and len(obj.mro()) > 2:
        raise RuntimeError("TorchScript interface does not support inheritance yet. Please directly inherit from "
                           "'object' or 'nn.Module'.")
    obj.__torch_script_interface__ = _script_name(obj)
    return obj
