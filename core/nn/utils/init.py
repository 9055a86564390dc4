"""``nn.utils.skip_init``: build a module without running its parameter initialisation, as PyTorch's does.

PyTorch builds the module on the meta device and moves it with ``to_empty``, so no random numbers are drawn and
the parameters hold uninitialised memory. Core has no meta device: it builds the module on the target device with
the random generator's state saved and restored around it (so, as in PyTorch, the seed's sequence is untouched),
then ``to_empty`` gives the parameters fresh uninitialised memory.
"""

from __future__ import annotations

import inspect

import core
from core.nn.module import Module

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    state = core.get_rng_state()
    try:
        module = module_cls(*args, device=final_device, **kwargs)
    finally:
        core.set_rng_state(state)
    return module.to_empty(device=final_device)
