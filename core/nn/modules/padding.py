"""Padding modules (``ZeroPad1d/2d/3d``, ``ConstantPad1d/2d/3d``, ``ReflectionPad1d/2d/3d``, ``ReplicationPad1d/2d/3d``,
``CircularPad1d/2d/3d``): ``F.pad`` with the module's padding and mode."""

from __future__ import annotations

from core.nn import functional as F
from core.nn.module import Module

__all__ = ["ZeroPad1d", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ReflectionPad1d", "ReflectionPad2d",
           "ReplicationPad1d", "ReplicationPad2d", "CircularPad1d", "CircularPad2d", "ZeroPad3d", "ConstantPad3d",
           "ReflectionPad3d", "ReplicationPad3d", "CircularPad3d"]


class _PadNd(Module):
    """``F.pad`` with the module's padding; each class's mode and size come from ``_pad_namespace`` (PyTorch's padding
    modules carry no ``mode`` or ``nd`` attribute, so neither do these)."""

    def extra_repr(self) -> str:
        return f"{self.padding}"


def _pad_namespace(mode: str, nd: int, zero: bool = False) -> dict:
    """The methods and constants of a padding class with ``mode`` over ``nd`` dims."""
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
    return ns


# NOTE: class statements (not type(...)), so that inspect.getsource finds each class; the body takes its
# methods from _pad_namespace (a class body's vars() is the namespace the class is made from)
class ZeroPad1d(_PadNd):
    vars().update(_pad_namespace("constant", 1, zero=True))


class ZeroPad2d(_PadNd):
    vars().update(_pad_namespace("constant", 2, zero=True))


class ConstantPad1d(_PadNd):
    vars().update(_pad_namespace("constant", 1))


class ConstantPad2d(_PadNd):
    vars().update(_pad_namespace("constant", 2))


class ReflectionPad1d(_PadNd):
    vars().update(_pad_namespace("reflect", 1))


class ReflectionPad2d(_PadNd):
    vars().update(_pad_namespace("reflect", 2))


class ReplicationPad1d(_PadNd):
    vars().update(_pad_namespace("replicate", 1))


class ReplicationPad2d(_PadNd):
    vars().update(_pad_namespace("replicate", 2))


class CircularPad1d(_PadNd):
    vars().update(_pad_namespace("circular", 1))


class CircularPad2d(_PadNd):
    vars().update(_pad_namespace("circular", 2))


class ZeroPad3d(_PadNd):
    vars().update(_pad_namespace("constant", 3, zero=True))


class ConstantPad3d(_PadNd):
    vars().update(_pad_namespace("constant", 3))


class ReflectionPad3d(_PadNd):
    vars().update(_pad_namespace("reflect", 3))


class ReplicationPad3d(_PadNd):
    vars().update(_pad_namespace("replicate", 3))


class CircularPad3d(_PadNd):
    vars().update(_pad_namespace("circular", 3))
