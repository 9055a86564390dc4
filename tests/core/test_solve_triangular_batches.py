"""``torch.linalg.solve_triangular`` broadcasts the batch dimensions of ``A`` and ``B`` and always reads ``B`` as a
matrix, against torch: a batch of triangular factors solved against one unbatched identity (GPyTorch's batched
Cholesky root, BoTorch's batched GP posterior variance) gives a batch of solutions, where ``linalg.solve`` would
read a ``B`` shaped like ``A.shape[:-1]`` as a batch of vectors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import core


def _factor(lib, batch=(3,), n=3):
    lib.manual_seed(0)
    a = lib.randn(*batch, n, n, dtype=lib.float64)
    return lib.linalg.cholesky(a @ a.mT + 4 * lib.eye(n, dtype=lib.float64))


@pytest.mark.parametrize("upper,left,unitriangular", list(itertools.product([False, True], repeat=3)))
def test_a_batch_of_factors_against_one_square_matrix(torch, upper, left, unitriangular):
    def run(lib):
        L = _factor(lib)
        T = L.mT if upper else L
        B = lib.eye(3, dtype=lib.float64) + 0.5
        return lib.linalg.solve_triangular(T, B, upper=upper, left=left, unitriangular=unitriangular).numpy()

    ours, theirs = run(core), run(torch)
    assert ours.shape == theirs.shape == (3, 3, 3)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("a_batch,b_shape", [((3,), (1, 3, 2)), ((2, 1), (4, 3, 3)), ((), (5, 3, 3)), ((3,), (3, 3))])
def test_batch_dimensions_broadcast_with_gradients(torch, a_batch, b_shape):
    def run(lib):
        L = _factor(lib, a_batch).requires_grad_()
        lib.manual_seed(1)
        B = lib.randn(*b_shape, dtype=lib.float64, requires_grad=True)
        X = lib.linalg.solve_triangular(L, B, upper=False)
        (X * X).sum().backward()
        return X.detach().numpy(), L.grad.numpy(), B.grad.numpy()

    for ours, theirs in zip(run(core), run(torch)):
        assert ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
