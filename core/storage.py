"""``torch.storage``: the memory under a tensor, as bytes (``UntypedStorage``) or as elements (``TypedStorage``).

A tensor is a view over its root array (``Tensor._root``, the array that owns the memory). Its
storage is that root's memory from the lowest to the highest byte, so views, transposes and slices
of one tensor report the same storage: the same ``data_ptr()``, size and bytes, as in PyTorch.
``x.untyped_storage()`` returns the same object while it lives, like PyTorch's. Writes through a
storage (``s[0] = 5``) change every tensor over it; as in PyTorch they do not bump the tensors'
version counter. ``x.storage()`` (a ``TypedStorage``) is deprecated in PyTorch and warns once
per process, the first time any TypedStorage method is used; so does it here.
"""

from __future__ import annotations

import warnings
import weakref as _weakref
from typing import TYPE_CHECKING as _TYPE_CHECKING

import numpy as np

from core import _backend, _dtype
from core._device import CPU as _CPU
from core._device import canonical as _canonical
from core._factories import tensor as _tensor
from core._factories import zeros as _zeros
from core._tensor import _LEGACY_NAMES
from core._tensor import Tensor as _Tensor
from core._tensor import data_ptr_of as _data_ptr_of
from core._typename import typename as _typename_of
from core.autograd.anomaly import user_stacklevel as _user_stacklevel

if _TYPE_CHECKING:
    from core._tensor import Tensor

__all__ = ["UntypedStorage", "TypedStorage", "is_storage", "over_storage"]

_REMOVAL_MESSAGE = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only "
    "storage class. This should only matter to you if you are using storages directly.  To access "
    "UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()")
_has_warned = False


def _warn_typed_storage_removal() -> None:
    """PyTorch's once-per-process deprecation warning for TypedStorage, pointed at the first caller outside core
    (``__torch_function__``'s dispatching wrappers, once on, add a frame between it and the user's line)."""
    global _has_warned
    if not _has_warned:
        warnings.warn(_REMOVAL_MESSAGE, UserWarning, stacklevel=_user_stacklevel())
        _has_warned = True


def _reset_warn_typed_storage_removal() -> None:
    """Make the next TypedStorage use warn again (PyTorch's function of the same name)."""
    global _has_warned
    _has_warned = False


def _byte_view(root):
    """A 1-D uint8 view of every byte ``root`` spans, from its lowest address to its highest."""
    xp = _backend.xp_of(root)
    if any(s < 0 for s in root.strides):  # flipping those axes starts the view at the lowest address
        root = root[tuple(slice(None, None, -1) if s < 0 else slice(None) for s in root.strides)]
    count = 0
    if root.size:
        span = root.itemsize + sum((n - 1) * s for n, s in zip(root.shape, root.strides))
        count = span // root.itemsize
    flat = xp.lib.stride_tricks.as_strided(root, shape=(count,), strides=(root.itemsize,))
    return flat.view(np.uint8)


def _check_index(idx: int, size: int) -> int:
    """A TypedStorage index counted from the end when negative; the error names it as given."""
    if not -size <= idx < size:
        raise IndexError(f"index {idx} out of range for storage of size {size}")
    return int(idx % size)


