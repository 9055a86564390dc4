"""PyTorch's legacy tensor types: ``core.FloatTensor``, ``core.LongTensor``, ...

``FloatTensor(2, 3)`` makes an uninitialised float32 tensor of that size, ``FloatTensor([1, 2])`` one
from data, ``FloatTensor()`` an empty one; what comes out is a plain ``core.Tensor``.
``isinstance(t, core.FloatTensor)`` holds exactly when ``t.type() == 'torch.FloatTensor'``, and
``t.type(core.LongTensor)`` converts, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from core import _backend, _default_device, _dtype, _from_data, storage
from core._factories import empty, from_numpy, tensor
from core._tensor import Size, Tensor, _adopt, _init_from
from core._user_warning import warn_in_core
from core._warn_once import warn_once

_TYPES = {"FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
          "BFloat16Tensor": "bfloat16", "LongTensor": "int64", "IntTensor": "int32", "ShortTensor": "int16",
          "CharTensor": "int8", "ByteTensor": "uint8", "BoolTensor": "bool"}

__all__ = [*_TYPES, "set_default_tensor_type"]


class _LegacyTensorType(type):
    """The metaclass: instance checks by dtype and device, calls build tensors."""

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.is_cpu and obj.dtype is cls.dtype

    def __call__(cls, *args, device=None, **kwargs):
        if device is not None and str(device) != "cpu":
            raise RuntimeError(f"legacy constructor expects device type: cpu but device type: {device} was passed")
        if kwargs:
            kind, value = keyword_args(args, kwargs)
            if kind == "size":
                return empty(tuple(value), dtype=cls.dtype)
            if kind == "data":
                return tensor(value, dtype=cls.dtype)
            args = (value,)
        if not args:
            return empty(0, dtype=cls.dtype)
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype is not cls.dtype or not args[0].is_cpu:
                raise TypeError(f"expected {cls._legacy_type} (got {args[0].type()})")
            return args[0]
        if len(args) == 1 and isinstance(args[0], Size) or all(_is_int(a) for a in args):
            sizes = tuple(args[0]) if isinstance(args[0], Size) else args
            return empty(*sizes, dtype=cls.dtype)
        if len(args) == 1 and storage.is_storage(args[0]):  # torch.LongTensor(x.storage()): shares its memory
            t = Tensor.__new__(Tensor)
            storage.over_storage(t, args[0], cls.dtype)
            return t
        if len(args) == 1 and legacy_shares_numpy(args[0], cls.dtype, device):  # its memory, as from_numpy
            return from_numpy(args[0])
        if len(args) == 1 and (isinstance(args[0], np.ndarray) or _from_data._is_sequence(args[0])):
            return tensor(args[0], dtype=cls.dtype)
        raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")

    def __repr__(cls) -> str:
        return f"<class '{cls._legacy_type}'>"


_SIGNATURES = ("(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
               "(tuple of ints size, *, torch.device device = None)", "(object data, *, torch.device device = None)")


def keyword_args(args, kwargs):
    """A legacy constructor's keyword form (``torch.Tensor(size=(2, 3))``, ``FloatTensor(data=[1.])``, ``other=``,
    ``storage=``) as ``(kind, value)``: PyTorch's parser takes exactly one of them, alone, and a ``size`` of ints."""
    key, value = next(iter(kwargs.items()))
    sizes_ok = key != "size" or (isinstance(value, (tuple, list)) and
                                 all(isinstance(v, int) and not isinstance(v, bool) for v in value))
    if args or len(kwargs) != 1 or key not in ("size", "data", "other", "storage") or not sizes_ok:
        got = ", ".join([*(type(a).__name__ for a in args), *(f"{k}={type(v).__name__}" for k, v in kwargs.items())])
        raise TypeError(f"new() received an invalid combination of arguments - got ({got}, ), but expected one of:\n"
                        + "".join(f" * {sig}\n" for sig in _SIGNATURES))
    if key == "data" and not (isinstance(value, np.ndarray) or _from_data._is_sequence(value)):
        raise TypeError(f"new(): data must be a sequence (got {type(value).__name__})")
    return key, value


