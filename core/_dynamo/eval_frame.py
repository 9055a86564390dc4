"""``OptimizedModule``: what ``torch.compile(module)`` returns, as PyTorch's.

It is a module holding the original as ``_orig_mod`` (so ``state_dict`` keys start with ``_orig_mod.`` and it
prints as ``OptimizedModule((_orig_mod): ...)``, as PyTorch's do); its forward calls the module through a
``core.autograd.capture.CompiledFunction``, which captures a call's ops once and replays them. Attributes it
does not have come from the original module (``model.config``, ``model.generate``...) or, for ``captures``,
``replays``, ``reason`` and ``captured``, from the compiled function.
"""

from __future__ import annotations

from core.autograd.capture import CompiledFunction
from core.nn.module import Module

_COMPILED_ATTRS = ("captures", "replays", "reason", "captured")


class OptimizedModule(Module):
    """A compiled module: ``_orig_mod`` called through one ``CompiledFunction``."""

    def __init__(self, mod: Module):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, "_compiled", CompiledFunction(mod))

    def forward(self, *args, **kwargs):
        return self._compiled(*args, **kwargs)

    def __getattr__(self, name: str):
        try:
            return super().__getattr__(name)
        except AttributeError:
            pass
        if name in _COMPILED_ATTRS:
            return getattr(self.__dict__["_compiled"], name)
        return getattr(self._modules["_orig_mod"], name)
