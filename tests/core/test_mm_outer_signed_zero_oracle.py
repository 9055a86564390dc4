"""A matrix product over K = 1 with more than one row and column (a batch-of-one Linear's weight gradient,
``g.T @ x``) keeps each product's sign of zero as torch's MKL GEMM does (beta = 0: each product written as it is):
a negative input times a ReLU's zero gradient prints -0.0 in torch, where NumPy's BLAS gave +0.0 (arkeodev's dynamic
computation graph notebook, found by the corpus). With one row or one column torch's zeros stay NumPy's."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy


def _operands(m, n, dtype, a_transposed, b_transposed):
    rng = np.random.default_rng(m * 1000 + n)
    a = rng.standard_normal((m, 1)).astype(dtype)
    b = rng.standard_normal((1, n)).astype(dtype)
    b[b > 0] = 0.0  # zeros beside negative inputs: -0.0 products
    return a, b, a_transposed, b_transposed


def _mm(lib, a, b, a_transposed, b_transposed):
    x, y = lib.tensor(a), lib.tensor(b)
    x = x.t().contiguous().t() if a_transposed else x
    y = y.t().contiguous().t() if b_transposed else y
    return lib.mm(x, y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,n", [(2, 2), (3, 4), (16, 16), (64, 33), (1000, 3), (1, 7), (7, 1), (1, 1)])
@pytest.mark.parametrize("layout", [(False, False), (False, True), (True, False), (True, True)])
def test_mm_over_one_column_keeps_torchs_signed_zeros(torch, dtype, m, n, layout):
    a, b, *flags = _operands(m, n, dtype, *layout)
    ours, theirs = to_numpy(_mm(core, a, b, *flags)), to_numpy(_mm(torch, a, b, *flags))
    assert np.array_equal(ours, theirs)
    assert np.array_equal(np.signbit(ours), np.signbit(theirs))


def _batch_of_one_linear_grad(lib):
    x = lib.tensor([[-0.5, 2.0, -3.0]], requires_grad=True)
    w = lib.tensor([[1.0, -1.0], [1.0, 1.0], [0.5, 2.0]], requires_grad=True)
    lib.nn.functional.relu(x @ w).backward(lib.ones(1, 2))
    return w.grad


def test_a_batch_of_one_weight_gradient_through_relu_prints_torchs_negative_zeros(torch):
    assert str(_batch_of_one_linear_grad(core)) == str(_batch_of_one_linear_grad(torch))
