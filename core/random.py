"""``torch.random``: the default generator's seeding and state, and ``fork_rng``, which restores it on exit.

core draws every device's numbers from one default generator (``core.cuda.manual_seed`` seeds only its CUDA
stream), so forking it forks all of them; ``devices`` and ``device_type`` are accepted for PyTorch's signature.
"""

import contextlib

from core._random import Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["Generator", "default_generator", "fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state", "thread_safe_generator"]


def thread_safe_generator():
    """A DataLoader thread worker's own generator; None elsewhere (the global RNG), as PyTorch. core's loader
    has no thread workers (its simulated workers are processes), so this is always None."""
    from core.utils.data import get_worker_info  # (the data package imports core)

    info = get_worker_info()
    if info is not None and info.worker_method == "thread" and info.rng is not None:
        return info.rng.torch_generator
    return None


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type=None):
    """Run the ``with`` block, then put the default generator back in the state it had (when ``enabled``)."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