class UntypedStorage:
    """The bytes of a tensor's memory: ``len`` is the byte count, items are ints 0..255."""

    # NOTE: no __slots__: like PyTorch's storage objects it has an instance dict, so ``sys.getsizeof`` adds the same
    # object overhead to ``__sizeof__`` (torchinfo reports input sizes as ``sys.getsizeof(x.untyped_storage())``)

    def __init__(self, size: int = 0, *, device=None) -> None:
        dev = _canonical(device) if device is not None else _CPU
        self._bytes = _backend.xp_for(dev).zeros(int(size), dtype=np.uint8)
        self._owner = self._bytes

    @classmethod
    def _over(cls, byte_array, owner) -> UntypedStorage:
        storage = cls.__new__(cls)
        storage._bytes = byte_array
        storage._owner = owner  # keeps the root (and so its id, the cache key) alive
        return storage

    @classmethod
    def _new_shared(cls, size: int, *, device=None) -> UntypedStorage:
        """torch's storage for a DataLoader worker's batch (in shared memory there; core's workers run in-process,
        so a plain new storage: PyG's and torch's collate call it when ``get_worker_info()`` is set)."""
        return cls(size, device=device)

    def data_ptr(self) -> int:
        return _data_ptr_of(self._bytes)

    def nbytes(self) -> int:
        return int(self._bytes.size)

    size = nbytes

    def __sizeof__(self) -> int:
        """PyTorch's: its C storage object's 32 bytes and the bytes it holds."""
        return 32 + self.nbytes()

    def __len__(self) -> int:
        return int(self._bytes.size)

    def element_size(self) -> int:
        return 1

    @property
    def device(self):
        return _backend.device_of_array(self._bytes)

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return UntypedStorage._over(self._bytes[_plain_slice(idx)], self._owner)
        return int(self._bytes[self._byte_index(idx)])

    def __setitem__(self, idx, value) -> None:
        if isinstance(idx, slice):
            self._bytes[_plain_slice(idx)] = int(value) & 0xFF
            return
        self._bytes[self._byte_index(idx)] = int(value) & 0xFF

    def _byte_index(self, idx) -> int:
        """``idx`` from the end when negative; PyTorch's error names the wrapped index."""
        if not isinstance(idx, (int, np.integer)) or isinstance(idx, bool):
            raise TypeError(f"can't index a torch.UntypedStorage with {type(idx).__name__}")
        size = len(self)
        wrapped = idx + size if idx < 0 else idx
        if not 0 <= wrapped < size:
            raise IndexError(f"index {wrapped} out of range for storage of size {size}")
        return int(wrapped)

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self) -> list:
        return _backend.to_numpy_array(self._bytes).tolist()

    def cpu(self) -> UntypedStorage:
        """This storage on the CPU: itself there, else a copy."""
        if self.device.type == "cpu":
            return self
        host = _backend.to_numpy_array(self._bytes).copy()
        return UntypedStorage._over(host, host)

    def untyped(self) -> UntypedStorage:
        return self

    def type(self) -> str:
        return _typename_of(self)

    def is_shared(self) -> bool:
        return False

    def __repr__(self) -> str:
        info = f"[{_typename_of(self)}(device={self.device}) of size {len(self)}]"
        return " " + "\n ".join(str(b) for b in self.tolist()) + "\n" + info

    __str__ = __repr__


def _plain_slice(idx: slice) -> slice:
    if idx.step not in (None, 1):
        raise RuntimeError(f"Trying to slice with a step of {idx.step}, but only a step of 1 is supported")
    return idx


