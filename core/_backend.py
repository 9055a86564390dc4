"""The one backend switch: NumPy for ``cpu``, CuPy for ``cuda`` (imported lazily).

Every op asks ``xp_of(array)`` or ``xp_for(device)`` for its array module; no other module
imports CuPy. ``import core`` never fails for lack of CuPy or a GPU; asking for CUDA does,
with a clear RuntimeError.
"""

from __future__ import annotations

import numpy as np

from core import _default_device
from core import _device as _device_module
from core._device import CPU, canonical, device
from core._meta import META_XP, NO_DATA, MetaArray, meta_array

__all__ = ["xp_for", "xp_of", "device_of_array", "cupy_or_none", "cuda_available", "cuda_device_count",
           "to_device_array", "to_numpy_array"]

_cupy = None
_cupy_error: str | None = None


def cupy_or_none():
    """CuPy if it imports and sees a GPU, else None (the reason is kept for error messages)."""
    global _cupy, _cupy_error
    if _cupy is not None or _cupy_error is not None:
        return _cupy
    try:
        import cupy  # the lazy import is the point

        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no CUDA device found")
        _cupy = cupy
    except Exception as exc:  # ImportError, CUDARuntimeError, driver errors...
        _cupy_error = f"{type(exc).__name__}: {exc}"
    return _cupy


def cuda_available() -> bool:
    return cupy_or_none() is not None


_device_module._accelerator["available"] = cuda_available  # device(1) asks it (core._device sits below this module)


def cuda_device_count() -> int:
    cp = cupy_or_none()
    return 0 if cp is None else int(cp.cuda.runtime.getDeviceCount())


# What PyTorch's CPU build raises where its dispatcher initialises CUDA (x.type(torch.cuda.FloatTensor)), word for word
NO_ATEN_CUDA = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared libraries: a CPU "
    "library and a CUDA library; this error has occurred because you are trying to use some CUDA functionality, but "
    "the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA library MUST be loaded, "
    "EVEN IF you don't directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library dependencies if you "
    "don't depend on any of their symbols.  You can check if this has occurred by using ldd on your binary to see if "
    "there is a dependency on *_cuda.so library.")


class _NoCudaError(AssertionError, RuntimeError):
    """What PyTorch's CPU build raises for a CUDA request (``AssertionError: Torch not compiled with CUDA
    enabled``, same name and message); also a RuntimeError, which callers of core catch."""


_NoCudaError.__name__ = _NoCudaError.__qualname__ = "AssertionError"


def _require_cupy():
    cp = cupy_or_none()
    if cp is None:
        error = _NoCudaError("Torch not compiled with CUDA enabled")
        error.add_note(f"core needs CuPy and an NVIDIA GPU for device='cuda' (install the 'gpu' extra). "
                       f"Reason: {_cupy_error}")
        raise error
    return cp


_default_device.cuda_check = _require_cupy  # get_default_device() after set_default_device('cuda') checks CUDA


def xp_for(dev: device):
    """The array module for a canonical device."""
    if dev is CPU:
        return np
    if dev.type == "meta":
        return META_XP  # allocations are meta arrays: shapes only
    cp = _require_cupy()
    if dev.index >= cuda_device_count():
        raise RuntimeError(f"CUDA error: invalid device ordinal (asked for {dev}, "
                           f"{cuda_device_count()} device(s) available)")
    return cp


def xp_of(arr):
    """The array module an array belongs to (a meta array's allocates meta arrays: shapes only)."""
    kind = type(arr)
    if kind is np.ndarray:  # NOTE: the common case first, one identity test
        return np
    if kind is MetaArray:
        return META_XP
    if isinstance(arr, np.ndarray):
        return np
    return _cupy if _cupy is not None else np


def device_of_array(arr) -> device:
    if isinstance(arr, MetaArray):
        return canonical("meta")
    if isinstance(arr, np.ndarray) or _cupy is None:
        return CPU
    return device("cuda", int(arr.device.id))


def to_device_array(arr, dev: device):
    """Copy an array (NumPy or CuPy) onto ``dev``; returns the same array if already there."""
    dev = canonical(dev)
    if dev.type == "meta":
        return meta_array(arr.shape, arr.dtype)
    if isinstance(arr, MetaArray):
        raise NotImplementedError(NO_DATA)
    if dev is CPU:
        return to_numpy_array(arr)
    cp = xp_for(dev)
    with cp.cuda.Device(dev.index):
        return cp.asarray(arr)


def to_numpy_array(arr):
    if isinstance(arr, np.ndarray):
        return arr
    return arr.get()
