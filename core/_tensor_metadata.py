"""What a tensor is, read off its array: ``Tensor``'s shape, dtype, device, strides and memory methods.

Split out of ``core/_tensor.py``, whose class body binds each of these by name (``core._tensor_method`` names them
``Tensor.<name>``). They read ``_data`` and ``_root`` only; ``shape``, ``dtype`` and ``device`` are on every op's
path, so they stay a plain function each.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import numpy as np

from core import _backend, _dtype
from core._alias import alias
from core._device import CPU
from core._memory_format import is_contiguous_in
from core._meta import MetaArray
from core._tensor_method import method
from core._tensor_size import Size, _size

if TYPE_CHECKING:
    from core._tensor import Tensor


__all__ = ["data_ptr_of", "mark_shared"]


@method
@property
def shape(self) -> Size:
    return _size(self._data.shape)


@method
def size(self, dim=None):
    if dim is None:
        return _size(self._data.shape)
    return self._data.shape[_dim(dim, self._data.ndim)]


@method
@property
def dtype(self) -> _dtype.dtype:
    return _dtype._BY_NP[self._data.dtype]


@method
@property
def device(self):
    arr = self._data
    if type(arr) is np.ndarray:
        return CPU
    return _backend.device_of_array(arr)


@method
@property
def is_cuda(self) -> bool:
    return type(self._data) is not np.ndarray and not isinstance(self._data, MetaArray)


@method
@property
def is_meta(self) -> bool:
    return isinstance(self._data, MetaArray)


@method
@property
def is_cpu(self) -> bool:
    return type(self._data) is np.ndarray


@method
@property
def ndim(self) -> int:
    return self._data.ndim


@method
def dim(self) -> int:
    return self._data.ndim


ndimension = alias(dim, "ndimension")  # (torch's aliases are methods of their own)


@method
def numel(self) -> int:
    return int(self._data.size)


nelement = alias(numel, "nelement")


@method
def element_size(self) -> int:
    return self._data.itemsize


@method
@property
def itemsize(self) -> int:
    return self._data.itemsize


@method
@property
def nbytes(self) -> int:
    return int(self._data.size * self._data.itemsize)


@method
def stride(self, dim=None):
    arr = self._data
    isz = arr.itemsize
    strides = tuple(s // isz for s in arr.strides) if type(arr) is not MetaArray else arr.elem_strides
    if dim is None:
        return strides
    return strides[_dim(dim, arr.ndim)]


@method
def storage_offset(self) -> int:
    return (data_ptr_of(self._data) - data_ptr_of(self._root)) // self._data.itemsize


@method
def data_ptr(self) -> int:
    return data_ptr_of(self._data)


@method
def is_contiguous(self, memory_format=None) -> bool:
    arr = self._data
    if memory_format is not None and memory_format.name.startswith("channels_last"):
        return is_contiguous_in(arr.shape, self.stride(), memory_format)
    if arr.size == 0:
        return True
    expected = arr.itemsize
    strides = arr.strides if type(arr) is not MetaArray else [s * expected for s in arr.elem_strides]
    for size, stride in zip(reversed(arr.shape), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


@method
def is_floating_point(self) -> bool:
    return self._data.dtype.kind in "fV"  # "V": ml_dtypes' bfloat16 and float8_e4m3fn


@method
def is_shared(self) -> bool:
    """Whether ``share_memory_`` was called on this tensor's memory (it, or a tensor it views)."""
    ref = _SHARED_ROOTS.get(id(self._root))
    return ref is not None and ref() is self._root


@method
def is_pinned(self) -> bool:
    return False


@method
def pin_memory(self, device=None) -> Tensor:
    """Without an accelerator PyTorch refuses; with one, core has no pinned memory and gives a copy."""
    from core import accelerator  # accelerator imports Tensor's module

    if not self.is_cpu:
        raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
    if not accelerator.is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return self.clone()


@method
def get_device(self) -> int:
    """-1 on CPU, else the CUDA device index."""
    return -1 if self.is_cpu else self.device.index


@method
def dim_order(self, *, ambiguity_check=False) -> tuple:
    """Dims from outermost to innermost in memory (by decreasing stride; see core._dim_order)."""
    from core._dim_order import dim_order

    return dim_order(self, ambiguity_check)


@method
def is_complex(self) -> bool:
    return self._data.dtype.kind == "c"


@method
def is_signed(self) -> bool:
    return self._data.dtype.kind in "ifcV"


def data_ptr_of(arr) -> int:
    if isinstance(arr, np.ndarray):
        return arr.__array_interface__["data"][0]
    return int(arr.data.ptr)


_SHARED_ROOTS: dict = {}  # id(root array) -> a weak reference to it: the memory share_memory_ was called on


def mark_shared(t: Tensor) -> None:
    """Record ``t``'s memory (its root array) as shared, for ``share_memory_``.

    core's tensors live in one process, so this only answers ``is_shared``; the entry goes with the array."""
    root = t._root
    key = id(root)
    _SHARED_ROOTS[key] = weakref.ref(root, lambda _ref, key=key: _SHARED_ROOTS.pop(key, None))


def _dim(dim, ndim: int) -> int:
    """Wrap a possibly negative dim; IndexError in PyTorch's words when out of range."""
    lo, hi = (-ndim, ndim - 1) if ndim else (-1, 0)
    try:
        d = dim.__index__()
    except AttributeError:
        raise TypeError(f"dim must be an int, got {type(dim).__name__}") from None
    if d < lo or d > hi:
        if not -2**63 <= d < 2**63:  # (torch's parser refuses it before any range check)
            raise ValueError("Overflow when unpacking long long")
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {d})")
    return 0 if ndim == 0 else (d + ndim if d < 0 else d)
