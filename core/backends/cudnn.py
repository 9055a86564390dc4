"""``core.backends.cudnn``: cuDNN's flags (no cuDNN in core: ``is_available()`` is False), and ``set_flags``/
``flags`` to set several at once (``with torch.backends.cudnn.flags(enabled=False):``, which Hugging Face's
Wav2Vec2 wraps its CTC loss in) as PyTorch's, restoring them afterwards."""

from __future__ import annotations

import contextlib
import sys

from core.backends import _guard_flags

enabled = True
benchmark = False
benchmark_limit = 10
deterministic = False
allow_tf32 = True
fp32_precision = "none"
_depthwise = "auto"  # torch keeps it in C++ (no module attribute)


def is_available() -> bool:
    return False


def version():
    return None


def set_flags(_enabled=None, _benchmark=None, _benchmark_limit=None, _deterministic=None, _allow_tf32=None,
              _fp32_precision="none", _depthwise_kernel=None):
    """Sets the flags given (``None`` leaves one as it is; the benchmark limit only where cuDNN is available) and
    returns the previous ones, in this order, for ``flags`` to restore."""
    global enabled, benchmark, benchmark_limit, deterministic, allow_tf32, fp32_precision, _depthwise
    previous = (enabled, benchmark, benchmark_limit if is_available() else None, deterministic, allow_tf32,
                fp32_precision, _depthwise)
    if _enabled is not None:
        enabled = _enabled
    if _benchmark is not None:
        benchmark = _benchmark
    if _benchmark_limit is not None and is_available():
        benchmark_limit = _benchmark_limit
    if _deterministic is not None:
        deterministic = _deterministic
    if _allow_tf32 is not None:
        allow_tf32 = _allow_tf32
    if _fp32_precision is not None:
        fp32_precision = _fp32_precision
    if _depthwise_kernel is not None:
        _depthwise = _depthwise_kernel
    return previous


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True,
          fp32_precision="none", depthwise_kernel="auto"):
    """Inside the ``with`` block, these flags (PyTorch's defaults for the ones not given: ``enabled=False``...)."""
    previous = set_flags(enabled, benchmark, benchmark_limit, deterministic, allow_tf32, fp32_precision,
                         depthwise_kernel)
    try:
        yield
    finally:
        set_flags(*previous)


_guard_flags(sys.modules[__name__], ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32",
                                     "fp32_precision"))
