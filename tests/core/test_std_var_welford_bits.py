"""torch.std/var over some dims, and var_mean/std_mean, against PyTorch's CPU bits (#19): its ``WelfordOps``
(each output's elements one at a time, in the input's memory order, in double) where ``core._var_all.welford``
is cheap: at most 64 reduced elements per output, or no more than the outputs with the reduced dims outermost."""

from __future__ import annotations

import numpy as np
import pytest

import core

pytestmark = pytest.mark.cpu_only  # (the bits are PyTorch's CPU kernel's)

CASES = [((7, 50), 0), ((7, 50), 1), ((50, 7), -1), ((3, 4, 200), (0, 1)), ((6, 5, 8), (0, 2)), ((300, 2000), 0),
         ((300, 400), 0), ((5, 8), (0, 1))]


def _calls(lib, x, dim):
    reversed_dims = x.permute(*reversed(range(x.dim())))  # its last dim strided: the order of a strided dim
    return [x.std(dim), x.var(dim, keepdim=True), x.var(dim, correction=0), x.std(dim, unbiased=False),
            *lib.var_mean(x, dim), *lib.std_mean(x, dim, keepdim=True), reversed_dims.std(-1)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape, dim", CASES)
def test_std_var_and_their_mean_pairs_over_dims_match_torch_bit_for_bit(torch, shape, dim, dtype):
    a = (np.random.default_rng(len(shape)).standard_normal(shape) * 3 + 1.5).astype(dtype)
    for theirs, ours in zip(_calls(torch, torch.from_numpy(a), dim), _calls(core, core.tensor(a), dim)):
        assert ours.shape == theirs.shape
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_std_mean_over_a_dim_keeps_torchs_gradient(torch):
    a = np.random.default_rng(2).standard_normal((6, 40))
    t, c = torch.tensor(a, requires_grad=True), core.tensor(a, requires_grad=True)
    for lib, x in ((torch, t), (core, c)):
        s, m = lib.std_mean(x, 0)
        (s * 2 + m).sum().backward()
    np.testing.assert_allclose(c.grad.numpy(), t.grad.numpy(), rtol=1e-12, atol=0)
