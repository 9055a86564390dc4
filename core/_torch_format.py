"""Reading a file that PyTorch's ``torch.save`` wrote, so ``core.load`` opens a checkpoint or ``state_dict`` saved
with torch: a zip whose ``<name>/data.pkl`` pickles the object and whose ``<name>/data/<key>`` entries hold the raw
bytes of each storage, or the format before PyTorch 1.6 (a magic number, a protocol number and the system's sizes,
then the object's pickle, the storage keys, and each storage's element count and bytes).

The pickle rebuilds tensors through ``torch._utils._rebuild_tensor_v2`` (a storage, an offset, a size and strides:
the tensor views its storage, which is read once, so tensors that shared memory when saved share it again; ``_v3``
names the dtype of an ``UntypedStorage``'s bytes), parameters through ``_rebuild_parameter``, storages through
persistent ids naming their legacy type (``torch.FloatStorage``: the dtype), and ``torch.device``, ``torch.Size`` and
dtypes by name. With ``weights_only`` (the default, as in PyTorch 2.6+) nothing else resolves, and any other global
raises PyTorch's ``UnpicklingError`` (unless ``add_safe_globals`` allowed it); with ``weights_only=False`` the other
``torch.*`` names resolve to core's (a whole pickled model: ``torch.nn.modules.linear.Linear`` is
``core.nn.Linear``).
"""

from __future__ import annotations

import _compat_pickle
import collections
import importlib
import io
import pickle
import zipfile

import numpy as np

from core import _dtype, _pickled
from core._typename import torch_module
from core.autograd._transform_guard import set_requires_grad

__all__ = ["is_torch_file", "load"]

_STORAGES = {"DoubleStorage": "float64", "FloatStorage": "float32", "HalfStorage": "float16",
             "BFloat16Storage": "bfloat16", "LongStorage": "int64", "IntStorage": "int32", "ShortStorage": "int16",
             "CharStorage": "int8", "ByteStorage": "uint8", "BoolStorage": "bool", "ComplexFloatStorage": "complex64",
             "ComplexDoubleStorage": "complex128", "QInt8Storage": "qint8", "QUInt8Storage": "quint8",
             "QInt32Storage": "qint32"}
_BUILTINS = {"set", "frozenset", "complex", "slice", "range", "bytearray"}


def is_torch_file(fh) -> bool:
    """Whether the open binary file ``fh`` is one ``torch.save`` wrote: a zip with PyTorch's ``data.pkl``, or the
    format before PyTorch 1.6 (its magic number first). It is left at its start."""
    if _is_legacy(fh):
        return True
    try:
        fh.seek(0)
        with zipfile.ZipFile(fh) as zf:
            found = any(n == "data.pkl" or n.endswith("/data.pkl") for n in zf.namelist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        found = False
    fh.seek(0)
    return found


class _Storage:
    """A storage's bytes as a flat NumPy array of its dtype; ``tensor()`` is it as one core tensor, made once, which
    every tensor of the file over this storage views (so they share memory, as torch.load's do)."""

    def __init__(self, array: np.ndarray, dtype, device=None) -> None:
        self.array, self.dtype, self.device = array, dtype, device  # device: where it loads, when not the CPU
        self._tensor = None

    def tensor(self, dtype=None):
        import core

        if dtype is not None and dtype is not self.dtype:  # an UntypedStorage's bytes, read as the tensor's dtype
            if self.array.nbytes % dtype.np.itemsize:
                raise RuntimeError(f"a storage of {self.array.nbytes} bytes can't hold {dtype} elements")
            self.array, self.dtype, self._tensor = self.array.view(dtype.np), dtype, None
        if self._tensor is None:
            self._tensor = core.from_numpy(self.array) if self.array.size else core.zeros(0, dtype=self.dtype)
            if self.device is not None:
                self._tensor = self._tensor.to(self.device)
        return self._tensor


def _rebuild_tensor_v2(storage, offset, size, stride, requires_grad=False, backward_hooks=None, metadata=None,
                       dtype=None):
    """A tensor over ``storage``'s memory at ``offset``, ``size`` and ``stride`` (a new tensor at version 1, not a
    view, as torch.load's tensors are); the window must lie inside the storage."""
    from core.serialization import _view_of

    flat = storage.tensor(dtype)
    size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"a tensor of size {list(size)} has strides {list(stride)} (a corrupt file)")
    try:
        t = _view_of(flat, {"shape": size, "stride": stride, "offset": int(offset)})
    except ValueError:
        raise RuntimeError(f"a tensor of size {list(size)} and stride {list(stride)} at offset {offset} lies "
                           f"outside its storage of {flat.numel()} elements (a corrupt file)") from None
    except TypeError:  # NOTE: NumPy's array interface can't name ml_dtypes' float8: a copy of its window
        t = _copy_of(storage.array, int(offset), size, stride)
    return set_requires_grad(t) if requires_grad else t


