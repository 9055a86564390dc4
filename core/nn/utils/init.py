"""``nn.utils.skip_init``: build a module without running its parameter initialisation, as PyTorch's does.

As PyTorch does, the module is built on the meta device (its initialisers draw no random numbers and write
nothing there) and moved with ``to_empty``, so its parameters hold fresh uninitialised memory on the target
device and the generator's sequence is untouched.
"""

from __future__ import annotations

import inspect

from core.nn.module import Module

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    return module_cls(*args, device="meta", **kwargs).to_empty(device=final_device)
