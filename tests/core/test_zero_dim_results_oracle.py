"""Ops on 0-d tensors give results that ``numpy()`` and backward take, as torch's: a reduction or a per-element
Python function of a 0-d array gives NumPy a scalar, not an array (found by the OpInfo sweep); oracle tests."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.oracle import check, check_grads


@pytest.mark.parametrize("ord", [1, 2, 4, 6])
def test_vector_norm_of_a_zero_dim_tensor_converts_to_numpy_and_backpropagates(torch, ord):
    check(lambda lib, x: lib.linalg.vector_norm(x, ord=ord).detach().numpy().shape, [np.array(-1.5)], torch)
    check_grads(lambda lib, x: lib.linalg.vector_norm(x, ord=ord), [np.array(-1.5)], torch)


@pytest.mark.parametrize("name", ["relu6", "hardtanh", "relu"])
def test_clamping_activation_of_a_zero_dim_tensor_backpropagates(torch, name):
    check_grads(lambda lib, x: getattr(lib.nn.functional, name)(x), [np.array(0.5)], torch)


@pytest.mark.parametrize("name", ["log_ndtr", "ndtri", "erfcx"])
@pytest.mark.parametrize("value", [0.25, -2.0])
def test_special_functions_take_zero_dim_tensors(torch, name, value):
    check(lambda lib, x: getattr(lib.special, name)(x), [np.array(value)], torch, rtol=1e-12, atol=0)