def _copy_of(flat: np.ndarray, offset: int, size: tuple, stride: tuple):
    import core

    last = offset + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else offset - 1
    if len(size) != len(stride) or min((*size, *stride, offset), default=0) < 0 or last >= flat.size:
        raise RuntimeError(f"a tensor of size {list(size)} and stride {list(stride)} at offset {offset} lies "
                           f"outside its storage of {flat.size} elements (a corrupt file)")

    raw = flat.view(f"u{flat.itemsize}")  # (as_strided can't name it either: its bytes as unsigned ints)
    view = np.lib.stride_tricks.as_strided(raw[offset:], shape=size, strides=[s * flat.itemsize for s in stride])
    return core.from_numpy(np.array(view).view(flat.dtype))


def _rebuild_tensor_v3(storage, offset, size, stride, requires_grad, backward_hooks, dtype, metadata=None):
    """``_rebuild_tensor_v2`` for a dtype with no legacy storage class (its storage is an ``UntypedStorage``)."""
    return _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, backward_hooks, metadata, dtype)


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad=False):
    import core

    return core.empty_strided(size, stride, dtype=dtype, device="meta", requires_grad=requires_grad)


def _rebuild_parameter(data, requires_grad, backward_hooks=None, state=None):
    from core.nn import Parameter

    return Parameter(data, requires_grad=requires_grad)


def _rebuild_from_type_v2(func, new_type, args, state):
    """A tensor subclass, or a tensor with attributes of its own: rebuilt, then given its type and attributes."""
    from core._tensor import Tensor

    t = func(*args)
    if isinstance(new_type, type) and issubclass(new_type, Tensor) and type(t) is not new_type:
        t = t.as_subclass(new_type)
    own = getattr(type(t), "__setstate__", None)
    if own is not None and own is not getattr(Tensor, "__setstate__", None):  # the class's own
        t.__setstate__(state)
        return t
    if isinstance(state, tuple):  # (__dict__, slots), as torch's _set_obj_state
        state, slots = state
        for key, value in (slots or {}).items():
            setattr(t, key, value)
    for key, value in (state or {}).items():
        setattr(t, key, value)
    return t


def _rebuild_sparse_tensor(layout, data):
    """A sparse tensor from what torch pickles of it (``_torch_save._sparse_members``)."""
    import core

    check = core.sparse.check_sparse_tensor_invariants.is_enabled()  # NOTE: torch checks loaded ones only then
    if layout is core.sparse_coo:
        indices, values, size = data[:3]
        return core.sparse_coo_tensor(indices, values, size, check_invariants=check,
                                      is_coalesced=data[3] if len(data) > 3 else None)
    if layout in (core.sparse_csr, core.sparse_csc, core.sparse_bsr, core.sparse_bsc):
        compressed, plain, values, size = data
        return core.sparse_compressed_tensor(compressed, plain, values, size, layout=layout, check_invariants=check)
    raise NotImplementedError(f"rebuilding sparse tensor for layout {layout}")


