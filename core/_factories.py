"""Tensor factories with PyTorch's dtype inference and defaults: ``tensor``, ``zeros``, ``randn``..."""

from __future__ import annotations

import builtins
import math
import warnings

import numpy as np

from core import _backend, _dtype, _random
from core._device import CPU, canonical
from core._tensor import Size, Tensor, new_tensor

__all__ = ["tensor", "as_tensor", "asarray", "from_numpy", "zeros", "ones", "full", "empty", "arange",
           "linspace", "logspace", "eye", "rand", "randn", "randint", "randperm", "normal",
           "zeros_like", "ones_like", "full_like", "empty_like", "rand_like", "randn_like",
           "randint_like", "scalar_tensor", "empty_strided", "complex_unsupported"]


def _finish(arr, requires_grad: bool) -> Tensor:
    t = new_tensor(arr)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _size(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = tuple(size[0])
    out = []
    for s in size:
        if isinstance(s, Tensor):
            s = int(s)
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(f"zeros(): argument 'size' must be tuple of ints, but found element of type "
                            f"{type(s).__name__} at pos {len(out)}")
        out.append(int(s))
    for s in out:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {out}")
    return tuple(out)


def _resolve(dtype, device, default=None):
    dt = _dtype.to_dtype(dtype) if dtype is not None else (default or _dtype.get_default_dtype())
    dev = canonical(device)
    return dt, dev, _backend.xp_for(dev)


def _infer_dtype(data) -> _dtype.dtype:
    """PyTorch's inference for nested Python data: floats give the default dtype, ints int64."""
    kinds = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, Tensor):
            kinds.add(x.dtype)
        elif isinstance(x, np.ndarray):
            kinds.add(_dtype.from_numpy_dtype(x.dtype))
        elif isinstance(x, bool):
            kinds.add(_dtype.bool)
        elif isinstance(x, (int, np.integer)):
            kinds.add(_dtype.int64 if isinstance(x, int) else _dtype.from_numpy_dtype(x.dtype))
        elif isinstance(x, float):
            kinds.add(_dtype.get_default_dtype())
        elif isinstance(x, np.floating):
            kinds.add(_dtype.get_default_dtype())
        elif isinstance(x, complex):
            raise TypeError("complex tensors are not supported by core")
        else:
            raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
    out = None
    for k in kinds:
        out = k if out is None else _dtype.promote_types(out, k)
    return out or _dtype.get_default_dtype()


def _check_ragged(data, depth=0):
    if isinstance(data, (list, tuple)) and data and isinstance(data[0], (list, tuple)):
        n = len(data[0])
        for item in data:
            if not isinstance(item, (list, tuple)) or len(item) != n:
                got = len(item) if isinstance(item, (list, tuple)) else type(item).__name__
                raise ValueError(f"expected sequence of length {n} at dim {depth + 1} (got {got})")
        for item in data:
            _check_ragged(item, depth + 1)