def legacy_shares_numpy(data, dt, device) -> bool:
    """Whether a legacy constructor (``torch.Tensor(array)``, ``torch.LongTensor(array)``) shares ``data``'s memory:
    PyTorch's does for a NumPy array of the tensor's dtype (it is then ``from_numpy``'s tensor), and copies others."""
    return type(data) is np.ndarray and data.dtype == dt.np and (device is None or str(device) == "cpu")


def build_legacy(t: Tensor, args: tuple, kwargs: dict, device, dtype) -> None:
    """``Tensor.__init__``'s legacy forms, ``torch.Tensor(data)`` / ``torch.Tensor(*sizes)`` (or ``size=``, ``data=``,
    ``other=``, ``storage=``), built into ``t``: a float tensor of the default dtype."""
    if dtype is not None:
        raise TypeError("new() received an invalid combination of arguments - got an unexpected "
                        "keyword argument 'dtype'")
    dt = _dtype.get_default_dtype()
    if kwargs:
        kind, value = keyword_args(args, kwargs)
        if kind == "size":
            return _adopt(t, empty(tuple(value), dtype=dt, device=device))
        if kind == "data":
            return _adopt(t, tensor(value, dtype=dt, device=device))
        args = (value,)
    if len(args) == 1 and isinstance(args[0], Tensor):
        _init_from(t, args[0]._data, root=args[0]._root)
        t._vc = args[0]._vc
        return
    if len(args) == 1 and not isinstance(args[0], (int, Size)):
        if storage.is_storage(args[0]):
            return storage.over_storage(t, args[0], dt)
        if legacy_shares_numpy(args[0], dt, device):  # an array of the default dtype: its memory, as from_numpy
            return _adopt(t, from_numpy(args[0]))
        src = tensor(args[0], dtype=dt, device=device)
    else:
        src = empty(*(args or (0,)), dtype=dt, device=device)
    _adopt(t, src)


def _is_int(a) -> bool:
    return isinstance(a, (int, np.integer)) and not isinstance(a, bool)


def _make(name: str, dtype_name: str):
    dt = getattr(_dtype, dtype_name)
    return _LegacyTensorType(name, (), {"dtype": dt, "is_cuda": False, "_legacy_type": f"torch.{name}",
                                        "__module__": "core",
                                        "__doc__": f"The legacy name of CPU {dtype_name} tensors."})


for _name, _dt in _TYPES.items():
    globals()[_name] = _make(_name, _dt)
del _name, _dt


def set_default_tensor_type(t) -> None:
    """Deprecated in PyTorch 2.1 (warns once per process, as it does): the default dtype from a floating legacy type."""

    warn_once("set_default_tensor_type", "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please "
              "use torch.set_default_dtype() and torch.set_default_device() as alternatives.", warn_in_core)
    t = _import_dotted_name(t) if isinstance(t, str) else t
    if not isinstance(t, _LegacyTensorType):
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    if t.is_cuda and not _backend.cuda_available():
        raise TypeError(f"type {t._legacy_type} not available. Torch not compiled with CUDA enabled.")
    if not t.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtype.set_default_dtype(t.dtype)
    if t.is_cuda or _default_device.get_default_device().type == "cuda":  # a CUDA type makes CUDA tensors
        _default_device.set_default_device("cuda" if t.is_cuda else None)


def _import_dotted_name(name: str):
    """The object a dotted name ('torch.cuda.FloatTensor') names, ``torch`` read as core; PyTorch's errors for the
    rest (ModuleNotFoundError for a first part that is no module, AttributeError for a missing attribute)."""
    import importlib

    first, *rest = name.split(".")
    obj = importlib.import_module("core" if first == "torch" else first)
    for i, part in enumerate(rest):
        if not hasattr(obj, part):
            raise AttributeError(f"module '{'.'.join([first, *rest[:i]])}' has no attribute '{part}'")
        obj = getattr(obj, part)
    return obj
