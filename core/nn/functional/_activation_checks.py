"""The argument and route checks core's activation modules share: PyTorch's dispatch error for an integer or bool
input, and whether a backward may run PyTorch's float32/float64 kernel on the arrays as they are."""

from __future__ import annotations

import numpy as np

import core
from core._tensor import Tensor

__all__ = ["_float_check", "_plain_float32", "_plain_float64"]


def _plain_float32(x: Tensor, g: Tensor) -> bool:
    """Whether a backward may run PyTorch's float32 kernel on the arrays: both float32 NumPy arrays of one shape
    and nothing recorded (a double backward takes the differentiable formula)."""
    a, b = x._data, g._data
    return (a.dtype == np.float32 and b.dtype == np.float32 and type(a) is np.ndarray and type(b) is np.ndarray
            and a.shape == b.shape and not core.is_grad_enabled())


def _plain_float64(x: Tensor, g: Tensor) -> bool:
    """``_plain_float32`` for float64 arrays."""
    a, b = x._data, g._data
    return (a.dtype == np.float64 and b.dtype == np.float64 and type(a) is np.ndarray and type(b) is np.ndarray
            and a.shape == b.shape and not core.is_grad_enabled())


def _float_check(x: Tensor, name: str) -> None:
    if not x.is_floating_point():  # (PyTorch's dispatch error: its kernels have no integer or bool versions)
        raise NotImplementedError(f'"{name}" not implemented for \'{_TYPE.get(x.dtype.name, x.dtype.name)}\'')


_TYPE = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}
