"""Fill a tensor's array in place with a random draw: the one route every random op in ``core`` takes.

On the CPU the values come from ``core._random_kernels`` (PyTorch's kernels, bit for bit) and land
in memory order, as PyTorch's TensorIterator writes them. On CUDA they come from the generator's
CuPy stream (the same laws, other values). An empty or a meta array draws nothing, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from core import _backend, _random
from core import _random_kernels as K
from core._meta import MetaArray

__all__ = ["uniform_", "normal_", "random_from_to_", "random_full_range_", "random_default_", "bernoulli_",
           "exponential_", "geometric_", "log_normal_", "cauchy_"]


def _cpu(arr) -> bool:
    return isinstance(arr, np.ndarray)


def _drawn(arr) -> bool:
    """False for an empty or a meta array: PyTorch draws nothing for either."""
    return bool(arr.size) and type(arr) is not MetaArray


def _xp(arr):
    return _backend.xp_of(arr)


def _cuda_rng(arr, generator):
    return _random.generator_for(generator).rng_for(_backend.device_of_array(arr))


def _cuda_u(arr, generator):
    return _cuda_rng(arr, generator).random(arr.shape, dtype=np.float64)


def _put(arr, values) -> None:
    with np.errstate(all="ignore"):
        arr[...] = values


def _cpu_draw(arr, generator, kernel, *args) -> None:
    if _drawn(arr):
        K.fill(arr, kernel(_random.generator_for(generator), arr.size, *args))


def _flat_out(arr):
    """``arr`` as a flat view a kernel can write its values into (memory order is C order), or None.

    NOTE: saves a copy of every value (a big layer's init): the float kernels write straight into the tensor."""
    return arr.reshape(-1) if arr.flags.c_contiguous and arr.flags.writeable else None


def uniform_(arr, low: float, high: float, generator=None) -> None:
    if _cpu(arr):
        out = _flat_out(arr) if _drawn(arr) else None
        if out is not None:
            K.uniform(_random.generator_for(generator), arr.size, arr.dtype, low, high, out=out)
            return
        return _cpu_draw(arr, generator, K.uniform, arr.dtype, low, high)
    _put(arr, low + (high - low) * _cuda_u(arr, generator))


def normal_(arr, mean: float, std: float, generator=None) -> None:
    if _cpu(arr):
        if _drawn(arr):
            gen = _random.generator_for(generator)
            out = _flat_out(arr)
            if out is not None:
                K.normal(gen, arr.size, arr.dtype, mean, std, True, out=out)
            else:
                K.fill(arr, K.normal(gen, arr.size, arr.dtype, mean, std, arr.flags.c_contiguous))
        return
    _put(arr, mean + std * _cuda_rng(arr, generator).standard_normal(arr.shape, dtype=np.float64))


def random_from_to_(arr, span: int, base: int, generator=None) -> None:
    """Integers ``base + [0, span)``."""
    if _cpu(arr):
        out = _flat_out(arr) if _drawn(arr) else None
        if out is not None:
            K.random_from_to(_random.generator_for(generator), arr.size, arr.dtype, span, base, out=out)
            return
        return _cpu_draw(arr, generator, K.random_from_to, arr.dtype, span, base)
    _put(arr, _cuda_rng(arr, generator).integers(base, base + span, arr.shape, dtype=np.int64))


def random_full_range_(arr, generator=None) -> None:
    """Integers over all of int64 (``random_(-2**63)``)."""
    if _cpu(arr):
        return _cpu_draw(arr, generator, K.random_full_range, arr.dtype)
    info = np.iinfo(np.int64)
    _put(arr, _cuda_rng(arr, generator).integers(info.min, info.max, arr.shape, dtype=np.int64, endpoint=True))


def random_default_(arr, generator=None) -> None:
    """``random_()``: ``[0, 2**mantissa]`` for floats, ``[0, max]`` for integers."""
    if _cpu(arr):
        return _cpu_draw(arr, generator, K.random_default, arr.dtype)
    _put(arr, _cuda_rng(arr, generator).integers(0, K.default_span(arr.dtype), arr.shape, dtype=np.int64))


def bernoulli_(arr, p, generator=None) -> None:
    """Ones with probability ``p``: a number, or an array of ``arr``'s shape (same device)."""
    if _cpu(arr):
        if not _drawn(arr):
            return
        gen = _random.generator_for(generator)
        if isinstance(p, np.ndarray):
            probs = np.ascontiguousarray(K.memory_order(arr, np.broadcast_to(p, arr.shape)))
            return K.fill(arr, K.bernoulli_tensor(gen, probs, arr.dtype))
        return K.fill(arr, K.bernoulli_scalar(gen, arr.size, p, arr.dtype))
    _put(arr, _cuda_u(arr, generator) < p)


def exponential_(arr, lambd: float, generator=None) -> None:
    if _cpu(arr):
        return _cpu_draw(arr, generator, K.exponential, lambd, arr.dtype)
    _put(arr, -_xp(arr).log1p(-_cuda_u(arr, generator)) / lambd)


def geometric_(arr, p: float, generator=None) -> None:
    if _cpu(arr):
        return _cpu_draw(arr, generator, K.geometric, p, arr.dtype)
    xp = _xp(arr)
    _put(arr, xp.ceil(xp.log1p(-_cuda_u(arr, generator)) / np.log1p(-p)))


def log_normal_(arr, mean: float, std: float, generator=None) -> None:
    if _cpu(arr):
        return _cpu_draw(arr, generator, K.log_normal, mean, std, arr.dtype)
    _put(arr, _xp(arr).exp(mean + std * _cuda_rng(arr, generator).standard_normal(arr.shape, dtype=np.float64)))


def cauchy_(arr, median: float, sigma: float, generator=None) -> None:
    if _cpu(arr):
        return _cpu_draw(arr, generator, K.cauchy, median, sigma, arr.dtype)
    _put(arr, median + sigma * _xp(arr).tan(np.pi * (_cuda_u(arr, generator) - 0.5)))
