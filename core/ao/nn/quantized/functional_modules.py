"""``FloatFunctional`` (a float model's ``add``/``mul``/``cat``/``add_relu``, observed by ``prepare`` through its
``activation_post_process``) and ``QFunctional``, what ``convert`` makes of it: the same ops on quantized tensors,
their values computed in float32 and quantized with the observed scale and zero point."""

from __future__ import annotations

import numpy as np

import core
from core._quantized import QuantizedTensor, _dequantize, quantize_per_tensor
from core._tensor import Tensor
from core.ao.nn.quantized._qparams import OutputQParams
from core.nn import Identity, Module

__all__ = ["FloatFunctional", "QFunctional"]


class FloatFunctional(Module):
    """The float ops a quantizable model calls through a module, so that their outputs can be observed."""

    def __init__(self):
        super().__init__()
        self.activation_post_process = Identity()

    def forward(self, x):
        raise RuntimeError("FloatFunctional is not intended to use the 'forward'. Please use the underlying "
                           "operation")

    def add(self, x, y):
        return self.activation_post_process(core.add(x, y))

    def add_scalar(self, x, y):
        return core.add(x, y)

    def mul(self, x, y):
        return self.activation_post_process(core.mul(x, y))

    def mul_scalar(self, x, y):
        return core.mul(x, y)

    def cat(self, x, dim: int = 0):
        return self.activation_post_process(core.cat(x, dim=dim))

    def add_relu(self, x, y):
        return self.activation_post_process(core.nn.functional.relu(core.add(x, y)))


def _values(q) -> np.ndarray:
    if not isinstance(q, QuantizedTensor):
        raise NotImplementedError("QFunctional's ops take quantized tensors (quantize them with a QuantStub)")
    return _dequantize(q)


class QFunctional(OutputQParams, Module):
    """``FloatFunctional``'s ops on quantized tensors, quantized with ``scale`` and ``zero_point``."""

    def __init__(self):
        super().__init__()
        self.scale, self.zero_point = 1.0, 0
        self.activation_post_process = Identity()

    def _get_name(self) -> str:
        return "QFunctional"

    def extra_repr(self) -> str:
        return f"scale={self.scale}, zero_point={self.zero_point}"

    def forward(self, x):
        raise RuntimeError("Functional is not intended to use the 'forward'. Please use the underlying operation")

    def _quantized(self, values: np.ndarray, dtype):
        return quantize_per_tensor(Tensor._wrap(values.astype(np.float32)), self.scale, self.zero_point, dtype)

    def add(self, x, y):
        return self._quantized(_values(x) + _values(y), x.dtype)

    def mul(self, x, y):
        return self._quantized(_values(x) * _values(y), x.dtype)

    def cat(self, x, dim: int = 0):
        return self._quantized(np.concatenate([_values(t) for t in x], axis=dim), x[0].dtype)

    def add_relu(self, x, y):
        return self._quantized(np.maximum(_values(x) + _values(y), np.float32(0)), x.dtype)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        scale, zero_point = mod.activation_post_process.calculate_qparams()
        new = QFunctional()
        new.scale, new.zero_point = float(scale.reshape(-1)[0]), int(zero_point.reshape(-1)[0])
        return new
