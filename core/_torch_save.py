"""Writing PyTorch's own file format, so that ``torch.load`` reads what ``core.save`` wrote.

``torch.save`` writes a zip whose entries all sit in one folder named after the file (``model.pt`` ->
``model/``; ``archive/`` for a file object): ``data.pkl`` (the object, pickled with protocol 2),
``.format_version``, ``.storage_alignment``, ``byteorder``, one ``data/<key>`` per storage (its raw bytes,
each entry's data 64-byte aligned), ``version`` and ``.data/serialization_id``. This module writes the same
entries in the same order.

In the pickle, every name is PyTorch's: a tensor is ``torch._utils._rebuild_tensor_v2(storage, offset, size,
stride, requires_grad, OrderedDict())`` whose storage is a persistent id ``('storage', torch.FloatStorage, key,
location, numel)`` (a dtype with no legacy storage class, such as float8, goes through
``_rebuild_tensor_v3`` and an ``UntypedStorage`` counted in bytes); a parameter is
``torch._utils._rebuild_parameter(data, requires_grad, OrderedDict())``; dtypes, ``device`` and ``Size`` are
``torch.float32``, ``torch.device`` and ``torch.Size``. Each storage is written once, under the key of its
first tensor, so tensors that share memory (a view and its base, tied weights) share it again after loading,
and a tensor saved twice loads as one object (the pickle's memo). Any other class or function of core is
written under the name PyTorch gives it (``core.nn.Linear`` is ``torch.nn.modules.linear.Linear``,
``core._typename``), so a whole pickled model names torch's classes, as torch.save's does.

A sparse tensor is ``torch._utils._rebuild_sparse_tensor(layout, members)``, a layout
``torch.serialization._get_layout(name)`` and a quantized tensor ``torch._utils._rebuild_qtensor`` over a
``torch.QUInt8Storage``-like storage of its integers, as in torch. Quantized tensors of the packed dtypes
``quint4x2``/``quint2x4`` are not written here (``NotTorchFormat``): ``core.save`` keeps its own format for objects
that hold them.
"""

from __future__ import annotations

import io
import os
import pickle
import struct
import sys
import types
import uuid
import zipfile
import zlib
from collections import OrderedDict

import numpy as np

import core
from core import _backend, _dtype, _sparse_compressed, _torch_format
from core._device import device as _device
from core._meta import contiguous_strides
from core._script_object import ScriptObject
from core._tensor import Tensor, cache_slotnames, subclass_state
from core._torch_format import _STORAGES
from core._typename import torch_module

__all__ = ["NotTorchFormat", "write"]

ALIGNMENT = 64  # torch.save aligns each entry's data to 64 bytes (torch.load(mmap=True) maps them in place)
FORMAT_VERSION = b"1"
VERSION = b"3\n"
_DATE = (1980, 1, 1, 0, 0, 0)  # torch writes no dates

# dtype name -> torch's legacy storage class, the inverse of the reader's table (quantized ones apart)
_QUANTIZED = ("qint8", "quint8", "qint32")
_STORAGE_TYPES = {dt: name for name, dt in _STORAGES.items() if dt not in _QUANTIZED}
_QSTORAGE_TYPES = {dt: name for name, dt in _STORAGES.items() if dt in _QUANTIZED}


class NotTorchFormat(Exception):
    """The object holds a tensor this writer can't describe in torch's format (a packed quantized one)."""


_LAYOUTS = (type(core.strided), type(core.sparse_coo), type(core.sparse_csr))


class _Global:
    """A name in torch's namespace, pickled as a ``GLOBAL`` opcode without importing it."""

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args):  # (pickle's save_reduce checks that a reduce function is callable)
        raise TypeError(f"{self.module}.{self.name} is a name written into a file, not a function")


class _Storage:
    """A storage the pickle refers to by persistent id."""

    __slots__ = ("pid",)

    def __init__(self, pid: tuple) -> None:
        self.pid = pid


