"""core._mkl_tanh: torch's float32 ``tanh`` on an AMD CPU (MKL's SSE kernel's piecewise polynomials), bit for bit.

About 0.05% of torch's float32 tanhs differ from the correctly rounded values core computes on other CPUs. The
kernel's steps use no CPU estimate, so the oracle tests run where ``core._cpu.mkl_vml_sse()`` holds (an AMD CPU);
the coefficient table's own properties are checked on every CPU.
"""

import numpy as np
import pytest

import core
from core import _cpu, _mkl_tanh
from tests.core.oracle import assert_float32_bits
from tests.core.reference_cpu import assert_bits_where_blocked

amd = pytest.mark.skipif(not _cpu.mkl_vml_sse(), reason="torch's float32 tanh here is not MKL's SSE kernel "
                         "(core._cpu.mkl_vml_sse): core keeps its correctly rounded one")


def _bits(a):
    return np.asarray(a).view(np.uint32)


def test_each_intervals_polynomial_is_tanh_within_an_ulp_on_its_interval():
    rows = _mkl_tanh._rows()
    for i in range(27):
        low = 0.0 if i == 0 else 2.0 ** ((i - 1) // 4 - 3) * (1 + ((i - 1) % 4) / 4)
        high = 0.125 if i == 0 else (np.inf if i == 26 else 2.0 ** (i // 4 - 3) * (1 + (i % 4) / 4))
        a = np.linspace(low, min(high, 20.0), 1001)[1:-1]
        p = sum(rows[6 - j, i] * a ** j for j in range(7))
        assert (np.abs(p - np.tanh(a)) / np.tanh(a)).max() < 2.0 ** -24  # under half a float32 ulp


def test_core_tanh_keeps_its_other_dtypes_numpys():
    """(float64 on an AMD CPU is MKL's too: ``core._mkl_tanhd``, tests/core/test_mkl_tanhd_oracle.py.)"""
    x = np.random.default_rng(0).uniform(-5, 5, (2, 1000)).view(np.complex128)
    np.testing.assert_array_equal(core.tanh(core.from_numpy(x)).numpy(), np.tanh(x))


@amd
@pytest.mark.parametrize("first, last", [(0x00000000, 0x01000000), (0x3D000000, 0x3E800000), (0x3E800000, 0x3F800000),
                                         (0x3F800000, 0x40800000), (0x40800000, 0x41800000), (0x41800000, 0x42000000),
                                         (0x7E800000, 0x7F800001)],
                         ids=["tiny", "[1/32,1/4)", "[1/4,1)", "[1,4)", "[4,16)", "[16,32)", "huge"])
def test_every_third_float_of_a_range_gives_torchs_bits(torch, first, last):
    x = np.arange(first, last, 3, dtype=np.uint32).view(np.float32)
    x = np.concatenate([x, -x])
    assert_float32_bits(_mkl_tanh.vtanh(x), torch.from_numpy(x).tanh().numpy())


@amd
def test_random_bits_interval_edges_and_specials_give_torchs_bits(torch):
    edges = np.array([0x3E000000 + (k << 21) for k in range(27)] + [0x7F200000, 0x00800000], np.int64)
    x = (edges[:, None] + np.arange(-3, 4)).reshape(-1).astype(np.uint32).view(np.float32)
    x = np.concatenate([x, np.array([0.0, 1e-45, np.inf, np.nan, 3.4e38], np.float32),
                        np.random.default_rng(5).integers(0, 2 ** 32, 300_000, dtype=np.uint32).view(np.float32)])
    x = np.concatenate([x, -x])
    assert_float32_bits(core.tanh(core.from_numpy(x)).numpy(), torch.tanh(torch.from_numpy(x)).numpy())


@amd
@pytest.mark.parametrize("n", [1, 7, 17, 16385])
def test_every_size_layout_and_form_and_the_gradient_give_torchs_bits(torch, n):
    x = np.random.default_rng(n).normal(0, 3, n).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = t.tanh()
        (g,) = lib.autograd.grad((y * y).sum(), t)
        d = lib.from_numpy(x.copy())
        into = lib.empty(n)
        lib.tanh(d, out=into)
        results.append([y.detach(), d[::2].tanh(), d.clone().tanh_(), into, lib.nn.Tanh()(d),
                        lib.nn.functional.tanh(d), d.reshape(1, -1).t().tanh(), g])
    for got, want in zip(*results):
        assert_float32_bits(got.numpy(), want.numpy())


@amd
def test_a_tanh_mlps_training_steps_give_torchs_bits(torch):
    rng = np.random.default_rng(3)
    x, target = rng.normal(0, 2, (64, 4)).astype(np.float32), rng.normal(0, 1, (64, 16)).astype(np.float32)
    params = []
    for lib in (core, torch):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 32), lib.nn.Tanh(), lib.nn.Linear(32, 32), lib.nn.Tanh(),
                                  lib.nn.Linear(32, 16))  # (16 outputs: core's GEMM gives torch's bits on Zen 4)
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            lib.nn.functional.mse_loss(model(lib.from_numpy(x)), lib.from_numpy(target)).backward()
            opt.step()
        params.append([p.detach().numpy().copy() for p in model.parameters()])
    for got, want in zip(*params):  # (the (64, 32) @ (32, 32) layer is MKL's blocked sgemm: where core does not
        assert_bits_where_blocked(got, want, max_ulp=1, of_largest=True)  # follow it, within an ulp of the largest)
