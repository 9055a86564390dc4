"""Turning Python data into a host array the way ``torch.tensor`` does.

PyTorch infers the dtype from the whole nested structure (Python floats give the default dtype,
ints int64, bools bool, NumPy scalars, arrays and tensors their own dtype, mixtures promoted),
takes the shape from the first element at each depth, and refuses ragged or ill-typed data with
its own errors. NumPy would instead build object arrays or pick float64/uint64, so we walk the
data ourselves and only hand NumPy a flat list of plain Python numbers.
"""

from __future__ import annotations

import builtins
import itertools
import math

import ml_dtypes  # finfo that knows bfloat16 and float8 (NumPy's finfo does not before ml_dtypes 0.7)
import numpy as np

from core import _backend, _dtype
from core._warn_once import warn_once

__all__ = ["infer_dtype", "host_array", "shape_of", "python_array"]

_SEQUENCES = (list, tuple, range)
_NOT_SEQUENCES = (str, bytes, dict, np.ndarray, np.generic)  # a bytearray is a sequence of ints


def _is_sequence(x) -> bool:
    """PyTorch's ``PySequence_Check``: lists, tuples and ranges, and any other object with ``__len__`` and
    ``__getitem__`` (a ``collections.deque``, an ``array.array``, a user's sequence class) but strings, mappings,
    arrays and tensors."""
    if isinstance(x, _SEQUENCES):
        return True
    if isinstance(x, _NOT_SEQUENCES) or _is_tensor(x) or isinstance(x, (int, float, complex)):
        return False
    kind = type(x)
    return hasattr(kind, "__getitem__") and hasattr(kind, "__len__") and not hasattr(kind, "keys")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _is_tensor(x) -> bool:
    return hasattr(x, "_vc") and hasattr(x, "_data")