def _get_layout(name: str):
    import core

    found = getattr(core, str(name).removeprefix("torch."), None)
    if not isinstance(found, (type(core.strided), type(core.sparse_coo), type(core.sparse_csr))):
        raise pickle.UnpicklingError(f"unknown layout {str(name)[:100]!r}")
    return found


def _rebuild_qtensor(storage, offset, size, stride, quantizer_params, requires_grad=False, backward_hooks=None):
    """A quantized tensor: its integers out of ``storage``, its scheme, scale(s), zero point(s) (and axis)."""
    import core
    from core import _quantized

    ints = _copy_of(storage.array, int(offset), tuple(int(n) for n in size), tuple(int(s) for s in stride))
    scheme = quantizer_params[0]
    if scheme is core.per_tensor_affine:
        return _quantized._make(ints.numpy(), storage.dtype, scheme, float(quantizer_params[1]),
                                int(quantizer_params[2]))
    if scheme is core.per_channel_affine:
        scales, zero_points, axis = quantizer_params[1:4]
        return _quantized._make(ints.numpy(), storage.dtype, scheme, scales.numpy().astype(np.float64),
                                zero_points.numpy().astype(np.int64), int(axis))
    raise RuntimeError(f"Unsupported qscheme {scheme!r} in a saved quantized tensor")


_REBUILDS = {("torch._utils", "_rebuild_qtensor"): _rebuild_qtensor,
("torch._utils", "_rebuild_sparse_tensor"): _rebuild_sparse_tensor,
             ("torch.serialization", "_get_layout"): _get_layout,
("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
             ("torch._utils", "_rebuild_tensor_v3"): _rebuild_tensor_v3,
             ("torch._utils", "_rebuild_meta_tensor_no_storage"): _rebuild_meta_tensor_no_storage,
             ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
             ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter,
             ("torch._tensor", "_rebuild_from_type_v2"): _rebuild_from_type_v2}


def _torch_global(module: str, name: str):
    """``torch``'s name ``module.name`` as core's object (dtypes, qschemes, ``device``, ``Size``, layouts and the
    rebuild functions)."""
    import core

    if (module, name) in _REBUILDS:
        return _REBUILDS[module, name]
    if (module, name) == ("torch.storage", "UntypedStorage"):
        return _dtype.uint8  # its persistent id counts bytes; _rebuild_tensor_v3 names the dtype
    if (module, name) == ("torch", "Tensor"):
        return core.Tensor
    if module == "torch" and name in _STORAGES:
        return getattr(core, _STORAGES[name])
    named = (_dtype.dtype, type(core.per_tensor_affine))  # dtypes (quantized ones too) and qschemes
    if module == "torch" and (name in ("device", "Size") or isinstance(getattr(core, name, None), named)):
        return getattr(core, name)
    return None


def _core_global(module: str, name: str):
    """Any other ``torch.*`` global as core's (``weights_only=False``): the same dotted path under ``core``, else the
    public name in ``core.nn``, ``core.optim`` or ``core``."""
    target = "core" + module[len("torch"):]
    try:
        return getattr(importlib.import_module(target), name)
    except (ImportError, AttributeError):
        pass
    for where in ("core.nn", "core.optim", "core"):
        found = getattr(importlib.import_module(where), name, None)
        if found is not None:
            return found
    raise AttributeError(f"core has no counterpart of {module}.{name}")


def _allowed(module: str, name: str):
    """A global that ``add_safe_globals``/``safe_globals`` allowed, else PyTorch's weights-only refusal."""
    for found in _pickled.get_safe_globals():
        where, qualname = getattr(found, "__module__", None) or "", getattr(found, "__qualname__", None)
        if qualname == name and module in (where, torch_module(where, qualname)):  # core's class by torch's path
            return found
    raise pickle.UnpicklingError(_pickled._refusal(f"{module}.{name}"))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, read_storage, weights_only: bool) -> None:
        super().__init__(file)
        self._read_storage, self._weights_only = read_storage, weights_only

    def find_class(self, module: str, name: str):
        # protocol 2 spells names as Python 2 did (__builtin__.long is int): pickle's fix_imports mapping
        module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        found = _torch_global(module, name) if module == "torch" or module.startswith("torch.") else None
        if found is not None:
            return found
        if (module, name) in (("collections", "OrderedDict"), ("_codecs", "encode")) or \
                module == "builtins" and name in _BUILTINS:  # (protocol 2 pickles bytes as _codecs.encode)
            return super().find_class(module, name)
        if self._weights_only:
            return _allowed(module, name)
        if module == "torch" or module.startswith("torch."):
            return _core_global(module, name)
        return super().find_class(module, name)

    def persistent_load(self, pid):
        if isinstance(pid, tuple) and len(pid) == 4 and pid[0] == "module":  # the old format's pickled module class
            return pid[1]
        if not (isinstance(pid, tuple) and len(pid) in (5, 6) and pid[0] == "storage") or len(pid) == 6 and pid[5]:
            raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")  # (a 2017 file's storage views)
        _, dtype, key, location, numel = pid[:5]
        return self._read_storage(str(key), dtype, numel, str(location))


