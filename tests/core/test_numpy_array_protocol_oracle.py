"""``np.array``/``np.asarray`` of a tensor behave as for PyTorch's tensors under NumPy 2.

PyTorch's ``Tensor.__array__(dtype=None)`` takes no ``copy`` keyword, so NumPy 2 refuses ``np.array(t, copy=False)``
("Unable to avoid copy", a ValueError) and warns (DeprecationWarning) when it cannot pass ``copy``; ``np.asarray(t)``
still shares memory. A replay buffer written for NumPy 1 (``np.array(action, copy=False)``) fails alike in both.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import raised

VALUES = [[1.5, -2.0, 0.25]]


def _warnings(fn):
    """``(result or error, [(category, message)])`` of ``fn()`` with every warning recorded."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn()
        except Exception as exc:  # the type and text are what is compared
            result = (type(exc).__name__, str(exc))
    return result, [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("convert", [
    lambda lib, t: np.array(t, copy=False),
    lambda lib, t: np.asarray(t, copy=False),
    lambda lib, t: np.array(t[0, 1], copy=False),
    lambda lib, t: np.array(t, dtype=np.float64, copy=False),
], ids=["array", "asarray", "zero_dim", "with_dtype"])
def test_array_with_copy_false_raises_and_warns_as_torch_does(convert, torch):
    theirs = _warnings(lambda: convert(torch, torch.tensor(VALUES)))
    ours = _warnings(lambda: convert(core, core.tensor(VALUES)))
    assert theirs[0][0] == "ValueError"
    assert isinstance(ours[0], tuple), f"core gave {ours[0]!r}"
    assert ours == theirs


@pytest.mark.parametrize("convert", [
    lambda lib, t: np.array(t),
    lambda lib, t: np.array(t, copy=True),
    lambda lib, t: np.asarray(t),
    lambda lib, t: np.asarray(t, dtype=np.float64),
    lambda lib, t: np.array(t, dtype=np.int32),
], ids=["array", "array_copy", "asarray", "asarray_dtype", "array_dtype"])
def test_array_and_asarray_give_torchs_values_and_warnings(convert, torch):
    theirs_array, theirs_warned = _warnings(lambda: convert(torch, torch.tensor(VALUES)))
    ours_array, ours_warned = _warnings(lambda: convert(core, core.tensor(VALUES)))
    assert ours_warned == theirs_warned
    assert ours_array.dtype == theirs_array.dtype
    np.testing.assert_array_equal(ours_array, theirs_array)


@pytest.mark.parametrize("convert, shares", [
    (lambda t: np.asarray(t), True),
    (lambda t: np.array(t), False),
])
def test_asarray_shares_memory_and_array_copies_as_torch_does(convert, shares, torch):
    for lib in (torch, core):
        t = lib.tensor(VALUES)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            converted = convert(t)
        converted[0, 0] = 7.0
        assert (t[0, 0].item() == 7.0) is shares, lib.__name__


def test_array_of_a_tensor_that_requires_grad_raises_torchs_error(torch):
    theirs = raised(lambda: np.asarray(torch.tensor(VALUES, requires_grad=True)))
    ours = raised(lambda: np.asarray(core.tensor(VALUES, requires_grad=True)))
    assert ours == theirs
