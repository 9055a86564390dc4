"""Assigning through a ``range`` index is advanced indexing (PyTorch makes the sequence a tensor), so a value of
another dtype is refused with ``index_put_``'s error, as a list index is; core cast it silently. torchdyn's Galerkin
layer writes ``Bin[range(d), range(d)] = basis[i]`` and torch stops there on a float64 basis (found by corpus helper
s28 SEQ)."""

import numpy as np
import pytest

import core

CASES = [  # (index, value shape, value dtype name)
    ((range(3), range(3)), (3,), "float64"), ((range(3), range(3)), (), "float64"), ((range(2),), (2, 3), "float64"),
    (range(2), (3,), "float64"), ((range(3), 0), (), "float64"), ((range(3), range(3)), (3,), "float32"),
    ((range(1, 3), slice(None)), (3,), "float32"), (range(3), (), "int64"), ((range(0), range(0)), (0,), "float64"),
]


def _outcome(lib, index, shape, dtype):
    a = lib.arange(9.0).reshape(3, 3)
    value = lib.arange(1.0, 1.0 + int(np.prod(shape))).reshape(shape).to(getattr(lib, dtype))
    try:
        a[index] = value
    except Exception as e:  # (the error is the outcome compared)
        return type(e).__name__, str(e)
    return "ok", a.tolist()


@pytest.mark.parametrize("index, shape, dtype", CASES)
def test_a_range_index_writes_or_refuses_as_torch_does(torch, index, shape, dtype):
    assert _outcome(core, index, shape, dtype) == _outcome(torch, index, shape, dtype)
