"""Large tensor literals: held as immutable arrays, stored beside the graph file in a ``.npz`` sidecar.

A document's tensor literal of more than ``INLINE_MAX`` elements is a ``TensorValue``: a read-only NumPy
array that copies of the document share (``copy.deepcopy`` returns it), that compares equal to the same values
as a list, and that ``literal`` turns into the array ``core.tensor`` makes of the equivalent list (floats: the
default dtype, integers: int64, booleans: bool). A 50M-element literal is never a Python list.

In a file (format version 3) such a value is written inline (short), as base64 ``.npy`` bytes (up to
``SIDECAR_MIN`` bytes), or as a reference ``{"npz": "g.json.1a2b3c4d.npz", "key": "t0", "dtype": "float32",
"shape": [50000000]}`` to an entry of a sidecar ``.npz`` beside the file. ``save_with_sidecar`` writes the
sidecar under a fresh name first, then the JSON (both atomic), then removes the document's older sidecars, so a
crash at any point leaves an old or a new document whose sidecar is there. Loading reads an entry only after
its header matched the reference's dtype and shape; a missing or mismatching sidecar is a ``LoadError`` naming
the field. Sidecar names are plain file names beside the document, never paths.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import os
import re
import uuid
import zipfile
from collections.abc import Callable, Iterator
from typing import IO, Any, NoReturn, TypedDict

import numpy as np

from core.serialization import atomic_write

__all__ = ["TensorValue", "INLINE_MAX", "SIDECAR_MIN", "literal", "frozen", "sidecar_paths", "save_with_sidecar",
           "reading_sidecars", "read_reference", "is_reference", "encode"]

INLINE_MAX = 64  # elements written as a JSON list
SIDECAR_MIN = 1 << 20  # bytes: larger literals go to the sidecar .npz (when the document has a path)
_KINDS = "biuf"

Fail = Callable[[str, str], NoReturn]  # ``fail(path, reason)`` raises the loader's error


class Sidecar(TypedDict):
    """The sidecar a save fills: its file name and the arrays to write, by entry key."""

    name: str
    arrays: dict[str, np.ndarray]


class TensorValue:
    """An immutable tensor literal (a read-only array) that documents and their copies share."""

    __slots__ = ("array",)
    __hash__ = None  # type: ignore[assignment]  # unhashable (equality is by value), as typeshed marks list

    def __init__(self, array: Any) -> None:
        arr = np.asarray(array)
        if arr.flags.writeable:
            arr = arr.view()
            arr.flags.writeable = False
        self.array = arr

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return self.array if dtype is None else self.array.astype(dtype)

    def __deepcopy__(self, memo: dict[int, Any]) -> TensorValue:
        return self

    def __copy__(self) -> TensorValue:
        return self

    @property
    def shape(self) -> tuple[int, ...]:
        return self.array.shape

    @property
    def dtype(self) -> np.dtype:
        return self.array.dtype

    @property
    def size(self) -> int:
        return self.array.size

    def tolist(self) -> Any:
        return self.array.tolist()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (TensorValue, np.ndarray, list, tuple, int, float)):
            other = np.asarray(other)
            return other.dtype != object and self.shape == other.shape and bool(np.array_equal(self.array, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"TensorValue(shape={list(self.shape)}, dtype={self.dtype.name})"


def frozen(value: Any) -> Any:
    """``value`` as a ``TensorValue`` when it holds more than ``INLINE_MAX`` numbers, else unchanged."""
    if isinstance(value, TensorValue) or not isinstance(value, (list, tuple, np.ndarray)):
        return value
    arr = np.asarray(value)
    return TensorValue(arr) if arr.size > INLINE_MAX and arr.dtype.kind in _KINDS else value


def literal(value: Any) -> Any:
    """What ``core.tensor`` takes for a tensor literal: a list as it is; a ``TensorValue`` as the array the
    equivalent list would give (Python floats: the default dtype; ints: int64; bools: bool)."""
    if not isinstance(value, TensorValue):
        return value
    import core  # the default dtype at evaluation time

    arr = value.array
    if arr.dtype.kind == "f":
        target = np.dtype(core.get_default_dtype().name)
    else:
        target = np.dtype(bool) if arr.dtype.kind == "b" else np.dtype(np.int64)
    return arr.astype(target, copy=False)


# ----- saving -----------------------------------------------------------------------------------------------
def is_reference(value: Any) -> bool:
    return isinstance(value, dict) and "npz" in value


def encode(value: Any, sidecar: Sidecar | None, inline: bool = True) -> Any:
    """A tensor literal as file data: a list, ``{"npy_base64"}`` or, with ``sidecar`` (``{"name", "arrays"}``)
    and more than ``SIDECAR_MIN`` bytes, a reference to a new entry of that sidecar. Without ``inline`` a small
    one is ``{"npy_base64"}`` too (its dtype kept: a list reads back as float64)."""
    import base64
    import io

    arr = np.asarray(value)
    if inline and arr.size <= INLINE_MAX:
        return arr.tolist() if isinstance(value, (np.ndarray, TensorValue)) else value
    if sidecar is not None and arr.nbytes > SIDECAR_MIN:
        key = f"t{len(sidecar['arrays'])}"
        sidecar["arrays"][key] = arr
        return {"npz": sidecar["name"], "key": key, "dtype": arr.dtype.name, "shape": list(arr.shape)}
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=False)
    return {"npy_base64": base64.b64encode(buf.getvalue()).decode("ascii")}


def _sidecar_pattern(name: str) -> re.Pattern[str]:
    return re.compile(re.escape(name) + r"\.[0-9a-f]{8}\.npz")


def sidecar_paths(path: str | os.PathLike[str]) -> list[str]:
    """The sidecar files of the document at ``path`` (its name, a dot, 8 hex digits, ``.npz``)."""
    folder, name = os.path.split(os.path.realpath(os.fspath(path)))
    pattern = _sidecar_pattern(name)
    try:
        return sorted(os.path.join(folder, e) for e in os.listdir(folder) if pattern.fullmatch(e))
    except OSError:
        return []


def save_with_sidecar(path: str | os.PathLike[str], make_text: Callable[[Sidecar], bytes]) -> None:
    """Save a document whose large literals go to a sidecar: ``make_text(sidecar)`` returns the JSON text (bytes)
    after filling ``sidecar["arrays"]``; the sidecar is written first, the JSON next, old sidecars removed last."""
    real = os.path.realpath(os.fspath(path))
    folder, name = os.path.split(real)
    sidecar: Sidecar = {"name": f"{name}.{uuid.uuid4().hex[:8]}.npz", "arrays": {}}
    data = make_text(sidecar)
    if sidecar["arrays"]:
        atomic_write(os.path.join(folder, sidecar["name"]),  # the keys are t0, t1, ..., never savez's allow_pickle
                     lambda out: np.savez(out, **sidecar["arrays"]))  # type: ignore[arg-type]  # mypy can't tell
    try:
        atomic_write(real, lambda out: out.write(data))
    except BaseException:
        with contextlib.suppress(OSError):
            if sidecar["arrays"]:
                os.remove(os.path.join(folder, sidecar["name"]))
        raise
    for old in sidecar_paths(real):
        if os.path.basename(old) != sidecar["name"]:
            with contextlib.suppress(OSError):
                os.remove(old)


# ----- loading ----------------------------------------------------------------------------------------------
_Context = tuple[str, dict[str, zipfile.ZipFile]]  # the folder read from and the sidecars opened so far
_FOLDER: contextvars.ContextVar[_Context | None] = contextvars.ContextVar("sidecar_folder", default=None)


@contextlib.contextmanager
def reading_sidecars(folder: str) -> Iterator[None]:
    """While loading a file from ``folder``: references to its sidecars can be read (else they are refused)."""
    opened: dict[str, zipfile.ZipFile] = {}
    token = _FOLDER.set((folder, opened))
    try:
        yield
    finally:
        _FOLDER.reset(token)
        for z in opened.values():
            z.close()


def read_reference(value: dict[str, Any], path: str, fail: Fail) -> TensorValue:
    """The array a sidecar reference names, after checking it against the reference; ``fail(path, reason)``."""
    if set(value) != {"npz", "key", "dtype", "shape"} or not all(
            isinstance(value[k], str) for k in ("npz", "key", "dtype")):
        fail(path, 'a sidecar tensor must be {"npz": file, "key": entry, "dtype": name, "shape": [sizes]}')
    shape = value["shape"]
    if not isinstance(shape, list) or len(shape) > 8 or any(isinstance(s, bool) or not isinstance(s, int) or s < 0
                                                            for s in shape):
        fail(f"{path}.shape", "must be a list of at most 8 sizes")
    name, key = value["npz"], value["key"]
    if os.path.basename(name) != name or not name.endswith(".npz") or name.startswith("."):
        fail(f"{path}.npz", f"must name a .npz file beside the document, got {name[:100]!r}")
    context = _FOLDER.get()
    if context is None:
        fail(f"{path}.npz", "a tensor stored in a sidecar file can only be read from a file load")
    return TensorValue(_read_entry(context, name, key, value["dtype"], tuple(shape), path, fail))


def _open(context: _Context, name: str, path: str, fail: Fail) -> zipfile.ZipFile:
    folder, opened = context
    if name not in opened:
        try:
            opened[name] = zipfile.ZipFile(os.path.join(folder, name))
        except FileNotFoundError:
            fail(f"{path}.npz", f"the sidecar file {name!r} is missing (it is saved beside the document)")
        except (OSError, zipfile.BadZipFile) as exc:
            fail(f"{path}.npz", f"can't read the sidecar file {name!r}: {str(exc)[:100]}")
    return opened[name]


def _read_entry(context: _Context, name: str, key: str, dtype: str, shape: tuple[int, ...], path: str,
                fail: Fail) -> np.ndarray:
    from core.nodegraph.model.spec import MAX_NUMEL

    z = _open(context, name, path, fail)
    try:
        info = z.getinfo(key + ".npy")
    except KeyError:
        fail(f"{path}.key", f"the sidecar file {name!r} has no entry {key[:100]!r}")
    try:
        with z.open(info) as f:
            major, _ = np.lib.format.read_magic(f)
            header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
            got_shape, fortran, got_dtype = header(f)
            if got_dtype.name != dtype or tuple(got_shape) != shape:
                fail(path, f"the sidecar entry {key[:100]!r} holds {got_dtype.name}{list(got_shape)}, the document "
                           f"says {dtype[:40]}{list(shape)} (the sidecar doesn't belong to this document)")
            if got_dtype.kind not in _KINDS or math.prod(shape) > MAX_NUMEL:
                fail(path, f"stored tensor of dtype {got_dtype.name} and shape {list(shape)} is not allowed")
            if info.file_size - f.tell() != math.prod(shape) * got_dtype.itemsize:
                fail(path, f"the sidecar entry {key[:100]!r} is damaged (its size doesn't match its header)")
            arr = np.empty(shape, got_dtype, order="F" if fortran else "C")
            _read_into(f, arr.reshape(-1, order="A").view(np.uint8).data, path, fail)
            return arr
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        if type(exc).__name__ == "LoadError":
            raise
        fail(path, f"can't read the sidecar entry {key[:100]!r}: {str(exc)[:100]}")


def _read_into(f: IO[bytes], out: memoryview, path: str, fail: Fail, chunk: int = 1 << 24) -> None:
    """Fill ``out`` from ``f`` in chunks (a zip entry's ``read`` of everything would hold a second copy)."""
    at = 0
    while at < len(out):
        data = f.read(min(chunk, len(out) - at))
        if not data:
            fail(path, "the sidecar entry is truncated")
        out[at:at + len(data)] = data
        at += len(data)