def load(fh, map_location=None, weights_only=True):
    """The object ``torch.save`` wrote to ``fh`` (a zip, or the format before PyTorch 1.6); ``map_location`` moves
    its tensors there."""
    if _is_legacy(fh):
        obj = _load_legacy(fh, weights_only)
        return _moved(obj, map_location) if map_location not in (None, "cpu") else obj
    with zipfile.ZipFile(fh) as zf:
        names = zf.namelist()
        pickled = next(n for n in names if n == "data.pkl" or n.endswith("/data.pkl"))
        prefix = pickled[:-len("data.pkl")]
        big = prefix + "byteorder" in names and zf.read(prefix + "byteorder").strip() == b"big"
        storages: dict = {}

        def read_storage(key, dtype, numel, location):
            if key not in storages:
                device = _restore_location(location) if map_location is None else None
                array = _read_storage(zf, f"{prefix}data/{key}", dtype.np, int(numel))
                if big and dtype.np.itemsize > 1:
                    array = array.view(dtype.np.newbyteorder(">")).astype(dtype.np)
                storages[key] = _Storage(array, dtype, device)
            return storages[key]

        obj = _Unpickler(io.BytesIO(zf.read(pickled)), read_storage, weights_only).load()
    return _moved(obj, map_location) if map_location not in (None, "cpu") else obj


def _restore_location(location: str):
    """The device a storage saved at ``location`` loads on without ``map_location``: None for the CPU (and devices
    core has no backend for), a CUDA device as torch restores it, which must exist (torch's errors otherwise)."""
    import core

    if not (location == "cuda" or location.startswith("cuda:")):
        return None
    if not core.cuda.is_available():
        raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
                           "If you are running on a CPU-only machine, please use torch.load with "
                           "map_location=torch.device('cpu') to map your storages to the CPU.")
    device = core.device(location)
    if (device.index or 0) >= core.cuda.device_count():
        raise RuntimeError(f"Attempting to deserialize object on CUDA device {device.index} but "
                           f"torch.cuda.device_count() is {core.cuda.device_count()}. Please use torch.load with "
                           "map_location to map your storages to an existing device.")
    return device