class TypedStorage:
    """The elements of one dtype over an ``UntypedStorage``: what the deprecated ``x.storage()`` returns."""

    is_sparse = False  # (no __slots__, as UntypedStorage's note says)

    def __init__(self, *args, wrap_storage=None, dtype=None, device=None, _internal=False) -> None:
        if not _internal:
            _warn_typed_storage_removal()
        self.dtype = _dtype.to_dtype(dtype) if dtype is not None else _dtype.get_default_dtype()
        if wrap_storage is not None:
            if args or device is not None:
                raise RuntimeError("TypedStorage(): wrap_storage takes no other positional arguments or device")
            if not isinstance(wrap_storage, UntypedStorage):
                raise TypeError(f"expected UntypedStorage, got {type(wrap_storage).__name__}")
            self._untyped_storage = wrap_storage
            return
        if len(args) > 1:
            raise RuntimeError("TypedStorage(): too many positional arguments")
        data = args[0] if args else 0
        make = _zeros if isinstance(data, (int, np.integer)) else _tensor
        self._untyped_storage = make(data, dtype=self.dtype, device=device).untyped_storage()

    def _elements(self):
        raw = self._untyped_storage._bytes
        itemsize = self.dtype.itemsize
        return raw[: raw.size // itemsize * itemsize].view(self.dtype.np)

    def _size(self) -> int:
        return self._untyped_storage.nbytes() // self.dtype.itemsize

    def size(self) -> int:
        _warn_typed_storage_removal()
        return self._size()

    def __len__(self) -> int:
        _warn_typed_storage_removal()
        return self._size()

    def element_size(self) -> int:
        _warn_typed_storage_removal()
        return self.dtype.itemsize

    def nbytes(self) -> int:
        _warn_typed_storage_removal()
        return self._size() * self.dtype.itemsize

    def __sizeof__(self) -> int:
        """PyTorch's: the object itself and the bytes of its elements."""
        _warn_typed_storage_removal()
        return super().__sizeof__() + self.nbytes()

    def data_ptr(self) -> int:
        _warn_typed_storage_removal()
        return self._untyped_storage.data_ptr()

    @property
    def device(self):
        _warn_typed_storage_removal()
        return self._untyped_storage.device

    @property
    def is_cuda(self) -> bool:
        _warn_typed_storage_removal()
        return self._untyped_storage.is_cuda

    def untyped(self) -> UntypedStorage:
        _warn_typed_storage_removal()
        return self._untyped_storage

    def _item(self, value):
        if self.dtype.is_floating_point:
            return float(value)
        return bool(value) if self.dtype.np.kind == "b" else int(value)

    def __getitem__(self, idx):
        _warn_typed_storage_removal()
        if isinstance(idx, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if not isinstance(idx, (int, np.integer)) or isinstance(idx, bool):
            raise RuntimeError(f"can't index a {type(self)} with {type(idx)}")
        return self._item(self._elements()[_check_index(idx, self._size())])

    def __setitem__(self, idx, value) -> None:
        _warn_typed_storage_removal()
        if not isinstance(idx, (int, np.integer, slice)) or isinstance(idx, bool):
            raise RuntimeError(f"can't index a {type(self)} with {type(idx)}")
        if isinstance(idx, (int, np.integer)):
            idx = _check_index(idx, self._size())
        self._elements()[idx] = value._data if isinstance(value, _Tensor) else value

    def tolist(self) -> list:
        _warn_typed_storage_removal()
        return [self._item(v) for v in _backend.to_numpy_array(self._elements())]

    def __iter__(self):
        _warn_typed_storage_removal()
        return iter(self.tolist())

    def cpu(self) -> TypedStorage:
        _warn_typed_storage_removal()
        return TypedStorage(wrap_storage=self._untyped_storage.cpu(), dtype=self.dtype, _internal=True)

    def type(self) -> str:
        """``torch.FloatStorage`` for float32, ``torch.cuda.FloatStorage`` on CUDA."""
        _warn_typed_storage_removal()
        legacy = _LEGACY_NAMES.get(self.dtype.name, self.dtype.name.capitalize() + "Tensor")
        prefix = "torch.cuda." if self._untyped_storage.is_cuda else "torch."
        return prefix + legacy[: -len("Tensor")] + "Storage"

    def is_shared(self) -> bool:
        _warn_typed_storage_removal()
        return False

    def __repr__(self) -> str:
        _warn_typed_storage_removal()
        info = (f"[{_typename_of(self)}(dtype={self.dtype}, device={self._untyped_storage.device}) "
                f"of size {self._size()}]")
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info

    __str__ = __repr__


# One UntypedStorage object per root array while it lives: x.untyped_storage() is y.untyped_storage()
# for views of one tensor, as in PyTorch. The storage holds its root, so the id key can't be reused.
_STORAGES: _weakref.WeakValueDictionary = _weakref.WeakValueDictionary()


def untyped_storage(self: Tensor) -> UntypedStorage:
    """The tensor's memory as bytes: the same storage for every view of one tensor."""
    root = self._root
    storage = _STORAGES.get(id(root))
    if storage is None or storage._owner is not root:
        storage = UntypedStorage._over(_byte_view(root), root)
        _STORAGES[id(root)] = storage
    return storage


def storage(self: Tensor) -> TypedStorage:
    """The tensor's memory as elements of its dtype (deprecated in PyTorch: warns once)."""
    _warn_typed_storage_removal()
    return TypedStorage(wrap_storage=untyped_storage(self), dtype=self.dtype, _internal=True)


def is_storage(obj) -> bool:
    return isinstance(obj, (TypedStorage, UntypedStorage))


def over_storage(t: Tensor, storage, dtype) -> None:
    """``torch.Tensor(storage)`` (and ``torch.LongTensor(storage)``...): ``t`` becomes a 1-D tensor of ``dtype`` over
    the whole storage, from its first element, sharing its memory. A typed storage must hold ``dtype``."""
    if isinstance(storage, TypedStorage) and storage.dtype is not dtype:
        names = _dtype.SCALAR_NAMES
        raise RuntimeError(f"Expected a Storage of type {names[dtype.name]} or an UntypedStorage, but got type "
                           f"{names[storage.dtype.name]} for argument 1 'storage'")
    untyped = storage._untyped_storage if isinstance(storage, TypedStorage) else storage
    elements = TypedStorage(wrap_storage=untyped, dtype=dtype, _internal=True)._elements()
    t._data, t._root, t._vc = elements, untyped._owner, [0]


def is_set_to(self: Tensor, tensor: Tensor) -> bool:
    """True when both tensors are the same view of the same storage: offset, size and stride."""
    if not isinstance(tensor, _Tensor):
        raise TypeError(f"is_set_to(): argument 'tensor' (position 1) must be Tensor, not {type(tensor).__name__}")
    return (untyped_storage(self) is untyped_storage(tensor) and self.data_ptr() == tensor.data_ptr()
            and self.shape == tensor.shape and self._data.strides == tensor._data.strides)
