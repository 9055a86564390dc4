"""Tensor factories with PyTorch's dtype inference, defaults and argument errors.

``tensor`` copies (data parsing lives in ``core._from_data``), ``as_tensor``/``from_numpy`` share
NumPy memory when they can, and every factory takes ``dtype=``, ``device=`` and ``requires_grad=``.
Random factories are in ``core._random_factories``; they are re-exported here.
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from core import _backend, _default_device, _dtype
from core._arange_values import float_arange, fma  # PyTorch's float arange and an exact fma
from core._device import CPU, canonical
from core._device import device as _device_cls
from core._factory_out import into_out, out_dtype
from core._from_data import _C_TYPE, _check_leaf, check_scalar_fits, python_array
from core._memory_format import copy_in, empty_in, empty_strided_array, format_strides, preserved_strides
from core._meta import META_XP
from core._tensor import Tensor, new_tensor, tensor_keeping_strides
from core._threads import get_num_threads
from core._user_warning import warn_user
from core._warn_once import warn_once
from core.autograd import grad_mode
from core.autograd._transform_guard import set_requires_grad
from core.autograd.function import note_value_read
from core.autograd.inference import InferenceCounter, mark
from core.autograd.shortcuts import state as _shortcuts

__all__ = ["tensor", "as_tensor", "asarray", "from_numpy", "zeros", "ones", "full", "empty", "arange",
           "linspace", "logspace", "eye", "zeros_like", "ones_like", "full_like", "empty_like",
           "scalar_tensor", "empty_strided",
           "rand", "randn", "randint", "randperm", "normal", "rand_like", "randn_like", "randint_like"]


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
    if any(s < 0 for s in out):
        if fn == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        neg = next(s for s in out if s < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {neg}: {out}")
    return tuple(out)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor:
    """A new tensor that copies ``data`` (numbers, nested sequences, arrays or tensors)."""
    dt = dtype_arg(dtype, "tensor")
    if isinstance(data, Tensor):
        warn_user("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                  "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                  "torch.tensor(sourceTensor).")
        dev, _ = device_arg(device if device is not None else data.device, "tensor")
        note_value_read()  # a copy of the values: core.compile's capture can't replay it
        src = data.detach()
        arr = _dtype.through_float(src._data, (dt or src.dtype).np).astype((dt or src.dtype).np, copy=True)
        return finish(_backend.to_device_array(arr, dev) if dev is not src.device else arr, requires_grad)
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    dev, _ = device_arg(device, "tensor")
    if isinstance(data, np.ndarray):
        _no_negative_strides(data)
        _native_byte_order(data)
        target = (dt or _dtype.from_numpy_dtype(data.dtype)).np
        arr = _dtype.through_float(data, target).astype(target, copy=True)
        if not data.size:  # PyTorch keeps even an empty array's strides (NumPy's copy does not)
            strides = tuple(st // data.itemsize * arr.itemsize for st in data.strides)
            arr = np.lib.stride_tricks.as_strided(arr, data.shape, strides)
    else:
        arr, dt = python_array(data, dt)
    if dev is not CPU:
        arr = _backend.to_device_array(arr, dev)
    if isinstance(data, np.ndarray) and not arr.size:  # PyTorch keeps even an empty array's strides
        out = mark(tensor_keeping_strides(arr))
        return out._set_requires_grad(True) if requires_grad else out
    return finish(arr, requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like ``tensor`` but shares memory with a NumPy array or tensor when no conversion is needed."""
    dt = dtype_arg(dtype, "as_tensor")
    if isinstance(data, Tensor):
        return data.to(device=device, dtype=dt)
    if device is None:
        device = _default_device.current  # set_default_device and ``with device(...)`` apply to arrays too
    if isinstance(data, np.ndarray) and (dt is None or dt.np == data.dtype) and \
            (device is None or canonical(device) is CPU):
        return from_numpy(data)
    return tensor(data, dtype=dt, device=device)


