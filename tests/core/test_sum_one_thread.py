"""A float32 sum (and mean, std) to one value of more than 32767 elements, against PyTorch bit for bit when both
run on one thread (``set_num_threads(1)``, as the corpus runner sets): PyTorch's single thread adds it in one
cascade, so core takes its ordered sum at any size then (fast.ai's 11_initializing prints ``xb.mean()`` of a
300x784 batch, a rounding residue whose sign followed the order)."""

from __future__ import annotations

import numpy as np
import pytest

import core


@pytest.fixture
def one_thread(torch):
    before = torch.get_num_threads(), core.get_num_threads()
    torch.set_num_threads(1)
    core.set_num_threads(1)
    yield
    torch.set_num_threads(before[0])
    core.set_num_threads(before[1])


@pytest.mark.parametrize("shape", [(40000,), (100000,), (300, 784), (64, 1000)])
@pytest.mark.parametrize("op", ["sum", "mean", "std"])
def test_large_float32_reduction_to_one_value_matches_torch_on_one_thread(torch, one_thread, shape, op):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    ours, theirs = getattr(core.tensor(x), op)().numpy(), getattr(torch.tensor(x), op)().numpy()
    np.testing.assert_array_equal(ours, theirs)