def _read_storage(zf: zipfile.ZipFile, name: str, np_dtype, numel: int) -> np.ndarray:
    """The entry's first ``numel`` elements, read straight into a new array (one copy); a RuntimeError when the
    entry is shorter than that, before the array is made."""
    info = zf.getinfo(name)
    nbytes = numel * np_dtype.itemsize
    if numel < 0 or info.file_size < nbytes:
        raise RuntimeError(f"the storage {name!r} of a torch file holds {info.file_size} bytes, not the {nbytes} its "
                           "tensors need (a corrupt file)")
    out = np.empty(numel, dtype=np_dtype)
    buffer, filled = memoryview(out.view(np.uint8)), 0
    with zf.open(info) as member:
        while filled < nbytes:
            got = member.readinto(buffer[filled:])
            if not got:
                raise RuntimeError(f"the storage {name!r} of a torch file ends early (a corrupt file)")
            filled += got
    return out


# ----- the format before PyTorch 1.6: pickles one after another, then each storage's size and bytes -----------
_MAGIC = 0x1950A86A20F9469CFC6C
_LEGACY_PROTOCOL = 1001


class _Plain(pickle.Unpickler):
    """The header pickles and the storage keys: numbers, strings, dicts and lists only."""

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"unexpected global {module}.{name} in a torch file's header")


def _is_legacy(fh) -> bool:
    fh.seek(0)
    try:
        found = fh.read(2) == b"\x80\x02" and (fh.seek(0) == 0 and _Plain(fh).load() == _MAGIC)
    except Exception:  # not a pickle at all
        found = False
    fh.seek(0)
    return found


class _Skim:
    """Whatever a global of the main pickle builds, while its storages' dtypes are collected (the first pass)."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return _Skim()

    def __setstate__(self, state):
        pass

    def __setitem__(self, key, value):
        pass

    def append(self, value):
        pass

    def extend(self, values):
        pass


class _Skimmer(pickle.Unpickler):
    def __init__(self, file, dtypes: dict) -> None:
        super().__init__(file)
        self._dtypes = dtypes

    def find_class(self, module: str, name: str):
        found = _torch_global(module, name) if module == "torch" else None
        return found if isinstance(found, _dtype.dtype) else _Skim

    def persistent_load(self, pid):
        if isinstance(pid, tuple) and len(pid) >= 5 and pid[0] == "storage":
            self._dtypes[str(pid[2])] = pid[1]
        return _Skim


def _load_legacy(fh, weights_only: bool):
    """Two passes over the main pickle: the first finds each storage's dtype, then the storages (after it) are read,
    then the second builds the object from them."""
    plain = _Plain(fh)
    plain.load()  # the magic number
    if plain.load() != _LEGACY_PROTOCOL:
        raise RuntimeError("Invalid protocol version in a torch file")
    info = plain.load()
    if not isinstance(info, dict) or not info.get("little_endian", True):
        raise RuntimeError("a big-endian torch file of the old format is not supported")
    start, dtypes = fh.tell(), {}
    _Skimmer(fh, dtypes).load()
    storages = {}
    for key in _Plain(fh).load():
        dtype = dtypes[str(key)]
        numel = int.from_bytes(fh.read(8), "little")
        raw = fh.read(numel * dtype.np.itemsize)
        if len(raw) != numel * dtype.np.itemsize:
            raise RuntimeError("a torch file ends inside its storages (a truncated file)")
        storages[str(key)] = _Storage(np.frombuffer(raw, dtype=dtype.np).copy(), dtype)
    fh.seek(start)
    return _Unpickler(fh, lambda key, dtype, numel, location: storages[key], weights_only).load()


def _moved(obj, map_location):
    """Tensors in ``obj`` on ``map_location`` (a device or its name; a function or dict leaves them on the CPU)."""
    from core._tensor import Tensor

    if callable(map_location) or isinstance(map_location, dict):
        return obj
    if isinstance(obj, Tensor):
        return obj.to(map_location)
    if isinstance(obj, dict):
        out = type(obj)() if isinstance(obj, collections.OrderedDict) else {}
        out.update((k, _moved(v, map_location)) for k, v in obj.items())
        return out
    if isinstance(obj, (list, tuple)):
        return type(obj)(_moved(v, map_location) for v in obj)
    return obj
