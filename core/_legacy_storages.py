"""PyTorch's legacy storage classes: ``core.FloatStorage``, ``core.LongStorage``, ... and ``Tensor.storage_type()``.

Old textbooks build storages by name (``t.FloatStorage(3)``, ``t.LongStorage([1, 2])``) and check them with
``isinstance``. As in PyTorch, calling one returns a ``TypedStorage`` of its dtype (and warns that TypedStorage is
deprecated, once per process), ``isinstance(s, core.FloatStorage)`` holds for any CPU float32 TypedStorage, and
``x.storage_type()`` is the class for ``x``'s dtype.
"""

from __future__ import annotations

from core import _dtype
from core.storage import TypedStorage, UntypedStorage

_STORAGES = {"FloatStorage": "float32", "DoubleStorage": "float64", "HalfStorage": "float16",
             "BFloat16Storage": "bfloat16", "LongStorage": "int64", "IntStorage": "int32", "ShortStorage": "int16",
             "CharStorage": "int8", "ByteStorage": "uint8", "BoolStorage": "bool", "ComplexFloatStorage": "complex64",
             "ComplexDoubleStorage": "complex128"}

__all__ = [*_STORAGES, "Storage"]

_SIGNATURES = ("Expected one of:\n * no arguments\n * (int size)\n * (Sequence data)\n"
               " * (*, UntypedStorage wrap_storage)")


class _LegacyStorageType(type):
    """The metaclass: instance checks by dtype on the CPU; calls build TypedStorages."""

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, TypedStorage) and obj.dtype is cls.dtype and not obj._untyped_storage.is_cuda

    def __call__(cls, *args, wrap_storage=None, **kwargs):
        if kwargs:
            raise RuntimeError(f"{cls!r}.__new__ received an invalid combination of arguments. {_SIGNATURES}\n"
                               f"Keyword argument '{next(iter(kwargs))}' cannot be specified")
        if wrap_storage is not None:
            if args:
                raise RuntimeError(f"{cls!r}.__new__ received an invalid combination of arguments. {_SIGNATURES}\n"
                                   "No positional arguments should be given when using 'wrap_storage'")
            if not isinstance(wrap_storage, UntypedStorage):
                raise TypeError(f"Argument 'wrap_storage' must be UntypedStorage, but got "
                                f"{type(wrap_storage).__name__}")
            return TypedStorage(wrap_storage=wrap_storage, dtype=cls.dtype)
        return TypedStorage(*args, dtype=cls.dtype)

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _make(name: str, dtype_name: str):
    return _LegacyStorageType(name, (), {"dtype": getattr(_dtype, dtype_name), "__module__": "core",
                                         "__doc__": f"The legacy name of CPU {dtype_name} storages."})


for _name, _dt in _STORAGES.items():
    globals()[_name] = _make(_name, _dt)
del _name, _dt

_BY_DTYPE = {dt: globals()[name] for name, dt in _STORAGES.items()}
Storage = _BY_DTYPE["float32"]  # torch.Storage is the float32 legacy class


def storage_type(self):
    """``x.storage_type()``: the legacy storage class of ``x``'s dtype (``torch.FloatStorage`` for float32)."""
    return _BY_DTYPE[self.dtype.name]
