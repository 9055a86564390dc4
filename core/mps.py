"""``torch.mps`` as on a machine without Apple's Metal backend (core has none): what PyTorch answers there.

``is_available()`` is False, ``device_count()`` 0 and ``manual_seed`` does nothing (scripts seed every backend
in their first lines); the calls that need the backend raise PyTorch's RuntimeError.
"""

__all__ = ["is_available", "device_count", "manual_seed", "seed", "synchronize", "empty_cache", "get_rng_state",
           "set_rng_state", "current_allocated_memory", "driver_allocated_memory"]


def _no_backend(call: str):
    raise RuntimeError(f"Cannot execute {call}() without MPS backend.")


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """Nothing to seed without the backend, as PyTorch's (no error)."""


def seed() -> None:
    _no_backend("getDefaultGenerator")


def get_rng_state(device="mps"):
    _no_backend("getDefaultGenerator")


def set_rng_state(new_state, device="mps") -> None:
    _no_backend("getDefaultGenerator")


def synchronize() -> None:
    _no_backend("deviceSynchronize")


def empty_cache() -> None:
    _no_backend("emptyCache")


def current_allocated_memory() -> int:
    _no_backend("getCurrentAllocatedMemory")


def driver_allocated_memory() -> int:
    _no_backend("getDriverAllocatedMemory")
