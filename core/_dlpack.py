"""DLPack exchange: ``torch.from_dlpack``, ``torch.utils.dlpack`` and ``Tensor.__dlpack__``.

A tensor hands its NumPy (or CuPy) array's buffer out and in without a copy, so ``np.from_dlpack(t)`` and
``core.from_dlpack(np_array)`` share memory with their source, as PyTorch's do. As PyTorch, a tensor that
requires grad refuses to export (its consumer could write under autograd's feet).
"""

from __future__ import annotations

import numpy as np

from core._backend import xp_for
from core._device import device
from core._factories import from_numpy
from core._tensor import Tensor, new_tensor

__all__ = ["from_dlpack", "to_dlpack", "dlpack", "dlpack_device"]

_CPU, _CUDA = 1, 2  # DLPack's device types


def dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """``Tensor.__dlpack__``: the array's capsule (PyTorch's BufferError for a tensor that requires grad)."""
    if self.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    kwargs = {} if stream is None else {"stream": stream}
    if max_version is not None:
        kwargs["max_version"] = max_version
    return self._data.__dlpack__(**kwargs)


def dlpack_device(self) -> tuple:
    """``Tensor.__dlpack_device__``: (device type, index) of the array's memory."""
    return self._data.__dlpack_device__()


class _Capsule:
    """A bare DLPack capsule (``to_dlpack``'s result, PyTorch's legacy form) seen through the protocol; its
    memory is the CPU's (a capsule does not say)."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return (_CPU, 0)


def to_dlpack(tensor: Tensor):
    """The legacy DLPack capsule of ``tensor`` (``<capsule object "dltensor">``; it can be consumed once)."""
    return dlpack(tensor)


def from_dlpack(ext_tensor) -> Tensor:
    """A tensor sharing memory with any object that speaks DLPack (a NumPy or CuPy array, a tensor, a capsule)."""
    if type(ext_tensor).__name__ == "PyCapsule":
        ext_tensor = _Capsule(ext_tensor)
    if not hasattr(ext_tensor, "__dlpack__"):
        raise TypeError(f"from_dlpack: expected an object with __dlpack__ or a DLPack capsule, got "
                        f"{type(ext_tensor).__name__}")
    device_type = ext_tensor.__dlpack_device__()[0]
    if device_type == _CUDA:  # CuPy takes it (core._backend's clear error without CUDA)
        return new_tensor(xp_for(device("cuda")).from_dlpack(ext_tensor))
    array = np.from_dlpack(ext_tensor)
    if isinstance(ext_tensor, _Capsule) and not array.flags.writeable:
        array = np.asarray(_Writable(array))
    return from_numpy(array)


class _Writable:
    """A legacy capsule's memory as a writable array. NumPy marks what it imports from a "dltensor" capsule
    read-only (that format cannot say whether writing is allowed); PyTorch's ``from_dlpack`` gives a writable
    tensor over it, and so does core: the same memory through the array interface, the imported array kept alive."""

    def __init__(self, array: np.ndarray):
        self._array = array
        interface = dict(array.__array_interface__)
        interface["data"] = (interface["data"][0], False)
        self.__array_interface__ = interface
