"""Argument forms the OpInfo sweep found core getting wrong: 0-d inputs (``take``'s 0-d index, ``linalg.vander``
of a 0-d x, ``sum_to_size(())``), defaults passed explicitly (``torch.gradient(x, spacing=None)``), ``linalg.vander``'s
N > 1 rule and ``torch.fill``'s gradient; oracle tests."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.oracle import check, check_error, check_grads


@pytest.mark.parametrize(("shape", "index"), [((), 0), ((5,), 2), ((5,), -1)])
def test_take_with_a_zero_dim_index_gives_a_zero_dim_result(torch, shape, index):
    x = np.arange(float(np.prod(shape))).reshape(shape)
    check(lambda lib, t: lib.take(t, lib.tensor(index)), [x], torch)
    check_grads(lambda lib, t: lib.take(t, lib.tensor(index)), [x], torch)


@pytest.mark.parametrize("x", [np.array(2.0), np.array([2.0, 3.0]), np.array([2, 3])])
@pytest.mark.parametrize("n", [None, 2, 3])
def test_linalg_vander_takes_a_zero_dim_x_and_integer_inputs(torch, x, n):
    if n is None and x.size == 1:
        check_error(lambda lib, t: lib.linalg.vander(t), [x], torch)  # (N = 1: "N must be greater than 1.")
    else:
        check(lambda lib, t: lib.linalg.vander(t, N=n), [x], torch)


def test_linalg_vander_refuses_n_of_one_and_bools(torch):
    check_error(lambda lib, t: lib.linalg.vander(t, N=1), [np.array([2.0, 3.0])], torch)
    check_error(lambda lib, t: lib.linalg.vander(t), [np.array([True, False])], torch)


@pytest.mark.parametrize("x", [np.array(True), np.array([True, False]), np.array(2.5), np.array([1, 2])])
def test_sum_to_an_empty_size_is_a_full_sum(torch, x):
    check(lambda lib, t: t.sum_to_size(()), [x], torch)


def test_gradient_takes_its_defaults_passed_explicitly(torch):
    x = np.array([1.0, 4.0, 9.0, 16.0, 25.0])
    check(lambda lib, t: lib.gradient(t, dim=None, spacing=None, edge_order=1), [x], torch)


@pytest.mark.parametrize("value", [2, 2.5, True])
def test_fill_is_differentiable_with_a_zero_gradient(torch, value):
    check_grads(lambda lib, t: lib.fill(t, value) * t, [np.array([1.0, -2.0, 3.0])], torch)


def test_fill_with_a_tensor_value_sends_it_the_gradients_sum(torch):
    check_grads(lambda lib, t, v: lib.fill(t, v) * 2, [np.array([1.0, -2.0, 3.0]), np.array(0.5)], torch)
    check_error(lambda lib, t: lib.fill(t, lib.ones(2)), [np.array([1.0, 2.0])], torch)
