"""NumPy functions and operators on tensors give tensors, as PyTorch's ``__array_wrap__`` and operator deferral do."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.oracle import check, check_error

RNG = np.random.default_rng(5)
X = RNG.random((2, 3)).astype(np.float32) + 0.5
ROW32 = RNG.random(3).astype(np.float32) + 0.5


@pytest.mark.parametrize("fn", [
    lambda lib, x: np.sqrt(x),
    lambda lib, x: np.exp(x[0, 0]),
    lambda lib, x: np.maximum(x, 1.0),
    lambda lib, x: np.transpose(x.unsqueeze(0), axes=(1, 2, 0)),
    lambda lib, x: np.squeeze(x.unsqueeze(1)),
    lambda lib, x: np.clip(x, 0.6, 0.9),
    lambda lib, x: np.argmax(x),
    lambda lib, x: np.reshape(x, (3, 2)),
])
def test_numpy_functions_on_a_tensor_return_tensors(fn, torch):
    check(fn, [X], torch)


def test_numpy_predicates_on_a_tensor_return_uint8_tensors_as_torch_does(torch):
    result = check(lambda lib, x: np.isnan(x), [X], torch)
    assert str(result.dtype) == "torch.uint8"


# The ndarray operand is ROW32 itself (the oracle turns array arguments into tensors).
@pytest.mark.parametrize("fn", [
    lambda lib, x: x + ROW32,
    lambda lib, x: x - ROW32,
    lambda lib, x: x * ROW32.astype(np.float64),
    lambda lib, x: x / ROW32.astype(np.int64).clip(1),
    lambda lib, x: x // ROW32,
    lambda lib, x: x % ROW32,
    lambda lib, x: x ** ROW32,
    lambda lib, x: (x > 1) & (ROW32 > 1),
])
def test_tensor_operators_with_an_ndarray_compute_as_numpy_and_return_tensors(fn, torch):
    check(fn, [X], torch)


def test_an_ndarray_on_the_left_of_a_tensor_operator_raises_type_error(torch):
    check_error(lambda lib, x: ROW32 * x, [X], torch)
    check_error(lambda lib, x: ROW32 - x, [X], torch)


def test_a_tensor_that_requires_grad_refuses_ndarray_arithmetic(torch):
    check_error(lambda lib, x: x.requires_grad_() - ROW32, [X], torch, match="requires grad")


def test_tensor_equals_ndarray_elementwise_as_a_bool_tensor(torch):
    result = check(lambda lib, x: x == X.astype(np.float64), [X], torch)
    assert str(result.dtype) == "torch.bool"
    check(lambda lib, x: x[0] == np.array([X[0, 0], 0.0, X[0, 2]]), [X], torch)


def test_tensor_not_equal_ndarray_is_python_identity_as_in_torch(torch):
    check(lambda lib, x: x != ROW32, [X], torch)
