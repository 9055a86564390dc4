"""torch.std/var of a whole float32/float64 tensor against PyTorch's CPU bits (#19): ATen's ``std_var_all_cpu``
(the mean first, then each thread's left-to-right double sum of squared deviations, split as ``parallel_reduce``
splits around GRAIN_SIZE = 32768; so the bits depend on the thread count, which each test sets in both)."""

from __future__ import annotations

import numpy as np
import pytest

import core

pytestmark = pytest.mark.cpu_only  # (the bits are PyTorch's CPU kernel's)

SIZES = [1, 2, 7, 1000, 32767, 32768, 32769, 65537, 98305, 1_000_000]


def _forms(lib, x):
    """The calls that reduce everything: no dim, every dim (keepdim), correction 0, unbiased=False."""
    every = tuple(range(x.dim()))
    return [x.std(), x.var(), x.var(correction=0), x.std(unbiased=False), x.std(dim=every, keepdim=True),
            lib.var(x, every, correction=2)]


def _assert_same_bits(torch, a, threads, transpose=False):
    torch.set_num_threads(threads)
    core.set_num_threads(threads)
    t, c = torch.from_numpy(a), core.tensor(a)
    if transpose:
        t, c = t.T, c.T
    for theirs, ours in zip(_forms(torch, t), _forms(core, c)):
        assert ours.dtype == getattr(core, str(theirs.dtype).split(".")[1]) and ours.shape == theirs.shape
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.filterwarnings("ignore:std\\(\\)|var\\(\\):UserWarning")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_std_and_var_of_everything_match_torch_bit_for_bit(torch, n, dtype, threads):
    a = (np.random.default_rng(n).standard_normal(n) * 3 + 1.5).astype(dtype)
    _assert_same_bits(torch, a, threads)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(4, 25000), (300, 400), (1, 70000)])
def test_std_and_var_of_a_transposed_matrix_match_torch_bit_for_bit(torch, shape, dtype):
    a = (np.random.default_rng(3).standard_normal(shape) * 2 - 0.5).astype(dtype)
    for transpose in (False, True):
        _assert_same_bits(torch, a, 2, transpose)


def test_std_of_everything_keeps_torchs_gradient(torch):
    a = np.random.default_rng(5).standard_normal(10_000)
    t, c = torch.tensor(a, requires_grad=True), core.tensor(a, requires_grad=True)
    t.std().backward()
    c.std().backward()
    np.testing.assert_array_equal(c.grad.numpy(), t.grad.numpy())


def _views(lib, a):
    """Strided and expanded views whose iteration has two or more dims (so ATen's loop restarts its partial sum
    at each 2-d call), none past 32,767 elements (their mean is a strided sum in torch's order on any threads)."""
    t = lib.from_numpy(a) if lib is not core else lib.tensor(a)
    return [t.reshape(8, 8, 1000)[:, ::2, :999], t[0].expand(20, 1000), t[:3, None, :].expand(3, 10, 1000),
            t.reshape(4, 16, 10, 100)[:, ::3, :, ::2], t[:, 3], t.T[::3], t[::2, 1::3]]


def _long_views(lib, a):
    """Longer strided and expanded views (on one thread PyTorch's mean of any size follows one order)."""
    t = lib.from_numpy(a) if lib is not core else lib.tensor(a)
    return [t.reshape(4, 16, 1000)[:, ::2, 1:].expand(3, 4, 8, 999), t[:2, None, :].expand(2, 40, 1000)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_std_and_var_of_a_strided_or_expanded_view_match_torch_bit_for_bit(torch, dtype, threads):
    """std_var_all_cpu over a view that does not coalesce to one dim: each 2-d call of ATen's loop sums on its
    own and the thread adds the calls' sums; a broadcast dim stays where TensorIterator's sort leaves it."""
    a = (np.random.default_rng(9).standard_normal((64, 1000)) * 3 + 1.5).astype(dtype)
    torch.set_num_threads(threads)
    core.set_num_threads(threads)
    views = [*zip(_views(torch, a), _views(core, a))]
    if threads == 1:
        views += [*zip(_long_views(torch, a), _long_views(core, a))]
    for t, c in views:
        for theirs, ours in zip(_forms(torch, t), _forms(core, c)):
            np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
