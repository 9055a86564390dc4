"""``core._glibc_log``: glibc's double ``log`` redone on arrays gives the C library's values bit for bit.

float64 ``normal_`` takes ``log`` of half its uniforms (PyTorch calls ``std::log``); core runs glibc's algorithm in
NumPy and asks the C library (``math.log``) only where the port cannot be sure of the rounding. These tests compare
``core._libm.log`` with ``math.log`` element by element on the draws the sampler makes, around 1 (glibc's second
path), over every binade and on the inputs the port leaves to the C library, and float64 normals with PyTorch.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import core
from core import _glibc_log, _libm
from tests.core.oracle import to_numpy

pytestmark = pytest.mark.skipif(not _glibc_log.available(), reason="the C library's log is not glibc's here")


def _c_log(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.array([math.log(v) if v > 0 and v == v else float(np.log(np.float64(v))) for v in x.tolist()])


def test_log_of_the_normal_samplers_uniforms_is_the_c_librarys():
    rng = np.random.default_rng(0)
    u = rng.integers(0, 2**53, 400_000, dtype=np.int64) * 2.0**-53  # float64 uniforms as PyTorch makes them
    w = 1.0 - u
    assert np.array_equal(_libm.log(w), _c_log(w))
    tiny = 1.0 - np.arange(1, 5000) * 2.0**-53  # the draws closest to 1, and the smallest ones
    small = np.arange(1, 5000) * 2.0**-53
    for x in (tiny, small):
        assert np.array_equal(_libm.log(x), _c_log(x))


def test_log_near_one_and_over_every_binade_is_the_c_librarys():
    rng = np.random.default_rng(1)
    near = 1.0 + rng.uniform(-2.0**-4, float.fromhex("0x1.09p-4"), 300_000)  # glibc's second polynomial
    edges = np.array([1.0 - 2.0**-4, np.nextafter(1.0 - 2.0**-4, 0), 1.0 + float.fromhex("0x1.09p-4"),
                      np.nextafter(1.0 + float.fromhex("0x1.09p-4"), 2), 1.0, np.nextafter(1.0, 0),
                      np.nextafter(1.0, 2)])
    wide = np.exp2(rng.uniform(-1022, 1024, 300_000))
    powers = np.exp2(np.arange(-1022, 1024, dtype=np.float64))
    for x in (near, edges, wide, powers, np.sqrt(powers[::7]), powers * 0.75):
        assert np.array_equal(_libm.log(x), _c_log(x))


def test_the_port_leaves_every_input_outside_the_positive_normals_to_the_c_library():
    special = np.array([0.0, -0.0, -1.0, -np.inf, np.inf, np.nan, 5e-324, 1e-310, 2.2250738585072014e-308,
                        np.finfo(np.float64).max] + [0.5] * 60)
    _, doubtful = _glibc_log.log(special)
    assert doubtful[:8].all()
    with np.errstate(all="ignore"):
        assert np.array_equal(_libm.log(special), _c_log(special), equal_nan=True)
        assert np.array_equal(_libm.log(special.reshape(7, 10).T), _c_log(special).reshape(7, 10).T, equal_nan=True)


def test_the_port_decides_most_values_itself():
    # the C library is asked only near a rounding midpoint: the port's reason to exist
    x = 1.0 - np.random.default_rng(2).random(100_000)
    _, doubtful = _glibc_log.log(x)
    assert doubtful.mean() < 0.01


@pytest.mark.parametrize("n", [64, 8_191, 16_384 * 3 + 17, 1_000_000])
def test_float64_normal_matches_torch_with_generators_and_after_set_rng_state(torch, n):
    for lib in (core, torch):
        lib.manual_seed(n)
    results = []
    for lib in (core, torch):
        gen = lib.Generator().manual_seed(n + 1)
        a = lib.randn(n, dtype=lib.float64, generator=gen)
        state = gen.get_state()
        b = lib.empty(n, dtype=lib.float64).normal_(2.5, 0.125, generator=gen)
        gen.set_state(state)
        c = lib.empty(n, dtype=lib.float64).normal_(2.5, 0.125, generator=gen)
        lib.set_rng_state(state)
        d = lib.randn(n, dtype=lib.float64)
        results.append([to_numpy(t) for t in (a, b, c, d, lib.get_rng_state())])
    for ours, theirs in zip(*results):
        assert np.array_equal(ours, theirs)


def _float64_draws_without_numpy(lib):
    """Ignite's ``keep_random_state`` test hides NumPy (``sys.modules["numpy"] = None``); float64 draws (the log
    port, the 53-bit draws) must still work there, as torch's do."""
    from unittest.mock import patch

    with patch.dict("sys.modules", {"numpy": None}):
        lib.manual_seed(3)
        return (lib.rand(5, dtype=lib.float64).tolist(), lib.randn(300, dtype=lib.float64).tolist(),
                lib.empty(40, dtype=lib.float64).uniform_().tolist())


def test_float64_draws_work_while_numpy_is_hidden_like_torch(torch):
    assert _float64_draws_without_numpy(core) == _float64_draws_without_numpy(torch)
