"""core._mkl_vml: torch's float32 ``sqrt``, ``exp`` and ``log`` on an AMD CPU, MKL's SSE kernels, bit for bit.

There about 17% of torch's float32 square roots, 1% of its exps and 8% of its logs are an ulp from the correctly
rounded ones, and every Adam step takes square roots (``exp_avg_sq.sqrt()``). The sqrt oracle tests run where
``core._cpu.mkl_vml_sse_sqrt()`` holds (AMD Zen 4, the only CPU whose ``rsqrtps`` table core has), the exp and log
ones where ``core._cpu.mkl_vml_sse()`` does (an AMD CPU); elsewhere core keeps its correctly rounded functions.
The tables' own properties are checked on every CPU.
"""

import numpy as np
import pytest

import core
from core import _cpu, _mkl_vml

amd = pytest.mark.skipif(not _cpu.mkl_vml_sse(), reason="torch's float32 exp and log here are not MKL's SSE kernels "
                         "(core._cpu.mkl_vml_sse: not an AMD CPU): core takes its correctly rounded ones")
zen4 = pytest.mark.skipif(not _cpu.mkl_vml_sse_sqrt(), reason="torch's float32 sqrt here is not MKL's SSE kernel on "
                          "AMD Zen 4's rsqrtps (core._cpu.mkl_vml_sse_sqrt): core takes NumPy's sqrt")


def _bits(a):
    return np.asarray(a).view(np.uint32)


def _floats(first, last, step=1):
    """The float32s whose bits lie in [first, last), every ``step``-th."""
    return np.arange(first, last, step, dtype=np.uint32).view(np.float32)


def test_the_rsqrtps_table_is_a_12_bit_estimate_of_one_over_sqrt():
    """Each of the 8192 cells of [1, 4) (and its scaled copies) holds a 12-bit estimate within rsqrtps's
    documented bound, 1.5 * 2^-12 relative, falling as x grows."""
    table = _mkl_vml._table()
    x = _floats(0x00800000, 0x7F7FF800, 2047)
    r = table[_bits(x) >> 11].astype(np.float64)
    exact = 1 / np.sqrt(x.astype(np.float64))
    assert np.abs(r / exact - 1).max() <= 1.5 * 2.0 ** -12
    assert not (_bits(table[_bits(x) >> 11]) & 0x7FF).any()
    cells = table[0x3F800000 >> 11:0x40800000 >> 11]
    assert (np.diff(cells) <= 0).all()


@zen4
@pytest.mark.parametrize("first, last", [(0x3F800000, 0x40800000), (0x00800000, 0x01800000),
                                         (0x7F000000, 0x7F800000)], ids=["[1,4)", "[2^-126,2^-124)", "top"])
def test_every_third_float_of_a_binade_pair_gives_torchs_bits(torch, first, last):
    """(Every float of them, and every positive normal float, matched when measured: module docstring.)"""
    x = _floats(first, last, 3)
    np.testing.assert_array_equal(_bits(_mkl_vml.vsqrt(x)), _bits(torch.from_numpy(x).sqrt().numpy()))


@zen4
def test_zeros_subnormals_negatives_infs_nans_and_random_bits_give_torchs_bits(torch):
    x = np.concatenate([np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 3.4028235e38], np.float32),
                        _floats(0, 0x00800000, 97), _floats(0x7F7FE000, 0x7F800000),
                        np.random.default_rng(0).integers(0, 2 ** 32, 200_000, dtype=np.uint32).view(np.float32)])
    got = core.sqrt(core.from_numpy(x)).numpy()
    want = torch.from_numpy(x).sqrt().numpy()
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all()
    np.testing.assert_array_equal(_bits(got[~nan]), _bits(want[~nan]))


@zen4
@pytest.mark.parametrize("n", [1, 2, 7, 8, 15, 16, 17, 33, 1000, 16383, 16384, 16385, 40000])
def test_every_size_gives_torchs_bits(torch, n):
    """From one element up (torch takes MKL's kernel for every size, its tail included), across core's blocks."""
    x = np.random.default_rng(n).uniform(0.5, 8, n).astype(np.float32)
    np.testing.assert_array_equal(_bits(core.sqrt(core.from_numpy(x)).numpy()),
                                  _bits(torch.from_numpy(x).sqrt().numpy()))


@zen4
def test_views_in_place_out_and_a_0d_tensor_give_torchs_bits(torch):
    x = np.random.default_rng(1).uniform(0.5, 8, (64, 48)).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.from_numpy(x.copy())
        into = lib.empty(64, 48)
        lib.sqrt(t, out=into)
        results.append([t.t().sqrt(), t[:, ::3].sqrt(), t[5].sqrt(), t.clone().sqrt_(), into])
    for got, want in zip(*results):
        assert got.shape == want.shape and got.stride() == want.stride()
        np.testing.assert_array_equal(_bits(got.numpy()), _bits(want.numpy()))


@zen4
def test_the_gradient_of_sqrt_gives_torchs_bits(torch):
    x = np.random.default_rng(2).uniform(0.5, 8, 300).astype(np.float32)
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        (t.sqrt() * lib.tensor(x[::-1].copy())).sum().backward()
        grads.append(t.grad.numpy())
    np.testing.assert_array_equal(_bits(grads[0]), _bits(grads[1]))


