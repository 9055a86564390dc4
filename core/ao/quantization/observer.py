"""Observers, as torch's: modules that record the range of what passes through them and turn it into a scale and
zero point (``calculate_qparams``) with torch's float32 arithmetic.

``MinMaxObserver`` (running min and max, per tensor, affine or symmetric), ``PerChannelMinMaxObserver`` (one range
per slice along ``ch_axis``), their moving-average variants (QAT), ``PlaceholderObserver`` (records nothing:
dynamic quantization chooses per call) and ``HistogramObserver`` (the activation observer of
``get_default_qconfig``: a running histogram and torch's L2 range search). ``with_args`` gives the
``functools.partial`` a QConfig holds.
"""

from __future__ import annotations

import functools

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
from core._user_warning import warn_in_core
from core.nn import Module

__all__ = ["HistogramObserver", "MinMaxObserver", "MovingAverageMinMaxObserver",
           "MovingAveragePerChannelMinMaxObserver", "PerChannelMinMaxObserver", "PlaceholderObserver",
           "default_histogram_observer", "default_observer", "default_per_channel_weight_observer",
           "default_placeholder_observer", "default_weight_observer"]

_EPS = np.float32(np.finfo(np.float32).eps)


def _store(buffer, value) -> None:
    """Writes ``value`` into ``buffer`` in place (resized if need be), as torch's observers and fake quantizers
    update their buffers: a reference taken earlier (``fq.scale``) sees the new value."""
    with core.no_grad():
        if buffer.shape != value.shape:
            buffer.resize_(value.shape)
        buffer.copy_(value)


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
            warn_in_core("must run observer before calling calculate_qparams. Returning default values.")
            return core.tensor([1.0]), core.tensor([0])
        return self._qparams(np.array([lo]), np.array([hi]))


