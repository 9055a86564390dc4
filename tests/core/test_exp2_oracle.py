"""core._exp2: torch's float32 ``exp2`` (SLEEF's exp2f_u10 on two vectors at a time, glibc's exp2f in the tail).

About 6% of torch's float32 exp2s of x in [-20, 20] differ from the correctly rounded values; which ones depends on
where each element falls in torch's loop (vector steps or scalar tail), so sizes and layouts are tested too.
"""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_float32_bits


def _bits(a):
    return np.asarray(a).view(np.uint32)


def test_exp2_over_its_range_random_bits_and_special_values_gives_torchs_bits(torch):
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-20, 20, 200_000), rng.uniform(-160, 130, 200_000),
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 128, 128.1, -150, -150.1, -149.5, 1e30, -1e30]])
    x = np.concatenate([x.astype(np.float32), rng.integers(0, 2 ** 32, 200_000, dtype=np.uint32).view(np.float32)])
    assert_float32_bits(core.exp2(core.from_numpy(x)).numpy(), torch.exp2(torch.from_numpy(x)).numpy())


@pytest.mark.parametrize("n", [1, 7, 31, 32, 33, 47, 64, 95, 16385])
def test_every_size_splits_between_the_vector_steps_and_the_tail_as_torchs(torch, n):
    x = np.random.default_rng(n).uniform(-20, 20, (5, n)).astype(np.float32)
    for row in x:
        assert_float32_bits(core.exp2(core.from_numpy(row)).numpy(), torch.exp2(torch.from_numpy(row)).numpy())


def test_slices_transposes_strides_out_in_place_a_0d_tensor_and_the_gradient_give_torchs_bits(torch):
    x = np.random.default_rng(1).uniform(-20, 20, (70, 50)).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = lib.exp2(t[:, :45])
        (g,) = lib.autograd.grad(y.sum(), t)
        d = lib.from_numpy(x.copy())
        into = lib.empty(70, 50)
        lib.exp2(d, out=into)
        results.append([y.detach(), d.t().exp2(), d[:, ::3].exp2(), d.clone().exp2_(), into, lib.exp2(d[3, 4]), g])
    for got, want in zip(*results):
        assert got.shape == want.shape
        assert_float32_bits(got.numpy(), want.numpy())
