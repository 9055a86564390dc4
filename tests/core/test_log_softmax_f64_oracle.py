"""core's float64 log_softmax as PyTorch's AVX-512 kernels compute it, bit for bit.

``_vec_log_softmax_lastdim`` and ``serial_vec_logsoftmax_range`` take SLEEF's ``expd_u10``, add the exps in their
own orders (8 lanes over the last dim; along the dim over another, by 128 KiB chunks whose vector positions take
SLEEF's exp and the rest glibc's) and take the log of the sums with SLEEF's ``logd_u10`` (``core._sleef_logd``);
with NumPy's sum and a correctly rounded log 1-18% of the elements differed. They run where ATen's build is AVX-512
(``core._cpu.capability()``), where core takes those steps; elsewhere core keeps NumPy's.
"""

import numpy as np
import pytest

import core
from core import _cpu

pytestmark = pytest.mark.skipif(_cpu.capability() != "AVX512", reason="core follows PyTorch's float64 log_softmax "
                                "kernels on its AVX-512 build only (core._softmax_kernels)")

SHAPES = [((64, 10), -1), ((3, 1000), -1), ((5,), 0), ((7, 1), -1), ((200, 3), -1), ((2, 100, 400), 1),
          ((3, 2000, 9), 1), ((40, 17), 0), ((4, 5, 6, 7), 2)]


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got.view(np.uint64)[~nan], want.view(np.uint64)[~nan])


@pytest.mark.parametrize(("shape", "dim"), SHAPES, ids=[f"{s}-dim{d}" for s, d in SHAPES])
def test_log_softmax_over_any_dim_gives_torchs_bits(torch, shape, dim):
    """(2, 100, 400) over dim 1 is cut in chunks of 160, 160 and 80 inner positions."""
    x = np.random.default_rng(sum(shape)).standard_normal(shape) * 5
    _same(core.log_softmax(core.from_numpy(x), dim).numpy(), torch.log_softmax(torch.from_numpy(x), dim).numpy())
    _same(core.nn.functional.log_softmax(core.from_numpy(x), dim=dim).numpy(),
          torch.nn.functional.log_softmax(torch.from_numpy(x), dim=dim).numpy())


@pytest.mark.parametrize("sums", ["near 1.5", "near 3", "wide"])
def test_sums_at_the_logs_reduction_boundaries_give_torchs_bits(torch, sums):
    """SLEEF's log splits x = m 2^e with m in [0.75, 1.5): sums just below and above 1.5 and 3, and sums of exps
    spread over many binades."""
    rng = np.random.default_rng(7)
    if sums == "near 1.5":
        b = np.log(0.5) + np.arange(-5000, 5000) * 1.1e-16
        x = np.stack([np.zeros_like(b), b], 1)
    elif sums == "near 3":
        b = -np.arange(1, 10000) * 2.2e-16
        x = np.stack([np.zeros_like(b), np.zeros_like(b), b], 1)
    else:
        x = rng.uniform(-40, 0, (20000, 12))
    _same(core.from_numpy(x).log_softmax(-1).numpy(), torch.from_numpy(x).log_softmax(-1).numpy())


def test_infinities_nans_a_0d_input_and_a_module_give_torchs_bits(torch):
    x = np.array([[0.0, -np.inf, 1.0], [np.inf, 1.0, 2.0], [np.nan, 1.0, 0.0], [-np.inf, -np.inf, -np.inf],
                  [1e300, -1e300, 0.0]])
    for dim in (0, 1):
        _same(core.from_numpy(x).log_softmax(dim).numpy(), torch.from_numpy(x).log_softmax(dim).numpy())
    _same(core.from_numpy(np.array(2.5)).log_softmax(0).numpy(), torch.from_numpy(np.array(2.5)).log_softmax(0).numpy())
    y = np.random.default_rng(1).normal(0, 3, (16, 9))
    _same(core.nn.LogSoftmax(dim=1)(core.from_numpy(y)).numpy(),
          torch.nn.LogSoftmax(dim=1)(torch.from_numpy(y)).numpy())
