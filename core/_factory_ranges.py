"""The values of ``arange``, ``linspace`` and ``logspace`` as PyTorch's CPU kernels compute them (float ranges in
double precision, the two-sided fused spacing of linspace, logspace's exponents and ``std::pow``), and the checks of
their number arguments (PyTorch's parser errors, integer dtypes' overflow errors). ``core._factories`` makes the
tensors.
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from core import _dtype
from core._arange_values import float_arange, fma  # PyTorch's float arange and an exact fma
from core._factory_args import _int_arg, device_arg, dtype_arg
from core._from_data import _C_TYPE, _check_leaf
from core._tensor import Tensor
from core._threads import get_num_threads


def _number(x, name: str, pos: int):
    if isinstance(x, Tensor):
        return x.item()
    if isinstance(x, np.generic):
        return x.item()
    if not isinstance(x, (int, builtins.float)):
        raise TypeError(f"arange(): argument '{name}' (position {pos}) must be Number, not {type(x).__name__}")
    if type(x) is int and not -2**63 <= x < 2**64:  # (no Scalar holds it: torch's parser refuses)
        _dtype.int_scalar_overflow(x)
    return x


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
