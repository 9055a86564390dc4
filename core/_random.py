"""Random number generation: one default generator per backend, reseeded by ``manual_seed``."""

from __future__ import annotations

import numpy as np

from core import _backend
from core._device import CPU

__all__ = ["manual_seed", "seed", "initial_seed", "Generator", "default_generator", "get_rng_state",
           "set_rng_state"]


class Generator:
    """``core.Generator``: an independent stream of random numbers (NumPy's PCG64 underneath)."""

    def __init__(self, device="cpu"):
        self.device = _backend.canonical(device)
        self._seed = 67280421310721
        self._np = np.random.default_rng(self._seed)
        self._cp = None

    def manual_seed(self, seed: int) -> Generator:
        seed = int(seed)
        if seed < 0:
            seed &= 0xFFFF_FFFF_FFFF_FFFF
        self._seed = seed
        self._np = np.random.default_rng(seed)
        self._cp = None
        return self

    def seed(self) -> int:
        s = int(np.random.SeedSequence().entropy) & 0xFFFF_FFFF_FFFF_FFFF
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self):
        return self._np.bit_generator.state

    def set_state(self, state) -> None:
        self._np.bit_generator.state = state

    def rng_for(self, dev):
        """The NumPy or CuPy generator that draws numbers for ``dev``."""
        if dev is CPU:
            return self._np
        if self._cp is None:
            cp = _backend.xp_for(dev)
            self._cp = cp.random.default_rng(self._seed)
        return self._cp


default_generator = Generator()


def manual_seed(seed: int) -> Generator:
    """Seed every random factory and in-place sampler (CPU and CUDA) reproducibly."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state) -> None:
    default_generator.set_state(state)


def rng(device, generator=None):
    return (generator or default_generator).rng_for(device)
