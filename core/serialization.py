"""``core.save`` / ``core.load``: PyTorch's own file format, and core's earlier ``.npz`` format.

``save`` writes the zip ``torch.save`` writes (``core._torch_save``), so ``torch.load`` reads it; ``load`` reads
it, any other file ``torch.save`` wrote (``core._torch_format``), and core's own format: a NumPy ``.npz`` holding
one array per storage (``s0``, ``s1``...: the whole memory a tensor views, saved once for all the tensors that
share it) and a JSON description of the structure (``__nodegrad__``): dicts (order kept), lists, tuples, numbers,
strings, booleans, None, tensors with their storage, offset, shape, strides, dtype, device and ``requires_grad``.
``save`` still writes that format (version 2) for an object holding a packed quantized tensor (``quint4x2``,
``quint2x4``), which ``core._torch_save`` does not describe; version 1 files (one array per tensor, ``t0``...)
still load. In every format, loaded tensors that shared a storage share one again (a view saved with its base
stays its view), and a slice is saved with the whole storage it views. Loading a ``.npz`` never executes code; a
corrupt or foreign one raises a ``RuntimeError`` that says what is wrong. Saving to a path is atomic
(``atomic_write``).

An object the structure can't describe (a whole model, ``torch.save(model, path)``) is pickled, and loading it
follows PyTorch 2.6+: refused by default (``weights_only=True``), unpickled with ``weights_only=False``.
"""

import json as _json
import math as _math
import os
import pickle
import re
import tempfile
import time as _time
import zipfile as _zipfile
from collections import OrderedDict as _OrderedDict
from collections.abc import Callable
from typing import TypeAlias

import numpy as _np

from core import _backend, _dtype, _pickled, _quantized, _sparse_compressed, _torch_format, _torch_save
from core._device import device as _device
from core._factories import tensor as _tensor
from core._tensor import Tensor as _Tensor
from core._tensor import cache_slotnames as _cache_slotnames
from core._tensor import new_tensor as _new_tensor
from core.autograd._transform_guard import set_requires_grad as _set_requires_grad
from core.ops._strided import strided_array as _strided_array
from core.storage import TypedStorage as _TypedStorage
from core.storage import UntypedStorage as _UntypedStorage
from core.types import Storage

