"""core._mkl_vml: torch's float64 ``exp`` on an AMD CPU, MKL's SSE kernel, bit for bit.

There about 4.5% of torch's float64 exps differ from NumPy's (and so from core's former ``exp``); float64 models
(zuko's flows, Gaussian processes) take exps everywhere. The oracle tests run where ``core._cpu.mkl_vml_sse()``
holds (an AMD CPU); elsewhere core keeps NumPy's exp. The constants' own properties are checked on every CPU.
"""

import decimal

import numpy as np
import pytest

import core
from core import _cpu, _mkl_vml

amd = pytest.mark.skipif(not _cpu.mkl_vml_sse(), reason="torch's float64 exp here is not MKL's SSE kernel "
                         "(core._cpu.mkl_vml_sse: not an AMD CPU): core takes NumPy's")


def _bits(a):
    return np.asarray(a).view(np.uint64)


def _same(got, want):
    """Bit for bit, NaNs as NaNs (any payload)."""
    got, want = np.asarray(got), np.asarray(want)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(_bits(got)[~nan], _bits(want)[~nan])


def test_the_table_and_the_split_of_ln2_over_64():
    """T_j + t_j is 2^(j/64) to about 2^-104 relative; L1 + L2 is ln2/64 to 2^-90 relative; L1's last 16 bits are
    zero (n * L1 is exact for |n| < 2^16)."""
    inv, l1, l2, high, low = _mkl_vml._dexp_constants()
    d = decimal.Decimal
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        ln2 = d(2).ln()
        for j in (0, 1, 17, 32, 63):
            exact = (ln2 * j / 64).exp()
            assert abs(d(float(high[j])) + d(float(low[j])) - exact) < exact * d(2) ** -104
        assert abs(d(l1) + d(l2) - ln2 / 64) < ln2 / 64 * d(2) ** -90
        assert inv == float(64 / ln2)
    assert int(_bits(np.float64(l1))) & 0xFFFF == 0


@amd
@pytest.mark.parametrize("low, high", [(-20, 20), (-708.39, 708.39), (-1e-6, 1e-6), (-800, 800)])
def test_uniform_inputs_give_torchs_bits(torch, low, high):
    x = np.random.default_rng(0).uniform(low, high, 200_003)
    _same(core.exp(core.from_numpy(x)).numpy(), torch.exp(torch.from_numpy(x)).numpy())


@amd
def test_random_bits_and_edges_give_torchs_bits(torch):
    """The scalar path (|x| >= 708.3964, subnormal results, overflow, inf, NaN) and random bit patterns."""
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 2.2250738585072014e-308, 708.3964185322641,
             708.39641853226, 709.782712893384, 709.7827128933841, -708.3964185322641, -745.1332191019411,
             -745.1332191019412, -740.0, 1e-300, -1e-300]
    x = np.concatenate([np.array(edges), np.random.default_rng(1).integers(0, 2 ** 64, 300_000, dtype=np.uint64)
                        .view(np.float64)])
    _same(core.exp(core.from_numpy(x)).numpy(), torch.exp(torch.from_numpy(x)).numpy())


@amd
@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 5), (8193,)])
def test_any_size_layout_and_in_place_gives_torchs_bits(torch, shape):
    """Sizes below one SSE step and across blocks; a transposed view; ``exp_``."""
    x = np.random.default_rng(2).uniform(-30, 30, shape)
    _same(core.exp(core.tensor(x)).numpy(), torch.exp(torch.tensor(x)).numpy())
    if x.ndim == 2:
        _same(core.tensor(x).t().exp().numpy(), torch.tensor(x).t().exp().numpy())
    a, b = core.tensor(x), torch.tensor(x)
    a.exp_()
    b.exp_()
    _same(a.numpy(), b.numpy())
