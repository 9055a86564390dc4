"""Process-wide switches at ``torch.*``: anomaly detection, warn-always and flush-denormal.

``set_anomaly_enabled``/``is_anomaly_enabled``/``is_anomaly_check_nan_enabled`` are the functions behind
``torch.autograd.detect_anomaly`` (core.autograd.anomaly holds the state). ``set_warn_always`` stores the flag
PyTorch's warn-once sites read. ``set_flush_denormal`` sets the x86 FPU's flush-to-zero and denormals-are-zero
bits as PyTorch does (core._fpu); where it cannot, it changes nothing and returns False, as PyTorch does.
"""

from __future__ import annotations

from core.autograd import anomaly as _anomaly
from core.autograd.anomaly import is_anomaly_check_nan_enabled, is_anomaly_enabled

__all__ = ["set_anomaly_enabled", "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_warn_always",
           "is_warn_always_enabled", "set_flush_denormal"]

_warn_always = False


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off (``torch.set_anomaly_enabled``), without detect_anomaly's warning."""
    _anomaly._set(enabled, check_nan)


def set_warn_always(b: bool) -> None:
    """Warnings PyTorch gives once per process are given every time while this is True."""
    global _warn_always
    _warn_always = bool(b)


def is_warn_always_enabled() -> bool:
    return _warn_always


def set_flush_denormal(mode: bool) -> bool:
    """Denormal floats read and are written as zero while ``mode`` is True; False where that is unsupported."""
    from core import _fpu

    return _fpu.set_flush(bool(mode))