__all__ = ["save", "load", "atomic_write", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals"]

add_safe_globals, get_safe_globals = _pickled.add_safe_globals, _pickled.get_safe_globals
clear_safe_globals, safe_globals = _pickled.clear_safe_globals, _pickled.safe_globals

# the annotations torch.serialization exports (a library's ``load(..., map_location: MAP_LOCATION = None)``)
MAP_LOCATION: TypeAlias = Callable[[Storage, str], Storage] | _device | str | dict[str, str] | None
STORAGE: TypeAlias = Storage | _TypedStorage | _UntypedStorage
DEFAULT_PROTOCOL = 2  # torch.save's pickle protocol, which libraries import (Torch-Pruning's serialization)

_FORMAT = "nodegrad-tensors"
_VERSION = 2
_HEADER = "__nodegrad__"
_PICKLE = "pickle"


_ML_DTYPES = (_dtype.bfloat16, _dtype.float8_e4m3fn, _dtype.float8_e5m2)  # ml_dtypes' types, stored as raw bytes


def _shared_storage(obj) -> bool:
    """Whether ``obj`` is saved as a view of its storage: a dense tensor whose storage is one contiguous array of
    its dtype (a reinterpreted view, ``view_as_real``, meta tensors and ml_dtypes' bfloat16 and float8, which
    NumPy's strided views can't name, are saved as their own array)."""
    root, data = obj._root, obj._data
    return (type(root) is type(data) and hasattr(root, "flags") and root.flags.c_contiguous
            and root.dtype == data.dtype and obj.dtype not in _ML_DTYPES)


def _storage_node(obj, arrays: dict, roots: dict) -> dict:
    root = obj._root
    storages = roots["storages"]
    key = storages.get(id(root))
    if key is None:
        key = storages[id(root)] = f"s{len(storages)}"
        flat = _backend.to_numpy_array(root).reshape(-1)
        arrays[key] = flat
    return {"storage": key, "offset": obj.storage_offset(), "shape": list(obj.shape), "stride": list(obj.stride())}


def _encode(obj, arrays: dict, roots: dict | None = None):
    """The JSON node of ``obj``; its arrays go to ``arrays``, each storage once (``roots["storages"]``: id of a
    storage's array -> its key; ``roots["memo"]``: id of a tensor already written -> its number)."""
    roots = {"storages": {}, "memo": {}} if roots is None else roots
    if isinstance(obj, _Tensor) and (obj.is_quantized or obj.layout in _sparse_compressed.LAYOUTS):
        module = _quantized if obj.is_quantized else _sparse_compressed  # their members as arrays
        return module.encode(obj, f"t{len(arrays)}", arrays)
    if isinstance(obj, _Tensor) and obj.is_sparse:  # a COO tensor: its indices and values (core._sparse_coo)
        key = f"t{len(arrays)}"
        arrays[key + "i"], arrays[key + "v"] = obj._sp_indices, _np.ascontiguousarray(obj._sp_values)
        return {"sparse_coo": key, "size": list(obj.shape), "coalesced": obj.is_coalesced()}
    if isinstance(obj, _Tensor) and id(obj) in roots["memo"]:  # the same tensor again: loads as the same object
        return {"same": roots["memo"][id(obj)]}
    if isinstance(obj, _Tensor):
        roots["memo"][id(obj)] = len(roots["memo"])
        _cache_slotnames(obj)  # torch.save pickles the tensor, which leaves __slotnames__ on its class
        if _shared_storage(obj):
            node = _storage_node(obj, arrays, roots)
        else:
            key = f"t{len(arrays)}"
            arr = _backend.to_numpy_array(obj.detach()._data)
            arr = _np.ascontiguousarray(arr).reshape(arr.shape)  # NOTE: ascontiguousarray makes 0-d arrays 1-d
            arrays[key] = arr.view(f"V{arr.itemsize}") if obj.dtype in _ML_DTYPES else arr  # (.npy can't name them)
            node = {"tensor": key}
        node.update(dtype=obj.dtype.name, device=str(obj.device))
        if obj.requires_grad:
            node["requires_grad"] = True
        if type(obj).__name__ == "Parameter":
            node["parameter"] = True
        return node
    if isinstance(obj, (_np.generic, _np.ndarray)):  # NumPy's own objects, which torch.save pickles as NumPy's
        if obj.dtype.hasobject:
            raise TypeError("an object array is pickled")
        key = f"n{len(arrays)}"
        arrays[key] = _np.asarray(obj)
        return {"numpy_scalar" if isinstance(obj, _np.generic) else "ndarray": key}
    if obj is None or isinstance(obj, (bool, str)):
        return {"value": obj}
    if isinstance(obj, (int, float)):
        if isinstance(obj, float) and not _np.isfinite(obj):
            return {"float": repr(obj)}
        return {"value": obj}
    if isinstance(obj, _dtype.dtype):
        return {"dtype": obj.name}
    if isinstance(obj, dict):
        return {"dict": [[_encode_key(k), _encode(v, arrays, roots)] for k, v in obj.items()],
                "ordered": isinstance(obj, _OrderedDict)}
    if isinstance(obj, (list, tuple)):
        return {"list" if isinstance(obj, list) else "tuple": [_encode(v, arrays, roots) for v in obj]}
    raise TypeError(f"core.save can't store an object of type {type(obj).__name__} (tensors, numbers, strings, "
                    "None, and dicts/lists/tuples of them are supported)")


def _encode_key(key):
    if isinstance(key, (str, int, float, bool)) or key is None:
        return key
    raise TypeError(f"core.save: dict keys must be str, int, float, bool or None, got {type(key).__name__}")


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False) -> None:
    """Write ``obj`` in PyTorch's zip format (``core._torch_save``: ``torch.load`` reads it) to a path
    (atomically, see ``atomic_write``) or a binary file object. An object holding a packed quantized tensor is
    written in core's own ``.npz`` format instead (``core.load`` reads both).

    ``pickle_protocol`` and ``_disable_byteorder_record`` act as in torch.save; the pickle is always written by
    core's pickler (``pickle_module`` is accepted and not used); ``_use_new_zipfile_serialization=False`` writes
    PyTorch's format before 1.6 (``core._torch_save.write_legacy``)."""
    options = {"protocol": pickle_protocol, "byteorder": not _disable_byteorder_record}
    if not _use_new_zipfile_serialization:  # PyTorch's format before 1.6
        options = {"legacy": True, "protocol": pickle_protocol}
    if hasattr(f, "write"):
        _write(obj, f, "archive", options)
        return
    parent = os.path.dirname(os.fspath(f))
    if parent and not os.path.isdir(parent):  # PyTorch's message, before anything is written
        raise RuntimeError(f"Parent directory {parent} does not exist.")
    atomic_write(f, lambda out: _write(obj, out, _torch_save.archive_name(f), options))


