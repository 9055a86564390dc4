"""Large random tensors are PyTorch's bit for bit: the vectorised samplers' block edges, sizes and generators.

core's samplers work a block at a time (``randperm``'s swap rounds in ``core._randperm``, the uniform and normal
kernels' cache-sized blocks); these tests put sizes on and around every edge (PyTorch's switch between its two
normal algorithms at 16 elements, the blocks, ``randperm``'s Python tail) and far beyond, with the default
generator, with ``Generator`` objects and after ``set_rng_state``, and compare with PyTorch exactly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import core
from core import _libm, _randperm
from tests.core.oracle import to_numpy

_BLOCK = 1 << 16  # core._random_kernels' block of draws


def _same(ours, theirs) -> None:
    a, b = to_numpy(ours), to_numpy(theirs)
    assert str(ours.dtype).replace("torch.", "") == str(theirs.dtype).replace("torch.", "")
    assert a.shape == b.shape
    assert np.array_equal(a, b, equal_nan=True), f"{np.count_nonzero(a != b)} of {a.size} differ"


def _check(torch, fn, seed: int) -> None:
    """``fn(lib, generator)`` after the same seed, with the default generator and with a fresh ``Generator``."""
    for use_generator in (False, True):
        results = []
        for lib in (core, torch):
            lib.manual_seed(seed)
            gen = lib.Generator().manual_seed(seed + 1) if use_generator else None
            results.append((fn(lib, gen), (gen or lib.default_generator).get_state()))
        (ours, our_state), (theirs, their_state) = results
        for o, t in zip(ours, theirs):
            _same(o, t)
        assert np.array_equal(to_numpy(our_state), to_numpy(their_state)), "streams diverged"


# ----- randperm -------------------------------------------------------------------------------------

def _torch_forward_loop(n: int, offsets: np.ndarray) -> np.ndarray:
    """PyTorch's ``randperm_cpu`` loop as written: swap ``i`` and ``i + offsets[i]``, in order."""
    perm = list(range(n))
    for i, z in enumerate(offsets.tolist()):
        perm[i], perm[i + z] = perm[i + z], perm[i]
    return np.array(perm, dtype=np.int64)


def _torch_inside_out_loop(partners: np.ndarray) -> np.ndarray:
    """PyTorch's loop for ``n >= 2**32 // 20``: ``r[i] = i; r[i] = r[z]; r[z] = i``."""
    r = [0] * partners.size
    for i, z in enumerate(partners.tolist()):
        r[i] = i
        r[i] = r[z]
        r[z] = i
    return np.array(r, dtype=np.int64)


_SIZES = [0, 1, 2, 3, 31, 32, 33, 1023, 1024, 1025, 1026, 1300, 5000, 70_001, 300_000]


@pytest.mark.parametrize("n", _SIZES)
def test_the_vectorised_swaps_equal_torchs_sequential_loops(n):
    rng = np.random.default_rng(n)
    for _ in range(3):
        draws = rng.integers(0, 2**32, max(n, 1), dtype=np.uint64)
        offsets = draws[:max(n - 1, 0)] % np.arange(n, 1, -1, dtype=np.uint64)
        assert np.array_equal(_randperm.forward_swaps(n, offsets), _torch_forward_loop(n, offsets))
        partners = draws[:n] % np.arange(1, n + 1, dtype=np.uint64)
        assert np.array_equal(_randperm.inside_out_swaps(n, partners), _torch_inside_out_loop(partners))


@pytest.mark.parametrize("pattern", ["none", "all_last", "all_next", "same_target", "few_targets"])
def test_the_vectorised_swaps_equal_torchs_loop_when_every_swap_collides(pattern):
    n = 20_000
    i = np.arange(n - 1)
    left = n - 1 - i  # the largest offset at step i
    offsets = {"none": np.zeros(n - 1, dtype=np.int64), "all_last": left, "all_next": np.minimum(left, 1),
               "same_target": (n - 1) - i, "few_targets": np.minimum(left, (7 - i) % 7)}[pattern]
    assert np.array_equal(_randperm.forward_swaps(n, offsets), _torch_forward_loop(n, offsets))
    partners = {"none": np.arange(n), "all_last": np.arange(n), "all_next": np.maximum(np.arange(n) - 1, 0),
                "same_target": np.zeros(n, dtype=np.int64), "few_targets": np.arange(n) % 3}[pattern]
    assert np.array_equal(_randperm.inside_out_swaps(n, partners), _torch_inside_out_loop(partners))


