"""core._mkl_erf: torch's float32 ``erf`` on an AMD CPU (MKL's SSE kernel, not correctly rounded), bit for bit.

About 1.4% of torch's float32 erfs of x in [-5, 5] differ from core's own there. The oracle tests run where
``core._cpu.mkl_vml_sse()`` holds (an AMD CPU: MKL's SSE kernels); elsewhere torch runs MKL's AVX2/AVX-512 kernels,
which differ, and core keeps its own erf. The table's properties are checked on every CPU.
"""

import math

import numpy as np
import pytest

import core
from core import _cpu, _mkl_erf
from tests.core.oracle import assert_float32_bits

amd = pytest.mark.skipif(not _cpu.mkl_vml_sse(), reason="torch's float32 erf here is not MKL's SSE kernel "
                         "(core._cpu.mkl_vml_sse: not an AMD CPU): core keeps its own erf")


def _bits(a):
    return np.asarray(a).view(np.uint32)


def _floats(first, last, step=1):
    """The float32s whose bits lie in [first, last), every ``step``-th."""
    return np.arange(first, last, step, dtype=np.uint32).view(np.float32)


def test_the_table_holds_erf_and_64_exp_of_minus_x0_squared_at_each_256th():
    """Each row: erf(j/256) rounded toward zero plus a 6-bit correction (in 2^-29 of it), and 64 exp(-(j/256)^2);
    rows below 4/256 hold 0 and 64 (x0 is 0 there)."""
    words, heads = _mkl_erf._table()
    x0 = np.arange(len(words)) / 256
    head = ((words & 0x03FFFFFF) + (120 << 23)).astype(np.uint32).view(np.float32).astype(np.float64)
    value = head * (1 + (words >> 26) * 2.0 ** -29)
    exact = np.array([math.erf(v) for v in x0])
    assert (head[4:] <= exact[4:]).all()
    below = exact[4:] - value[4:]                      # the correction is rounded down too
    assert below.min() >= -1e-15 and below.max() <= 2.0 ** -29
    assert (words[:4] == 0).all() and (heads[:4] == 64).all()
    assert np.abs(heads[4:] / np.exp(-x0[4:] ** 2) / 64 - 1).max() <= 2.0 ** -24


@amd
@pytest.mark.parametrize("first, last", [(0x00000000, 0x00800000), (0x3A800000, 0x3B000000), (0x3C000000, 0x3C800000),
                                         (0x3E800000, 0x3F000000), (0x3F800000, 0x40000000), (0x40000000, 0x40800000),
                                         (0x40800000, 0x41000000)],
                         ids=["subnormal", "[2^-10,2^-9)", "[1/128,1/64)", "[1/4,1/2)", "[1,2)", "[2,4)", "[4,8)"])
def test_every_third_float_of_a_binade_gives_torchs_bits(torch, first, last):
    x = _floats(first, last, 3)
    x = np.concatenate([x, -x])
    assert_float32_bits(_mkl_erf.verf(x), torch.from_numpy(x).erf().numpy())


@amd
def test_random_bits_and_special_values_give_torchs_bits(torch):
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -3e-39, 3.9296875, -3.9297, 1e30, 0.013671875,
                         0.0136718745, 3.5527137e-15, 3.5527140e-15], np.float32)
    x = np.concatenate([specials, np.random.default_rng(5).integers(0, 2 ** 32, 300_000, dtype=np.uint32)
                        .view(np.float32), np.random.default_rng(6).uniform(-5, 5, 300_000).astype(np.float32)])
    assert_float32_bits(core.erf(core.from_numpy(x)).numpy(), torch.erf(torch.from_numpy(x)).numpy())


@amd
@pytest.mark.parametrize("n", [1, 2, 7, 15, 16, 17, 33, 64, 65, 16385, 40000])
def test_every_size_layout_and_form_gives_torchs_bits(torch, n):
    """From one element up (torch takes MKL's kernel for every size), views, in place, ``out=``, special.erf."""
    x = np.random.default_rng(n).uniform(-4.5, 4.5, n).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.from_numpy(x.copy())
        into = lib.empty(n)
        lib.erf(t, out=into)
        results.append([t.erf(), t[::2].erf(), t.clone().erf_(), into, lib.special.erf(t), lib.erf(t[0].clone())])
    for got, want in zip(*results):
        assert got.shape == want.shape
        assert_float32_bits(got.numpy(), want.numpy())


@amd
def test_the_normal_cdf_gives_torchs_bits(torch):
    """Normal(0, 1).cdf is 0.5 (1 + erf(x / sqrt 2)): a probit model's printed probabilities."""
    x = np.random.default_rng(7).standard_normal(5000).astype(np.float32) * 2
    results = [lib.distributions.Normal(0.0, 1.0).cdf(lib.from_numpy(x)).numpy() for lib in (core, torch)]
    np.testing.assert_array_equal(_bits(results[0]), _bits(results[1]))