def _write(obj, out, archive: str, options: dict) -> None:
    try:
        if options.get("legacy"):
            _torch_save.write_legacy(obj, out, options["protocol"])
            return
        _torch_save.write(obj, out, archive, **options)  # pickles first: nothing is written when it raises
    except _torch_save.NotTorchFormat:
        _save_npz(obj, out)


def _save_npz(obj, out) -> None:
    """core's own format (version 2): the arrays of ``obj``'s storages and its JSON structure."""
    arrays: dict = {}
    try:
        root = _encode(obj, arrays)
    except TypeError:  # a model, an optimizer, a custom class: pickled, as torch.save does
        arrays = {_PICKLE: _np.frombuffer(_pickled.dumps(obj), dtype=_np.uint8)}
        root = {"pickle": _PICKLE}
    tree = {"format": _FORMAT, "version": _VERSION, "root": root}
    arrays[_HEADER] = _np.frombuffer(_json.dumps(tree).encode(), dtype=_np.uint8)
    _np.savez(out, **arrays)


# ----- atomic writes ------------------------------------------------------------------------------------
def atomic_write(path, write) -> None:
    """Write a file so that a crash never leaves it half written: ``write(binary file object)`` fills a temporary
    file beside it (``.NAME.XXXXXXXX.tmp``), which is flushed, fsynced and renamed over ``path``.

    A symlink is written through (its target is replaced, the link stays); the file keeps the permissions of
    the file it replaces, else gets those of any new file (``0o666`` less the umask). On an error the temporary
    file is removed and ``path`` is as it was. After a save, the temporaries of ``path`` that interrupted
    saves left (older than this save) are removed. Used by ``core.save`` and the playground's graph files.
    """
    started = _time.time()
    path = os.path.realpath(os.fspath(path))
    folder, name = os.path.split(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        os.chmod(tmp, _mode_for(path))
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _fsync_dir(folder)
    _remove_stale(folder, name, started)


_STALE_AFTER = 5.0  # seconds: a temporary this much older than a save's start is no concurrent save's


def _remove_stale(folder: str, name: str, started: float) -> None:
    """Remove what interrupted saves of ``name`` left: its own temporary names only, and only old ones."""
    pattern = re.compile(re.escape(f".{name}.") + r"[A-Za-z0-9_]{8}\.tmp")
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < \
                    started - _STALE_AFTER:
                os.unlink(entry.path)
        except OSError:
            pass  # gone already, or not ours to remove


def _mode_for(path: str) -> int:
    """The permissions a saved file gets: those of the file it replaces, else the usual ones (umask)."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_dir(folder: str) -> None:
    """Make the rename itself durable where the OS allows it (POSIX); best effort elsewhere."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def load(f, map_location=None, weights_only=True, **_ignored):
    """Read what ``save`` wrote; ``map_location`` moves every tensor to that device. A pickled object (a whole
    model) needs ``weights_only=False``, as in PyTorch 2.6+ (``core._pickled``). A file ``torch.save`` wrote is read
    too (``core._torch_format``).

    A file that is not one ``save`` wrote, or is damaged, raises ``RuntimeError`` (as ``torch.load`` does for a
    corrupt file) before anything big is allocated: each array's declared shape and dtype must match its stored
    size, stored sizes must fit in the file, and no entry may expand beyond what compression can give.
    """
    name = f if not hasattr(f, "read") else getattr(f, "name", "<file object>")
    if hasattr(f, "read"):
        if _torch_format.is_torch_file(f):  # one torch.save wrote
            return _torch_format.load(f, map_location, weights_only is not False)
        arrays = _read_arrays(f, name)
    else:
        with open(os.fspath(f), "rb") as fh:  # FileNotFoundError and other OSErrors stay what they are
            if _torch_format.is_torch_file(fh):
                return _torch_format.load(fh, map_location, weights_only is not False)
            arrays = _read_arrays(fh, name)
    try:
        tree = _json.loads(bytes(arrays.pop(_HEADER)).decode())
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise RuntimeError(f"{name} has a corrupt header: {str(exc)[:200]}") from None
    if not isinstance(tree, dict) or tree.get("format") != _FORMAT:
        found = tree.get("format") if isinstance(tree, dict) else f"a JSON {type(tree).__name__}"
        raise RuntimeError(f"{name} is not a file written by core.save (format {str(found)[:100]!r})")
    if not isinstance(tree.get("version"), int) or tree["version"] > _VERSION:
        raise RuntimeError(f"{name} was written by a newer version ({str(tree.get('version'))[:20]}); this one "
                           f"reads up to version {_VERSION}")
    root = tree.get("root")
    if isinstance(root, dict) and "pickle" in root and _PICKLE in arrays:
        return _pickled.loads(bytes(arrays[_PICKLE]), weights_only=weights_only is not False)
    try:
        return _decode(tree["root"], arrays, map_location, weights_only is not False, {"storages": {}, "memo": []})
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as exc:
        raise RuntimeError(f"{name} has a corrupt structure: {type(exc).__name__}: {str(exc)[:200]}") from None


# ----- reading the arrays without trusting the sizes the file declares -----------------------------------
_MAX_RATIO = 1100  # deflate expands at most ~1032x: a larger claim is a zip bomb or a damaged file


def _read_arrays(fh, name) -> dict:
    """``{key: array}`` of every ``.npy`` entry, checked before reading; RuntimeError on anything else."""
    try:
        size = fh.seek(0, os.SEEK_END)
        fh.seek(0)
        with _zipfile.ZipFile(fh) as zf:
            infos = zf.infolist()
            _check_layout(infos, size, name)
            keys = {info.filename.removesuffix(".npy"): info for info in infos}
            if _HEADER not in keys:
                raise RuntimeError(f"{name} is not a file written by core.save (no {_HEADER} header)")
            return {key: _read_entry(zf, info, name) for key, info in keys.items()}
    except RuntimeError:
        raise
    except (OSError, ValueError, EOFError, _zipfile.BadZipFile, _zipfile.LargeZipFile, NotImplementedError,
            KeyError, TypeError, OverflowError, SyntaxError) as exc:
        error = _foreign_data_error(fh)
        why = "the file is empty" if error is _EmptyFileError else f"{type(exc).__name__}: {str(exc)[:200]}"
        raise error(f"{name} is not a valid core.save file (corrupt or foreign data): {why}") from None


class _EmptyFileError(RuntimeError, EOFError):
    """An empty file: torch.load raises EOFError there (its unpickler runs out of input), core a RuntimeError."""


class _NotAPickleError(RuntimeError, pickle.UnpicklingError):
    """Bytes that are neither a zip nor a pickle: torch.load's unpickler raises UnpicklingError there (code that
    catches it, as Stable-Baselines3's tests do, catches this), core a RuntimeError that says what is wrong."""


def _foreign_data_error(fh) -> type:
    """The exception class for an unreadable file: torch's exception type as well as RuntimeError."""
    try:
        fh.seek(0)
        start = fh.read(4)
    except (OSError, ValueError):
        return RuntimeError
    if not start:
        return _EmptyFileError
    if start.startswith((b"PK", b"\x80")):  # a damaged zip, or a pickle that is not torch's: torch's RuntimeError
        return RuntimeError
    return _NotAPickleError


def _check_layout(infos: list, size: int, name) -> None:
    """Entries lie one after another inside the file, each no larger than compression allows."""
    end = 0
    for info in sorted(infos, key=lambda i: i.header_offset):
        if info.header_offset < end:
            raise RuntimeError(f"{name} is not a valid core.save file: entries overlap (a zip bomb?)")
        end = info.header_offset + 30 + len(info.filename) + info.compress_size
        if end > size:
            raise RuntimeError(f"{name} is not a valid core.save file: entry {info.filename[:100]!r} claims more "
                               "bytes than the file holds")
        stored = info.compress_type == _zipfile.ZIP_STORED
        if (stored and info.file_size != info.compress_size) or info.file_size > _MAX_RATIO * info.compress_size + 4096:
            raise RuntimeError(f"{name} is not a valid core.save file: entry {info.filename[:100]!r} declares "
                               f"{info.file_size} bytes from {info.compress_size} stored")


def _read_entry(zf, info, name):
    with zf.open(info) as member:
        major, _ = _np.lib.format.read_magic(member)
        if major not in (1, 2, 3):
            raise ValueError(f"unsupported .npy version {major}")
        read_header = _np.lib.format.read_array_header_1_0 if major == 1 else _np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read_header(member)
        if dtype.hasobject:
            raise RuntimeError(f"{name}: entry {info.filename[:100]!r} holds Python objects (never unpickled)")
        declared = _math.prod(shape) * dtype.itemsize
        if declared != info.file_size - member.tell():
            raise RuntimeError(f"{name} is not a valid core.save file: entry {info.filename[:100]!r} declares "
                               f"shape {str(shape)[:100]} of {dtype} ({declared} bytes) but stores "
                               f"{info.file_size - member.tell()} bytes")
    with zf.open(info) as member:
        return _np.lib.format.read_array(member, allow_pickle=False)


def _at_version_one(t: _Tensor) -> _Tensor:
    t._vc = type(t._vc)([1])  # (see _view_of)
    return t


def _view_of(storage: _Tensor, node) -> _Tensor:
    """A new tensor (not a view: its own version counter, as PyTorch's loaded tensors) over ``storage``'s memory at
    the node's offset, shape and strides; the declared window must lie inside the storage."""
    shape, stride, offset = [int(n) for n in node["shape"]], [int(n) for n in node["stride"]], int(node["offset"])
    root = storage._root
    last = offset + sum((n - 1) * s for n, s in zip(shape, stride)) if all(shape) else offset - 1
    if offset < 0 or min(stride, default=0) < 0 or last >= root.size:
        raise ValueError(f"tensor window (offset {offset}, shape {shape}, stride {stride}) outside its storage")
    t = _new_tensor(_strided_array(root, shape, stride, offset))
    t._root = root  # (the storage it shares with the other tensors of the file)
    t._vc = type(storage._vc)([1])  # its own counter, of the kind the storage got (an inference tensor's), at 1
    # NOTE: as PyTorch's, whose loaded tensors are set_ onto their storage (an in-place change: version 1)
    return t


def _numpy_global(example):
    """The function torch.save's pickle names for a NumPy object (numpy._core.multiarray.scalar / _reconstruct)."""
    return example.__reduce__()[0]


def _decode(node, arrays, map_location, weights_only=False, storages=None):
    """The object a node describes; ``storages["storages"]`` keeps each storage loaded once (key -> its tensor),
    ``storages["memo"]`` the tensors loaded so far, in order."""
    storages = {"storages": {}, "memo": []} if storages is None else storages
    if "numpy_scalar" in node or "ndarray" in node:  # NOTE: as PyTorch 2.6+, weights_only refuses NumPy objects
        scalar = "numpy_scalar" in node
        fn = _numpy_global(_np.float64(0) if scalar else _np.zeros(1))
        if weights_only and fn not in _pickled.get_safe_globals():
            raise pickle.UnpicklingError(_pickled._refusal(f"{fn.__module__}.{fn.__name__}"))
        arr = arrays[node["numpy_scalar" if scalar else "ndarray"]]
        return arr[()] if scalar else arr
    if "sparse_compressed" in node:
        return _sparse_compressed.decode(node, arrays)
    if "quantized" in node:
        return _quantized.decode(node, arrays)
    if "sparse_coo" in node:
        from core._sparse_coo import sparse_coo_tensor

        key = node["sparse_coo"]
        return sparse_coo_tensor(arrays[key + "i"], arrays[key + "v"], node["size"], is_coalesced=node["coalesced"])
    if "same" in node:  # a tensor the file holds more than once (PyTorch's pickle memo)
        return storages["memo"][node["same"]]
    if "tensor" in node or "storage" in node:
        t = _decode_tensor(node, arrays, map_location, storages["storages"])
        storages["memo"].append(t)
        return t
    if "value" in node:
        return node["value"]
    if "float" in node:
        return float(node["float"])
    if "dtype" in node:
        return _dtype.to_dtype(node["dtype"])
    if "dict" in node:
        items = [(k, _decode(v, arrays, map_location, weights_only, storages)) for k, v in node["dict"]]
        return _OrderedDict(items) if node.get("ordered") else dict(items)
    if "list" in node:
        return [_decode(v, arrays, map_location, weights_only, storages) for v in node["list"]]
    if "tuple" in node:
        return tuple(_decode(v, arrays, map_location, weights_only, storages) for v in node["tuple"])
    raise ValueError(f"unknown entry {sorted(node)}")


def _decode_tensor(node, arrays, map_location, storages):
    key = node["tensor"] if "tensor" in node else node["storage"]
    dt = _dtype.to_dtype(node["dtype"])
    device = map_location if map_location is not None else node.get("device", "cpu")
    if callable(device):
        device = "cpu"
    if key in storages:
        t = _view_of(storages[key], node)
    else:
        arr = arrays[key]
        if arr.dtype.kind == "V" and not arr.dtype.names and arr.dtype.itemsize == dt.np.itemsize:
            arr = arr.view(dt.np)  # ml_dtypes' bfloat16 and float8 are stored as raw bytes ('|V2', '|V1')
        if arr.dtype != dt.np:
            raise ValueError(f"tensor {key} holds {arr.dtype} data but is declared {dt}")
        t = _tensor(arr, dtype=dt, device=device)
        if "storage" in node:
            storages[key] = t
        t = _view_of(t, node) if "storage" in node else _at_version_one(t)
    if node.get("parameter"):
        from core.nn import Parameter  # only files with parameters need nn

        return Parameter(t, requires_grad=bool(node.get("requires_grad")))
    if node.get("requires_grad"):
        _set_requires_grad(t)
    return t

