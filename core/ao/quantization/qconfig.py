"""``QConfig`` and the dynamic ones torch names: ``default_dynamic_qconfig`` (per-tensor symmetric qint8 weights)
and ``per_channel_dynamic_qconfig`` (a symmetric scale per output channel)."""

from __future__ import annotations

from typing import NamedTuple

from core._quantized import per_channel_symmetric, per_tensor_symmetric, qint8, quint8
from core.ao.quantization.observer import MinMaxObserver, PerChannelMinMaxObserver, PlaceholderObserver

__all__ = ["QConfig", "default_dynamic_qconfig", "per_channel_dynamic_qconfig"]


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