@pytest.mark.parametrize("forward", [True, False])
def test_the_swaps_stay_right_when_their_keys_run_out_of_room(forward):
    # int16 values and keys: the keys run out of room mid-shuffle and the owner array is cleared
    n = 20_000
    rng = np.random.default_rng(1)
    draws = rng.integers(0, 2**32, n, dtype=np.uint64)
    if forward:
        offsets = (draws[:n - 1] % np.arange(n, 1, -1, dtype=np.uint64)).astype(np.int64)
        expected, partners = _torch_forward_loop(n, offsets), np.arange(n - 1) + offsets
    else:
        partners = (draws % np.arange(1, n + 1, dtype=np.uint64)).astype(np.int64)
        expected = _torch_inside_out_loop(partners)
    got = _randperm.apply_swaps(np.arange(n + 1, dtype=np.int16), partners, forward)
    assert got.dtype == np.int64
    assert np.array_equal(got, expected)


@pytest.mark.parametrize("n", [1, 2, 1025, 65_537, 200_003])
def test_the_inside_out_shuffle_draws_torchs_64_bit_numbers_block_by_block(n):
    # (PyTorch takes this route from n = 2**32 // 20 on: 1.7 GB of int64, too big to compare here)
    ours, reference = core.Generator().manual_seed(n), core.Generator().manual_seed(n)
    got = _randperm._inside_out(ours, n)
    partners = reference.random64(n) % np.arange(1, n + 1, dtype=np.uint64)
    assert np.array_equal(got, _torch_inside_out_loop(partners.astype(np.int64)))
    assert np.array_equal(to_numpy(ours.get_state()), to_numpy(reference.get_state()))


def test_torchs_switch_to_the_inside_out_shuffle_is_where_core_switches():
    assert _randperm.INSIDE_OUT_FROM == np.iinfo(np.uint32).max // 20


@pytest.mark.parametrize("n", _SIZES + [1_000_003])
def test_randperm_matches_torch_on_and_around_the_block_edges(torch, n):
    _check(torch, lambda T, g: (T.randperm(n, generator=g), T.rand(3, generator=g)), seed=n)


@pytest.mark.parametrize("seed", range(6))
def test_randperm_matches_torch_for_many_seeds(torch, seed):
    _check(torch, lambda T, g: (T.randperm(40_000 + seed, generator=g), T.randperm(2_000, generator=g)), seed)


def test_randperm_continues_torchs_stream_after_set_rng_state_and_in_other_dtypes(torch):
    def draws(T, g):
        T.randn(7)
        state = T.get_rng_state()
        first = T.randperm(50_000)
        T.set_rng_state(state)
        return (first, T.randperm(50_000), T.randperm(3_000, dtype=T.int32), T.randperm(2_000, dtype=T.float32),
                T.randperm(4_000, out=T.empty(0, dtype=T.int64)))
    _check(torch, draws, seed=3)


# ----- integers, uniforms, normals --------------------------------------------------------------------

_EDGES = [1, 15, 16, 17, 31, 32, 33, _BLOCK - 1, _BLOCK, _BLOCK + 1, _BLOCK + 17, 3 * _BLOCK + 5, 1_000_003]


@pytest.mark.parametrize("n", _EDGES)
def test_randint_matches_torch_on_and_around_the_block_edges(torch, n):
    def draws(T, g):
        return (T.randint(0, 10, (n,), generator=g), T.randint(-7, 2**27, (n,), generator=g, dtype=T.int32),
                T.randint(3, 300, (n,), generator=g, dtype=T.float32), T.randint(0, 2, (n,), generator=g,
                                                                             dtype=T.uint8),
                T.randint(-2**40, 2**40, (min(n, 1000),), generator=g), T.randint(0, 5, (n, 2), generator=g).t())
    _check(torch, draws, seed=n)


def test_random_from_to_into_views_and_after_set_rng_state_matches_torch(torch):
    def draws(T, g):
        x = T.zeros(300, 400)
        x[:, ::2].random_(-5, 5)
        state = T.get_rng_state()
        first = T.randint(0, 1000, (100_000,))
        T.set_rng_state(state)
        return x, first, T.randint(0, 1000, (100_000,)), T.empty(70_000, dtype=T.int16).random_(-3, 12)
    _check(torch, draws, seed=11)


_NORMAL_EDGES = [1, 15, 16, 17, 31, 32, 33, (1 << 14) - 1, 1 << 14, (1 << 14) + 1, (1 << 14) + 16, _BLOCK - 1, _BLOCK,
                 _BLOCK + 1, _BLOCK + 17, 3 * _BLOCK + 5, 1_000_003]


