"""Random factories (``rand``, ``randn``, ``randint``, ``randperm``, ``normal`` and ``*_like``).

Each one is what PyTorch makes it: an empty tensor filled by an in-place sampler (``uniform_``,
``normal_``, ``random_``) through ``core._sampling``, so with the same seed the CPU values are
PyTorch's, bit for bit. Every draw goes through a ``Generator`` (the default one unless
``generator=`` is given); ``out=`` fills and returns the given tensor; ``size=`` may be a keyword.
"""

from __future__ import annotations

import math

import ml_dtypes  # finfo that knows bfloat16 and float8 (NumPy's finfo does not before ml_dtypes 0.7)
import numpy as np

from core import _backend, _dtype, _random, _sampling
from core import _random_kernels as K
from core._arg_types import random_factory_kwargs_error
from core._factories import _int_arg, device_arg, dtype_arg, finish, like_array, size_arg
from core._tensor import Tensor

__all__ = ["rand", "randn", "randint", "randperm", "normal", "rand_like", "randn_like", "randint_like"]

_TYPE = _dtype.SCALAR_NAMES


def _shape(sizes: tuple, size, fn: str) -> tuple:
    if size is not None:
        if sizes:
            raise TypeError(f"{fn}() received an invalid combination of arguments - got both positional sizes "
                            "and size=")
        return size_arg((size,), fn, keyword=True)
    return size_arg(sizes, fn)


def _target(fn: str, shape: tuple, dtype, device, out, default):
    """A fresh array, or ``out``'s (checked and resized like PyTorch's ``out=``)."""
    dt = dtype_arg(dtype, fn)
    if out is None:
        dt = dt or default
        dev, xp = device_arg(device, fn)
        return xp.empty(shape, dtype=dt.np), dt
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if dt is not None and dt != out.dtype:
        raise RuntimeError(f"dtype {_TYPE[dt.name]} does not match dtype of out parameter ({_TYPE[out.dtype.name]})")
    if out.requires_grad:
        raise RuntimeError(f"aten::{fn}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    if tuple(out.shape) != tuple(shape):
        if not hasattr(out, "resize_"):
            raise RuntimeError(f"{fn}(): out= of shape {list(out.shape)} cannot hold a result of shape {list(shape)}")
        out.resize_(shape)
    return out._data, out.dtype


def _result(arr, out, requires_grad: bool) -> Tensor:
    if out is not None:
        out._bump_version()
        return out
    return finish(arr, requires_grad)


def _fill_uniform(arr, generator) -> None:
    """U[0, 1) samples into ``arr``; a complex array's real and imaginary parts each get one, as torch's."""
    if arr.dtype.kind != "c":
        _sampling.uniform_(arr, 0.0, 1.0, generator)
        return
    parts = _parts(arr)
    _sampling.uniform_(parts, 0.0, 1.0, generator)
    arr[...] = parts.view(arr.dtype).reshape(arr.shape)  # (a no-op when the parts are arr's own memory)


def _fill_normal(arr, generator) -> None:
    """N(0, 1) samples into ``arr``.

    NOTE: torch fills a complex tensor's view_as_real with std 1/sqrt(2) (so E|z|^2 = 1), in memory order.
    """
    if arr.dtype.kind != "c":
        _sampling.normal_(arr, 0.0, 1.0, generator)
        return
    parts = _parts(arr)
    _sampling.normal_(parts, 0.0, 1.0 / math.sqrt(2.0), generator)
    arr[...] = parts.view(arr.dtype).reshape(arr.shape)


def _parts(arr):
    """A complex array's real and imaginary parts as one float array of twice the size (a copy if not contiguous)."""
    flat = arr.reshape(-1) if arr.flags.c_contiguous else np.ascontiguousarray(arr).reshape(-1)
    return flat.view(arr.real.dtype)


def _floating(dt, kernel: str) -> None:
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_TYPE[dt.name]}'")


def _refuse_unknown(fn: str, sizes: tuple, unexpected: dict, **known) -> None:
    """PyTorch's error for a keyword rand/randn lack (``names=``): the known keywords given count too."""
    if unexpected:
        given = {k: v for k, v in known.items() if v is not _UNSET[k]}
        raise random_factory_kwargs_error(fn, sizes, {**given, **unexpected})


_UNSET = {"size": None, "generator": None, "out": None, "dtype": None, "layout": None, "device": None,
          "pin_memory": False, "requires_grad": False}