def _asarray_tensor(obj, dtype, device, copy, requires_grad) -> Tensor:
    """PyTorch 2.13's rules for a tensor: an unspecified ``requires_grad`` keeps the tensor's (and its history, a
    copy is differentiable); ``False`` detaches (a leaf's own flag is switched off); ``True`` keeps the history."""
    if requires_grad is None and obj.requires_grad:  # (PyTorch's TORCH_WARN_ONCE)
        warn_once("asarray", "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
                  "False. Pass requires_grad=False explicitly to get the old behavior and silence this warning.")
    converted = (dtype is not None and dtype != obj.dtype) or \
        (device is not None and _device_cls(device) != obj.device)
    if copy is False and converted:
        raise ValueError(f"can't alias tensor from device '{obj.device}' to '{device}'." if device is not None and
                         _device_cls(device) != obj.device else
                         f"can't alias tensor with dtype '{_dtype.SCALAR_NAMES[obj.dtype.name]}' into dtype "
                         f"'{_dtype.SCALAR_NAMES[dtype.name]}'.")
    if copy or converted:
        src = obj.detach() if requires_grad is False else obj
        out = src.to(device=device, dtype=dtype) if converted else src.clone()
    elif requires_grad is False and obj.requires_grad:
        out = set_requires_grad(obj, False) if obj.is_leaf else obj.detach()
    else:
        out = obj
    if requires_grad and out.is_leaf and not out.requires_grad:
        set_requires_grad(out)
    return out


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None) -> Tensor:
    """``torch.asarray``: shares memory unless ``copy=True`` (or a conversion forces a copy)."""
    if isinstance(obj, Tensor):
        return _asarray_tensor(obj, dtype, device, copy, requires_grad)
    if copy:
        out = tensor(obj.detach() if isinstance(obj, Tensor) else obj, dtype=dtype, device=device)
    else:
        out = as_tensor(obj, dtype=dtype, device=device)
    if requires_grad:
        out._set_requires_grad(True)
    return out


_NP_SUPPORTED = ("float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, "
                 "uint8, and bool.")


def _native_byte_order(arr: np.ndarray) -> None:
    """PyTorch refuses a big-endian array (``np.dtype('>f8')``) in ``tensor``, ``as_tensor`` and ``from_numpy``,
    even with a ``dtype=`` to convert to."""
    if not arr.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order. Conversion "
                         "between byte orders is currently not supported.")


def _no_negative_strides(arr: np.ndarray) -> None:
    """PyTorch refuses a reversed NumPy view (``a[::-1]``) in ``from_numpy``, ``tensor`` and the legacy constructors,
    even where it would copy."""
    if any(s < 0 for s in arr.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with negative "
                         "strides are not currently supported. (You can probably work around this by making "
                         "a copy of your array  with array.copy().) ")


_NOT_WRITABLE = ("The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
                 "means writing to this tensor will result in undefined behavior. You may want to copy the array to "
                 "protect its data or make it writable before converting it to a tensor. This type of warning will be "
                 "suppressed for the rest of this program.")


def from_numpy(arr) -> Tensor:
    """A tensor sharing memory with a NumPy array (writes show in both)."""
    out = sharing_ndarray(arr)
    if not arr.flags.writeable:
        warn_once("read-only ndarray", _NOT_WRITABLE)  # (PyTorch's TORCH_WARN_ONCE)
    return out


