"""Shared plumbing for ops: operand conversion, promotion, device checks, dims, broadcasting.

Ops call these instead of letting NumPy decide dtypes or raise its own errors.
"""

from __future__ import annotations

import functools

import numpy as np

from core import _backend, _dtype
from core._cascade_sum import ordered_sum
from core._tensor import Tensor, _dim, new_tensor
from core.autograd import grad_mode
from core.autograd.shortcuts import state as _shortcuts

__all__ = ["new_tensor", "wrap", "normalize_dim", "normalize_dims", "broadcast_shapes", "sum_to",
           "operand_arrays", "check_same_device", "needs_grad", "scalar_array", "as_array",
           "to_tensor", "cast_array", "xp_of", "quiet_on", "quiet_off", "quiet", "ALL_DIMS"]

xp_of = _backend.xp_of

# ``t = quiet_on()`` ... ``finally: quiet_off(t)`` silences NumPy's floating-point warnings (PyTorch gives
# inf/nan silently) like ``np.errstate(all="ignore")``, about 10x cheaper: the per-op hot path's errstate.
try:  # NumPy 2 keeps its error state in a context variable: setting it directly skips errstate's overhead
    from numpy._core._ufunc_config import _extobj_contextvar as _errvar
    from numpy._core._ufunc_config import _make_extobj

    quiet_on = functools.partial(_errvar.set, _make_extobj(all="ignore"))
    quiet_off = _errvar.reset
except ImportError:  # pragma: no cover - another NumPy: the public (slower) way
    def quiet_on():
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def quiet_off(state) -> None:
        state.__exit__(None, None, None)


class quiet:
    """``with quiet():`` is ``np.errstate(all="ignore")`` at a third of its cost (see ``quiet_on``)."""

    __slots__ = ("_token",)

    def __enter__(self):
        self._token = quiet_on()

    def __exit__(self, *exc) -> None:
        quiet_off(self._token)


def wrap(arr) -> Tensor:
    """A fresh tensor from an op's result; NumPy scalars become 0-d arrays.

    NOTE: a NumPy array is tested by its type first: ``hasattr(arr, "__array_interface__")`` builds the interface
    dict (~1.5 µs a call, several per training step)."""
    if type(arr) is np.ndarray:
        return new_tensor(arr)
    if not hasattr(arr, "__array_interface__") and not hasattr(arr, "__cuda_array_interface__") \
            or isinstance(arr, np.generic):
        arr = np.asarray(arr)
    return new_tensor(arr)


def needs_grad(*tensors) -> bool:
    """True when grad mode is on and some tensor argument requires grad, or when the shortcuts are blocked
    (a forward-AD level or ``core.compile``'s capture: every op goes through ``Function.apply``)."""
    if not _shortcuts.ok:
        return True
    for t in tensors:
        if isinstance(t, Tensor) and t._requires_grad:
            return grad_mode.is_grad_enabled()
    return False


def normalize_dim(dim, ndim: int) -> int:
    return _dim(dim, ndim)


def normalize_dims(dim, ndim: int) -> tuple:
    """A sorted tuple of wrapped dims (``None`` or ``()`` means all); repeated dims raise."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (list, tuple)):
        dims = tuple(_dim(d, ndim) for d in dim)
        if len(set(dims)) != len(dims):
            for d in dims:
                if dims.count(d) > 1:
                    raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        return tuple(sorted(dims)) if dims else tuple(range(ndim))
    return (_dim(dim, ndim),)


def broadcast_shapes(*shapes) -> tuple:
    """Shapes aligned from the right; a mismatch names both sizes and the dimension."""
    out: list = []
    for shape in shapes:
        shape = tuple(shape)
        if len(shape) > len(out):
            out = [1] * (len(shape) - len(out)) + out
        for i in range(1, len(shape) + 1):
            s, o = shape[-i], out[-i]
            if s < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(shape)}")
            if o == 1:
                out[-i] = s
            elif s != 1 and s != o:
                raise RuntimeError(f"The size of tensor a ({o}) must match the size of tensor b ({s}) "
                                   f"at non-singleton dimension {len(out) - i}")
    return tuple(out)


def check_same_device(*tensors) -> None:
    """PyTorch's error when tensors of one op live on different devices (0-d CPU tensors may mix)."""
    first = None
    for t in tensors:
        if not isinstance(t, Tensor):
            continue
        if first is None:
            first = t
        elif type(t._data) is not type(first._data) or t.device is not first.device:
            if t._data.ndim == 0 and t.is_cpu or first._data.ndim == 0 and first.is_cpu:
                continue
            a, b = first.device, t.device
            if a.type == "cpu":
                a, b = b, a
            raise RuntimeError("Expected all tensors to be on the same device, but found at least two "
                               f"devices, {a} and {b}!")


