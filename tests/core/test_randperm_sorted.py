"""``randperm`` below 2**16 (``core._randperm.sorted_swaps``): PyTorch's Fisher-Yates result from one sort.

PyTorch's ``randperm_cpu`` swaps ``i`` with ``i + draw % (n - i)`` in order for every ``n`` below ``2**32 // 20``;
core gets the same permutation for small ``n`` in closed form (each position takes the value the last earlier
step aimed at it left there). These tests compare it with the loop as PyTorch writes it on random draws and on
draws where every swap collides, and ``randperm`` with PyTorch around the switch to the vectorised rounds, with
``Generator`` objects, after ``set_rng_state`` and in other dtypes.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from core import _randperm
from tests.core.oracle import to_numpy


def _torch_loop(n: int, offsets: np.ndarray) -> np.ndarray:
    """PyTorch's ``randperm_cpu`` loop as written: swap ``i`` and ``i + offsets[i]``, in order."""
    perm = list(range(n))
    for i, z in enumerate(offsets.tolist()):
        perm[i], perm[i + z] = perm[i + z], perm[i]
    return np.array(perm, dtype=np.int64)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 17, 1000, 4097, 65_535])
def test_the_sorted_form_equals_torchs_loop_on_random_draws(n):
    rng = np.random.default_rng(n)
    for _ in range(4):
        offsets = rng.integers(0, 2**32, n - 1, dtype=np.uint64) % np.arange(n, 1, -1, dtype=np.uint64)
        got = _randperm.sorted_swaps(n, offsets.astype(np.uint32))
        assert got.dtype == np.int64
        assert np.array_equal(got, _torch_loop(n, offsets))


@pytest.mark.parametrize("pattern", ["none", "all_last", "all_next", "alternate", "few_targets", "long_chain"])
def test_the_sorted_form_equals_torchs_loop_when_swaps_collide(pattern):
    n = 3000
    i = np.arange(n - 1)
    left = n - 1 - i  # the largest offset at step i
    offsets = {"none": np.zeros(n - 1, dtype=np.int64), "all_last": left, "all_next": np.minimum(left, 1),
               "alternate": np.where(i % 2 == 0, left, 0), "few_targets": np.minimum(left, (7 - i) % 7),
               "long_chain": np.minimum(left, 2)}[pattern]
    assert np.array_equal(_randperm.sorted_swaps(n, offsets), _torch_loop(n, offsets))


def _same_as_torch(torch, fn, seed: int) -> None:
    results = []
    for lib in (core, torch):
        lib.manual_seed(seed)
        gen = lib.Generator().manual_seed(seed + 1)
        results.append([to_numpy(t) for t in (*fn(lib, gen), gen.get_state(), lib.get_rng_state())])
    for ours, theirs in zip(*results):
        assert ours.dtype == theirs.dtype
        assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("n", [2, 1000, 60_000, 65_535, 65_536, 65_537])
def test_randperm_matches_torch_around_the_switch_with_generators(torch, n):
    _same_as_torch(torch, lambda T, g: (T.randperm(n, generator=g), T.randperm(n), T.rand(2, generator=g)), seed=n)


def test_randperm_matches_torch_after_set_rng_state_and_in_other_dtypes(torch):
    def draws(T, g):
        T.randn(3)
        state = T.get_rng_state()
        first = T.randperm(10_000)
        T.set_rng_state(state)
        g.set_state(state)
        return (first, T.randperm(10_000), T.randperm(10_000, generator=g), T.randperm(3_000, dtype=T.int32),
                T.randperm(2_000, dtype=T.float32, generator=g), T.randperm(500, dtype=T.int16),
                T.randperm(4_000, out=T.empty(0, dtype=T.int64)))
    _same_as_torch(torch, draws, seed=9)
