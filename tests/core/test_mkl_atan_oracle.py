"""core._mkl_atan: torch's float32 ``atan`` on AMD Zen 4 (MKL's SSE kernel from the CPU's rcpps), bit for bit.

About 6.3% of torch's float32 atans of x in [-10, 10] differ from the correctly rounded values. The kernel starts
from ``rcpps``, whose bits core knows for Zen 4 only, so the oracle tests run where ``core._cpu.mkl_vml_sse_sqrt()``
holds; the table's own properties are checked on every CPU.
"""

import numpy as np
import pytest

import core
from core import _cpu, _mkl_atan
from tests.core.oracle import assert_float32_bits

zen4 = pytest.mark.skipif(not _cpu.mkl_vml_sse_sqrt(), reason="torch's float32 atan here is not MKL's SSE kernel "
                          "on AMD Zen 4's rcpps (core._cpu.mkl_vml_sse_sqrt): core keeps its own")


def _bits(a):
    return np.asarray(a).view(np.uint32)


def test_the_rcpps_table_is_a_12_bit_estimate_of_one_over_x_falling_as_x_grows():
    table = _mkl_atan._rcp_table()
    x = 1 + np.arange(4096) / 4096                  # each key's smallest x
    r = table.view(np.float32).astype(np.float64)
    assert np.abs(r * x - 1).max() <= 1.5 * 2.0 ** -12
    assert not (table & 0x7FF).any() and (np.diff(r) <= 0).all()


@zen4
@pytest.mark.parametrize("first, last", [(0x00000000, 0x01800000), (0x3E800000, 0x3F000000), (0x3F000000, 0x3F800000),
                                         (0x3F800000, 0x40000000), (0x40000000, 0x40800000), (0x40800000, 0x41800000),
                                         (0x7C800000, 0x7F800001)],
                         ids=["tiny", "[1/4,1/2)", "[1/2,1)", "[1,2)", "[2,4)", "[4,16)", "huge"])
def test_every_third_float_of_a_range_gives_torchs_bits(torch, first, last):
    x = np.arange(first, last, 3, dtype=np.uint32).view(np.float32)
    x = np.concatenate([x, -x])
    assert_float32_bits(_mkl_atan.vatan(x), torch.from_numpy(x).atan().numpy())


@zen4
def test_random_bits_and_region_edges_give_torchs_bits(torch):
    edges = np.array([0x3EC00000, 0x3F3851EB, 0x3F3851EC, 0x3FE00000, 0x402C0000, 0x01000000, 0x7D000000],
                     np.int64)
    x = (edges[:, None] + np.arange(-3, 4)).reshape(-1).astype(np.uint32).view(np.float32)
    x = np.concatenate([x, np.array([0.0, np.inf, np.nan], np.float32),
                        np.random.default_rng(5).integers(0, 2 ** 32, 300_000, dtype=np.uint32).view(np.float32)])
    x = np.concatenate([x, -x])
    assert_float32_bits(core.atan(core.from_numpy(x)).numpy(), torch.atan(torch.from_numpy(x)).numpy())


@zen4
@pytest.mark.parametrize("n", [1, 7, 17, 16385])
def test_every_size_layout_and_form_and_the_gradient_give_torchs_bits(torch, n):
    x = np.random.default_rng(n).uniform(-10, 10, n).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = t.atan()
        (g,) = lib.autograd.grad((y * y).sum(), t)
        d = lib.from_numpy(x.copy())
        into = lib.empty(n)
        lib.atan(d, out=into)
        results.append([y.detach(), d[::2].atan(), d.clone().atan_(), into, lib.arctan(d), g])
    for got, want in zip(*results):
        assert_float32_bits(got.numpy(), want.numpy())