class _Pickler(pickle._Pickler):  # type: ignore[name-defined]
    """Protocol 2, torch's names for core's objects, storages as persistent ids (``storages``: key -> bytes)."""

    dispatch = dict(pickle._Pickler.dispatch)  # type: ignore[attr-defined]

    def __init__(self, file, storages: dict, protocol: int = 2) -> None:
        super().__init__(file, protocol=protocol)
        self._storages = storages
        self._keys: dict = {}  # id of a storage's array -> its _Storage
        self._globals: dict = {}  # (module, name) -> its _Global, so each name is written once
        self._keep: list = []  # arrays whose ids are keys of _keys: alive until the pickle is written

    def _global(self, module: str, name: str) -> _Global:
        found = self._globals.get((module, name))
        if found is None:
            found = self._globals[module, name] = _Global(module, name)
        return found

    def persistent_id(self, obj):
        return obj.pid if type(obj) is _Storage else None

    def _save_torch_global(self, obj: _Global) -> None:
        self.write(pickle.GLOBAL + obj.module.encode() + b"\n" + obj.name.encode() + b"\n")
        self.memoize(obj)

    dispatch[_Global] = _save_torch_global

    def _save_dtype(self, obj) -> None:
        self.save(self._global("torch", obj.name))

    dispatch[_dtype.dtype] = _save_dtype

    def _save_script_object(self, obj: ScriptObject) -> None:
        """As torch pickles a ``ScriptObject``: ``torch.ScriptObject`` built with no arguments, then its state."""
        self.save(self._global("torch", "ScriptObject"))
        self.write(pickle.EMPTY_TUPLE + pickle.NEWOBJ)
        self.memoize(obj)
        state, name = obj.__getstate__()  # NOTE: torch writes each string of it again for each object
        state = tuple(x.encode().decode() if type(x) is str else x for x in state)
        self.save((state, name.encode().decode()))
        self.write(pickle.BUILD)

    dispatch[ScriptObject] = _save_script_object

    def save_global(self, obj, name=None):
        """core's classes and functions under torch's names; anything else as pickle writes it."""
        name = name or getattr(obj, "__qualname__", None) or obj.__name__
        module = pickle.whichmodule(obj, name)
        if (module == "core" or module.startswith("core.")) and "." not in name:
            torch_name = "torch" if getattr(core, name, None) is obj else torch_module(module, name)
            self.write(pickle.GLOBAL + torch_name.encode() + b"\n" + name.encode() + b"\n")
            self.memoize(obj)
            return
        try:
            super().save_global(obj, name)
        except pickle.PicklingError as exc:  # pure Python's pickler words a failed lookup its own way
            if "it's not found as" not in str(exc):
                raise
            raise _lookup_error(obj, module, name) from None

    dispatch[types.FunctionType] = save_global  # (the base class's table holds its own save_global)

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return self._reduce_tensor(obj)
        if type(obj) is _device:
            return self._global("torch", "device"), (str(obj),)
        if type(obj) in _LAYOUTS:  # as torch pickles a layout: looked up by its name
            return self._global("torch.serialization", "_get_layout"), (str(obj),)
        return NotImplemented

    # ----- tensors ----------------------------------------------------------------------------------
    def _reduce_tensor(self, t: Tensor):
        if t.is_quantized:
            return self._reduce_quantized(t)
        if t.is_sparse or t.layout in _sparse_compressed.LAYOUTS:
            return self._global("torch._utils", "_rebuild_sparse_tensor"), (t.layout, _sparse_members(t))
        cache_slotnames(t)  # torch.save pickles the tensor, which leaves __slotnames__ on its class
        if type(t).__name__ == "Parameter" and type(t).__module__ == "core.nn.parameter":
            return self._global("torch._utils", "_rebuild_parameter"), (t.detach(), t.requires_grad, OrderedDict())
        func, args = self._reduce_plain(t)
        state = subclass_state(t)  # a user's attributes, as torch's _get_obj_state (core's bookkeeping hidden)
        if type(t) is Tensor and not state:
            return func, args
        new_type = self._global("torch", "Tensor") if type(t) is Tensor else type(t)
        return self._global("torch._tensor", "_rebuild_from_type_v2"), (func, new_type, args, state)

    def _reduce_plain(self, t: Tensor):
        shape, requires_grad = tuple(t.shape), t.requires_grad
        if t.device.type == "meta":
            return (self._global("torch._utils", "_rebuild_meta_tensor_no_storage"),
                    (t.dtype, shape, tuple(t.stride()), requires_grad))
        storage, offset, stride = self._storage_of(t)
        args = (storage, offset, shape, stride, requires_grad, OrderedDict())
        if t.dtype.name in _STORAGE_TYPES:
            return self._global("torch._utils", "_rebuild_tensor_v2"), args
        return self._global("torch._utils", "_rebuild_tensor_v3"), (*args, t.dtype)

    def _reduce_quantized(self, t: Tensor):
        """``_rebuild_qtensor(storage, offset, size, stride, quantizer params, requires_grad, hooks)`` of its
        integers; torch's packed 4- and 2-bit dtypes are left to core's own format."""
        if t.dtype.name not in _QSTORAGE_TYPES:
            raise NotTorchFormat(f"a quantized tensor of {t.dtype}")
        if t.qscheme() is core.per_tensor_affine:
            params = (t.qscheme(), t.q_scale(), t.q_zero_point())
        else:
            params = (t.qscheme(), t.q_per_channel_scales(), t.q_per_channel_zero_points(), t.q_per_channel_axis())
        storage = self._add_storage(t, t._data)
        return (self._global("torch._utils", "_rebuild_qtensor"),
                (storage, 0, tuple(t.shape), contiguous_strides(t.shape), params, False, OrderedDict()))

    def _storage_of(self, t: Tensor):
        """``(storage, offset, stride)``: the whole array the tensor views, once per file, when it is one
        contiguous array of the tensor's dtype; else a copy of the tensor's values (a reinterpreted view)."""
        root, data = t._root, t._data
        if type(root) is type(data) and getattr(root, "flags", None) is not None and root.flags.c_contiguous \
                and root.dtype == data.dtype:
            found = self._keys.get(id(root))
            if found is None:
                found = self._keys[id(root)] = self._add_storage(t, root)
                self._keep.append(root)
            return found, t.storage_offset(), tuple(t.stride())
        return self._add_storage(t, data), 0, contiguous_strides(t.shape)

    def _add_storage(self, t: Tensor, array) -> _Storage:
        flat = np.ascontiguousarray(_backend.to_numpy_array(array)).reshape(-1)
        key = str(len(self._storages))
        self._storages[key] = flat.view(np.uint8)
        name = _STORAGE_TYPES.get(t.dtype.name) or _QSTORAGE_TYPES.get(t.dtype.name)
        kind = self._global("torch", name) if name else self._global("torch.storage", "UntypedStorage")
        return _Storage(("storage", kind, key, str(t.device), flat.size if name else flat.nbytes))


