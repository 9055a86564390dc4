"""``torch.frombuffer``: a 1-d tensor over an object's buffer (``bytes``, ``bytearray``, ``array.array``,
``memoryview``...), sharing its memory, with PyTorch's argument checks and messages.

A read-only buffer (``bytes``) gives a tensor that writes would not reach safely; PyTorch warns once per
program and so does core.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._factories import sharing_ndarray
from core._warn_once import warn_once
from core.autograd._transform_guard import set_requires_grad

__all__ = ["frombuffer"]

_NOT_WRITABLE = ("The given buffer is not writable, and PyTorch does not support non-writable tensors. This means "
                 "you can write to the underlying (supposedly non-writable) buffer using the tensor. You may want to "
                 "copy the buffer to protect its data or make it writable before converting it to a tensor. This "
                 "type of warning will be suppressed for the rest of this program.")


def _checked_count(length: int, size: int, count: int, offset: int) -> int:
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if offset < 0 or offset >= length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
                         f"({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % size:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a "
                             f"multiple of element size ({size})")
        return (length - offset) // size
    if offset + count * size > length:
        raise ValueError(f"requested buffer length ({count} * {size} bytes) after offset ({offset} bytes) must not "
                         f"be greater than actual buffer length ({length} bytes)")
    return count


def frombuffer(buffer, *, dtype, count: int = -1, offset: int = 0, requires_grad: bool = False):
    """The buffer's bytes from ``offset`` on, read as ``count`` elements of ``dtype`` (all of them for -1)."""
    dt = _dtype.to_dtype(dtype)
    view = memoryview(buffer).cast("B")
    n = _checked_count(view.nbytes, dt.itemsize, count, offset)
    if view.readonly:
        warn_once("read-only buffer", _NOT_WRITABLE)  # (PyTorch's TORCH_WARN_ONCE)
    arr = np.frombuffer(view, dtype=dt.np, count=n, offset=offset)
    if view.readonly:
        arr.flags.writeable = False
    out = sharing_ndarray(arr)
    return set_requires_grad(out) if requires_grad else out