def scalar_array(value, dt: _dtype.dtype, like=None):
    """A 0-d array of ``value`` in dtype ``dt`` on the device of ``like``; ints wrap like PyTorch."""
    xp = np if like is None else xp_of(like)
    try:
        with np.errstate(over="ignore"):  # 1e20 as float16 is inf, silently, in PyTorch
            return xp.asarray(_dtype.through_float_number(value, dt.np), dtype=dt.np)
    except OverflowError:
        return xp.asarray(np.asarray(value).astype(dt.np))


def cast_array(arr, dt: _dtype.dtype):
    return arr if arr.dtype == dt.np else _dtype.through_float(arr, dt.np).astype(dt.np)


def as_array(x, dt: _dtype.dtype, like=None):
    """The backend array of a tensor or Python number, in dtype ``dt``."""
    if isinstance(x, Tensor):
        arr = x._data
        if like is not None and type(arr) is not type(like):  # a 0-d CPU tensor beside CUDA ones
            arr = _backend.to_device_array(arr, _backend.device_of_array(like))
        if arr.dtype == dt.np:
            return arr
        # NOTE: a broadcast (stride-0) array cast in NumPy's 'K' order keeps that dim innermost, and so would the
        # result computed from it (non-contiguous, where PyTorch's TensorIterator gives a contiguous one)
        return _dtype.through_float(arr, dt.np).astype(dt.np, order="C" if 0 in arr.strides else "K")
    return scalar_array(x, dt, like)


def _number_array(value, np_dtype):
    """A 0-d NumPy array of a Python number in ``np_dtype`` (silently inf when out of range, as PyTorch)."""
    if type(value) is int and not -2**63 <= value < 2**64:
        _dtype.int_scalar_overflow(value)
    token = quiet_on()
    try:
        return np.array(value, dtype=np_dtype)
    finally:
        quiet_off(token)


def operand_arrays(a, b, dt=None):
    """Arrays of two operands (tensors or numbers) cast to their promoted dtype, and that dtype."""
    if dt is None:  # NOTE: fast paths for CPU operands: two tensors of one dtype, a float tensor and a number
        if isinstance(a, Tensor):
            x = a._data
            if type(x) is np.ndarray:
                if isinstance(b, Tensor):
                    y = b._data
                    if x.dtype is y.dtype and type(y) is np.ndarray:
                        return x, y, _dtype._BY_NP[x.dtype]
                elif (type(b) is float or type(b) is int) and x.dtype.kind == "f":
                    return x, _number_array(b, x.dtype), _dtype._BY_NP[x.dtype]  # a number never promotes a float
        elif (type(a) is float or type(a) is int) and isinstance(b, Tensor):
            y = b._data
            if type(y) is np.ndarray and y.dtype.kind == "f":
                return _number_array(a, y.dtype), y, _dtype._BY_NP[y.dtype]
        dt = _dtype.result_type(a, b)
    check_same_device(a, b)
    like = a._data if isinstance(a, Tensor) else (b._data if isinstance(b, Tensor) else None)
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a._data.ndim == 0 and b._data.ndim:
        like = b._data
    return as_array(a, dt, like), as_array(b, dt, like), dt


def to_tensor(x, like: Tensor | None = None, dtype=None) -> Tensor:
    """A tensor for an operand: tensors pass through, numbers become 0-d tensors."""
    if isinstance(x, Tensor):
        return x
    dt = dtype if dtype is not None else _dtype.scalar_dtype(x)
    return new_tensor(scalar_array(x, dt, None if like is None else like._data))


def sum_to(g: Tensor, shape) -> Tensor:
    """Sum a broadcast gradient back to ``shape`` (differentiable; the reverse of expand)."""
    shape = tuple(shape)
    gshape = g._data.shape
    if gshape == shape:
        return g
    lead = len(gshape) - len(shape)
    if lead < 0:
        raise RuntimeError(f"size {list(gshape)} is not expandable to size {list(shape)}")
    dims = list(range(lead))
    for i, s in enumerate(shape):
        gs = gshape[lead + i]
        if s == 1 and gs != 1:
            dims.append(lead + i)
        elif s != gs:
            raise RuntimeError(f"size {list(gshape)} is not expandable to size {list(shape)}")
    if dims and not grad_mode._state.enabled and type(g._data) is np.ndarray:
        # NOTE: a plain backward records nothing: the sum on the array, in PyTorch's order for float32 (a scalar
        # parameter's gradient, as in the polynomial-fitting tutorials, is such a sum and gets printed)
        out = new_tensor(ordered_sum(g._data, tuple(dims), True))
    else:
        from core.ops.reduction import sum as _sum  # reductions import this module

        if not shape:  # NOTE: at::sum_to's tensor.sum() for a 0-d target: SumBackward0, not a sum and a view
            return _sum(g)
        out = _sum(g, dims, keepdim=True) if dims else g
    if lead:
        from core.ops.views import reshape  # views import this module

        out = reshape(out, shape)
    return out


class _AllDims:
    """The default ``dim`` of ``sum``/``mean``/``max``/``prod``/``median``/``squeeze``: no dim given (PyTorch's overload
    without dim), where an explicit None is the parser's TypeError for most of them. Prints as None."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "None"


ALL_DIMS = _AllDims()