@pytest.mark.parametrize("op", ["sqrt", "exp", "log"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_a_half_tensors_sqrt_exp_and_log_stay_atens_correctly_rounded_loops(torch, dtype, op):
    """Only float32 goes through MKL: a half type's op is ATen's float32 one rounded to the type."""
    x = np.random.default_rng(3).uniform(0.5, 8, 100).astype(np.float32)
    got = getattr(core.from_numpy(x).to(getattr(core, dtype)), op)().float().numpy()
    want = getattr(torch.from_numpy(x).to(getattr(torch, dtype)), op)().float().numpy()
    np.testing.assert_array_equal(got, want)


def test_the_exp_table_is_two_to_the_j_over_128_split_in_two_float32s():
    high, low = _mkl_vml._exp_table()
    exact = 2.0 ** (np.arange(128) / 128)
    assert (high == exact.astype(np.float32)).all()
    assert np.abs(high.astype(np.float64) + low - exact).max() <= 2.0 ** -48  # (low: 24 bits of the rest)


@amd
@pytest.mark.parametrize("op, first, last", [
    ("exp", 0x3F800000, 0x40000000), ("exp", 0xBF800000, 0xC0000000), ("exp", 0x42A00000, 0x42C00000),
    ("exp", 0xC2A00000, 0xC2E00000), ("exp", 0x00000000, 0x00800000), ("log", 0x3F000000, 0x40000000),
    ("log", 0x40000000, 0x41000000), ("log", 0x00000000, 0x01000000), ("log", 0x7F000000, 0x7F800000)],
    ids=["exp[1,2)", "exp[-2,-1)", "exp[80,96)", "exp[-112,-80)", "exp-subnormal", "log[0.5,2)", "log[2,8)",
         "log-subnormal", "log-top"])
def test_every_third_exp_and_log_of_a_binade_gives_torchs_bits(torch, op, first, last):
    x = _floats(first, last, 3)
    np.testing.assert_array_equal(_bits(getattr(_mkl_vml, "v" + op)(x)),
                                  _bits(getattr(torch.from_numpy(x), op)().numpy()))


@amd
@pytest.mark.parametrize("op", ["exp", "log"])
def test_exp_and_log_of_random_bits_and_special_values_give_torchs_bits(torch, op):
    x = np.concatenate([np.array([0.0, -0.0, -1.0, 1.0, np.inf, -np.inf, np.nan, 88.72283, 88.7229, -103.97, -104.0],
                                 np.float32),
                        np.random.default_rng(5).integers(0, 2 ** 32, 300_000, dtype=np.uint32).view(np.float32)])
    got = getattr(core.from_numpy(x), op)().numpy()
    want = getattr(torch.from_numpy(x), op)().numpy()
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all()
    np.testing.assert_array_equal(_bits(got[~nan]), _bits(want[~nan]))


@amd
@pytest.mark.parametrize("n", [1, 2, 7, 16, 17, 33, 16385, 40000])
@pytest.mark.parametrize("op", ["exp", "log"])
def test_exp_and_log_of_every_size_layout_and_form_give_torchs_bits(torch, op, n):
    x = np.random.default_rng(n).uniform(0.01, 20, n).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.from_numpy(x.copy())
        into = lib.empty(n)
        getattr(lib, op)(t, out=into)
        results.append([getattr(t, op)(), getattr(t[::2], op)(), getattr(t.clone(), op + "_")(), into])
    for got, want in zip(*results):
        np.testing.assert_array_equal(_bits(got.numpy()), _bits(want.numpy()))


@amd
def test_the_gradients_of_exp_and_log_give_torchs_bits(torch):
    x = np.random.default_rng(6).uniform(0.1, 5, 500).astype(np.float32)
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        (t.exp().log1p() + t.log() * t).sum().backward()
        grads.append(t.grad.numpy())
    np.testing.assert_array_equal(_bits(grads[0]), _bits(grads[1]))


@zen4
@pytest.mark.parametrize("options", [{}, {"amsgrad": True}, {"weight_decay": 0.01}], ids=["plain", "amsgrad", "wd"])
@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_over_25_steps_gives_torchs_bits(torch, name, options):
    """torch's single-tensor Adam divides by ``exp_avg_sq.sqrt()``: with MKL's square roots every parameter of
    three tensors stays torch's bit for bit over 25 steps."""
    rng = np.random.default_rng(4)
    values = [rng.standard_normal(s).astype(np.float32) for s in [(40, 30), (30,), (7,)]]
    grads = [[rng.standard_normal(v.shape).astype(np.float32) * np.float32(0.1 * (k % 5 + 1)) for v in values]
             for k in range(25)]
    results = []
    for lib in (core, torch):
        params = [lib.tensor(v, requires_grad=True) for v in values]
        opt = getattr(lib.optim, name)(params, lr=1e-2, **options)
        for step in grads:
            for p, g in zip(params, step):
                p.grad = lib.tensor(g)
            opt.step()
        results.append([p.detach().numpy() for p in params])
    for got, want in zip(*results):
        np.testing.assert_array_equal(_bits(got), _bits(want))
