"""Fake quantizers for quantization-aware training, as torch's: an observer plus
``fake_quantize_per_tensor/per_channel_affine`` with the qparams it gives (straight-through gradients), each switch
(``observer_enabled``, ``fake_quant_enabled``) a buffer. ``FusedMovingAvgObsFakeQuantize`` is what
``get_default_qat_qconfig`` builds in torch 2.x (one fused kernel there, the same steps here)."""

from __future__ import annotations

import functools

import numpy as np

import core
from core._backend import to_numpy_array
from core._quantized import per_channel_affine, per_channel_symmetric, per_tensor_symmetric
from core.ao.quantization.observer import (
    MovingAverageMinMaxObserver,
    MovingAveragePerChannelMinMaxObserver,
    _store,
)
from core.nn import Module

__all__ = ["FakeQuantize", "FusedMovingAvgObsFakeQuantize", "default_fake_quant", "default_weight_fake_quant",
           "default_per_channel_weight_fake_quant", "disable_fake_quant", "disable_observer", "enable_fake_quant",
           "enable_observer"]


class FakeQuantize(Module):
    """Observes its input (while ``observer_enabled``) and returns it quantized and dequantized."""

    def __init__(self, observer=MovingAverageMinMaxObserver, quant_min=None, quant_max=None, is_dynamic=False,
                 **observer_kwargs):
        super().__init__()
        if quant_min is not None:
            observer_kwargs.update(quant_min=quant_min, quant_max=quant_max)
        self.activation_post_process = observer(**observer_kwargs)
        self.quant_min = self.activation_post_process.quant_min
        self.quant_max = self.activation_post_process.quant_max
        self.is_dynamic = is_dynamic
        self.register_buffer("fake_quant_enabled", core.tensor([1], dtype=core.uint8))
        self.register_buffer("observer_enabled", core.tensor([1], dtype=core.uint8))
        self.register_buffer("scale", core.tensor([1.0]))
        self.register_buffer("zero_point", core.tensor([0], dtype=core.int32))
        self.dtype = self.activation_post_process.dtype
        self.qscheme = self.activation_post_process.qscheme
        self.ch_axis = self.activation_post_process.ch_axis if self._per_channel() else -1

    @classmethod
    def with_args(cls, **kwargs):
        return functools.partial(cls, **kwargs)

    def _per_channel(self) -> bool:
        return self.qscheme in (per_channel_symmetric, per_channel_affine)

    def calculate_qparams(self):
        return self.activation_post_process.calculate_qparams()

    def enable_fake_quant(self, enabled: bool = True) -> None:
        self.fake_quant_enabled[0] = 1 if enabled else 0

    def disable_fake_quant(self) -> None:
        self.enable_fake_quant(False)

    def enable_observer(self, enabled: bool = True) -> None:
        self.observer_enabled[0] = 1 if enabled else 0

    def disable_observer(self) -> None:
        self.enable_observer(False)

    def _fake_quantize(self, X):
        """``X`` rounded through the current qparams (per channel or per tensor), or ``X`` while fake quantizing
        is off."""
        if int(self.fake_quant_enabled[0]) != 1:
            return X
        if self._per_channel():
            return core.fake_quantize_per_channel_affine(X, self.scale, self.zero_point, self.ch_axis,
                                                         self.quant_min, self.quant_max)
        return core.fake_quantize_per_tensor_affine(X, float(self.scale[0]), int(self.zero_point[0]),
                                                    self.quant_min, self.quant_max)

    def forward(self, X):
        if int(self.observer_enabled[0]) == 1:
            self.activation_post_process(X.detach())
            scale, zero_point = self.calculate_qparams()
            _store(self.scale, scale.float())
            _store(self.zero_point, zero_point.to(core.int32))
        return self._fake_quantize(X)

    def extra_repr(self) -> str:
        return (f"fake_quant_enabled={self.fake_quant_enabled}, observer_enabled={self.observer_enabled}, "
                f"quant_min={self.quant_min}, quant_max={self.quant_max}, dtype={self.dtype}, "
                f"qscheme={self.qscheme}, ch_axis={self.ch_axis}, scale={self.scale}, zero_point={self.zero_point}")


_SMALL_SCALE = 6.1e-5  # FBGEMM's SMALL_SCALE_THRESHOLD


