"""Random factories (``rand``, ``randn``, ``randint``, ``randperm``, ``normal`` and ``*_like``).

Every draw goes through a ``Generator`` (the default one unless ``generator=`` is given), so
``manual_seed`` makes them all reproducible. Values differ from PyTorch's (another PRNG); the
shapes, dtypes, devices and errors are PyTorch's.
"""

from __future__ import annotations

import numpy as np

from core import _dtype, _random
from core._factories import _int_arg, device_arg, dtype_arg, finish, like_array, size_arg
from core._tensor import Tensor

__all__ = ["rand", "randn", "randint", "randperm", "normal", "rand_like", "randn_like", "randint_like"]

_TYPE = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _uniform(r, shape, dt):
    draw_dt = np.float32 if dt.np == np.float32 else np.float64
    return r.random(shape, dtype=draw_dt).astype(dt.np, copy=False)


def _normal(r, shape, dt):
    draw_dt = np.float32 if dt.np == np.float32 else np.float64
    return r.standard_normal(shape, dtype=draw_dt).astype(dt.np, copy=False)


_KERNELS = {"rand": (_uniform, "check_uniform_bounds"), "randn": (_normal, "normal_kernel_cpu")}


def _draw(name: str, shape: tuple, dtype, device, generator):
    draw, kernel = _KERNELS[name]
    dt = dtype_arg(dtype, name) or _dtype.get_default_dtype()
    dev, _ = device_arg(device, name)
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_TYPE[dt.name]}'")
    return draw(_random.rng(dev, generator), shape, dt)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None, layout=None,
         pin_memory=False) -> Tensor:
    """Uniform samples in ``[0, 1)``."""
    return finish(_draw("rand", size_arg(size, "rand"), dtype, device, generator), requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None, layout=None,
          pin_memory=False) -> Tensor:
    """Standard normal samples."""
    return finish(_draw("randn", size_arg(size, "randn"), dtype, device, generator), requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False,
            out=None, layout=None, pin_memory=False) -> Tensor:
    """Integers in ``[low, high)`` (``randint(high, size)`` or ``randint(low, high, size)``); int64 by default."""
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
    shape = size_arg((size,), "randint")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    dt = dtype_arg(dtype, "randint") or _dtype.int64
    dev, _ = device_arg(device, "randint")
    arr = _random.rng(dev, generator).integers(low, high, shape, dtype=np.int64).astype(dt.np)
    return finish(arr, requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False, out=None, layout=None,
             pin_memory=False) -> Tensor:
    """A random permutation of ``0 .. n-1`` (int64 by default)."""
    n = _int_arg(n, "randperm", "n", 1)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dt = dtype_arg(dtype, "randperm") or _dtype.int64
    dev, xp = device_arg(device, "randperm")
    r = _random.rng(dev, generator)
    perm = r.permutation(n) if xp is np else xp.argsort(r.random((n,)))
    return finish(perm.astype(dt.np), requires_grad)


def _check_std(std) -> None:
    if isinstance(std, Tensor):
        if std.numel() and bool((std._data < 0).any()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False,
           out=None) -> Tensor:
    """Normal samples: tensor ``mean``/``std`` broadcast together, or numbers with a ``size``."""
    _check_std(std)
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        ref = mean if isinstance(mean, Tensor) else std
        if size is None:
            size = tuple(ref.shape) if not (isinstance(mean, Tensor) and isinstance(std, Tensor)) else \
                np.broadcast_shapes(tuple(mean.shape), tuple(std.shape))
        noise = randn(*size_arg((tuple(size),), "normal"), generator=generator, dtype=ref.dtype, device=ref.device)
        return (noise * std + mean).detach()
    if size is None:
        raise TypeError("normal() missing required argument 'size'")
    out = randn(*size_arg((tuple(size),), "normal"), generator=generator, dtype=dtype, device=device) * std + mean
    if requires_grad:
        out.requires_grad_(True)
    return out


def _like(name: str, factory):
    def make(input, *, generator=None, dtype=None, device=None, requires_grad=False, memory_format=None,
             layout=None, pin_memory=False):
        dt = dtype_arg(dtype, name) or input.dtype
        dev, xp = device_arg(device if device is not None else input.device, name)
        arr = like_array(input, dt, dev, xp, memory_format)
        arr[...] = factory(*input.shape, generator=generator, dtype=dt, device=dev)._data
        return finish(arr, requires_grad)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = f"``torch.{name}``: ``{factory.__name__}`` shaped like ``input`` (its dtype and device)."
    return make


rand_like = _like("rand_like", rand)
randn_like = _like("randn_like", randn)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, device=None, requires_grad=False,
                 memory_format=None) -> Tensor:
    """``randint`` shaped like ``input`` (its dtype and device unless overridden)."""
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.shape), generator=generator, dtype=dtype or input.dtype,
                   device=device if device is not None else input.device, requires_grad=requires_grad)