class HistogramObserver(ObserverBase):
    """torch's default activation observer for x86/fbgemm/qnnpack: a running histogram of everything observed
    (rebinned as the range grows) whose L2 quantization error search picks the range, written with core's ops as
    torch's Python is written with its own."""

    def __init__(self, bins: int = 2048, dtype=quint8, qscheme=per_tensor_affine, reduce_range: bool = False,
                 quant_min=None, quant_max=None, factory_kwargs=None, eps=_EPS, is_dynamic: bool = False, **kwargs):
        if qscheme not in (per_tensor_affine, per_tensor_symmetric):
            raise NotImplementedError("HistogramObserver's qscheme only support torch.per_tensor_symmetric "
                                      "and torch.per_tensor_affine.")
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range, quant_min=quant_min,
                         quant_max=quant_max, eps=eps, **kwargs)
        self.bins = bins
        self.register_buffer("histogram", core.zeros(bins))
        self.register_buffer("min_val", core.tensor(float("inf")))
        self.register_buffer("max_val", core.tensor(float("-inf")))
        self.dst_nbins = 2 ** 8
        self.upsample_rate = 16

    @staticmethod
    def _get_norm(delta_begin, delta_end, density):
        return density * ((delta_end * delta_end * delta_end - delta_begin * delta_begin * delta_begin) / 3)

    def _compute_quantization_error(self, next_start_bin: int, next_end_bin: int) -> float:
        bin_width = (self.max_val.item() - self.min_val.item()) / self.bins
        dst_bin_width = bin_width * (next_end_bin - next_start_bin + 1) / self.dst_nbins
        if dst_bin_width == 0.0:
            return 0.0
        src_bin = core.arange(self.bins)
        src_bin_begin = (src_bin - next_start_bin) * bin_width
        src_bin_end = src_bin_begin + bin_width
        dst_bin_of_begin = core.clamp(core.div(src_bin_begin, dst_bin_width, rounding_mode="floor"), 0,
                                      self.dst_nbins - 1)
        dst_bin_of_begin_center = (dst_bin_of_begin + 0.5) * dst_bin_width
        dst_bin_of_end = core.clamp(core.div(src_bin_end, dst_bin_width, rounding_mode="floor"), 0,
                                    self.dst_nbins - 1)
        density = self.histogram / bin_width
        norm = core.zeros(self.bins)
        delta_begin = src_bin_begin - dst_bin_of_begin_center
        norm += self._get_norm(delta_begin, core.ones(self.bins) * (dst_bin_width / 2), density)
        norm += (dst_bin_of_end - dst_bin_of_begin - 1) * self._get_norm(
            core.tensor(-dst_bin_width / 2), core.tensor(dst_bin_width / 2), density)
        dst_bin_of_end_center = dst_bin_of_end * dst_bin_width + dst_bin_width / 2
        norm += self._get_norm(core.tensor(-dst_bin_width / 2), src_bin_end - dst_bin_of_end_center, density)
        return norm.sum().item()

    def _non_linear_param_search(self):
        bin_width = (self.max_val - self.min_val) / self.bins
        total = np.float32(self.histogram.sum().item())
        c_sum = to_numpy_array(core.cumsum(self.histogram, dim=0)._data).astype(np.float32)
        stepsize, alpha, beta = 1e-5, 0.0, 1.0
        start_bin, end_bin = 0, self.bins - 1
        norm_min = float("inf")
        while alpha < beta:
            next_alpha, next_beta = alpha + stepsize, beta - stepsize
            left, right = start_bin, end_bin
            # (a float32 tensor against a Python number compares in float32, as torch's)
            while left < end_bin and c_sum[left] < np.float32(next_alpha * float(total)):
                left += 1
            while right > start_bin and c_sum[right] > np.float32(next_beta * float(total)):
                right -= 1
            next_start_bin, next_end_bin = start_bin, end_bin
            if (left - start_bin) > (end_bin - right):
                next_start_bin, alpha = left, next_alpha
            else:
                next_end_bin, beta = right, next_beta
            if next_start_bin == start_bin and next_end_bin == end_bin:
                continue
            norm = self._compute_quantization_error(next_start_bin, next_end_bin)
            if norm > norm_min:
                break
            norm_min, start_bin, end_bin = norm, next_start_bin, next_end_bin
        return self.min_val + bin_width * start_bin, self.min_val + bin_width * (end_bin + 1)

    def _upscale_histogram(self, histogram, orig_min, orig_max, update_min, update_max):
        histogram = histogram.repeat_interleave(self.upsample_rate) / self.upsample_rate
        bin_size = (orig_max - orig_min) / (self.bins * self.upsample_rate)
        mid_points = core.linspace(orig_min.item(), orig_max.item(), self.bins * self.upsample_rate + 1)[:-1] + \
            0.5 * bin_size
        boundaries = core.linspace(update_min.item(), update_max.item(), self.bins + 1)
        buckets = core.bucketize(mid_points, boundaries, right=True) - 1
        buckets[buckets >= self.bins] = self.bins - 1
        buckets[buckets < 0] = 0
        return core.bincount(buckets, weights=histogram, minlength=self.bins)

    def _combine_histograms(self, orig_hist, orig_min, orig_max, update_hist, update_min, update_max):
        if update_min == orig_min and update_max == orig_max:
            return orig_hist + update_hist
        if orig_min == orig_max:
            bin_value = core.sum(orig_hist)
            transformed = core.histc(orig_min, bins=self.bins, min=update_min.item(), max=update_max.item()) * \
                bin_value
            return transformed + update_hist
        return update_hist + self._upscale_histogram(orig_hist, orig_min, orig_max, update_min, update_max)

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        x = x_orig.detach()
        x_min, x_max = core.aminmax(x)
        if x_min == -float("inf") or x_max == float("inf"):
            warn_in_core("torch.inf detected in input tensor, ignoring input")
            x = x[x.abs() != float("inf")]
            if x.numel() == 0:
                return x_orig
            x_min, x_max = core.aminmax(x)
        current_min, current_max = self.min_val, self.max_val
        if self.min_val.item() == float("inf") or self.max_val.item() == float("-inf"):
            self.min_val, self.max_val = x_min.clone(), x_max.clone()
            self.histogram = core.histc(x, self.bins, min=x_min.item(), max=x_max.item())
            return x_orig
        new_min, new_max = core.min(current_min, x_min), core.max(current_max, x_max)
        update = core.histc(x, self.bins, min=new_min.item(), max=new_max.item())
        if new_min == current_min and new_max == current_max:
            self.histogram = self.histogram + update
        else:
            self.histogram = self._combine_histograms(self.histogram, current_min, current_max, update, new_min,
                                                      new_max).float()
            self.min_val, self.max_val = new_min.clone(), new_max.clone()
        return x_orig

    def calculate_qparams(self):
        if self.min_val.item() == float("inf") and self.max_val.item() == float("-inf"):
            warn_in_core("must run observer before calling calculate_qparams.                                    "
                         "Returning default scale and zero point ")
            return core.tensor([1.0]), core.tensor([0])
        new_min, new_max = self._non_linear_param_search()
        return self._qparams(np.array([new_min.item()]), np.array([new_max.item()]))

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
        _store(self.min_val, core.tensor(lo))
        _store(self.max_val, core.tensor(hi))
        return x

    def calculate_qparams(self):
        if not self.min_val.numel():
            warn_in_core("must run observer before calling calculate_qparams. Returning default values.")
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
        _store(self.min_val, core.tensor(lo))
        _store(self.max_val, core.tensor(hi))
        return x
