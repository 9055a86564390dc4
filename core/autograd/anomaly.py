"""``detect_anomaly``: record each node's forward traceback and fail on NaN produced in backward.

While enabled, every recorded node keeps the traceback of the forward call that created it. A
backward that returns NaN raises "Function 'XBackward0' returned nan values in its 0th
output."; any error in a node's backward first warns with that node's forward traceback, as
PyTorch does. The mode is process-wide, as in PyTorch.
"""

from __future__ import annotations

import functools

from core._user_warning import user_stacklevel, warn_user

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
           "user_stacklevel", "warn_forward_trace"]

_enabled = False
_check_nan = True


def is_anomaly_enabled() -> bool:
    return _enabled


def is_anomaly_check_nan_enabled() -> bool:
    """The NaN check's setting (PyTorch's answer whether or not anomaly detection is on; True by default)."""
    return _check_nan


def _set(mode: bool, check_nan: bool) -> None:
    global _enabled, _check_nan
    _enabled, _check_nan = bool(mode), bool(check_nan)


def warn_forward_trace(node) -> None:
    """Warn, naming ``node`` and the traceback of the forward call that created it."""
    if node._trace:
        warn_user(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
                  f"{node._trace}")


class detect_anomaly:
    """Context manager/decorator enabling anomaly detection inside its block."""

    __module__ = "core.autograd.anomaly_mode"  # PyTorch's module name (torch.autograd.anomaly_mode)

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan
        warn_user("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                  "enabled for debugging.")

    def __enter__(self):
        self._prev = (_enabled, _check_nan)
        _set(True, self.check_nan)
        return None

    def __exit__(self, *exc):
        _set(*self._prev)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)
        return wrapper


class set_detect_anomaly:
    """Turn anomaly detection on or off at once; as a context manager, restore it on exit."""

    __module__ = "core.autograd.anomaly_mode"

    def __init__(self, mode: bool, check_nan: bool = True):
        self._prev = (_enabled, _check_nan)
        _set(mode, check_nan)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _set(*self._prev)
        return False
