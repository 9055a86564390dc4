"""``core.cuda``: is a GPU there, how many, and seeding it (all through CuPy, lazily)."""

import warnings

from core import _backend, _random
from core._errors import OutOfMemoryError
from core.cuda._devices import (
    Event,
    device,
    device_of,
    get_device_capability,
    get_device_name,
    get_device_properties,
    mem_get_info,
    set_device,
)
from core.cuda._legacy_types import (
    BFloat16Tensor,
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
)
from core.cuda._runtime import *  # noqa: F403  (initialisation, streams, CUDA generator, memory statistics)
from core.cuda._runtime import __all__ as _runtime_names
from core.cuda.streams import ExternalStream

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all", "synchronize",
           "current_device", "is_bf16_supported", "empty_cache", "memory_allocated", "memory_reserved",
           "max_memory_allocated", "max_memory_reserved", "reset_peak_memory_stats", "reset_max_memory_allocated",
           "Event", "ExternalStream", "device", "device_of",
           "get_device_capability", "get_device_name", "get_device_properties", "mem_get_info", "set_device",
           "BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
           "IntTensor", "LongTensor", "ShortTensor", "OutOfMemoryError"] + list(_runtime_names)


def is_available() -> bool:
    """True when CuPy imports and sees at least one GPU; never raises."""
    return _backend.cuda_available()


def device_count() -> int:
    return _backend.cuda_device_count()


def current_device() -> int:
    _backend.xp_for(_backend.canonical("cuda"))
    return int(_backend.cupy_or_none().cuda.runtime.getDevice())


def manual_seed(seed: int) -> None:
    """Seed the stream CUDA tensors draw from; the CPU generator is left as it is, as in PyTorch (where, without
    a GPU, the call does nothing at all)."""
    _random.default_generator.seed_cuda(seed)


manual_seed_all = manual_seed


def synchronize(device=None) -> None:
    """Wait for the GPU's queued work; without CUDA, PyTorch's CPU-build AssertionError (timing code that calls it
    stops there in both)."""
    _backend._require_cupy().cuda.Stream.null.synchronize()


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """False: core's bfloat16 tensors are ml_dtypes' NumPy arrays, CPU only (CuPy has no bfloat16)."""
    return False


def empty_cache() -> None:
    """Return CuPy's cached, unused GPU memory to the device (nothing to do without a GPU)."""
    cp = _backend.cupy_or_none()
    if cp is not None:
        cp.get_default_memory_pool().free_all_blocks()


def memory_allocated(device=None) -> int:
    """Bytes held by tensors on the GPU (CuPy's pool in use); 0 without a GPU, as PyTorch's CPU build says."""
    cp = _backend.cupy_or_none()
    return int(cp.get_default_memory_pool().used_bytes()) if cp is not None and is_available() else 0


def memory_reserved(device=None) -> int:
    """Bytes CuPy's pool holds from the device; 0 without a GPU."""
    cp = _backend.cupy_or_none()
    return int(cp.get_default_memory_pool().total_bytes()) if cp is not None and is_available() else 0


max_memory_allocated = memory_allocated  # NOTE: CuPy keeps no peak; the current figure is a lower bound
max_memory_reserved = memory_reserved


def reset_peak_memory_stats(device=None) -> None:
    """Nothing to reset with a GPU (CuPy keeps no peak). Without one it raises what PyTorch's CPU build raises
    (its ``torch._C`` lacks the CUDA hook), so a script that calls it unguarded stops on the same line."""
    if not is_available():
        raise AttributeError("module 'core._C' has no attribute '_cuda_resetPeakMemoryStats'")


def reset_max_memory_allocated(device=None) -> None:
    """Deprecated in PyTorch: warns and calls ``reset_peak_memory_stats``."""
    warnings.warn("torch.cuda.reset_max_memory_allocated now calls torch.cuda.reset_peak_memory_stats, which resets "
                  "/all/ peak memory stats.", FutureWarning, stacklevel=2)
    reset_peak_memory_stats(device)


from core.cuda import random  # noqa: E402, F401  (torch.cuda.random, a submodule PyTorch imports with the package)


def __getattr__(name):
    """``core.cuda.amp`` (PyTorch's deprecated aliases) loads on first use; ``_initialized``, PyTorch's flag that
    libraries read before saving CUDA's random state (performer-pytorch's reversible layers), is
    ``is_initialized()``: False without a GPU."""
    if name == "amp":
        import importlib

        return importlib.import_module("core.cuda.amp")
    if name == "_initialized":
        from core.cuda._runtime import is_initialized as initialized

        return initialized()
    raise AttributeError(f"module 'core.cuda' has no attribute '{name}'")