def _scalar_dtype(x):
    """The dtype of one leaf of the data, or PyTorch's error for what it cannot hold."""
    if isinstance(x, (np.generic, np.ndarray)):
        return _dtype.from_numpy_dtype(x.dtype)
    if _is_tensor(x):
        return x.dtype
    if isinstance(x, bool):
        return _dtype.bool
    if isinstance(x, int):
        return _dtype.int64
    if isinstance(x, float):
        return _dtype.get_default_dtype()
    if isinstance(x, complex):
        return _dtype.get_default_dtype().to_complex()
    if isinstance(x, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
    raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")


def infer_dtype(data) -> _dtype.dtype:
    """The dtype ``torch.tensor(data)`` would have: every leaf's dtype, promoted."""
    out = None
    stack = [data]
    while stack:
        x = stack.pop()
        if _is_sequence(x) and len(x):
            stack.extend(x)
            continue
        # PyTorch counts an empty sequence as one default-dtype float
        d = _dtype.get_default_dtype() if _is_sequence(x) else _scalar_dtype(x)
        out = d if out is None else _dtype.promote_types(out, d)
    return out or _dtype.get_default_dtype()


def shape_of(data) -> list:
    """The shape read from the first element at each depth (PyTorch's ``compute_sizes``)."""
    shape = []
    x = data
    while True:
        if isinstance(x, str):
            raise ValueError("too many dimensions 'str'")
        if isinstance(x, np.ndarray):
            return shape + list(x.shape)
        if not _is_sequence(x):  # tensors inside data are one-element leaves, as in PyTorch
            return shape
        shape.append(len(x))
        if not len(x):
            return shape
        x = x[0]


def warn_grad_scalar() -> None:
    """PyTorch's TORCH_WARN_ONCE when a tensor that requires grad becomes a Python number (``float(t)``,
    ``complex(t)``, ``torch.tensor([t])``): once per process, and only while grad mode is on (LBFGS takes
    ``float()`` of its loss under ``no_grad``: PyTorch says nothing there, nor uses up its one warning)."""
    from core.autograd import grad_mode  # (core.autograd imports this module)
    if not grad_mode.is_grad_enabled():
        return
    warn_once("grad scalar", "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
              "behavior.\nConsider using tensor.detach() first.")


def _leaf_value(x, dt):
    """A plain Python number for one element; nested data where a number belongs is refused."""
    if _is_sequence(x):
        if dt.is_floating_point:
            raise TypeError(f"must be real number, not {type(x).__name__}")
        raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
    if _is_tensor(x) or isinstance(x, np.ndarray):
        integral = x.dtype.category != 2 if _is_tensor(x) else x.dtype.kind in "biu"
        if (x.numel() if _is_tensor(x) else x.size) != 1 or not (integral or dt.is_floating_point):
            if dt.is_floating_point:
                raise ValueError("only one element tensors can be converted to Python scalars")
            raise TypeError("only integer tensors of a single element can be converted to an index")
        if _is_tensor(x) and x.requires_grad:
            warn_grad_scalar()
        return _backend.to_numpy_array(x._data if _is_tensor(x) else x).reshape(()).item()
    if isinstance(x, np.generic):
        if dt.is_complex:  # any NumPy number
            return x.item()
        if dt.category != 2 and not isinstance(x, (np.integer, float)) and not (dt is _dtype.bool and
                                                                              isinstance(x, np.bool_)):
            raise TypeError(f"'numpy.{type(x).__name__}' object cannot be interpreted as an integer")
        return float(x) if isinstance(x, np.complexfloating) else x.item()  # the real part, with NumPy's warning
    if isinstance(x, complex) and not dt.is_complex and dt is not _dtype.bool:  # (PyTorch's THPUtils_unpack)
        if dt.is_floating_point:
            raise TypeError("must be real number, not complex")
        raise TypeError("'complex' object cannot be interpreted as an integer")
    return x


def _check_leaf(value, dt) -> None:
    info = np.iinfo(dt.np)
    if isinstance(value, int):
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise ValueError("Overflow when unpacking long long")
        low = -int(info.max) if info.min == 0 else int(info.min)
        bad = value < low or value > info.max
    else:
        bad = not math.isfinite(value) or value < info.min or value > info.max
    if bad:
        raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow")


def check_scalar_fits(value, dt) -> None:
    """PyTorch's check of a Python number stored into a tensor (``fill_``, ``full``): a RuntimeError outside the
    dtype's range (c10's ``overflows``: a negative int may wrap into uint8 from -255, a float may not; inf and nan
    fit a floating dtype)."""
    if type(value) is int and not -2**63 <= value < 2**64:  # (no Scalar holds it: the parser's refusal)
        _dtype.int_scalar_overflow(value)
    if dt is _dtype.bool or isinstance(value, bool):
        return
    if dt.is_complex:
        big = float(ml_dtypes.finfo(dt.np).max)
        parts = (value.real, value.imag) if isinstance(value, complex) else (value,)
        bad = any(math.isfinite(p) and abs(p) > big for p in parts)
    elif isinstance(value, complex) and value.imag != 0:  # c10: a non-zero imaginary part overflows a real type
        bad = True
    elif isinstance(value, complex):
        return check_scalar_fits(value.real, dt)
    elif dt.is_floating_point:
        big = float(ml_dtypes.finfo(dt.np).max)
        bad = math.isfinite(value) and abs(value) > big
    else:
        info = np.iinfo(dt.np)
        lo = -info.max if dt is _dtype.uint8 and isinstance(value, int) else info.min
        bad = not math.isfinite(value) or not lo <= value <= info.max
    if bad:
        raise RuntimeError(f"value cannot be converted to type {_C_TYPE[dt.name]} without overflow")


_C_TYPE = {"int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t", "uint8": "uint8_t",
           "float16": "c10::Half", "bfloat16": "c10::BFloat16", "float32": "float", "float64": "double",
           "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
           "complex32": "c10::complex<c10::Half>"}


_NDARRAY_LIST = ("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the "
                 "list to a single numpy.ndarray with numpy.array() before converting to a tensor.")


def _flatten(data, shape: list, dim: int, out: list, dt) -> None:
    if isinstance(data, np.ndarray):  # (an item of a sequence: a whole ndarray takes host_array's own route)
        warn_once("ndarray list", _NDARRAY_LIST)  # PyTorch's recursive_store, once per process
    if dim == len(shape):
        value = _leaf_value(data, dt)
        if dt.category == 1 and not isinstance(value, bool):
            _check_leaf(value, dt)  # PyTorch stores depth-first, so overflow shows before later errors
        out.append(value)
        return
    if isinstance(data, np.ndarray):
        if list(data.shape) != shape[dim:]:
            got = data.shape[0] if data.ndim else 0
            raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {got})")
        out.extend(data.reshape(-1).tolist())
        return
    if not _is_sequence(data):
        raise TypeError("not a sequence")
    if len(data) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {len(data)})")
    for item in data:
        _flatten(item, shape, dim + 1, out, dt)


