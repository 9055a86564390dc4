"""``torch.autocast`` / ``torch.amp.autocast``: the mixed-precision region, with PyTorch's state and checks.

What core promises:

- ``autocast(device_type, dtype=None, enabled=True, cache_enabled=None)`` is a context manager and a decorator
  with PyTorch's argument checks, its warnings (CUDA autocast without a GPU disables itself; a CPU dtype other
  than bfloat16/float16 disables itself) and its thread-local state (``is_autocast_enabled``,
  ``get_autocast_dtype``, nesting, restored on exit).
- ``enabled=False`` is exactly PyTorch's: nothing changes.
- An enabled CPU region casts per op as PyTorch's CPU autocast lists do (``core.amp._casting``): matmul, linear
  and the convolutions run in the region's dtype (bfloat16 by default), the losses in float32, the rest in their
  inputs' dtype. (CUDA regions disable themselves without a GPU, as PyTorch's do.)
"""

from __future__ import annotations

import functools
import threading
import warnings

from core import _dtype, cuda
from core.amp import _casting

__all__ = ["autocast", "is_autocast_available", "custom_fwd", "custom_bwd"]

_AVAILABLE = ("cpu", "cuda")
_SUPPORTED_NAMES = "torch.bfloat16, torch.float16"
_DEFAULT_DTYPES = {"cpu": _dtype.bfloat16, "cuda": _dtype.float16}


class _State(threading.local):
    """Autocast's thread-local switches, as PyTorch keeps them per thread."""

    def __init__(self):
        self.enabled = {device: False for device in _AVAILABLE}
        self.dtype = dict(_DEFAULT_DTYPES)
        self.cache_enabled = True
        self.nesting = 0


_state = _State()


def _check_device_type(device_type) -> str:
    if device_type is None:
        return "cuda"  # PyTorch's no-argument forms ask about CUDA
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if device_type not in _AVAILABLE:
        from core._device import device  # validates the name with PyTorch's message

        device(device_type)
        raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
    return device_type


def is_autocast_available(device_type: str) -> bool:
    """True for the device types core's autocast accepts (``"cpu"``, ``"cuda"``)."""
    return device_type in _AVAILABLE


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether an enabled autocast region is active on ``device_type`` (CUDA when not given, as in PyTorch)."""
    return _state.enabled[_check_device_type(device_type)]


def set_autocast_enabled(device_type, enabled=None) -> None:
    if enabled is None:  # the old one-argument form set CUDA's switch
        device_type, enabled = "cuda", device_type
    device, enabled = _check_device_type(device_type), bool(enabled)
    if device == "cpu" and enabled != _state.enabled["cpu"]:
        _casting.opened(1 if enabled else -1)
    _state.enabled[device] = enabled


def get_autocast_dtype(device_type: str):
    """The dtype autocast would use on ``device_type`` (bfloat16 on CPU, float16 on CUDA unless set)."""
    return _state.dtype[_check_device_type(device_type)]


def set_autocast_dtype(device_type: str, dtype) -> None:
    _state.dtype[_check_device_type(device_type)] = dtype


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"torch.{old}() is deprecated. Please use torch.{new} instead.", DeprecationWarning, stacklevel=3)


def is_autocast_cpu_enabled() -> bool:
    _deprecated("is_autocast_cpu_enabled", "is_autocast_enabled('cpu')")
    return _state.enabled["cpu"]


def get_autocast_gpu_dtype():
    _deprecated("get_autocast_gpu_dtype", "get_autocast_dtype('cuda')")
    return _state.dtype["cuda"]


def get_autocast_cpu_dtype():
    _deprecated("get_autocast_cpu_dtype", "get_autocast_dtype('cpu')")
    return _state.dtype["cpu"]


def _deprecated_setter(old: str, new: str) -> None:
    """torch's wording for its deprecated setters (``torch.set_autocast_cpu_dtype(dtype)``)."""
    warnings.warn(f"torch.{old} is deprecated. Please use torch.{new} instead.", DeprecationWarning, stacklevel=3)


def set_autocast_cpu_enabled(enabled: bool) -> None:
    _deprecated_setter("set_autocast_cpu_enabled(enabled)", "set_autocast_enabled('cpu', enabled)")
    set_autocast_enabled("cpu", enabled)


def set_autocast_cpu_dtype(dtype) -> None:
    _deprecated_setter("set_autocast_cpu_dtype(dtype)", "set_autocast_dtype('cpu', dtype)")
    _state.dtype["cpu"] = dtype


def set_autocast_gpu_dtype(dtype) -> None:
    _deprecated_setter("set_autocast_gpu_dtype(dtype)", "set_autocast_dtype('cuda', dtype)")
    _state.dtype["cuda"] = dtype


def is_autocast_xla_enabled() -> bool:
    """False: core has no XLA device (torch's deprecated question, with its warning)."""
    _deprecated("is_autocast_xla_enabled", "is_autocast_enabled('xla')")
    return False


def is_autocast_ipu_enabled() -> bool:
    """False: core has no IPU device (torch's deprecated question, with its warning)."""
    _deprecated("is_autocast_ipu_enabled", "is_autocast_enabled('ipu')")
    return False


def is_autocast_cache_enabled() -> bool:
    return _state.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    _state.cache_enabled = bool(enabled)


def clear_autocast_cache() -> None:
    """A no-op: core keeps no cache of cast weights."""


def autocast_increment_nesting() -> int:
    _state.nesting += 1
    return _state.nesting


def autocast_decrement_nesting() -> int:
    _state.nesting -= 1
    return _state.nesting


def _checked_enabled(device_type: str, dtype, enabled: bool, stacklevel: int) -> bool:
    """PyTorch's checks that turn an enabled region off (with its warnings)."""
    if not enabled:
        return False
    if device_type == "cuda" and not cuda.is_available():
        warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=stacklevel)
        return False
    if device_type == "cpu" and dtype not in (_dtype.bfloat16, _dtype.float16):
        warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                      f"CPU Autocast only supports dtypes of {_SUPPORTED_NAMES} currently.", stacklevel=stacklevel)
        return False
    return True


class autocast:
    """A region where listed ops run in reduced precision (CPU) and losses in float32 (module docstring)."""

    _stacklevel = 3  # warnings point at the line that made the region (one more for the deprecated aliases)

    def __init__(self, device_type: str, dtype=None, enabled: bool = True, cache_enabled: bool | None = None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = _check_device_type(device_type)
        self.fast_dtype = get_autocast_dtype(self.device) if dtype is None else dtype
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        self._enabled = _checked_enabled(self.device, self.fast_dtype, enabled, self._stacklevel)

    def __enter__(self):
        self.prev_cache_enabled = is_autocast_cache_enabled()
        self.prev = is_autocast_enabled(self.device)
        self.prev_fastdtype = get_autocast_dtype(self.device)
        set_autocast_enabled(self.device, self._enabled)
        set_autocast_dtype(self.device, self.fast_dtype)
        autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        set_autocast_enabled(self.device, self.prev)
        set_autocast_dtype(self.device, self.prev_fastdtype)
        set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(f"autocast()(func) requires a callable, but got {type(func).__name__}. "
                            "Did you mean to use autocast as a context manager? For example:\n"
                            "    with torch.autocast(device_type=...):\n"
                            "        output = model(input)")

        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate_autocast


def custom_fwd(fwd=None, *, device_type: str, cast_inputs=None):
    """Decorator for a custom Function's ``forward``; core runs it as written (no casting to do)."""
    _check_device_type(device_type)
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)
    return fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorator for a custom Function's ``backward``; core runs it as written."""
    _check_device_type(device_type)
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)
    return bwd
