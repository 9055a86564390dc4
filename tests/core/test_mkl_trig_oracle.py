"""core._mkl_trig: torch's float32 ``sin``, ``cos`` and ``tan`` (MKL's vector math, not correctly rounded), bit for bit.

About 5% of torch's float32 sines and cosines of |x| in [0.25, 4096] are an ulp from the correctly rounded values,
so every sinusoidal positional encoding printed in a transformer tutorial differed in its last digit. torch runs
MKL's SSE kernels on an AMD CPU (``core._cpu.mkl_vml_sse()``) and its AVX2/AVX-512 ones on an Intel CPU, which
give the same bits for |x| <= 10000 but for 10 inputs in [3279, 10000] (near multiples of pi/2) and differ in
~0.02% of larger ones: the tests of |x| < 2048 run on every CPU, the others where the SSE kernels run.
"""

import numpy as np
import pytest

import core
from core import _cpu, _mkl_trig
from tests.core.oracle import assert_float32_bits

amd = pytest.mark.skipif(not _cpu.mkl_vml_sse(), reason="torch's float32 sin and cos of |x| > 10000 are MKL's SSE "
                         "kernels' only on an AMD CPU (core._cpu.mkl_vml_sse); Intel's kernels differ in ~0.02%")


def _bits(a):
    return np.asarray(a).view(np.uint32)


def _floats(first, last, step=1):
    """The float32s whose bits lie in [first, last), every ``step``-th."""
    return np.arange(first, last, step, dtype=np.uint32).view(np.float32)


@pytest.mark.parametrize("op", ["sin", "cos"])
@pytest.mark.parametrize("first, last", [(0x3D800000, 0x3E000000), (0x3F800000, 0x40000000),
                                         (0x44800000, 0x45000000), (0x00000000, 0x00800000)],
                         ids=["[1/16,1/8)", "[1,2)", "[1024,2048)", "subnormal"])
def test_every_third_float_of_a_binade_gives_torchs_bits(torch, op, first, last):
    x = _floats(first, last, 3)
    x = np.concatenate([x, -x])
    assert_float32_bits(getattr(_mkl_trig, "v" + op)(x), getattr(torch.from_numpy(x), op)().numpy())


@amd
@pytest.mark.parametrize("op", ["sin", "cos"])
def test_floats_next_to_multiples_of_half_pi_give_torchs_bits(torch, op):
    """Where the reduction cancels most bits: k pi/2 rounded to float32 and its four neighbours each side, up to
    |x| = 10000."""
    near = (np.arange(1, 6367) * (np.pi / 2)).astype(np.float32).view(np.uint32).astype(np.int64)
    x = (near[:, None] + np.arange(-4, 5)).reshape(-1).astype(np.uint32).view(np.float32)
    x = np.concatenate([x, -x])
    assert_float32_bits(getattr(core.from_numpy(x), op)().numpy(), getattr(torch.from_numpy(x), op)().numpy())


@amd
@pytest.mark.parametrize("op", ["sin", "cos"])
@pytest.mark.parametrize("first, last", [(0x45800000, 0x46000000), (0x46000000, 0x46800000),
                                         (0x49800000, 0x4A000000), (0x5D800000, 0x5E000000),
                                         (0x7F000000, 0x7F800000)],
                         ids=["[4096,8192)", "[8192,16384)", "[2^20,2^21)", "[2^60,2^61)", "top"])
def test_large_arguments_of_a_binade_give_torchs_bits(torch, op, first, last):
    """Beyond 10000 the kernel reduces by 2 pi with 96 bits of 1/(2 pi) and a 256-entry table."""
    x = _floats(first, last, 7)
    x = np.concatenate([x, -x])
    assert_float32_bits(getattr(_mkl_trig, "v" + op)(x), getattr(torch.from_numpy(x), op)().numpy())


@amd
@pytest.mark.parametrize("op", ["sin", "cos"])
def test_random_bits_and_special_values_give_torchs_bits(torch, op):
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e4, -1e4, 10000.001, -10000.001, 3.4028235e38,
                         -3.4028235e38, 1e-45, -1e-45, 1.1754944e-38, 105414.35, 1e30], np.float32)
    x = np.concatenate([specials, np.random.default_rng(5).integers(0, 2 ** 32, 300_000, dtype=np.uint32)
                        .view(np.float32)])
    assert_float32_bits(getattr(core.from_numpy(x), op)().numpy(), getattr(torch.from_numpy(x), op)().numpy())


@pytest.mark.parametrize("n", [1, 2, 7, 15, 16, 17, 33, 16385, 40000])
@pytest.mark.parametrize("op", ["sin", "cos"])
def test_every_size_layout_and_form_gives_torchs_bits(torch, op, n):
    """From one element up (torch takes MKL's kernel for every size, its tail included), views, in place,
    ``out=``, across core's blocks."""
    x = np.random.default_rng(n).uniform(-60, 60, n).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.from_numpy(x.copy())
        into = lib.empty(n)
        getattr(lib, op)(t, out=into)
        results.append([getattr(t, op)(), getattr(t[::2], op)(), getattr(t.clone(), op + "_")(), into,
                        getattr(lib, op)(t[0].clone())])
    for got, want in zip(*results):
        assert got.shape == want.shape
        assert_float32_bits(got.numpy(), want.numpy())


