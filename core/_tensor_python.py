"""``Tensor`` in Python's protocols: numbers, NumPy arrays, lengths, iteration, printing, pickling and copying.

Split out of ``core/_tensor.py``, whose class body binds each of these by name (``core._tensor_method`` names them
``Tensor.<name>``), with the helpers pickling shares with ``torch.save`` (``cache_slotnames``, ``subclass_state``).
"""

from __future__ import annotations

import copyreg

import numpy as np

from core import _backend, _dtype, _from_data, _tensor
from core._meta import NO_DATA, MetaArray
from core._printing import tensor_repr
from core._tensor_deepcopy import deepcopy_tensor
from core._tensor_method import method
from core.autograd import grad_mode
from core.autograd.function import note_value_read

__all__ = ["cache_slotnames", "subclass_state"]

_NO_NUMPY = (_dtype.bfloat16.np, _dtype.float8_e4m3fn.np, _dtype.float8_e5m2.np)  # ml_dtypes' types


def cache_slotnames(obj) -> None:
    """What pickling a tensor leaves on its class in PyTorch: its ``__reduce_ex__`` asks the object's state
    (``object.__getstate__``), which caches ``__slotnames__`` on the class, so ``dir(tensor)`` lists it after a
    pickle, ``copy.copy`` or ``torch.save`` (scripts that print ``dir(x)`` show it)."""
    copyreg._slotnames(type(obj))  # type: ignore[attr-defined]


def subclass_state(t):
    """What torch pickles of a tensor beyond its data (``torch._utils._get_obj_state``): a class's own
    ``__getstate__``'s result, else the attributes set on it (``__dict__``, without core's bookkeeping), so a
    subclass's attributes, private ones too (MONAI's ``MetaTensor._meta``), come back when it is loaded."""
    if type(t).__getstate__ is not object.__getstate__:
        return t.__getstate__()
    return dict(t.__dict__)


@method
def item(self):
    note_value_read()
    if self._data.size != 1:
        raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
    if isinstance(self._data, MetaArray):
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")
    return self._data.reshape(()).item()


@method
def tolist(self):
    note_value_read()
    if isinstance(self._data, MetaArray):
        raise NotImplementedError(NO_DATA)
    return _backend.to_numpy_array(self._data).tolist()


@method
def numpy(self, *, force: bool = False):
    note_value_read()
    if self._data.dtype in _NO_NUMPY:  # ml_dtypes' types, which torch does not hand to NumPy
        raise TypeError(f"Got unsupported ScalarType {_dtype.SCALAR_NAMES[self.dtype.name]}")
    if not force:
        if self._requires_grad and grad_mode.is_grad_enabled():  # (under no_grad torch hands it over)
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        if type(self._data) is not np.ndarray:
            raise TypeError(f"can't convert {self.device} device type tensor to numpy. "
                            "Use Tensor.cpu() to copy the tensor to host memory first.")
        return self._data
    return _backend.to_numpy_array(self._data)


@method
def __array__(self, dtype=None):
    """``np.asarray(t)`` shares memory on CPU; like PyTorch it refuses a tensor that requires grad.

    NOTE: PyTorch's signature, without NumPy 2's ``copy`` keyword: NumPy then refuses ``np.array(t, copy=False)``
    ("Unable to avoid copy", a ValueError) and warns that ``np.array(t)`` could not pass ``copy``, as for torch's
    tensors (a 2018 replay buffer's ``np.array(action, copy=False)`` fails in both)."""
    arr = self.numpy() if self.is_cpu else _backend.to_numpy_array(self._data)
    return arr if dtype is None else arr.astype(dtype, copy=False)


@method
def __array_wrap__(self, array, context=None, return_scalar=False):
    """``np.sqrt(t)``, ``t - ndarray``: NumPy's result as a tensor, bool as uint8 (PyTorch's; see numpy_interop)."""
    from core._factories import from_numpy  # NOTE: at call time: core._factories imports this module

    array = np.asarray(array)
    return from_numpy(array.astype(np.uint8) if array.dtype == np.bool_ else array)


@method
def __len__(self) -> int:
    if self._data.ndim == 0:
        raise TypeError("len() of a 0-d tensor")
    return self._data.shape[0]


@method
def __iter__(self):
    if self._data.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    return iter(self.unbind(0))


@method
def _one_element(self, what: str, error=ValueError):
    note_value_read()
    if self._data.size != 1:
        raise error(what)
    if type(self._data) is MetaArray:
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")
    return self._data.reshape(()).item()


@method
def __bool__(self) -> bool:
    which = "no values" if self._data.size == 0 else "more than one value"
    return bool(self._one_element(f"Boolean value of Tensor with {which} is ambiguous", RuntimeError))


@method
def __float__(self) -> float:
    if self._requires_grad:
        _from_data.warn_grad_scalar()
    return float(_real_part(self._one_element("only one element tensors can be converted to Python scalars"),
                            "double"))


@method
def __int__(self) -> int:
    return int(_real_part(self._one_element("only one element tensors can be converted to Python scalars"),
                          "int64_t"))


@method
def __index__(self) -> int:
    if self._data.size != 1 or self._data.dtype.kind not in "iub":
        raise TypeError("only integer tensors of a single element can be converted to an index")
    note_value_read()
    return int(self._data.reshape(()).item())


@method
def __complex__(self) -> complex:
    if self._requires_grad:
        _from_data.warn_grad_scalar()
    return complex(self._one_element("only one element tensors can be converted to Python scalars"))


@method
def __hash__(self) -> int:
    return id(self)


@method
def __repr__(self) -> str:
    return tensor_repr(self)


@method
def __format__(self, spec: str) -> str:
    """A 0-d tensor formats its value (``f"{loss:.3f}"``); others format as their repr. As in PyTorch, only a
    plain Tensor does: a 0-d Parameter or meta tensor formats as its repr too (a format spec is a TypeError)."""
    if self._data.ndim == 0 and type(self) is _tensor.Tensor and not self.is_meta:
        return format(self.detach().item(), spec)
    return object.__format__(self, spec)


@method
def __reduce_ex__(self, protocol):
    cache_slotnames(self)
    rebuilt = (_tensor._rebuild, (_backend.to_numpy_array(self._data).copy(), str(self.device), self._requires_grad))
    state = subclass_state(self)
    if type(self) is _tensor.Tensor and not state:
        return rebuilt
    from core._torch_format import _rebuild_from_type_v2  # NOTE: at call time (it imports this module)

    return _rebuild_from_type_v2, (rebuilt[0], type(self), rebuilt[1], state)  # the subclass, its attributes


@method
def _reduce_ex_internal(self, proto):
    """What ``__reduce_ex__`` gives (PyTorch's pickling worker, which its ``__reduce_ex__`` calls)."""
    return self.__reduce_ex__(proto)


@method
@property
def _cdata(self) -> int:
    """PyTorch's address of the C++ tensor behind this object: core's tensor is the object itself, so its id."""
    return id(self)


@method
def __deepcopy__(self, memo):
    return deepcopy_tensor(_tensor.Tensor, self, memo)


def _real_part(value, c_type: str):
    """A complex element's real part, as ``float(t)``/``int(t)`` convert one in PyTorch (a non-zero imaginary part
    does not fit a real type: c10's overflow error)."""
    if isinstance(value, complex):
        if value.imag:
            raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
        return value.real
    return value
