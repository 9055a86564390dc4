"""``torch.cuda``'s initialisation, streams, CUDA generator state and memory-statistics names.

Scripts call these unguarded (``torch.cuda.seed_all()``, ``torch.cuda.memory_stats()``,
``torch.cuda.empty_cache()`` in a cleanup helper). Without a GPU each answers as PyTorch's CPU build does: the
queries PyTorch answers anyway return the same empty values (``is_initialized()`` False, ``get_arch_list()``
``[]``, ``memory_stats()`` an empty ``OrderedDict``), the CUDA generator's seeding calls do nothing, and the rest
raise its ``AssertionError: Torch not compiled with CUDA enabled`` (``Stream()`` its ``RuntimeError``). With
CuPy and a GPU they act on CuPy's device, streams and pool.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict

from core import _backend, _random
from core.cuda.streams import Stream, wrap_stream

__all__ = ["is_initialized", "init", "current_stream", "default_stream", "Stream", "stream", "StreamContext",
           "get_rng_state", "get_rng_state_all", "set_rng_state", "set_rng_state_all", "seed", "seed_all",
           "initial_seed", "get_arch_list", "get_gencode_flags", "memory_stats", "ipc_collect",
           "set_per_process_memory_fraction", "can_device_access_peer", "memory_cached", "max_memory_cached"]


def is_initialized() -> bool:
    """Whether CUDA is set up: True once CuPy sees a GPU, False on a machine without one (as PyTorch's CPU build)."""
    return _backend.cuda_available()


def init() -> None:
    _backend._require_cupy()


def current_stream(device=None) -> Stream:
    return wrap_stream(_backend._require_cupy().cuda.get_current_stream())


def default_stream(device=None) -> Stream:
    return wrap_stream(_backend._require_cupy().cuda.Stream.null)


class StreamContext:
    """``with torch.cuda.stream(s):`` runs its block on ``s``; ``None`` (or no GPU with ``None``) changes nothing."""

    __module__ = "core.cuda"  # torch.cuda.StreamContext

    def __init__(self, stream):
        self.stream = stream

    def __enter__(self):
        if self.stream is not None:
            self.stream._stream.__enter__()  # (CuPy's stream as the current one)
        return self

    def __exit__(self, *exc) -> bool:
        if self.stream is not None:
            self.stream._stream.__exit__(*exc)
        return False


def stream(stream) -> StreamContext:
    return StreamContext(stream)


def get_rng_state(device="cuda"):
    _backend._require_cupy()
    raise NotImplementedError("core's CUDA generator is CuPy's: its state is not PyTorch's byte layout")


def get_rng_state_all() -> list:
    """One state per GPU: ``[]`` without one."""
    return [get_rng_state() for _ in range(_backend.cuda_device_count())]


def set_rng_state(new_state, device="cuda") -> None:
    """PyTorch's CPU build accepts and ignores the state (it would apply it once CUDA starts)."""
    if _backend.cuda_available():
        raise NotImplementedError("core's CUDA generator is CuPy's: it can't take PyTorch's byte layout")


def set_rng_state_all(new_states) -> None:
    for state in new_states:
        set_rng_state(state)


def seed() -> None:
    """Seed the CUDA generator from a random number; nothing to do without a GPU."""
    if _backend.cuda_available():
        import random

        _random.default_generator.seed_cuda(random.getrandbits(63))


seed_all = seed


def initial_seed() -> int:
    _backend._require_cupy()
    return int(_random.default_generator.initial_seed())


def get_arch_list() -> list:
    """The CUDA architectures the build supports: ``[]`` without CUDA (PyTorch's CPU build says the same)."""
    return []


def get_gencode_flags() -> str:
    return ""


def memory_stats(device=None) -> OrderedDict:
    """PyTorch's allocator statistics; an empty ``OrderedDict`` without a GPU, as PyTorch's CPU build returns."""
    if not _backend.cuda_available():
        return OrderedDict()
    pool = _backend.cupy_or_none().get_default_memory_pool()
    return OrderedDict([("allocated_bytes.all.current", int(pool.used_bytes())),
                        ("reserved_bytes.all.current", int(pool.total_bytes()))])


def ipc_collect() -> None:
    _backend._require_cupy()


def set_per_process_memory_fraction(fraction: float, device=None) -> None:
    cp = _backend._require_cupy()
    total = cp.cuda.runtime.memGetInfo()[1]
    cp.get_default_memory_pool().set_limit(size=int(fraction * total))


def can_device_access_peer(device, peer_device) -> bool:
    cp = _backend._require_cupy()
    return bool(cp.cuda.runtime.deviceCanAccessPeer(int(device), int(peer_device)))


def memory_cached(device=None) -> int:
    """Renamed in PyTorch: warns and answers ``memory_reserved``."""
    from core.cuda import memory_reserved

    warnings.warn("`torch.cuda.memory_cached` has been renamed to `torch.cuda.memory_reserved`", FutureWarning,
                  stacklevel=2)
    return memory_reserved(device)


def max_memory_cached(device=None) -> int:
    from core.cuda import max_memory_reserved

    warnings.warn("`torch.cuda.max_memory_cached` has been renamed to `torch.cuda.max_memory_reserved`",
                  FutureWarning, stacklevel=2)
    return max_memory_reserved(device)
