"""Float32 sums against PyTorch bit for bit: to one value of more than 32767 elements (and mean, std) when both
run on one thread (``set_num_threads(1)``, as the corpus runner sets): PyTorch's single thread adds it in one
cascade, so core takes its ordered sum at any size then (fast.ai's 11_initializing prints ``xb.mean()`` of a
300x784 batch, a rounding residue whose sign followed the order); over leading and trailing dims around kept ones."""

from __future__ import annotations

import numpy as np
import pytest

import core


@pytest.mark.parametrize("shape", [(40000,), (100000,), (300, 784), (64, 1000)])
@pytest.mark.parametrize("op", ["sum", "mean", "std"])
def test_large_float32_reduction_to_one_value_matches_torch_on_one_thread(torch, one_thread, shape, op):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    ours, theirs = getattr(core.tensor(x), op)().numpy(), getattr(torch.tensor(x), op)().numpy()
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("shape, dims", [((16, 8, 14, 14), (0, 2, 3)), ((4, 3, 2, 2), (0, 2, 3)), ((5, 6, 7), (0, 2)),
                                         ((2, 3, 4, 5, 6), (0, 1, 3, 4)), ((2, 3, 4, 5, 6), (0, 4))])
@pytest.mark.parametrize("op", ["sum", "mean"])
@pytest.mark.parametrize("keepdim", [False, True])
def test_float32_sum_over_leading_and_trailing_dims_matches_torch(torch, one_thread, shape, dims, op, keepdim):
    """``x.mean((0, 2, 3))`` of an NCHW batch: each (n, c) row of H*W elements in PyTorch's cascade order, then the
    row sums over n one after another."""
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    ours = getattr(core.tensor(x), op)(dims, keepdim=keepdim).numpy()
    theirs = getattr(torch.tensor(x), op)(dims, keepdim=keepdim).numpy()
    np.testing.assert_array_equal(ours, theirs)
