"""Tensor factories with PyTorch's dtype inference, defaults and argument errors.

``tensor`` copies (data parsing lives in ``core._from_data``), ``as_tensor``/``from_numpy`` share
NumPy memory when they can, and every factory takes ``dtype=``, ``device=`` and ``requires_grad=``.
Random factories are in ``core._random_factories``; they are re-exported here. The argument checks and
``finish`` live in ``core._factory_args``, the values of ``arange``/``linspace``/``logspace`` in
``core._factory_ranges``; the public factories stay defined here, so their ``__module__``, pickles and the names
``core._factories.<factory>`` that core's modules call are as before.
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from core import _backend, _default_device, _dtype
from core._device import CPU, canonical
from core._device import device as _device_cls
from core._factory_args import _arg_type as _arg_type  # (re-exported: core.ops._shape_args reads these two here)
from core._factory_args import _index_like as _index_like
from core._factory_args import _int_arg, device_arg, dtype_arg, finish, size_arg
from core._factory_out import into_out, out_dtype
from core._factory_ranges import _arange_values, _number, _real_logspace, _spaced, _spaced_number
from core._from_data import _check_leaf, check_scalar_fits, python_array
from core._memory_format import copy_in, empty_in, empty_strided_array, format_strides, preserved_strides
from core._tensor import Tensor, tensor_keeping_strides
from core._user_warning import warn_user
from core._warn_once import warn_once
from core.autograd._transform_guard import set_requires_grad
from core.autograd.function import note_value_read
from core.autograd.inference import mark

__all__ = ["tensor", "as_tensor", "asarray", "from_numpy", "zeros", "ones", "full", "empty", "arange",
           "linspace", "logspace", "eye", "zeros_like", "ones_like", "full_like", "empty_like",
           "scalar_tensor", "empty_strided",
           "rand", "randn", "randint", "randperm", "normal", "rand_like", "randn_like", "randint_like"]


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor:
    """A new tensor that copies ``data`` (numbers, nested sequences, arrays or tensors)."""
    dt = dtype_arg(dtype, "tensor")
    if isinstance(data, Tensor):
        return copy_construct(data, dt, device, requires_grad, "torch.tensor(sourceTensor)")
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


def copy_construct(data: Tensor, dt, device, requires_grad: bool, called: str) -> Tensor:
    """A detached copy of the tensor ``data``, with PyTorch's warning naming how it was ``called``
    (``torch.tensor(sourceTensor)`` or ``tensor.new_tensor(sourceTensor)``, as torch's two messages do)."""
    warn_user("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
              f"or sourceTensor.detach().clone().requires_grad_(True), rather than {called}.")
    dev, _ = device_arg(device if device is not None else data.device, "tensor")
    note_value_read()  # a copy of the values: core.compile's capture can't replay it
    src = data.detach()
    arr = _dtype.through_float(src._data, (dt or src.dtype).np).astype((dt or src.dtype).np, copy=True)
    return finish(_backend.to_device_array(arr, dev) if dev is not src.device else arr, requires_grad)


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
    if dt is _dtype.int64 and any(type(v) is int and v >= 2**63 for v in (start, end, step)):  # (a uint64 Scalar)
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    if not (step > 0 or step < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    # NOTE: PyTorch counts the elements in double precision and refuses a count past int64's range (a step of
    # 1e-320 over [0, 10) counted infinity: OverflowError here; 1e-300 NumPy's ValueError)
    try:
        size = (builtins.float(end) - builtins.float(start)) / builtins.float(step)
    except OverflowError:
        size = math.inf
    if not size <= 9.223372036854775807e18:
        raise RuntimeError("invalid size, possible overflow?")
    arr = _arange_values(start, end, step, dt)
    if out is not None:
        return into_out(arr, out, requires_grad, warn_resize=True)
    return finish(arr if dev is CPU else _backend.to_device_array(arr, dev), requires_grad)


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