@pytest.mark.parametrize("op", ["sin", "cos"])
def test_a_transposed_and_a_0d_tensor_give_torchs_bits(torch, op):
    x = np.random.default_rng(1).uniform(-9, 9, (64, 48)).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.from_numpy(x.copy())
        results.append([getattr(t.t(), op)(), getattr(t[:, ::3], op)(), getattr(lib.tensor(1.2345), op)()])
    for got, want in zip(*results):
        assert got.shape == want.shape and got.stride() == want.stride()
        assert_float32_bits(got.numpy(), want.numpy())


def test_a_sinusoidal_positional_encoding_gives_torchs_bits(torch):
    """The transformer tutorial's table: sin and cos of position * 10000^(-2i/d) (the angles given to both as the
    same float32 array, so the test does not depend on which exp either library takes)."""
    d_model, max_len = 64, 2000
    div_term = np.exp(np.arange(0, d_model, 2, dtype=np.float32) * np.float32(-np.log(10000.0) / d_model))
    angles = np.arange(max_len, dtype=np.float32)[:, None] * div_term.astype(np.float32)
    tables = []
    for lib in (core, torch):
        a = lib.from_numpy(angles)
        pe = lib.zeros(max_len, d_model)
        pe[:, 0::2] = lib.sin(a)
        pe[:, 1::2] = lib.cos(a)
        tables.append(pe.numpy())
    np.testing.assert_array_equal(_bits(tables[0]), _bits(tables[1]))


@pytest.mark.parametrize("op", ["sin", "cos"])
def test_first_and_second_gradients_give_torchs_bits(torch, op):
    """sin's gradient is g * cos(x), cos's -g * sin(x): torch's backward takes the same MKL kernels."""
    x = np.random.default_rng(2).uniform(-30, 30, 500).astype(np.float32)
    w = np.random.default_rng(3).uniform(-2, 2, 500).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        (g,) = lib.autograd.grad((getattr(lib, op)(t) * lib.tensor(w)).sum(), t, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), t)
        results.append([g.detach().numpy(), gg.numpy()])
    for got, want in zip(*results):
        np.testing.assert_array_equal(_bits(got), _bits(want))


def test_the_tables_are_one_over_two_pi_and_the_turns_sines_and_cosines():
    """Each exponent's 96 bits are floor(2^(e-55)/pi) mod 2^96; each turn's row splits sin and cos of 2 pi j/256
    into float32 parts (a power of two for the cosine's head)."""
    words = _mkl_trig._inv_2pi_words().astype(np.float64)
    e = 150  # x in [2^23, 2^24): 2^95 / pi's top word is floor(2^31 / pi)'s
    assert words[e, 0] == np.floor(2.0 ** 31 / np.pi)
    table = _mkl_trig._turn_table().astype(np.float64)
    theta = 2 * np.pi * np.arange(256) / 256
    assert np.abs(table[:, 1] + table[:, 2] - np.sin(theta)).max() <= 1e-15
    assert np.abs(table[:, 0] + table[:, 3] - np.cos(theta)).max() <= 1e-7
    heads = table[:, 3][table[:, 3] != 0]
    assert (np.log2(np.abs(heads)) == np.round(np.log2(np.abs(heads)))).all()


@amd
@pytest.mark.parametrize("first, last", [(0x3D800000, 0x3E000000), (0x3F800000, 0x40000000),
                                         (0x44800000, 0x45000000), (0x45800000, 0x46000000), (0x00000000, 0x00800000)],
                         ids=["[1/16,1/8)", "[1,2)", "[1024,2048)", "[4096,8192)", "subnormal"])
def test_tan_of_every_third_float_of_a_binade_gives_torchs_bits(torch, first, last):
    """tan (MKL's SSE kernel on an AMD CPU; Intel's kernels differ in ~18%) for |x| <= 10000."""
    x = _floats(first, last, 3)
    x = np.concatenate([x, -x])
    assert_float32_bits(_mkl_trig.vtan(x), torch.from_numpy(x).tan().numpy())


@amd
def test_tan_next_to_its_poles_and_of_random_bits_gives_torchs_bits(torch):
    """Next to odd multiples of pi/2 (the rational function's denominator cancels) and random bit patterns up to
    |x| = 10000 (beyond, core's tan is the correctly rounded one: ~0.1% differ from torch's table method)."""
    near = (np.arange(1, 6367) * (np.pi / 2)).astype(np.float32).view(np.uint32).astype(np.int64)
    poles = (near[:, None] + np.arange(-4, 5)).reshape(-1).astype(np.uint32).view(np.float32)
    bits = np.random.default_rng(8).integers(0, 2 ** 32, 400_000, dtype=np.uint32).view(np.float32)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e4, -1e4, 1e-45], np.float32)
    x = np.concatenate([poles, -poles, bits[np.abs(bits) <= 1e4], specials])
    assert_float32_bits(core.tan(core.from_numpy(x)).numpy(), torch.tan(torch.from_numpy(x)).numpy())


@amd
@pytest.mark.parametrize("n", [1, 7, 17, 16385])
def test_tan_of_every_size_layout_and_form_and_its_gradient_give_torchs_bits(torch, n):
    x = np.random.default_rng(n).uniform(-60, 60, n).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = t.tan()
        (g,) = lib.autograd.grad((y * 0.5).sum(), t)
        d = lib.from_numpy(x.copy())
        results.append([y.detach(), d[::2].tan(), d.clone().tan_(), g])
    for got, want in zip(*results):
        assert_float32_bits(got.numpy(), want.numpy())
