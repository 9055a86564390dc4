"""``torch.xpu`` as PyTorch's CPU build answers it (core has no Intel GPU backend).

Device selection code asks ``torch.xpu.is_available()`` beside ``torch.cuda`` and ``torch.backends.mps``:
it is False, ``device_count()`` 0, the seeding calls do nothing and the memory queries say 0, as in a
CPU build of PyTorch; the calls that need a device raise its ``AssertionError``.
"""

from __future__ import annotations

from core import _no_device

is_available, device_count, is_initialized = _no_device.is_available, _no_device.device_count, _no_device.is_initialized
manual_seed = manual_seed_all = _no_device.manual_seed
seed = seed_all = _no_device.seed
memory_allocated = _no_device.memory_allocated

__all__ = [*_no_device.__all__, "set_rng_state", "empty_cache", "memory_reserved", "max_memory_allocated",
           "max_memory_reserved", "is_bf16_supported", "is_tf32_supported", "get_arch_list", "synchronize",
           "current_device", "set_device", "get_device_name", "get_device_properties", "get_device_capability",
           "get_rng_state", "initial_seed", "init", "mem_get_info", "current_stream"]

_NOT_COMPILED = "Torch not compiled with XPU enabled"


def set_rng_state(new_state, device="xpu") -> None:
    """Queued by PyTorch until a device exists, which never happens here."""


def empty_cache() -> None:
    """No device memory to free."""


memory_reserved = max_memory_allocated = max_memory_reserved = memory_allocated


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


def is_tf32_supported() -> bool:
    return False


def get_arch_list() -> list:
    return []


def _not_compiled(*args, **kwargs):
    raise AssertionError(_NOT_COMPILED)


synchronize = current_device = set_device = get_device_name = get_device_properties = _not_compiled
get_device_capability = get_rng_state = initial_seed = init = mem_get_info = current_stream = _not_compiled
