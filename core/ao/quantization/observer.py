"""Observers, as torch's: modules that record the range of what passes through them and turn it into a scale and
zero point (``calculate_qparams``) with torch's float32 arithmetic.

``MinMaxObserver`` (running min and max, per tensor, affine or symmetric), ``PerChannelMinMaxObserver`` (one range
per slice along ``ch_axis``), ``PlaceholderObserver`` (records nothing: dynamic quantization chooses per call) and
``HistogramObserver`` (the activation observer of ``get_default_qconfig``): core records its range only, so it
gives torch's default qparams before any calibration and refuses to guess torch's histogram search after.
``with_args`` gives the ``functools.partial`` a QConfig holds.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

import core
from core._backend import to_numpy_array
from core._quantized import (
    per_channel_affine,
    per_channel_symmetric,
    per_tensor_affine,
    per_tensor_symmetric,
    qint8,
    quint8,
)
from core.nn import Module

__all__ = ["HistogramObserver", "MinMaxObserver", "MovingAverageMinMaxObserver",
           "MovingAveragePerChannelMinMaxObserver", "PerChannelMinMaxObserver", "PlaceholderObserver",
           "default_histogram_observer", "default_observer", "default_per_channel_weight_observer",
           "default_placeholder_observer", "default_weight_observer"]

_EPS = np.float32(np.finfo(np.float32).eps)


class ObserverBase(Module):
    """What every observer holds: the quantized dtype, scheme and integer range it chooses qparams for."""

    def __init__(self, dtype=quint8, qscheme=per_tensor_affine, reduce_range: bool = False, quant_min=None,
                 quant_max=None, is_dynamic: bool = False, ch_axis: int = 0, eps=_EPS):
        super().__init__()
        self.dtype, self.qscheme, self.reduce_range, self.is_dynamic = dtype, qscheme, reduce_range, is_dynamic
        self.ch_axis = ch_axis
        if not isinstance(self, PlaceholderObserver):  # (torch's uniform observers keep it as their first buffer)
            self.register_buffer("eps", core.tensor([float(eps)]))
        self.has_customized_qrange = quant_min is not None and quant_max is not None
        if not self.has_customized_qrange:
            quant_min, quant_max = dtype.qmin, dtype.qmax
        if reduce_range:  # torch halves the range: 0..127 (quint8) or -64..63 (qint8) by default
            length = quant_max - quant_min + 1
            quant_min, quant_max = (0, length // 2 - 1) if dtype is quint8 else (-length // 4, length // 4 - 1)
        self.quant_min, self.quant_max = quant_min, quant_max

    @classmethod
    def with_args(cls, **kwargs):
        return functools.partial(cls, **kwargs)

    def _qparams(self, lo: np.ndarray, hi: np.ndarray):
        """torch's ``_calculate_qparams``: ``(scales float32, zero_points int64)`` from ranges ``lo``..``hi``."""
        lo = np.minimum(lo.astype(np.float32), np.float32(0))
        hi = np.maximum(hi.astype(np.float32), np.float32(0))
        qmin, qmax = self.quant_min, self.quant_max
        eps = np.float32(self.eps.item())
        if self.qscheme in (per_tensor_symmetric, per_channel_symmetric):
            bound = np.maximum(-lo, hi).astype(np.float32)
            scale = np.maximum(bound / np.float32((qmax - qmin) / 2), eps).astype(np.float32)
            zero_point = np.full(scale.shape, 128 if self.dtype is quint8 and not self.has_customized_qrange else 0,
                                 np.int64)
            if self.dtype is quint8 and self.has_customized_qrange:
                zero_point[:] = (qmin + qmax) // 2
        else:
            scale = np.maximum((hi - lo) / np.float32(qmax - qmin), eps).astype(np.float32)
            zero_point = (np.int64(qmin) - np.round(lo / scale).astype(np.int64))
            zero_point = np.clip(zero_point, qmin, qmax)
        return core.tensor(scale), core.tensor(zero_point)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}"


class PlaceholderObserver(ObserverBase):
    """Records nothing: the activation of a dynamic module is quantized per call."""

    def forward(self, x):
        return x

    def extra_repr(self) -> str:
        return f"dtype={self.dtype}, is_dynamic={self.is_dynamic}"


def _values(x) -> np.ndarray:
    return to_numpy_array(x.detach().float()._data)


class MinMaxObserver(ObserverBase):
    """The running min and max of everything observed: one scale and zero point."""

    def __init__(self, dtype=quint8, qscheme=per_tensor_affine, reduce_range: bool = False, quant_min=None,
                 quant_max=None, **kwargs):
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range, quant_min=quant_min,
                         quant_max=quant_max, **kwargs)
        self.register_buffer("min_val", core.tensor(float("inf")))
        self.register_buffer("max_val", core.tensor(float("-inf")))

    def forward(self, x):
        if x.numel() == 0:
            return x
        a = _values(x)
        lo = min(np.float32(a.min()), np.float32(self.min_val.item()))
        hi = max(np.float32(a.max()), np.float32(self.max_val.item()))
        self.min_val.copy_(core.tensor(float(lo)))
        self.max_val.copy_(core.tensor(float(hi)))
        return x

    def calculate_qparams(self):
        lo, hi = np.float32(self.min_val.item()), np.float32(self.max_val.item())
        if lo == np.inf and hi == -np.inf:
            warnings.warn("must run observer before calling calculate_qparams.                                    "
                          "Returning default values.", stacklevel=2)
            return core.tensor([1.0]), core.tensor([0])
        return self._qparams(np.array([lo]), np.array([hi]))