@pytest.fixture
def avx2_torch(torch):
    if torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"):
        pytest.skip("PyTorch's float32 normal_ kernel differs on CPUs without AVX2 (core follows the AVX2 one)")
    return torch


@pytest.mark.parametrize("n", _NORMAL_EDGES)
def test_normal_matches_torch_on_and_around_the_block_edges(avx2_torch, n):
    def draws(T, g):
        return (T.randn(n, generator=g), T.randn(n, dtype=T.float64, generator=g),
                T.empty(n).normal_(0.25, 3.0, generator=g), T.empty(n, dtype=T.float64).normal_(-1.5, 0.5, generator=g),
                T.randn(3, generator=g))
    _check(avx2_torch, draws, seed=n)


@pytest.mark.parametrize("n", [16, 17, _BLOCK + 17, 1_000_003])
def test_rand_and_uniform_match_torch_on_and_around_the_block_edges(torch, n):
    def draws(T, g):
        return (T.rand(n, generator=g), T.rand(n, dtype=T.float64, generator=g),
                T.empty(n).uniform_(-2.0, 0.5, generator=g), T.empty(n, dtype=T.float16).uniform_(generator=g))
    _check(torch, draws, seed=n)


def test_normal_continues_torchs_stream_after_set_rng_state(avx2_torch):
    def draws(T, g):
        T.randn(5)  # a cached second value of the scalar sampler is part of the state
        state = T.get_rng_state()
        first = (T.randn(70_000), T.randn(50_001, dtype=T.float64))
        T.set_rng_state(state)
        if g is not None:
            g.set_state(state)
        return (*first, T.randn(70_000), T.randn(50_001, dtype=T.float64), T.randn(40_000, generator=g),
                T.randn(3, dtype=T.float64, generator=g))
    _check(avx2_torch, draws, seed=5)


@pytest.mark.skipif(not _libm._X87, reason="the bit test reads x87's 80-bit long double (x86-64)")
def test_the_bitwise_halfway_test_of_log_and_exp_asks_the_c_library_exactly_where_the_general_test_does():
    rng = np.random.default_rng(3)
    u = 1 - rng.random(200_000)
    for name, x in (("log", u), ("log", u * 1e-300), ("exp", 1500 * (u - 0.5)), ("exp", 20 * (u - 0.5)),
                    ("exp", np.array([0.0, -745.2, -745.1, -708.4, 709.7, 709.8, np.inf, -np.inf, np.nan]))):
        with np.errstate(all="ignore"):
            wide = getattr(np, name)(x.astype(np.longdouble))
            out = wide.astype(np.float64)
            frac = np.abs((wide - out).astype(np.float64)) / np.spacing(np.abs(out))
        general = (np.abs(frac - 0.5) < _libm._HALFWAY_BAND) | (np.abs(np.frexp(out)[0]) == 0.5) | ~np.isfinite(frac)
        bitwise = _libm._doubtful_x87(wide, out)
        assert not (general & ~bitwise).any()  # every value the general test asks for is asked for
        assert not (bitwise & ~general & (np.abs(out) >= _libm._BITS_FROM) & np.isfinite(out)).any()


def test_log_and_exp_are_the_c_librarys_on_many_draws():
    u = 1 - np.random.default_rng(4).random(100_000)
    assert np.array_equal(_libm.log(u), np.array([math.log(v) for v in u.tolist()]))
    x = 1400 * (u - 0.5)
    expected = [math.exp(v) if v < 709.78 else math.inf for v in x.tolist()]
    with np.errstate(over="ignore"):
        assert np.array_equal(_libm.exp(x), np.array(expected))
    special = np.array([0.0, -1.0, 2.0, np.inf, -np.inf, np.nan, 800.0, -800.0, 1e-310])
    with np.errstate(all="ignore"):
        for name in ("log", "log1p", "exp", "tan"):  # an element the C function refuses: NumPy's value, as before
            guarded = np.asarray(_libm._MATH[name](special), dtype=np.float64)
            assert np.array_equal(_libm._per_element(name, special), guarded, equal_nan=True)
            assert np.array_equal(_libm._per_element(name, u[:500]), np.vectorize(getattr(math, name))(u[:500]))
    grid = u[:6000].reshape(60, 100)
    for view in (grid.T, grid[:, ::3], grid[::2, 1::2].T, np.asarray(grid[3, 5])):
        assert np.array_equal(_libm.log(view), np.vectorize(math.log)(view))
