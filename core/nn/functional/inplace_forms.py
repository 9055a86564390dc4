"""The functional in-place activations (``elu_``, ``selu_``, ``celu_``, ``threshold_``, ``hardtanh_``) and the
``max_pool*d_with_indices`` forms, as PyTorch names them: each is its plain function with ``inplace=True`` or
``return_indices=True``."""

from __future__ import annotations

from core.nn.functional import activation as _act
from core.nn.functional import pooling as _pool
from core.nn.functional import volumetric as _vol

__all__ = ["elu_", "selu_", "celu_", "threshold_", "hardtanh_", "max_pool1d_with_indices", "max_pool2d_with_indices",
           "max_pool3d_with_indices"]


def elu_(input, alpha: float = 1.0):
    return _act.elu(input, alpha, inplace=True)


def selu_(input):
    return _act.selu(input, inplace=True)


def celu_(input, alpha: float = 1.0):
    return _act.celu(input, alpha, inplace=True)


def threshold_(input, threshold: float, value: float):
    return _act.threshold(input, threshold, value, inplace=True)


def hardtanh_(input, min_val: float = -1.0, max_val: float = 1.0):
    return _act.hardtanh(input, min_val, max_val, inplace=True)


def _with_indices(pool):
    def with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
                     return_indices: bool = False):
        return pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)
    with_indices.__name__ = with_indices.__qualname__ = f"{pool.__name__}_with_indices"
    with_indices.__doc__ = f"``{pool.__name__}(..., return_indices=True)``: the pooled values and their indices."
    return with_indices


max_pool1d_with_indices = _with_indices(_pool.max_pool1d)
max_pool2d_with_indices = _with_indices(_pool.max_pool2d)
max_pool3d_with_indices = _with_indices(_vol.max_pool3d)
