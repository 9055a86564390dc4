"""core._mkl_vml: torch's float64 ``sqrt`` on AMD Zen 4, MKL's SSE kernel, bit for bit.

There about 1.3% of torch's float64 square roots are an ulp from the correctly rounded ones NumPy (and core before)
computes; Adam, RMSprop and every norm of a float64 model take them. The kernel starts from the CPU's ``rsqrtps``, so
the oracle tests run where ``core._cpu.mkl_vml_sse_sqrt()`` holds (AMD Zen 4, the only CPU whose table core has);
elsewhere core keeps NumPy's sqrt.
"""

import numpy as np
import pytest

import core
from core import _cpu, _mkl_vml

zen4 = pytest.mark.skipif(not _cpu.mkl_vml_sse_sqrt(), reason="torch's float64 sqrt here is not MKL's SSE kernel on "
                          "AMD Zen 4's rsqrtps (core._cpu.mkl_vml_sse_sqrt): core takes NumPy's sqrt")


def _same(got, want):
    """Bit for bit, NaNs as NaNs (any payload)."""
    got, want = np.asarray(got), np.asarray(want)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got.view(np.uint64)[~nan], want.view(np.uint64)[~nan])


def _bits(first, count, rng):
    return rng.integers(first, first + count, 200_000, dtype=np.uint64).view(np.float64)


@zen4
def test_uniform_log_uniform_and_random_bits_give_torchs_bits(torch):
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(0, 10, 200_000), np.exp(rng.uniform(-700, 700, 200_000)),
                        rng.integers(0, 2 ** 64, 400_000, dtype=np.uint64).view(np.float64)])
    _same(_mkl_vml.vsqrt64(x), torch.from_numpy(x).sqrt().numpy())


@zen4
@pytest.mark.parametrize("first", [0x0010000000000000, 0x3FF0000000000000, 0x4000000000000000, 0x7FC0000000000000],
                         ids=["[2^-1022,2^-1021)", "[1,2)", "[2,4)", "[2^1020,2^1021)"])
def test_each_binade_parity_and_both_ends_give_torchs_bits(torch, first):
    x = _bits(first, 1 << 52, np.random.default_rng(first >> 52))
    _same(_mkl_vml.vsqrt64(x), torch.from_numpy(x).sqrt().numpy())


@zen4
def test_the_floats_just_below_a_power_of_four_give_torchs_bits(torch):
    """There MKL's kernel rounds x' y + q in two additions (sqrt(4 - 2^-50) is 2.0, not the float below)."""
    x = np.concatenate([0x400FFFFFFFFFFFFF - np.arange(50_000, dtype=np.uint64),
                        0x7FCFFFFFFFFFFFFF - np.arange(50_000, dtype=np.uint64)]).view(np.float64)
    _same(_mkl_vml.vsqrt64(x), torch.from_numpy(x).sqrt().numpy())


@zen4
def test_zeros_subnormals_negatives_infs_nans_and_the_top_give_torchs_bits(torch):
    x = np.concatenate([np.array([0.0, -0.0, -1.0, -1e-300, np.inf, -np.inf, np.nan, 2.0 ** 1022,
                                  np.nextafter(2.0 ** 1022, 0), 2.0 ** -1022, 5e-324, np.finfo(np.float64).max]),
                        np.random.default_rng(1).integers(0, 1 << 52, 10_000, dtype=np.uint64).view(np.float64)])
    _same(core.from_numpy(x).sqrt().numpy(), torch.from_numpy(x).sqrt().numpy())


@zen4
@pytest.mark.parametrize("n", [1, 3, 8, 17, 8191, 8192, 8193, 20000])
def test_every_size_layout_and_form_gives_torchs_bits(torch, n):
    """From one element up, across core's blocks, strided, in place, into out=."""
    x = np.random.default_rng(n).uniform(0.5, 8, n)
    results = []
    for lib in (core, torch):
        t = lib.from_numpy(x.copy())
        into = lib.empty(n, dtype=lib.float64)
        lib.sqrt(t, out=into)
        results.append([t.sqrt(), t[::2].sqrt(), t.clone().sqrt_(), into])
    for got, want in zip(*results):
        _same(got.numpy(), want.numpy())


@zen4
def test_the_gradient_of_sqrt_gives_torchs_bits(torch):
    x = np.random.default_rng(2).uniform(0.5, 8, 300)
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        (t.sqrt() * lib.tensor(x[::-1].copy())).sum().backward()
        grads.append(t.grad.numpy())
    _same(grads[0], grads[1])
