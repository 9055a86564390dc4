"""The arguments every factory takes, checked as PyTorch's argument parser checks them (``dtype=``, ``device=``,
sizes given one by one, as a tuple, a list or a ``Size``, integer arguments), with its error types and messages,
and ``finish``, which makes the new tensor (PyTorch's strides for an empty one, inference mode, ``requires_grad``).
``core._factories`` re-exports these for the modules that build tensors.
"""

from __future__ import annotations

import builtins

import numpy as np

from core import _backend, _default_device, _dtype
from core._device import CPU, canonical
from core._device import device as _device_cls
from core._meta import META_XP
from core._tensor import Tensor, new_tensor
from core.autograd import grad_mode
from core.autograd.inference import InferenceCounter
from core.autograd.shortcuts import state as _shortcuts


def finish(arr, requires_grad: bool) -> Tensor:
    """The new tensor; an empty array gets PyTorch's contiguous strides (NumPy reports zeros)."""
    if not arr.size and arr.ndim and not any(arr.strides):
        arr = _backend.xp_of(arr).lib.stride_tricks.as_strided(arr, arr.shape, _empty_strides(arr))
    t = new_tensor(arr)
    if not _shortcuts.ok and _grad_state.inference:  # made in inference mode (core/autograd/inference.py)
        t._vc = InferenceCounter(t._vc)  # NOTE: the mode blocks the shortcuts: one plain flag read otherwise
    if requires_grad:
        t._set_requires_grad(True)
    return t


_grad_state = grad_mode._state


def _empty_strides(arr) -> tuple:
    strides, acc = [], arr.itemsize
    for size in reversed(arr.shape):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(reversed(strides))


def dtype_arg(dtype, fn: str):
    """A core dtype from a ``dtype=`` argument (None stays None); a TypeError like PyTorch's otherwise."""
    if dtype is None or isinstance(dtype, _dtype.dtype):
        return dtype
    if dtype in (builtins.float, builtins.int, builtins.bool):
        return _dtype.to_dtype(dtype)
    raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")


def device_arg(device, fn: str):
    """The concrete device of a ``device=`` argument, with its array module (CuPy only when asked)."""
    if device is None:
        device = _default_device.current
        if device is None:
            return CPU, np
    if not isinstance(device, (str, _device_cls, int)) or isinstance(device, bool):
        raise TypeError(f"{fn}(): argument 'device' must be torch.device, not {type(device).__name__}")
    dev = canonical(device)
    if dev.type == "meta":
        return dev, META_XP  # shapes and dtypes only
    return dev, _backend.xp_for(dev)


def _int_arg(value, fn: str, name: str, pos: int) -> int:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if not -2**63 <= value < 2**63:
            raise ValueError("Overflow when unpacking long long")
        return int(value)
    if isinstance(value, Tensor) and value.numel() == 1 and not value.is_floating_point():
        return int(value)
    raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be int, not {type(value).__name__}")


_RANDOM_SIGNATURES = (
    " * (tuple of ints size, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n")


def _index_like(value) -> bool:
    """What PyTorch's argument parser takes for a size list's first element: an int that is not a bool (NumPy's
    included) or a one-element integer tensor."""
    if isinstance(value, (int, np.integer)):
        return not isinstance(value, (bool, np.bool_))
    return isinstance(value, Tensor) and value.numel() == 1 and not value.is_floating_point()


def _arg_type(value) -> str:
    """A value's type as PyTorch's parser names it: ``Tensor``, ``float``, ``numpy.float64``."""
    if isinstance(value, Tensor):
        return "Tensor"
    kind = type(value)
    if kind.__name__ == "Size" and kind.__module__ == "core":  # torch.Size is a C type: its tp_name is qualified
        return "torch.Size"
    return f"numpy.{kind.__name__}" if kind.__module__ == "numpy" else kind.__name__


def long_long_overflow(fn: str, name: str, pos: int) -> str:
    """torch's parser's words for an int past int64 inside an ``int[]`` argument (its C++ trace left out)."""
    return (f"{fn}(): argument '{name}' failed to unpack the object at pos {pos} with error \"Overflow when unpacking "
            "long long\"")


def check_int64_list(values, fn: str, name: str) -> None:
    """An ``int[]`` argument's ints must each fit int64, else torch's parser's TypeError naming the first."""
    for i, v in enumerate(values):
        if type(v) is int and not -2**63 <= v < 2**63:
            raise TypeError(long_long_overflow(fn, name, i + 1))


def size_arg(size: tuple, fn: str, keyword: bool = False) -> tuple:
    """Sizes given as ints, a tuple, a list or a ``Size``; PyTorch's errors for anything else.

    NOTE: PyTorch's parser decides from the first element alone whether it has a list of ints (a float size from
    ``channels / 4`` fails there, with its own message); a bad later element fails while the list is unpacked. Sizes
    given one by one count as a list only when the first is an int: otherwise they are too many arguments. Given as
    ``size=`` (``keyword``), a mismatch names no position and the argument's own type."""
    if not size:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "size"')
    if len(size) > 1 and type(size[0]) is not int and not _index_like(size[0]):
        if fn in ("rand", "randn"):
            got = ", ".join(_arg_type(s) for s in size)
            raise TypeError(f"{fn}() received an invalid combination of arguments - got ({got}), but expected one "
                            f"of:\n{_RANDOM_SIGNATURES}")
        raise TypeError(f"{fn}() takes 1 positional argument but {len(size)} were given")
    if len(size) == 1 and not (isinstance(size[0], (int, np.integer, Tensor)) and not isinstance(size[0], bool)):
        where = "" if keyword else " (position 1)"
        if not isinstance(size[0], (tuple, list)):
            raise TypeError(f"{fn}(): argument 'size'{where} must be tuple of ints, not {_arg_type(size[0])}")
        given, size = size[0], tuple(size[0])
        if size and type(size[0]) is not int and not _index_like(size[0]):
            if keyword:
                raise TypeError(f"{fn}(): argument 'size' must be tuple of ints, not {type(given).__name__}")
            raise TypeError(f"{fn}(): argument 'size' (position 1) must be tuple of ints, but found element of type "
                            f"{_arg_type(size[0])} at pos 0")
    out = []
    for i, s in enumerate(size):
        if isinstance(s, Tensor) and s.numel() == 1 and not s.is_floating_point():
            s = int(s)
        if not isinstance(s, (int, np.integer)):
            raise TypeError(f"{fn}(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {_arg_type(s)}\"")
        out.append(int(s))
        if not -2**63 <= out[-1] < 2**63:
            raise TypeError(long_long_overflow(fn, "size", i + 1))
    if any(s < 0 for s in out):
        if fn == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        neg = next(s for s in out if s < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {neg}: {out}")
    check_storage_size(out)
    return tuple(out)


def check_storage_size(sizes) -> None:
    """torch's refusal of a shape whose element count overflows int64 (``empty(2**62, 2**62)``), where NumPy would
    raise its own ValueError or MemoryError."""
    n = 1
    for s in sizes:
        n *= s
    if n >= 2 ** 63:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(sizes)}")