def rand(*sizes, size=None, generator=None, out=None, dtype=None, layout=None, device=None, pin_memory=False,
         requires_grad=False, **unexpected) -> Tensor:
    """Uniform samples in ``[0, 1)``."""
    _refuse_unknown("rand", sizes, unexpected, size=size, generator=generator, out=out, dtype=dtype, layout=layout,
                    device=device, pin_memory=pin_memory, requires_grad=requires_grad)
    arr, dt = _target("rand", _shape(sizes, size, "rand"), dtype, device, out, _dtype.get_default_dtype())
    _floating(dt, "check_uniform_bounds")
    _fill_uniform(arr, generator)
    return _result(arr, out, requires_grad)


def randn(*sizes, size=None, generator=None, out=None, dtype=None, layout=None, device=None, pin_memory=False,
          requires_grad=False, **unexpected) -> Tensor:
    """Standard normal samples."""
    _refuse_unknown("randn", sizes, unexpected, size=size, generator=generator, out=out, dtype=dtype, layout=layout,
                    device=device, pin_memory=pin_memory, requires_grad=requires_grad)
    arr, dt = _target("randn", _shape(sizes, size, "randn"), dtype, device, out, _dtype.get_default_dtype())
    _floating(dt, "normal_kernel_cpu")
    _fill_normal(arr, generator)
    return _result(arr, out, requires_grad)


def _randint_args(low, high, size):
    if size is None:
        if not isinstance(high, (tuple, list)):
            what = "missing" if high is None else f"must be tuple of ints, not {type(high).__name__}"
            raise TypeError(f"randint(): argument 'size' (position 2) {what}")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    low = _int_arg(low, "randint", "low", 1)
    high = _int_arg(high, "randint", "high", 2 if low else 1)
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"randint(): argument 'size' (position 3) must be tuple of ints, not {type(size).__name__}")
    return low, high, size_arg((size,), "randint")


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
            pin_memory=False, requires_grad=False) -> Tensor:
    """Integers in ``[low, high)`` (``randint(high, size)`` or ``randint(low, high, size)``); int64 by default."""
    low, high, shape = _randint_args(low, high, size)
    arr, dt = _target("randint", shape, dtype, device, out, _dtype.int64)
    span, base = random_range(dt, low, high)
    _sampling.random_from_to_(arr, span, base, generator)
    return _result(arr, out, requires_grad)


def random_range(dt, low: int, high: int, move_bounds: bool = True) -> tuple:
    """``random_(from, to)``'s span and base: PyTorch's bound checks, with float bounds moved to values the
    dtype holds."""
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    if dt.is_floating_point and move_bounds:
        low, high = float_from_value(dt, low), _float_to(dt, high)
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but "
                               f"got from={low} >= to={high}")
    _check_in_range(dt, low, high - 1)
    return high - low, low


def float_from_value(dt, value: int) -> int:
    """The smallest ``from`` at or above ``value`` that stays at or above it once cast to the float dtype."""
    cast = int(np.array(value + 1).astype(dt.np))
    if cast < value:
        value = cast + (1 << ((abs(value + 1).bit_length() - 1) - _DIGITS[dt.name] + 1))
    return value


def _float_to(dt, value: int) -> int:
    cast = int(np.array(value - 1).astype(dt.np))
    if cast >= value:
        value = cast - (1 << ((abs(value - 1).bit_length() - 1) - _DIGITS[dt.name] + 1))
    return value


_DIGITS = {"float16": 11, "float32": 24, "float64": 53}
_CPP_NAME = {"int8": "signed char", "uint8": "unsigned char", "int16": "short int", "int32": "int",
             "int64": "long int", "float16": "c10::Half"}


def _check_in_range(dt, low: int, high_inc: int) -> None:
    if dt.is_floating_point:
        info = ml_dtypes.finfo(dt.np)
        lo, hi = float(info.min), float(info.max)
    elif dt.name == "bool":
        lo, hi = 0, 1
    else:
        info = np.iinfo(dt.np)
        lo, hi = int(info.min), int(info.max)
    for value, name in ((low, "from"), (high_inc, "to - 1")):
        if not lo <= value <= hi:
            raise RuntimeError(f"{name} is out of bounds for {_CPP_NAME.get(dt.name, dt.name)}")


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False) -> Tensor:
    """A random permutation of ``0 .. n-1`` (int64 by default)."""
    n = _int_arg(n, "randperm", "n", 1)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    arr, _ = _target("randperm", (n,), dtype, device, out, _dtype.int64)
    gen = _random.generator_for(generator)
    if isinstance(arr, np.ndarray):
        arr[...] = K.randperm(gen, n)
    elif n:
        arr[...] = _backend.xp_of(arr).argsort(gen.rng_for(_backend.device_of_array(arr)).random((n,)))
    return _result(arr, out, requires_grad)