def _host_array(data, dt):
    if isinstance(data, Tensor):
        return _backend.to_numpy_array(data._data).astype(dt.np, copy=True)
    if isinstance(data, (list, tuple)):
        _check_ragged(data)
        if any(isinstance(x, Tensor) for x in data):
            data = [x.tolist() if isinstance(x, Tensor) else x for x in data]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np.array(data).astype(dt.np)
        except OverflowError:
            raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow") from None


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor:
    """A new tensor that copies ``data`` (numbers, nested sequences, arrays or tensors)."""
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
                      "or sourceTensor.clone().detach().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    if dtype is not None:
        dt = _dtype.to_dtype(dtype)
    elif isinstance(data, (np.ndarray, np.generic)) and not isinstance(data, (np.floating,)) or isinstance(data, np.ndarray):
        dt = _dtype.from_numpy_dtype(np.asarray(data).dtype)
    elif isinstance(data, np.floating):
        dt = _dtype.from_numpy_dtype(data.dtype)
    else:
        dt = _infer_dtype(data)
    dev = canonical(device) if device is not None else (data.device if isinstance(data, Tensor) else CPU)
    arr = _host_array(data, dt)
    if dev is not CPU:
        arr = _backend.to_device_array(arr, dev)
    return _finish(arr, requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like ``tensor`` but shares memory with a NumPy array or tensor when no conversion is needed."""
    if isinstance(data, Tensor):
        out = data
        if dtype is not None or device is not None:
            out = data.to(device=device, dtype=dtype)
        return out
    if isinstance(data, np.ndarray) and (dtype is None or _dtype.to_dtype(dtype).np == data.dtype) and \
            (device is None or canonical(device) is CPU):
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False) -> Tensor:
    out = tensor(obj, dtype=dtype, device=device) if copy else as_tensor(obj, dtype=dtype, device=device)
    if requires_grad:
        out.requires_grad_(True)
    return out


def from_numpy(arr) -> Tensor:
    """A tensor sharing memory with a NumPy array (writes show in both)."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(arr).__name__})")
    _dtype.from_numpy_dtype(arr.dtype)
    if any(s < 0 for s in arr.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with negative "
                         "strides are not currently supported. (You can probably work around this by making "
                         "a copy of your array  with array.copy().) ")
    if any(s % arr.itemsize for s in arr.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. Copy the numpy "
                         "array to reallocate the memory.")
    if not arr.dtype.isnative:
        raise TypeError("given numpy array has byte order different from the native byte order. Conversion "
                        "between byte orders is currently not supported.")
    return new_tensor(arr)


def _factory(fill):
    def make(*size, dtype=None, device=None, requires_grad=False, out=None, layout=None, pin_memory=False,
             memory_format=None):
        dt, dev, xp = _resolve(dtype, device)
        return _finish(fill(xp, _size(size), dt), requires_grad)
    return make


zeros = _factory(lambda xp, s, dt: xp.zeros(s, dtype=dt.np))
ones = _factory(lambda xp, s, dt: xp.ones(s, dtype=dt.np))
empty = _factory(lambda xp, s, dt: xp.empty(s, dtype=dt.np))
zeros.__name__, ones.__name__, empty.__name__ = "zeros", "ones", "empty"


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    base = empty(builtins.max(1, sum((s - 1) * st for s, st in zip(size, stride)) + 1) if all(size) else 0,
                 dtype=dtype, device=device)
    from core.ops.views import make_view  # noqa: PLC0415

    out = make_view(base, tuple(size), tuple(stride), 0)
    out._base = None
    if requires_grad:
        out.requires_grad_(True)
    return out


def _fill_dtype(value) -> _dtype.dtype:
    if isinstance(value, Tensor):
        return value.dtype
    return _dtype.scalar_dtype(value)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False, out=None, layout=None) -> Tensor:
    dt, dev, xp = _resolve(dtype, device, default=_fill_dtype(fill_value))
    value = fill_value.item() if isinstance(fill_value, Tensor) else fill_value
    return _finish(xp.full(_size((size,) if isinstance(size, int) else (size,)), value, dtype=dt.np), requires_grad)


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    return full((), s, dtype=dtype or _dtype.get_default_dtype(), device=device, requires_grad=requires_grad)