def _lookup_error(obj, module: str, name: str) -> Exception:
    """The error C's pickler (the one torch.save uses) raises for a class or function it cannot find by name."""
    if "<locals>" in name:
        return AttributeError(f"Can't pickle local object {name!r}")
    return pickle.PicklingError(f"Can't pickle {obj!r}: attribute lookup {name} on {module} failed")


def _sparse_members(t: Tensor) -> tuple:
    """What torch pickles of a sparse tensor: COO's indices, values, size and whether it is coalesced; a compressed
    layout's compressed indices, plain indices, values and size (its ``requires_grad`` is not kept, as in torch)."""
    if t.is_sparse:
        return t._indices(), t._values(), t.shape, t.is_coalesced()
    by_rows = t.layout in (core.sparse_csr, core.sparse_bsr)
    compressed, plain = (t.crow_indices(), t.col_indices()) if by_rows else (t.ccol_indices(), t.row_indices())
    return compressed, plain, t.values(), t.shape


class _ZipWriter:
    """The zip PyTorch's writer (miniz, in ``PyTorchStreamWriter``) writes, byte for byte in its layout: stored
    entries whose local headers carry no date, CRC or sizes (flag bit 3, then a data descriptor after the data) and
    an ``FB`` extra field that pads the data to an ``ALIGNMENT`` boundary; a central directory without extra
    fields; then zip64's end record and locator before the plain end record. So a saved file has torch's size to
    the byte (quantization tutorials print it)."""

    def __init__(self, f) -> None:
        self._f = f
        self._pos = 0
        self._central: list[bytes] = []

    def _put(self, data) -> None:
        self._f.write(data)
        self._pos += len(data)

    def entry(self, name: str, data) -> None:
        raw_name = name.encode()
        data = bytes(data)
        offset = self._pos
        pad = (-(offset + 30 + len(raw_name) + 4)) % ALIGNMENT
        extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
        self._put(struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, 0x0808, 0, 0, 0, 0, 0, 0, len(raw_name), len(extra)))
        self._put(raw_name + extra)
        self._put(data)
        crc = zlib.crc32(data)
        self._put(struct.pack("<IIII", 0x08074B50, crc, len(data), len(data)))
        self._central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, 0x0808, 0, 0, 0, crc, len(data),
                                         len(data), len(raw_name), 0, 0, 0, 0, 0, offset) + raw_name)

    def close(self) -> None:
        start, count = self._pos, len(self._central)
        for record in self._central:
            self._put(record)
        size, end64 = self._pos - start, self._pos
        self._put(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 0x2D, 0, 0, count, count, size, start))
        self._put(struct.pack("<IIQI", 0x07064B50, 0, end64, 1))
        self._put(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, size, start, 0))