def _choose_qparams(lo, hi, qmin: int, qmax: int, preserve_sparsity: bool) -> tuple[float, int]:
    """FBGEMM's ``ChooseQuantizationParams`` (float32 range, float64 scale), ``preserve_sparsity`` for symmetric
    qschemes: the range made symmetric and the zero point the middle of ``qmin..qmax``."""
    lo, hi = np.float32(lo), np.float32(hi)
    if lo < 0 < hi and preserve_sparsity:
        sym_min, sym_max = -((qmax - qmin) // 2 + 1), (qmax - qmin) // 2
        max_scale = max(abs(float(lo) / sym_min), abs(float(hi) / sym_max))
        lo, hi = np.float32(max_scale * sym_min), np.float32(max_scale * sym_max)
    lo, hi = min(lo, np.float32(0)), max(hi, np.float32(0))
    scale = (float(hi) - float(lo)) / (qmax - qmin)
    if np.float32(scale) == 0 or np.isinf(np.float32(1) / np.float32(scale)):
        scale = 0.1
    if scale < np.float32(_SMALL_SCALE):
        amplifier = np.float32(np.float32(_SMALL_SCALE) / np.float32(scale))
        scale = float(np.float32(_SMALL_SCALE))
        if lo == 0:
            hi = np.float32(np.float32(_SMALL_SCALE) * (qmax - qmin))
        elif hi == 0:
            lo = np.float32(-np.float32(_SMALL_SCALE) * (qmax - qmin))
        else:
            lo, hi = np.float32(lo * amplifier), np.float32(hi * amplifier)
    from_min, from_max = qmin - float(lo) / scale, qmax - float(hi) / scale
    error_min, error_max = abs(qmin) - abs(float(lo) / scale), abs(qmax) - abs(float(hi) / scale)
    initial = from_min if error_min < error_max else from_max
    if lo < 0 < hi and preserve_sparsity:
        initial = (qmin + qmax) / 2
    zero_point = qmin if initial < qmin else qmax if initial > qmax else int(np.rint(initial))
    return float(np.float32(scale)), zero_point


class FusedMovingAvgObsFakeQuantize(FakeQuantize):
    """torch 2.x's default QAT fake quantizer: the same observation and fake quantization, int64 switches."""

    def __init__(self, observer=MovingAverageMinMaxObserver, quant_min: int = 0, quant_max: int = 255,
                 **observer_kwargs):
        super().__init__(observer, quant_min, quant_max, **observer_kwargs)
        self.fake_quant_enabled = core.tensor([1])
        self.observer_enabled = core.tensor([1])

    def forward(self, X):
        """torch's ``fused_moving_avg_obs_fake_quant``: the observer's running range, then qparams chosen from it
        as FBGEMM's ``ChooseQuantizationParams`` (not the observer's formula, which ``calculate_qparams`` and
        ``convert`` use), and only while fake quantizing: with it off the range still moves, the qparams stay."""
        observer = self.activation_post_process
        if int(self.observer_enabled[0]) == 1:
            observer(X.detach())
        if int(self.fake_quant_enabled[0]) == 1 and observer.min_val.numel():  # (qparams only while quantizing)
            lo = np.atleast_1d(to_numpy_array(observer.min_val._data)).astype(np.float32)
            hi = np.atleast_1d(to_numpy_array(observer.max_val._data)).astype(np.float32)
            symmetric = self.qscheme in (per_channel_symmetric, per_tensor_symmetric)
            chosen = [_choose_qparams(a, b, self.quant_min, self.quant_max, symmetric) for a, b in zip(lo, hi)]
            _store(self.scale, core.tensor([c[0] for c in chosen], dtype=core.float32))
            _store(self.zero_point, core.tensor([c[1] for c in chosen], dtype=core.int32))
        return self._fake_quantize(X)

    def extra_repr(self) -> str:
        return (f"fake_quant_enabled={self.fake_quant_enabled}, observer_enabled={self.observer_enabled}, "
                f"scale={self.scale}, zero_point={self.zero_point}, dtype={self.dtype}, "
                f"quant_min={self.activation_post_process.quant_min}, "
                f"quant_max={self.activation_post_process.quant_max}, qscheme={self.qscheme}, "
                f"reduce_range={self.activation_post_process.reduce_range}")


default_fake_quant = FakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=0, quant_max=255)
default_weight_fake_quant = FakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=-128,
                                                   quant_max=127, dtype=core.qint8,
                                                   qscheme=core.per_tensor_symmetric)
default_per_channel_weight_fake_quant = FakeQuantize.with_args(
    observer=MovingAveragePerChannelMinMaxObserver, quant_min=-128, quant_max=127, dtype=core.qint8,
    qscheme=core.per_channel_symmetric, ch_axis=0)


def _switch(name: str, *args):
    def apply(mod) -> None:
        if isinstance(mod, FakeQuantize):
            getattr(mod, name)(*args)
    apply.__name__ = name
    return apply


disable_fake_quant = _switch("disable_fake_quant")
enable_fake_quant = _switch("enable_fake_quant")
disable_observer = _switch("disable_observer")
enable_observer = _switch("enable_observer")
