"""torch.std/var over some dims, and var_mean/std_mean, against PyTorch's CPU bits (#19): its ``WelfordOps``
(each output's elements one at a time, in the input's iteration order, in double; one long output split among
threads and combined by Chan's formula), followed by ``core._welford``: step by step over many outputs, by
verified guessing rounds along few long rows."""

from __future__ import annotations

import numpy as np
import pytest

import core

pytestmark = pytest.mark.cpu_only  # (the bits are PyTorch's CPU kernel's)

CASES = [((7, 50), 0), ((7, 50), 1), ((50, 7), -1), ((3, 4, 200), (0, 1)), ((6, 5, 8), (0, 2)), ((300, 2000), 0),
         ((300, 400), 0), ((5, 8), (0, 1)), ((64, 1000), 1), ((3, 5000), 1), ((2, 3, 900), (0, 2))]


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


@pytest.fixture(params=[1, 2, 3], ids=lambda n: f"{n} threads")
def threads(request, torch):
    before = core.get_num_threads(), torch.get_num_threads()
    core.set_num_threads(request.param)
    torch.set_num_threads(request.param)
    yield request.param
    core.set_num_threads(before[0])
    torch.set_num_threads(before[1])


@pytest.mark.parametrize("n", [65, 1000, 32767, 32768, 32769, 100001])
@pytest.mark.parametrize("trend", [0.0, 1.5, 3.0], ids=["mean near zero", "mean away from zero", "a trend"])
def test_var_mean_and_std_mean_of_a_whole_tensor_match_torch_bit_for_bit(torch, threads, n, trend):
    """One output: a single Welford run, or past GRAIN_SIZE on several threads one run each, combined in order
    (a trend makes the runs' means differ, so Chan's correction term shows in the variance's last bits)."""
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n) + (1.5 if trend == 1.5 else np.linspace(0.0, trend * 10, n))
    for dtype in (np.float64, np.float32):
        t, c = torch.from_numpy(a.astype(dtype)), core.tensor(a.astype(dtype))
        for theirs, ours in zip((*torch.var_mean(t), *torch.std_mean(t, correction=0)),
                                (*core.var_mean(c), *core.std_mean(c, correction=0))):
            np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_few_long_rows_with_nan_inf_or_a_broadcast_dim_match_torch_bit_for_bit(torch):
    """The guessing rounds settle on NaN and infinity as the one-at-a-time loop does; a stride-0 dim is walked where
    TensorIterator leaves it (not innermost)."""
    rng = np.random.default_rng(7)
    a = rng.standard_normal((3, 2000))
    a[0, 100], a[1, 1500], a[2, 700] = np.nan, np.inf, -np.inf
    row = rng.standard_normal((1, 300)) * 2 + 1
    for lib_t, lib_c, ours_t, ours_c in ((torch, core, torch.from_numpy(a), core.tensor(a)),
                                         (torch, core, torch.from_numpy(row).expand(5, 300).T,
                                          core.tensor(row).expand(5, 300).T)):
        for dim in (1, None):
            got = lib_c.var_mean(ours_c, dim) if dim is not None else lib_c.var_mean(ours_c)
            want = lib_t.var_mean(ours_t, dim) if dim is not None else lib_t.var_mean(ours_t)
            for theirs, ours in zip(want, got):
                np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