def _num(x):
    return x.item() if isinstance(x, Tensor) else x


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    """Values from ``start`` to ``end`` (exclusive); ints give int64, any float the default dtype."""
    if end is None:
        start, end = 0, start
    start, end, step = _num(start), _num(end), _num(step)
    if dtype is None:
        is_float = any(isinstance(v, (float, np.floating)) for v in (start, end, step))
        dtype = _dtype.get_default_dtype() if is_float else _dtype.int64
    dt, dev, xp = _resolve(dtype, device)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0 and end != start:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    n = builtins.max(0, math.ceil((end - start) / step))
    if dt.is_floating_point or any(isinstance(v, float) for v in (start, end, step)):
        vals = start + np.arange(n, dtype=np.float64) * step
    else:
        vals = start + np.arange(n, dtype=np.int64) * step
    arr = vals.astype(dt.np)
    return _finish(arr if dev is CPU else _backend.to_device_array(arr, dev), requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    dt, dev, xp = _resolve(dtype, device)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    start, end = _num(start), _num(end)
    if steps == 1:
        vals = np.array([start], dtype=np.float64)
    else:
        step = (end - start) / (steps - 1)
        idx = np.arange(steps, dtype=np.float64)
        half = steps // 2
        vals = np.where(idx < half, start + step * idx, end - step * (steps - idx - 1))
    arr = vals.astype(dt.np) if dt.is_floating_point else np.trunc(vals).astype(dt.np)
    return _finish(arr if dev is CPU else _backend.to_device_array(arr, dev), requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    lin = linspace(start, end, steps, dtype=_dtype.float64)
    arr = np.power(base, lin._data).astype(_resolve(dtype, device)[0].np)
    return _finish(_backend.to_device_array(arr, canonical(device)), requires_grad)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    dt, dev, xp = _resolve(dtype, device)
    if n < 0 or (m is not None and m < 0):
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    return _finish(xp.eye(n, n if m is None else m, dtype=dt.np), requires_grad)


def _random_factory(draw, name):
    def make(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None, layout=None,
             pin_memory=False):
        dt, dev, xp = _resolve(dtype, device)
        if not dt.is_floating_point:
            raise RuntimeError(f"\"{name}\" not implemented for '{_TYPE[dt.name]}'")
        arr = draw(_random.rng(dev, generator), _size(size), dt)
        return _finish(arr, requires_grad)
    make.__name__ = name
    return make


_TYPE = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _draw_uniform(r, s, dt):
    return r.random(s, dtype=np.float64).astype(dt.np) if dt.np != np.float32 else r.random(s, dtype=np.float32)


def _draw_normal(r, s, dt):
    return r.standard_normal(s, dtype=np.float64).astype(dt.np) if dt.np != np.float32 else \
        r.standard_normal(s, dtype=np.float32)


rand = _random_factory(_draw_uniform, "rand")
randn = _random_factory(_draw_normal, "randn")


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Integers in ``[low, high)``; int64 unless ``dtype`` says otherwise."""
    if size is None:
        if high is None or not isinstance(high, (tuple, list, Size)):
            raise TypeError("randint() missing required argument 'size'")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    dt, dev, xp = _resolve(dtype, device, default=_dtype.int64)
    arr = _random.rng(dev, generator).integers(low, high, _size((size,)), dtype=np.int64).astype(dt.np)
    return _finish(arr, requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    dt, dev, xp = _resolve(dtype, device, default=_dtype.int64)
    return _finish(_random.rng(dev, generator).permutation(n).astype(dt.np), requires_grad)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        ref = mean if isinstance(mean, Tensor) else std
        shape = tuple(ref.shape) if size is None else tuple(size)
        return randn(*shape, dtype=ref.dtype, device=ref.device, generator=generator) * std + mean
    return randn(*_size((size,)), generator=generator, dtype=dtype, device=device) * std + mean


def _like(factory):
    def make(input, *args, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None,
             **kwargs):
        return factory(*tuple(input.shape), *args, dtype=dtype or input.dtype, device=device or input.device,
                       requires_grad=requires_grad, **kwargs)
    make.__name__ = factory.__name__ + "_like"
    return make


zeros_like = _like(zeros)
ones_like = _like(ones)
empty_like = _like(empty)
rand_like = _like(rand)
randn_like = _like(randn)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None) -> Tensor:
    return full(tuple(input.shape), fill_value, dtype=dtype or input.dtype, device=device or input.device,
                requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device)


def complex_unsupported(*args, **kwargs):
    raise TypeError("complex tensors are not supported by core")
