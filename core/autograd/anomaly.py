"""``detect_anomaly``: record each node's forward trace and fail on NaN produced in backward."""

from __future__ import annotations

import threading

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled"]

_state = threading.local()


def is_anomaly_enabled() -> bool:
    return getattr(_state, "enabled", False)


class detect_anomaly:
    """Context manager/decorator: a NaN from a backward names the forward op that made the node."""

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan

    def __enter__(self):
        self._prev = is_anomaly_enabled()
        _state.enabled = self.check_nan or True
        return self

    def __exit__(self, *exc):
        _state.enabled = self._prev
        return False

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with detect_anomaly(self.check_nan):
                return fn(*args, **kwargs)
        return wrapper


class set_detect_anomaly(detect_anomaly):
    """Turn anomaly detection on or off (immediately, and as a context manager)."""

    def __init__(self, mode: bool):
        self._prev = is_anomaly_enabled()
        _state.enabled = bool(mode)

    def __enter__(self):
        return self
