"""``torch.backends.quantized``: the quantized engine setting (``engine``, ``supported_engines``), as the dynamic
quantization tutorials read and set it. ``x86`` by default, as on torch's x86 builds; core computes FBGEMM's
(x86's) numerics whatever the setting, so choosing ``qnnpack`` changes the value read back, not the results."""

from __future__ import annotations

import sys
import types

__all__ = ["QuantizedEngine"]

_SUPPORTED = ["qnnpack", "onednn", "x86", "fbgemm"]


class QuantizedEngine(types.ModuleType):
    """The module itself, with ``engine`` a checked property (torch swaps its module for such an object too)."""

    def __init__(self, module: types.ModuleType):
        super().__init__(module.__name__, module.__doc__)
        self.__dict__.update({k: v for k, v in module.__dict__.items() if k not in ("engine", "supported_engines")})
        self._engine = "x86"

    @property
    def engine(self) -> str:
        return self._engine

    @engine.setter
    def engine(self, value: str) -> None:
        if value not in _SUPPORTED:
            raise RuntimeError(f"{value} is not a valid value for quantized engine")
        self._engine = value

    @property
    def supported_engines(self) -> list[str]:
        return list(_SUPPORTED)


sys.modules[__name__] = QuantizedEngine(sys.modules[__name__])
