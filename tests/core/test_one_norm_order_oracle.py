"""The 1-norm in PyTorch's order (#19): its CPU kernel (``NormOneOps`` through ``binary_kernel_reduce``, not
vectorised) adds each output's |x| one at a time in memory order, where NumPy's pairwise sum differed in the last
bit of ~half the norms of 16 or more terms. ``linalg.vector_norm``, ``torch.norm``, ``Tensor.norm`` and
``F.pairwise_distance(p=1)`` (sentence-transformers' ContrastiveLoss with the Manhattan distance) bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core

CASES = [((6, 40), -1), ((6, 40), 0), ((3, 5, 33), 1), ((200, 3), 0), ((7, 9), None), ((50,), None),
         ((4, 5, 6), (1, 2)), ((2, 20000), -1), ((6, 1), -1), ((1, 17), -1)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("case", CASES, ids=str)
def test_one_norm_bits(case, keepdim, dtype):
    shape, dim = case
    a = np.random.default_rng(len(shape) * 100 + shape[-1]).standard_normal(shape).astype(dtype)
    for fn in (lambda lib, t: lib.linalg.vector_norm(t, 1, dim=dim, keepdim=keepdim),
               lambda lib, t: lib.norm(t, p=1, dim=dim, keepdim=keepdim),
               lambda lib, t: t.norm(1, dim=dim, keepdim=keepdim)):
        want, got = fn(torch, torch.tensor(a)).numpy(), fn(core, core.tensor(a)).numpy()
        assert got.shape == want.shape and got.dtype == want.dtype
        assert np.array_equal(got, want)


@pytest.mark.parametrize("shape", [(6, 32), (8, 100), (3, 7)], ids=str)
def test_pairwise_distance_p1_values_and_gradients(shape):
    rng = np.random.default_rng(shape[1])
    a, b = rng.standard_normal(shape).astype(np.float32), rng.standard_normal(shape).astype(np.float32)
    g = rng.standard_normal(shape[0]).astype(np.float32)
    out = []
    for lib in (torch, core):
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        d = lib.nn.functional.pairwise_distance(x, y, p=1)
        (d * lib.tensor(g)).sum().backward()
        out.append([d.detach().numpy(), x.grad.numpy(), y.grad.numpy()])
    for want, got in zip(*out):
        assert np.array_equal(got, want)
