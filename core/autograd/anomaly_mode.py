"""``torch.autograd.anomaly_mode``: PyTorch's module name for anomaly detection (``core.autograd.anomaly``)."""

from __future__ import annotations

from core.autograd.anomaly import detect_anomaly, set_detect_anomaly

__all__ = ["detect_anomaly", "set_detect_anomaly"]
