"""Dropout modules: active in training mode only, drawing masks from core's generator."""

from __future__ import annotations

from core.nn import functional as F
from core.nn.module import Module
from core.nn.modules.activation import current

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "AlphaDropout"]


class _DropoutNd(Module):
    __constants__ = ["p", "inplace"]

    _fn = None

    def __init__(self, p: float = 0.5, inplace: bool = False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return current(type(self)._fn)(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    _fn = staticmethod(F.dropout)


class Dropout1d(_DropoutNd):
    _fn = staticmethod(F.dropout1d)


class Dropout2d(_DropoutNd):
    _fn = staticmethod(F.dropout2d)


class AlphaDropout(_DropoutNd):
    _fn = staticmethod(F.alpha_dropout)
