"""``QConfig`` and the ones torch names: the dynamic ``default_dynamic_qconfig`` and ``per_channel_dynamic_qconfig``,
the static ``default_qconfig`` (MinMax activations in ``0..127``, per-tensor symmetric qint8 weights) and
``get_default_qconfig(backend)`` (histogram activations, per-channel weights for x86/fbgemm)."""

from __future__ import annotations

from typing import NamedTuple

from core._quantized import per_channel_symmetric, per_tensor_symmetric, qint8, quint8
from core.ao.quantization.observer import (
    HistogramObserver,
    MinMaxObserver,
    PerChannelMinMaxObserver,
    PlaceholderObserver,
    default_observer,
    default_per_channel_weight_observer,
    default_weight_observer,
)

__all__ = ["QConfig", "default_dynamic_qconfig", "default_qconfig", "get_default_qconfig",
           "per_channel_dynamic_qconfig"]


class QConfig(NamedTuple):
    """How to observe a module's activation and weight: two observer factories."""

    activation: object
    weight: object


_DYNAMIC_ACTIVATION = PlaceholderObserver.with_args(dtype=quint8, quant_min=0, quant_max=255, is_dynamic=True)
default_dynamic_qconfig = QConfig(activation=_DYNAMIC_ACTIVATION,
                                  weight=MinMaxObserver.with_args(dtype=qint8, qscheme=per_tensor_symmetric))
per_channel_dynamic_qconfig = QConfig(
    activation=_DYNAMIC_ACTIVATION, weight=PerChannelMinMaxObserver.with_args(dtype=qint8,
                                                                              qscheme=per_channel_symmetric))
default_qconfig = QConfig(activation=default_observer, weight=default_weight_observer)


def get_default_qconfig(backend: str = "x86", version: int = 0) -> QConfig:
    """torch's default static qconfig for ``backend`` (``x86``, ``fbgemm``, ``qnnpack``)."""
    if backend in ("x86", "fbgemm"):
        return QConfig(activation=HistogramObserver.with_args(reduce_range=True),
                       weight=default_per_channel_weight_observer)
    if backend == "qnnpack":
        return QConfig(activation=HistogramObserver.with_args(reduce_range=False), weight=default_weight_observer)
    if backend == "onednn":
        return QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                       weight=default_per_channel_weight_observer)
    raise AssertionError(f"backend: {backend} not supported. backend must be one of ['fbgemm', 'x86', 'qnnpack', "
                         "'onednn']")


def get_default_qat_qconfig(backend: str = "x86", version: int = 1) -> QConfig:
    """torch's default QAT qconfig for ``backend``: moving-average fake quantizers (per-channel weights for
    x86/fbgemm)."""
    from core.ao.quantization.fake_quantize import FusedMovingAvgObsFakeQuantize
    from core.ao.quantization.observer import MovingAverageMinMaxObserver, MovingAveragePerChannelMinMaxObserver

    if backend not in ("x86", "fbgemm", "qnnpack", "onednn"):
        raise AssertionError(f"backend: {backend} not supported. backend must be one of ['fbgemm', 'x86', "
                             "'qnnpack', 'onednn']")
    reduce_range = backend in ("x86", "fbgemm")
    activation = FusedMovingAvgObsFakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=0,
                                                         quant_max=255, reduce_range=reduce_range)
    if backend in ("x86", "fbgemm", "onednn"):
        weight = FusedMovingAvgObsFakeQuantize.with_args(observer=MovingAveragePerChannelMinMaxObserver,
                                                         quant_min=-128, quant_max=127, dtype=qint8,
                                                         qscheme=per_channel_symmetric)
    else:
        weight = FusedMovingAvgObsFakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=-128,
                                                         quant_max=127, dtype=qint8, qscheme=per_tensor_symmetric)
    return QConfig(activation=activation, weight=weight)
