"""Padding modules (``ZeroPad1d/2d/3d``, ``ConstantPad1d/2d/3d``, ``ReflectionPad1d/2d/3d``, ``ReplicationPad1d/2d/3d``,
``CircularPad1d/2d/3d``): ``F.pad`` with the module's padding and mode."""

from __future__ import annotations

from core.nn import functional as F
from core.nn.module import Module

__all__ = ["ZeroPad1d", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ReflectionPad1d", "ReflectionPad2d",
           "ReplicationPad1d", "ReplicationPad2d", "CircularPad1d", "CircularPad2d", "ZeroPad3d", "ConstantPad3d",
           "ReflectionPad3d", "ReplicationPad3d", "CircularPad3d"]


class _PadNd(Module):
    """``F.pad`` with the module's padding; each class's mode and size come from ``_pad_class`` (PyTorch's padding
    modules carry no ``mode`` or ``nd`` attribute, so neither do these)."""

    def extra_repr(self) -> str:
        return f"{self.padding}"


def _pad_class(name: str, mode: str, nd: int, zero: bool = False):
    constant = mode == "constant"

    def init(self, padding, value: float = 0.0):
        Module.__init__(self)
        self.padding = (padding,) * (2 * nd) if isinstance(padding, int) else tuple(padding)
        if constant:
            self.value = 0.0 if zero else value

    def check_input_dim(self, input) -> None:
        if input.dim() not in (nd + 1, nd + 2):
            raise ValueError(f"expected {nd + 1}D or {nd + 2}D input (got {input.dim()}D input)")

    def forward(self, input):
        if constant:
            return F.pad(input, self.padding, "constant", self.value)
        if mode == "circular":
            self._check_input_dim(input)
        return F.pad(input, self.padding, mode)

    ns = {"__constants__": ["padding", "value"] if constant else ["padding"], "forward": forward,
          "__init__": init if not zero else lambda self, padding: init(self, padding)}
    if constant and not zero:
        ns["extra_repr"] = lambda self: f"padding={self.padding}, value={self.value}"
    if mode == "circular":
        ns["_check_input_dim"] = check_input_dim
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
