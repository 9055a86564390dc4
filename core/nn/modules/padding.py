"""Padding modules (``ZeroPad1d/2d/3d``, ``ConstantPad1d/2d/3d``, ``ReflectionPad1d/2d/3d``, ``ReplicationPad1d/2d/3d``,
``CircularPad1d/2d/3d``): ``F.pad`` with the module's padding and mode."""

from __future__ import annotations

from core.nn import functional as F
from core.nn.module import Module

__all__ = ["ZeroPad1d", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ReflectionPad1d", "ReflectionPad2d",
           "ReplicationPad1d", "ReplicationPad2d", "CircularPad1d", "CircularPad2d", "ZeroPad3d", "ConstantPad3d",
           "ReflectionPad3d", "ReplicationPad3d", "CircularPad3d"]


class _PadNd(Module):
    mode = "constant"
    nd = 2

    def __init__(self, padding, value: float = 0.0):
        super().__init__()
        self.padding = (padding,) * (2 * self.nd) if isinstance(padding, int) else tuple(padding)
        self.value = value

    def forward(self, input):
        if self.mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}" if self.mode == "constant" else f"{self.padding}"


def _pad_class(name: str, mode: str, nd: int, zero: bool = False):
    def init(self, padding, *args):
        _PadNd.__init__(self, padding, *(() if zero else args))

    ns = {"mode": mode, "nd": nd}
    if zero:
        ns["__init__"] = init
        ns["extra_repr"] = lambda self: f"{self.padding}"
    return type(name, (_PadNd,), ns)


ZeroPad1d = _pad_class("ZeroPad1d", "constant", 1, zero=True)
ZeroPad2d = _pad_class("ZeroPad2d", "constant", 2, zero=True)
ConstantPad1d = _pad_class("ConstantPad1d", "constant", 1)
ConstantPad2d = _pad_class("ConstantPad2d", "constant", 2)
ReflectionPad1d = _pad_class("ReflectionPad1d", "reflect", 1)
ReflectionPad2d = _pad_class("ReflectionPad2d", "reflect", 2)
ReplicationPad1d = _pad_class("ReplicationPad1d", "replicate", 1)
ReplicationPad2d = _pad_class("ReplicationPad2d", "replicate", 2)
CircularPad1d = _pad_class("CircularPad1d", "circular", 1)
CircularPad2d = _pad_class("CircularPad2d", "circular", 2)
ZeroPad3d = _pad_class("ZeroPad3d", "constant", 3, zero=True)
ConstantPad3d = _pad_class("ConstantPad3d", "constant", 3)
ReflectionPad3d = _pad_class("ReflectionPad3d", "reflect", 3)
ReplicationPad3d = _pad_class("ReplicationPad3d", "replicate", 3)
CircularPad3d = _pad_class("CircularPad3d", "circular", 3)