def _fits_zip32(sizes) -> bool:
    """Whether the entries fit plain zip fields (torch's zip64 extra fields for 4 GiB are not written here)."""
    return sum(sizes) + 1024 * len(sizes) < 0xFFFFFFFF


def _entry(zf, name: str, data) -> None:
    """One stored entry, its data starting on an ``ALIGNMENT`` boundary (padded with an ``FB`` extra field, as
    PyTorch's writer pads): through ``_ZipWriter``, or ``zipfile`` for archives past 4 GiB."""
    if isinstance(zf, _ZipWriter):
        zf.entry(name, data)
        return
    info = zipfile.ZipInfo(name, date_time=_DATE)
    info.compress_type = zipfile.ZIP_STORED
    start = zf.fp.tell() + 30 + len(name.encode())
    pad = (-(start + 4)) % ALIGNMENT
    info.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
    zf.writestr(info, data)


def write(obj, f, archive: str = "archive", protocol: int = 2, byteorder: bool = True) -> None:
    """Pickle ``obj`` (with ``protocol``, torch.save's ``pickle_protocol``) and write torch's zip to the binary file
    object ``f``; ``byteorder=False`` (torch.save's ``_disable_byteorder_record``) moves that entry after ``version``,
    as torch's writer does (``NotTorchFormat`` before anything is written when the object holds a tensor the format
    can't describe here)."""
    storages: dict = {}
    buf = io.BytesIO()
    _Pickler(buf, storages, protocol).dump(obj)
    entries = [(f"{archive}/data.pkl", buf.getvalue()), (f"{archive}/.format_version", FORMAT_VERSION),
               (f"{archive}/.storage_alignment", str(ALIGNMENT).encode())]
    if byteorder:  # NOTE: else torch's zip writer adds it anyway, after version
        entries.append((f"{archive}/byteorder", sys.byteorder.encode()))
    entries += [(f"{archive}/data/{key}", memoryview(data)) for key, data in storages.items()]
    entries.append((f"{archive}/version", VERSION))
    if not byteorder:
        entries.append((f"{archive}/byteorder", sys.byteorder.encode()))
    entries.append((f"{archive}/.data/serialization_id", f"{uuid.uuid4().int:040d}"[:40].encode()))
    if _fits_zip32([memoryview(data).nbytes for _, data in entries]):
        writer = _ZipWriter(f)
        for name, data in entries:
            _entry(writer, name, data)
        writer.close()
        return
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as zf:
        for name, data in entries:
            _entry(zf, name, data)


class _LegacyPickler(_Pickler):
    """PyTorch's format before 1.6 (``_use_new_zipfile_serialization=False``): a storage's persistent id ends in its
    view metadata (None), and each storage's element count is kept for its header."""

    def __init__(self, file, storages: dict, protocol: int = 2) -> None:
        super().__init__(file, storages, protocol)
        self.numels: dict = {}

    def persistent_id(self, obj):
        return (*obj.pid, None) if type(obj) is _Storage else None

    def _add_storage(self, t: Tensor, array) -> _Storage:
        storage = super()._add_storage(t, array)
        self.numels[storage.pid[2]] = storage.pid[4]
        return storage


def write_legacy(obj, f, protocol: int = 2) -> None:
    """torch.save's ``_legacy_save``: the magic number, protocol version and system description pickled, then the
    object's pickle, its storages' keys (sorted as strings) and each storage as its element count (int64, little
    endian) and bytes, which ``torch.load`` (and ``core.load``) read. The object is pickled first: nothing is written
    when that raises."""
    storages: dict = {}
    buf = io.BytesIO()
    pickler = _LegacyPickler(buf, storages, protocol)
    pickler.dump(obj)
    sizes = {"short": 2, "int": 4, "long": 4}  # (torch's values, what its loader checks a file against)
    for header in (_torch_format._MAGIC, _torch_format._LEGACY_PROTOCOL,
                   {"protocol_version": _torch_format._LEGACY_PROTOCOL, "little_endian": sys.byteorder == "little",
                    "type_sizes": sizes}):
        pickle.dump(header, f, protocol=protocol)
    f.write(buf.getvalue())
    keys = sorted(storages)
    pickle.dump(keys, f, protocol=protocol)
    for key in keys:
        f.write(struct.pack("<q", pickler.numels[key]))
        f.write(memoryview(storages[key]))


def archive_name(path) -> str:
    """The folder torch.save names inside the zip: the file's name without its extension."""
    return os.path.splitext(os.path.basename(os.fspath(path)))[0] or "archive"