def sharing_ndarray(arr) -> Tensor:
    """``from_numpy`` without its note on a read-only array (``frombuffer`` gives its own)."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(arr).__name__})")
    if arr.dtype.kind in "biufc":
        _native_byte_order(arr)
    if arr.dtype not in _dtype._BY_NP:
        name = {"U": "str_", "S": "bytes_", "O": "object_"}.get(arr.dtype.kind, str(arr.dtype))
        raise TypeError(f"can't convert np.ndarray of type numpy.{name}. The only supported types are: "
                        + _NP_SUPPORTED)
    _no_negative_strides(arr)
    if any(s % arr.itemsize for s in arr.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. Copy the numpy "
                         "array to reallocate the memory.")
    return mark(tensor_keeping_strides(arr))


def _filled(name: str, value):
    def make(*sizes, size=None, dtype=None, device=None, requires_grad=False, out=None, layout=None, pin_memory=False,
             memory_format=None):
        if size is not None and sizes:
            raise TypeError(f"{name}() received an invalid combination of arguments - got both positional sizes "
                            "and size=")
        shape = size_arg(sizes if size is None else (size,), name, keyword=size is not None)
        dt = dtype_arg(out_dtype(name, out, dtype), name) or _dtype.get_default_dtype()
        _, xp = device_arg(device, name)
        arr = xp.empty(shape, dtype=dt.np) if value is None else xp.full(shape, value, dtype=dt.np)
        if out is not None:
            return into_out(None, out, requires_grad, shape) if value is None else into_out(arr, out, requires_grad)
        if memory_format is not None and memory_format.name.startswith("channels_last"):
            arr = copy_in(arr, memory_format)
        return finish(arr, requires_grad)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = f"``torch.{name}``: a new tensor of the given size (default dtype unless ``dtype=``)."
    return make


zeros = _filled("zeros", 0)
ones = _filled("ones", 1)
empty = _filled("empty", None)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """An uninitialised tensor with the given strides over a storage just big enough for them."""
    from core.ops.views import make_view  # views import the factories

    shape, strides = size_arg((size,), "empty_strided"), size_arg((stride,), "empty_strided")
    if len(shape) != len(strides):
        raise RuntimeError("mismatch in length of strides and shape")
    extent = sum((s - 1) * st for s, st in zip(shape, strides)) + 1 if all(shape) else 0
    out = make_view(empty(extent, dtype=dtype, device=device), shape, strides, 0)
    out._base = None
    if requires_grad:
        out._set_requires_grad(True)
    return out


def _number_dtype(value, fn: str, name: str, pos: int):
    if isinstance(value, Tensor) and value.numel() == 1:
        return value.dtype
    if isinstance(value, (bool, int, builtins.float, builtins.complex, np.generic)):
        return _dtype.scalar_dtype(value)
    raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be Number, not {type(value).__name__}")


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False, out=None, layout=None) -> Tensor:
    """A tensor filled with ``fill_value``; its dtype follows the value (bool, int64, default float)."""
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    shape = size_arg((size,), "full")
    dt = dtype_arg(out_dtype("full", out, dtype), "full") or _number_dtype(fill_value, "full", "fill_value", 2)
    _, xp = device_arg(device, "full")
    value = fill_value.item() if isinstance(fill_value, Tensor) else fill_value
    check_scalar_fits(value, dt)  # (as fill_: full is empty(...).fill_(value) in PyTorch)
    if dt is _dtype.uint8 and isinstance(value, int) and value < 0:  # c10 wraps -255..-1 into uint8
        value %= 256
    with np.errstate(all="ignore"):
        arr = xp.full(shape, _dtype.through_float_number(value, dt.np), dtype=dt.np)
    return into_out(arr, out, requires_grad) if out is not None else finish(arr, requires_grad)


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    return full((), s, dtype=dtype or _dtype.get_default_dtype(), device=device, requires_grad=requires_grad)


def _number(x, name: str, pos: int):
    if isinstance(x, Tensor):
        return x.item()
    if isinstance(x, np.generic):
        return x.item()
    if not isinstance(x, (int, builtins.float)):
        raise TypeError(f"arange(): argument '{name}' (position {pos}) must be Number, not {type(x).__name__}")
    return x


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    """Values from ``start`` to ``end`` (exclusive); ints give int64, any float the default dtype."""
    if end is None:
        start, end = 0, _number(start, "end", 1)
    start, end, step = _number(start, "start", 1), _number(end, "end", 2), _number(step, "step", 3)
    dt = dtype_arg(out_dtype("arange", out, dtype), "arange")
    if dt is not None and (dt.is_complex or dt is _dtype.bool):
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{_dtype.SCALAR_NAMES[dt.name]}'")
    if dt is None:
        is_float = any(isinstance(v, builtins.float) for v in (start, end, step))
        dt = _dtype.get_default_dtype() if is_float else _dtype.int64
    dev, _ = device_arg(device, "arange")
    if not (step > 0 or step < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    arr = _arange_values(start, end, step, dt)
    if out is not None:
        return into_out(arr, out, requires_grad, warn_resize=True)
    return finish(arr if dev is CPU else _backend.to_device_array(arr, dev), requires_grad)


def _arange_values(start, end, step, dt) -> np.ndarray:
    """PyTorch's values: floats in double precision; int64 truncates all three bounds first; other
    integer dtypes count elements from the real bounds, then step from the truncated start."""
    if all(isinstance(v, int) for v in (start, end, step)):
        return np.arange(start, end, step, dtype=np.int64).astype(dt.np)
    if dt.is_floating_point:
        return float_arange(start, end, step, dt.np, get_num_threads())
    if dt is _dtype.int64:
        start, end, step = int(start), int(end), int(step)
        if step == 0:
            raise ValueError("step must be nonzero")
        return np.arange(start, end, step, dtype=np.int64)
    n = math.ceil((end - start) / step)
    with np.errstate(over="ignore"):
        return (int(start) + np.arange(n, dtype=np.int64) * int(step)).astype(dt.np)


def _linspace_values(start, end, steps: int, np_dt, fused: bool = True) -> np.ndarray:
    """PyTorch's kernel: from ``start`` for the first half, from ``end`` for the rest, with fused
    multiply-adds (emulated in extended precision so the last bits match) for float results."""
    if steps == 1:
        return np.array([start], dtype=np_dt)
    ld = np.longdouble if fused else np_dt.type
    first, last = np_dt.type(start), np_dt.type(end)
    step = np_dt.type((last - first) / np_dt.type(steps - 1))
    idx = np.arange(steps)
    if fused and np_dt == np.float64:  # NOTE: extended precision rounds twice here: an exact fma
        low, high = fma(step, idx, first), fma(-step, steps - idx - 1, last)
        return np.where(idx < steps // 2, low, high)
    low = ld(first) + ld(step) * idx.astype(ld)
    high = ld(last) - ld(step) * (steps - idx - 1).astype(ld)
    return np.where(idx < steps // 2, low, high).astype(np_dt)


def _check_spaced_types(fn: str, start, end, steps) -> None:
    """PyTorch's parser: start and end a Tensor or a Number, steps an int (or an integral one-element tensor); a
    tensor start or end must be 0-dimensional."""
    numbers = (int, builtins.float, builtins.complex, np.number, Tensor)
    integral_tensor = isinstance(steps, Tensor) and steps.numel() == 1 and not steps.is_floating_point()
    int_steps = isinstance(steps, (int, np.integer)) and not isinstance(steps, bool) or integral_tensor
    if not (isinstance(start, numbers) and isinstance(end, numbers) and int_steps):
        from core._arg_types import spaced_arguments_error  # (it imports Tensor's module)
        raise spaced_arguments_error(fn, start, end, steps)
    for name, value in (("start", start), ("end", end)):
        if isinstance(value, Tensor) and value.ndim:
            raise RuntimeError(f"{fn} only supports 0-dimensional start and end tensors, but got {name} with "
                               f"{value.ndim} dimension(s).")


def _spaced(fn: str, start, end, steps, dtype, device):
    """Shared by ``linspace``/``logspace``: checked arguments and the evenly spaced exponents/values.

    Integer dtypes convert ``start``/``end`` first (PyTorch's overflow errors), then step in double."""
    _check_spaced_types(fn, start, end, steps)
    steps = _int_arg(steps, fn, "steps", 3)
    start, end = (_spaced_number(v, name, pos) for v, name, pos in ((start, "start", 1), (end, "end", 2)))
    dt = dtype_arg(dtype, fn)
    if isinstance(start, complex) or isinstance(end, complex):  # PyTorch infers a complex dtype from them
        inferred = _dtype.get_default_dtype().to_complex()
        if dt is not None and not dt.is_complex:
            raise RuntimeError(f"torch.{fn}(): inferred dtype {_C_TYPE[inferred.name]} can't be safely cast to "
                               f"passed dtype {_dtype.SCALAR_NAMES[dt.name]}")
        dt = dt or inferred
    dt = dt or _dtype.get_default_dtype()
    dev, _ = device_arg(device, fn)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dt is _dtype.bool and steps > 1:  # (one step is start itself: no kernel runs)
        raise NotImplementedError(f"\"{fn}_cpu\" not implemented for 'Bool'")
    if dt.is_complex:
        return _complex_spaced(start, end, steps, dt), dt, dev
    if dt is _dtype.bool:
        return np.array([start] * steps, dtype=np.float64), dt, dev
    if not dt.is_floating_point:
        for v in (start, end):
            if dt is not _dtype.bool and not isinstance(v, bool):
                _check_leaf(v, dt)
        start, end = int(start), int(end)
    with np.errstate(all="ignore"):
        # NOTE: float16 is spaced in float32 (close to PyTorch's half kernel, not always bit-equal).
        work = np.dtype(np.float32) if dt is _dtype.float16 else dt.np if dt.is_floating_point else np.dtype(np.float64)
        values = _linspace_values(start, end, steps, work, fused=dt.is_floating_point)
    return values, dt, dev


def _spaced_number(x, name: str, pos: int):
    """``start``/``end`` of linspace/logspace: a Python number (complex ones too) from a number or a 0-d tensor."""
    value = x.item() if isinstance(x, (Tensor, np.generic)) else x
    return value if isinstance(value, complex) else _number(value, name, pos)


def _complex_spaced(start, end, steps: int, dt) -> np.ndarray:
    """A complex dtype's spacing: PyTorch's kernel steps the real and imaginary parts alike (complex minus,
    divided by a real count), so each part is the real spacing of its own bounds."""
    part = np.dtype(np.float32) if dt is _dtype.complex64 else np.dtype(np.float64)
    start, end = complex(start), complex(end)
    with np.errstate(all="ignore"):
        real = _linspace_values(start.real, end.real, steps, part)
        imag = _linspace_values(start.imag, end.imag, steps, part)
    return (real + 1j * imag.astype(dt.np)).astype(dt.np) if steps else np.zeros(0, dt.np)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive (default float dtype)."""
    values, dt, dev = _spaced("linspace", start, end, steps, out_dtype("linspace", out, dtype), device)
    arr = values.astype(dt.np)
    if out is not None:
        return into_out(arr, out, requires_grad)
    return finish(arr if dev is CPU else _backend.to_device_array(arr, dev), requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    """``base ** linspace(start, end, steps)`` (exponents spaced in the result dtype, as PyTorch)."""
    values, dt, dev = _spaced("logspace", start, end, steps, out_dtype("logspace", out, dtype), device)
    with np.errstate(all="ignore"):
        if dt.is_floating_point and len(values) > 1:
            arr = _real_logspace(_spaced_number(start, "start", 1), _spaced_number(end, "end", 2), len(values),
                                 float(base), dt.np)
            if out is not None:
                return into_out(arr, out, requires_grad)
            return finish(arr if dev is CPU else _backend.to_device_array(arr, dev), requires_grad)
        if dt.is_complex:  # (std::pow of complex numbers: exp(v * log(base)) in the dtype)
            powers = np.exp(values.astype(dt.np) * np.log(dt.np.type(base)))
        else:
            powers = np.power(np.float64(base), values.astype(np.float64))
        if dt.category == 1:  # a single value must fit; otherwise C's conversion through int32/int64
            if powers.size == 1:  # (out of range gives its minimum), then the narrow type wraps
                _check_leaf(float(powers[0]), dt)
            via = np.iinfo(np.int64 if dt is _dtype.int64 else np.int32)
            powers = np.where((powers >= via.min) & (powers <= via.max), powers, via.min).astype(via.dtype)
        arr = powers.astype(dt.np)
    if out is not None:
        return into_out(arr, out, requires_grad)
    return finish(arr if dev is CPU else _backend.to_device_array(arr, dev), requires_grad)


def _c_pow(base: float, v: float) -> float:
    """``std::pow`` of two doubles: the C library's (``math.pow``); NumPy's where that raises (an overflow's inf,
    a negative base's NaN)."""
    try:
        return math.pow(base, v)
    except (OverflowError, ValueError):
        with np.errstate(all="ignore"):
            return float(np.power(np.float64(base), np.float64(v)))


def _real_logspace(start, end, steps: int, base: float, np_dtype) -> np.ndarray:
    """PyTorch's CPU ``logspace`` of a floating dtype: ``start``/``end`` in the dtype, ``step = double(end - start)
    / (steps - 1)``, the exponent ``start + step * i`` in double for the first half and ``end - step * (steps - 1 -
    i)`` for the rest (each product rounded: not fused), ``std::pow(double, double)`` (the C library's, correctly
    rounded: NumPy's float64 ``power`` is not) and the double result stored in the dtype (through float for the
    half types, as c10's conversions go). NumPy's float32 exponents differed from torch in most float32 elements."""
    s, e = np_dtype.type(start), np_dtype.type(end)
    step = float(np_dtype.type(e - s)) / (steps - 1)
    i = np.arange(steps, dtype=np.float64)
    exponent = np.where(i < steps // 2, float(s) + step * i, float(e) - step * (steps - i - 1))
    powers = np.fromiter((_c_pow(base, v) for v in exponent.tolist()), np.float64, count=steps)
    if np_dtype.itemsize < 4:
        powers = powers.astype(np.float32)
    return powers.astype(np_dtype)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    """The ``n x m`` identity matrix."""
    n = _int_arg(n, "eye", "n", 1)
    m = n if m is None else _int_arg(m, "eye", "m", 2)
    dt = dtype_arg(out_dtype("eye", out, dtype), "eye") or _dtype.get_default_dtype()
    _, xp = device_arg(device, "eye")
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    arr = xp.eye(n, m, dtype=dt.np)
    return into_out(arr, out, requires_grad) if out is not None else finish(arr, requires_grad)


def like_array(input: Tensor, dt, dev, xp, memory_format=None):
    """An empty array shaped like ``input``: PyTorch's ``preserve_format`` strides (the same when it is dense,
    else dense in the same dim order), row-major for ``contiguous_format``, or in the format asked for."""
    arr = input._data
    name = "preserve_format" if memory_format is None else memory_format.name
    if name == "preserve_format":
        strides = input.stride()
        if min(strides, default=0) < 0 or strides == format_strides(arr.shape, memory_format):
            return xp.empty(arr.shape, dtype=dt.np)
        return empty_strided_array(xp, arr.shape, preserved_strides(arr.shape, strides), dt.np)
    return empty_in(xp, arr.shape, dt.np, memory_format)


def _like(name: str, value):
    def make(input, *, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None,
             pin_memory=False):
        dt = dtype_arg(dtype, name) or input.dtype
        dev, xp = device_arg(device if device is not None else input.device, name)
        arr = like_array(input, dt, dev, xp, memory_format)
        if value is not None:
            arr[...] = value
        return finish(arr, requires_grad)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = f"``torch.{name}``: like ``input`` (shape, dtype, device, layout) unless overridden."
    return make


zeros_like = _like("zeros_like", 0)
ones_like = _like("ones_like", 1)
empty_like = _like("empty_like", None)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None,
              pin_memory=False) -> Tensor:
    """``torch.full_like``: ``fill_value`` in ``input``'s shape, dtype, device and layout unless overridden
    (torchvision's RoI pooler passes ``layout=``, as the other ``*_like`` factories take it)."""
    _number_dtype(fill_value, "full_like", "fill_value", 2)
    dt = dtype_arg(dtype, "full_like") or input.dtype
    dev, xp = device_arg(device if device is not None else input.device, "full_like")
    arr = like_array(input, dt, dev, xp, memory_format)
    value = fill_value.item() if isinstance(fill_value, Tensor) else fill_value
    check_scalar_fits(value, dt)  # (as full's: torch's full_like is empty_like(...).fill_(value))
    if isinstance(value, complex) and not dt.is_complex:
        value = value.real  # (a zero imaginary part: it fits)
    if dt is _dtype.uint8 and isinstance(value, int) and value < 0:  # c10 wraps -255..-1 into uint8
        value %= 256
    with np.errstate(all="ignore"):
        arr[...] = _dtype.through_float_number(value, arr.dtype)
    return finish(arr, requires_grad)





from core._random_factories import (  # noqa: E402 - they build on the helpers above
    normal,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
)
