"""The ``meta`` device: tensors with a shape, dtype and strides but no data, as PyTorch's.

A meta tensor's array is a ``MetaArray``: a read-only NumPy view with zero strides over one element, so it
takes no memory whatever its size. Core makes meta tensors with ``.to("meta")`` (a module's ``.to("meta")``
included), which is how PyTorch's ensembling tutorial builds the stateless model it hands to
``functional_call``. They print as PyTorch prints them (``tensor(..., device='meta', size=(2, 3))``) and refuse
what PyTorch refuses (``item``, ``tolist``, copying out). What core does not do: factories with
``device="meta"``, and the shape-only computation PyTorch runs on meta tensors (core's ops would compute on
the zeros behind them).
"""

from __future__ import annotations

import numpy as np

__all__ = ["MetaArray", "meta_array", "NO_DATA"]

NO_DATA = "Cannot copy out of meta tensor; no data!"


class MetaArray(np.ndarray):
    """The array behind a meta tensor (a zero-stride view: no memory, no data)."""


def meta_array(shape, dtype) -> MetaArray:
    """A read-only ``MetaArray`` of ``shape`` and ``dtype`` with contiguous-looking size and no storage."""
    one = np.zeros(1, dtype=dtype)
    arr = np.lib.stride_tricks.as_strided(one, shape=tuple(shape), strides=(0,) * len(shape), writeable=False)
    return arr.view(MetaArray)
