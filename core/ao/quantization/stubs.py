"""``QuantStub``/``DeQuantStub`` mark where a model's quantized part begins and ends: identities until ``convert``
swaps them for ``Quantize``/``DeQuantize``. ``QuantWrapper`` puts a module between the two."""

from __future__ import annotations

from core.nn import Module

__all__ = ["DeQuantStub", "QuantStub", "QuantWrapper"]


class _Stub(Module):
    """An identity that holds an optional qconfig until ``convert`` swaps it."""

    def __init__(self, qconfig=None):
        super().__init__()
        if qconfig:
            self.qconfig = qconfig

    def forward(self, x):
        return x


class QuantStub(_Stub):
    """Observed by ``prepare`` (its qparams quantize the model's input), ``Quantize`` after ``convert``."""


class DeQuantStub(_Stub):
    """``DeQuantize`` after ``convert``."""


class QuantWrapper(Module):
    """``module`` with a QuantStub before it and a DeQuantStub after (and ``module``'s qconfig on both)."""

    def __init__(self, module):
        super().__init__()
        qconfig = getattr(module, "qconfig", None)
        self.add_module("quant", QuantStub(qconfig))
        self.add_module("dequant", DeQuantStub(qconfig))
        self.add_module("module", module)
        self.train(module.training)

    def forward(self, X):
        return self.dequant(self.module(self.quant(X)))