def _check_range(values: np.ndarray, dt, inferred: bool) -> None:
    """PyTorch's overflow errors: out-of-range Python numbers never wrap silently."""
    if dt.category != 1 or not values.size or values.dtype.kind == "b":
        return
    if values.dtype == object:
        raise ValueError("Overflow when unpacking long long")
    lo, hi = values.min(), values.max()
    if values.dtype.kind == "u" or (values.dtype.kind == "i" and inferred):
        if hi > _INT64_MAX or lo < _INT64_MIN:
            raise ValueError("Overflow when unpacking long long")
    info = np.iinfo(dt.np)
    if values.dtype.kind in "iu":  # ints may wrap into unsigned types from as low as -max
        low = -int(info.max) if info.min == 0 else int(info.min)
        bad = bool(lo < low or hi > int(info.max))
    else:
        with np.errstate(invalid="ignore"):
            bad = bool(not (np.isfinite(lo) and np.isfinite(hi)) or lo < int(info.min) or hi > int(info.max))
    if bad:
        raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow")


_PLAIN = {builtins.float, builtins.int, builtins.bool}
_NP_INFERRED = {np.dtype(np.float64): "float", np.dtype(np.int64): _dtype.int64, np.dtype(np.bool_): _dtype.bool}


def _plain_array(data):
    """Fast path: rectangular nested lists/tuples of plain Python numbers, converted by NumPy in C.

    Returns ``(array, inferred dtype)``, or None when the data needs the careful walk below.
    """
    try:
        arr = np.array(data)
    except (ValueError, TypeError, OverflowError, RuntimeError):  # (a tensor that requires grad refuses NumPy)
        return None
    if arr.dtype not in _NP_INFERRED:
        return None
    level = [data]
    for _ in range(arr.ndim):
        if not all(builtins.type(x) in (list, tuple) for x in level):
            return None
        level = list(itertools.chain.from_iterable(level))
    kinds = set(map(builtins.type, level))
    if not kinds <= _PLAIN or (arr.dtype.kind == "f" and float not in kinds):
        return None  # (ints only that NumPy made float: an int64 beside a uint64-only int, [[1], [2**63]])
    inferred = _NP_INFERRED[arr.dtype]
    return arr, _dtype.get_default_dtype() if inferred == "float" else inferred


def python_array(data, dt):
    """``(array, dtype)`` for Python data; ``dt`` None means infer it as PyTorch does."""
    kind = builtins.type(data)
    fast = _plain_array(data) if kind is list or kind is tuple or kind in _PLAIN else None
    if fast is not None and dt is not None and dt.category == 1 and fast[0].dtype.kind == "f":
        fast = None  # floats (and ints among them) into an integer dtype: each number is checked on its own
    if fast is not None:
        arr, inferred = fast
        out_dt = inferred if dt is None else dt
        if dt is not None:  # NumPy already refused inferred ints beyond int64
            _check_range(arr, out_dt, False)
        with np.errstate(all="ignore"):
            return _dtype.through_float(arr, out_dt.np).astype(out_dt.np, copy=False), out_dt
    shape_of(data)  # PyTorch's shape errors come before its dtype errors
    out_dt = infer_dtype(data) if dt is None else dt
    return host_array(data, out_dt, dt is None), out_dt


def host_array(data, dt, inferred: bool) -> np.ndarray:
    """A new NumPy array of dtype ``dt`` holding ``data`` (nested sequences, numbers, arrays)."""
    if isinstance(data, np.ndarray):
        return _dtype.through_float(data, dt.np).astype(dt.np, copy=True)
    shape = shape_of(data)
    if 0 in shape:  # PyTorch stores nothing (and so checks nothing further) when there are no elements
        return np.empty(shape, dtype=dt.np)
    flat: list = []
    _flatten(data, shape, 0, flat, dt)
    if dt.category == 1 and any(type(v) is float for v in flat):  # NOTE: each float truncates and each int wraps
        flat = [int(v) if type(v) is float else v for v in flat]  # on its own (a -3 beside 1.5 is uint8 253)
    try:
        values = np.array(flat)
    except OverflowError:
        raise ValueError("Overflow when unpacking long long") from None
    _check_range(values, dt, inferred)
    with np.errstate(all="ignore"):
        return _dtype.through_float(values, dt.np).astype(dt.np).reshape(shape)