def _check_std(std) -> None:
    if isinstance(std, Tensor):
        if std.numel() and bool((std._data < 0).any()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")  # (C++'s stream of a double)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           pin_memory=False, requires_grad=False) -> Tensor:
    """Normal samples: tensor ``mean``/``std`` broadcast together, or numbers with a ``size``."""
    if size is not None and (isinstance(mean, Tensor) or isinstance(std, Tensor)):
        mean, std = _sized_normal_numbers(mean, std, size)
    _check_std(std)
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        return _normal_tensors(mean, std, generator, out)
    if size is None:
        raise TypeError("normal() missing required argument 'size'")
    arr, dt = _target("normal", size_arg((tuple(size),), "normal"), dtype, device, out, _dtype.get_default_dtype())
    _floating(dt, "normal_kernel_cpu")
    _sampling.normal_(arr, float(mean), float(std), generator)
    return _result(arr, out, requires_grad)


_NORMAL_OVERLOADS = (
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
    "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n")


def _sized_normal_numbers(mean, std, size) -> tuple:
    """``normal(mean, std, size)`` takes numbers: PyTorch's parser reads a 0-d tensor that does not require grad as
    its number (Opacus' noise with an adaptive clipping bound, a 0-d tensor std), and refuses other tensors."""
    from core._arg_types import tp_name

    numbers = []
    for value in (mean, std):
        if isinstance(value, Tensor):
            if value.dim() != 0 or value.requires_grad:
                raise TypeError("normal() received an invalid combination of arguments - got "
                                f"({tp_name(mean)}, {tp_name(std)}, size={tp_name(size)}), but expected one of:\n"
                                + _NORMAL_OVERLOADS)
            value = value.item()
        numbers.append(value)
    return tuple(numbers)


def _normal_tensors(mean, std, generator, out) -> Tensor:
    """PyTorch's three tensor overloads: draw N(0, std) or N(0, 1), then scale by a tensor std and shift."""
    from core.ops.elementwise import add, mul  # ops import the factories

    ref = mean if isinstance(mean, Tensor) else std
    if isinstance(mean, Tensor) and isinstance(std, Tensor):
        shape = np.broadcast_shapes(tuple(mean.shape), tuple(std.shape))
    else:
        shape = tuple(ref.shape)
    arr, _ = _target("normal", shape, None, ref.device, out, ref.dtype)
    tensor_std = isinstance(std, Tensor)
    _sampling.normal_(arr, 0.0, 1.0 if tensor_std else float(std), generator)
    noise = finish(arr, False)
    result = add(mul(noise, std.detach()), mean) if tensor_std else add(noise, mean.detach())
    result = result.detach()
    if out is not None:
        out._data[...] = result._data
        out._bump_version()
        return out
    return result


def _like(name: str, fill, kernel: str):
    def make(input, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False,
             memory_format=None, generator=None):
        dt = dtype_arg(dtype, name) or input.dtype
        dev, xp = device_arg(device if device is not None else input.device, name)
        _floating(dt, kernel)
        arr = like_array(input, dt, dev, xp, memory_format)
        fill(arr, generator)
        return finish(arr, requires_grad)
    make.__name__ = make.__qualname__ = name
    return make


rand_like = _like("rand_like", _fill_uniform, "check_uniform_bounds")
rand_like.__doc__ = "``torch.rand_like``: uniform samples shaped like ``input`` (its dtype, device and strides)."
randn_like = _like("randn_like", _fill_normal, "normal_kernel_cpu")
randn_like.__doc__ = "``torch.randn_like``: normal samples shaped like ``input`` (its dtype, device and strides)."


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, pin_memory=False,
                 requires_grad=False, memory_format=None, generator=None) -> Tensor:
    """``randint`` shaped like ``input`` (its dtype, device and strides unless overridden)."""
    if high is None:
        low, high = 0, low
    low = _int_arg(low, "randint_like", "low", 1)
    high = _int_arg(high, "randint_like", "high", 2)
    dt = dtype_arg(dtype, "randint_like") or input.dtype
    dev, xp = device_arg(device if device is not None else input.device, "randint_like")
    arr = like_array(input, dt, dev, xp, memory_format)
    span, base = random_range(dt, low, high)
    _sampling.random_from_to_(arr, span, base, generator)
    return finish(arr, requires_grad)