class HistogramObserver(MinMaxObserver):
    """torch's default activation observer for x86/fbgemm/qnnpack. core keeps only the range: before calibration it
    gives torch's defaults (scale 1.0, zero point 0); after, torch's L2 histogram search is not reproduced."""

    def __init__(self, bins: int = 2048, dtype=quint8, qscheme=per_tensor_affine, reduce_range: bool = False,
                 quant_min=None, quant_max=None, **kwargs):
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range, quant_min=quant_min,
                         quant_max=quant_max, **kwargs)
        self.bins = bins
        self.register_buffer("histogram", core.zeros(bins))

    def calculate_qparams(self):
        lo, hi = np.float32(self.min_val.item()), np.float32(self.max_val.item())
        if lo == np.inf and hi == -np.inf:
            warnings.warn("must run observer before calling calculate_qparams.                                    "
                          "Returning default values.", stacklevel=2)
            return core.tensor([1.0]), core.tensor([0])
        raise NotImplementedError("core's HistogramObserver does not reproduce torch's histogram search: use "
                                  "torch.ao.quantization.default_qconfig (MinMaxObserver) to calibrate in core")

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}"


class PerChannelMinMaxObserver(ObserverBase):
    """The running range of each slice along ``ch_axis``: a scale and zero point per slice."""

    def __init__(self, ch_axis: int = 0, dtype=quint8, qscheme=per_channel_affine, reduce_range: bool = False,
                 quant_min=None, quant_max=None, **kwargs):
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range, quant_min=quant_min,
                         quant_max=quant_max, ch_axis=ch_axis, **kwargs)
        self.register_buffer("min_val", core.tensor([]))
        self.register_buffer("max_val", core.tensor([]))

    def forward(self, x):
        if x.numel() == 0:
            return x
        a = np.moveaxis(_values(x), self.ch_axis, 0).reshape(x.shape[self.ch_axis], -1)
        lo, hi = a.min(axis=1).astype(np.float32), a.max(axis=1).astype(np.float32)
        if self.min_val.numel():
            lo = np.minimum(lo, _values(self.min_val))
            hi = np.maximum(hi, _values(self.max_val))
        self.min_val = core.tensor(lo)
        self.max_val = core.tensor(hi)
        return x

    def calculate_qparams(self):
        if not self.min_val.numel():
            warnings.warn("must run observer before calling calculate_qparams.                                    "
                          "Returning default values.", stacklevel=2)
            return core.tensor([1.0]), core.tensor([0])
        return self._qparams(_values(self.min_val), _values(self.max_val))


default_observer = MinMaxObserver.with_args(quant_min=0, quant_max=127)
default_placeholder_observer = PlaceholderObserver
default_weight_observer = MinMaxObserver.with_args(dtype=qint8, qscheme=per_tensor_symmetric)
default_per_channel_weight_observer = PerChannelMinMaxObserver.with_args(dtype=qint8, qscheme=per_channel_symmetric)
default_histogram_observer = HistogramObserver.with_args(quant_min=0, quant_max=127)


class MovingAverageMinMaxObserver(MinMaxObserver):
    """The range as a moving average (``min += c * (x.min() - min)``, ``c = averaging_constant``) after the first
    observation, as QAT's fake quantizers observe activations."""

    def __init__(self, averaging_constant: float = 0.01, dtype=quint8, qscheme=per_tensor_affine,
                 reduce_range: bool = False, quant_min=None, quant_max=None, **kwargs):
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range, quant_min=quant_min,
                         quant_max=quant_max, **kwargs)
        self.averaging_constant = averaging_constant

    def forward(self, x):
        if x.numel() == 0:
            return x
        a = _values(x)
        lo, hi = np.float32(a.min()), np.float32(a.max())
        old_lo, old_hi = np.float32(self.min_val.item()), np.float32(self.max_val.item())
        if not (old_lo == np.inf and old_hi == -np.inf):
            c = np.float32(self.averaging_constant)
            lo = np.float32(old_lo + c * np.float32(lo - old_lo))
            hi = np.float32(old_hi + c * np.float32(hi - old_hi))
        self.min_val.copy_(core.tensor(float(lo)))
        self.max_val.copy_(core.tensor(float(hi)))
        return x


class MovingAveragePerChannelMinMaxObserver(PerChannelMinMaxObserver):
    """The per-channel range as a moving average after the first observation (QAT's weight observer)."""

    def __init__(self, averaging_constant: float = 0.01, ch_axis: int = 0, dtype=quint8,
                 qscheme=per_channel_affine, reduce_range: bool = False, quant_min=None, quant_max=None, **kwargs):
        super().__init__(ch_axis=ch_axis, dtype=dtype, qscheme=qscheme, reduce_range=reduce_range,
                         quant_min=quant_min, quant_max=quant_max, **kwargs)
        self.averaging_constant = averaging_constant

    def forward(self, x):
        if x.numel() == 0:
            return x
        a = np.moveaxis(_values(x), self.ch_axis, 0).reshape(x.shape[self.ch_axis], -1)
        lo, hi = a.min(axis=1).astype(np.float32), a.max(axis=1).astype(np.float32)
        if self.min_val.numel():
            c = np.float32(self.averaging_constant)
            old_lo, old_hi = _values(self.min_val), _values(self.max_val)
            lo = (old_lo + c * (lo - old_lo).astype(np.float32)).astype(np.float32)
            hi = (old_hi + c * (hi - old_hi).astype(np.float32)).astype(np.float32)
        self.min_val = core.tensor(lo)
        self.max_val = core.tensor(hi)
        return x
