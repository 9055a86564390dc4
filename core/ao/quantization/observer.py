"""The observers dynamic quantization uses, as torch's: ``PlaceholderObserver`` (the activation: qparams chosen per
call), ``MinMaxObserver`` and ``PerChannelMinMaxObserver`` (the weight: qparams from its range, symmetric for
``qint8`` as torch's defaults ask). ``with_args`` gives the ``functools.partial`` a QConfig holds; calling an
observer on a tensor records its range and ``calculate_qparams()`` gives ``(scales, zero_points)`` tensors with
torch's float32 arithmetic (``max(|min|, |max|) / 127.5``, at least float32's eps)."""

from __future__ import annotations

import functools

import numpy as np

import core
from core._backend import to_numpy_array
from core._quantized import per_channel_symmetric, per_tensor_affine, per_tensor_symmetric, qint8, quint8

__all__ = ["MinMaxObserver", "PerChannelMinMaxObserver", "PlaceholderObserver"]

_EPS = np.float32(np.finfo(np.float32).eps)


class _Observer:
    def __init__(self, dtype=quint8, qscheme=per_tensor_affine, quant_min=None, quant_max=None, is_dynamic=False,
                 ch_axis: int = 0, reduce_range: bool = False):
        self.dtype, self.qscheme, self.is_dynamic, self.ch_axis = dtype, qscheme, is_dynamic, ch_axis
        self.quant_min = dtype.qmin if quant_min is None else quant_min
        self.quant_max = dtype.qmax if quant_max is None else quant_max
        self.min_val = self.max_val = None

    @classmethod
    def with_args(cls, **kwargs):
        return functools.partial(cls, **kwargs)

    def __call__(self, x):
        return self.forward(x)

    def forward(self, x):
        return x


class PlaceholderObserver(_Observer):
    """Records nothing: the activation of a dynamic module is quantized per call."""


def _symmetric(lo: np.ndarray, hi: np.ndarray, qmin: int, qmax: int) -> np.ndarray:
    bound = np.maximum(-np.minimum(lo, np.float32(0)), np.maximum(hi, np.float32(0))).astype(np.float32)
    return np.maximum(bound / np.float32((qmax - qmin) / 2), _EPS).astype(np.float32)


class MinMaxObserver(_Observer):
    """The range of everything observed, one scale and zero point."""

    def forward(self, x):
        a = to_numpy_array(x.detach().float()._data)
        self.min_val, self.max_val = np.float32(a.min()), np.float32(a.max())
        return x

    def calculate_qparams(self):
        if self.qscheme is not per_tensor_symmetric or self.dtype is not qint8:
            raise NotImplementedError("core's MinMaxObserver computes the symmetric qint8 qparams only")
        scale = _symmetric(np.array([self.min_val]), np.array([self.max_val]), self.quant_min, self.quant_max)
        return core.tensor(scale), core.tensor([0])


class PerChannelMinMaxObserver(_Observer):
    """The range of each slice along ``ch_axis``, a scale and zero point per slice."""

    def __init__(self, ch_axis: int = 0, dtype=quint8, qscheme=per_channel_symmetric, **kwargs):
        super().__init__(dtype=dtype, qscheme=qscheme, ch_axis=ch_axis, **kwargs)

    def forward(self, x):
        a = np.moveaxis(to_numpy_array(x.detach().float()._data), self.ch_axis, 0).reshape(x.shape[self.ch_axis], -1)
        self.min_val, self.max_val = a.min(axis=1).astype(np.float32), a.max(axis=1).astype(np.float32)
        return x

    def calculate_qparams(self):
        if self.qscheme is not per_channel_symmetric or self.dtype is not qint8:
            raise NotImplementedError("core's PerChannelMinMaxObserver computes the symmetric qint8 qparams only")
        scale = _symmetric(self.min_val, self.max_val, self.quant_min, self.quant_max)
        return core.tensor(scale), core.zeros(len(scale), dtype=core.int64)
