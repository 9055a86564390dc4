"""``core.save`` / ``core.load``: tensors and nested containers in a NumPy ``.npz`` file, never pickle.

The file holds one array per tensor (``t0``, ``t1``...) and a JSON description of the structure
(``__nodegrad__``): dicts (order kept), lists, tuples, numbers, strings, booleans, None, tensors
with their dtype, device and ``requires_grad``. Loading never executes code; a corrupt or foreign
file raises a ``RuntimeError`` that says what is wrong. Saving to a path is atomic.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from collections import OrderedDict

import numpy as np

from core import _backend, _dtype
from core._tensor import Tensor

__all__ = ["save", "load"]

FORMAT = "nodegrad-tensors"
VERSION = 1
_HEADER = "__nodegrad__"


def _encode(obj, arrays: dict):
    if isinstance(obj, Tensor):
        key = f"t{len(arrays)}"
        arrays[key] = np.ascontiguousarray(_backend.to_numpy_array(obj.detach()._data))
        node = {"tensor": key, "dtype": obj.dtype.name, "device": str(obj.device)}
        if obj.requires_grad:
            node["requires_grad"] = True
        if type(obj).__name__ == "Parameter":
            node["parameter"] = True
        return node
    if obj is None or isinstance(obj, (bool, str)):
        return {"value": obj}
    if isinstance(obj, (int, float, np.integer, np.floating)):
        value = obj.item() if isinstance(obj, np.generic) else obj
        if isinstance(value, float) and not np.isfinite(value):
            return {"float": repr(value)}
        return {"value": value}
    if isinstance(obj, _dtype.dtype):
        return {"dtype": obj.name}
    if isinstance(obj, dict):
        return {"dict": [[_encode_key(k), _encode(v, arrays)] for k, v in obj.items()],
                "ordered": isinstance(obj, OrderedDict)}
    if isinstance(obj, (list, tuple)):
        return {"list" if isinstance(obj, list) else "tuple": [_encode(v, arrays) for v in obj]}
    raise TypeError(f"core.save can't store an object of type {type(obj).__name__} (tensors, numbers, strings, "
                    "None, and dicts/lists/tuples of them are supported)")


def _encode_key(key):
    if isinstance(key, (str, int, float, bool)) or key is None:
        return key
    raise TypeError(f"core.save: dict keys must be str, int, float, bool or None, got {type(key).__name__}")


def save(obj, f) -> None:
    """Write ``obj`` to a path (atomically: temporary file, flush, rename) or a binary file object."""
    arrays: dict = {}
    tree = {"format": FORMAT, "version": VERSION, "root": _encode(obj, arrays)}
    arrays[_HEADER] = np.frombuffer(json.dumps(tree).encode(), dtype=np.uint8)
    if hasattr(f, "write"):
        np.savez(f, **arrays)
        return
    path = os.fspath(f)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".nodegrad-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            np.savez(out, **arrays)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load(f, map_location=None, weights_only=True, **_ignored):
    """Read what ``save`` wrote; ``map_location`` moves every tensor to that device."""
    name = f if not hasattr(f, "read") else getattr(f, "name", "<file object>")
    try:
        with np.load(f if hasattr(f, "read") else os.fspath(f), allow_pickle=False) as npz:
            if not isinstance(npz, np.lib.npyio.NpzFile) or _HEADER not in npz.files:
                raise RuntimeError(f"{name} is not a file written by core.save (no {_HEADER} header)")
            arrays = {k: npz[k] for k in npz.files}
    except FileNotFoundError:
        raise
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise RuntimeError(f"{name} is not a valid core.save file (corrupt or foreign data): {exc}") from None
    try:
        tree = json.loads(bytes(arrays.pop(_HEADER)).decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RuntimeError(f"{name} has a corrupt header: {exc}") from None
    if not isinstance(tree, dict) or tree.get("format") != FORMAT:
        raise RuntimeError(f"{name} is not a file written by core.save (format {tree.get('format')!r})")
    if not isinstance(tree.get("version"), int) or tree["version"] > VERSION:
        raise RuntimeError(f"{name} was written by a newer version ({tree.get('version')}); this one reads "
                           f"up to version {VERSION}")
    try:
        return _decode(tree["root"], arrays, map_location)
    except (KeyError, TypeError, ValueError) as exc:
        raise RuntimeError(f"{name} has a corrupt structure: {type(exc).__name__}: {exc}") from None


def _decode(node, arrays, map_location):
    if "tensor" in node:
        return _decode_tensor(node, arrays, map_location)
    if "value" in node:
        return node["value"]
    if "float" in node:
        return float(node["float"])
    if "dtype" in node:
        return _dtype.to_dtype(node["dtype"])
    if "dict" in node:
        items = [(k, _decode(v, arrays, map_location)) for k, v in node["dict"]]
        return OrderedDict(items) if node.get("ordered") else dict(items)
    if "list" in node:
        return [_decode(v, arrays, map_location) for v in node["list"]]
    if "tuple" in node:
        return tuple(_decode(v, arrays, map_location) for v in node["tuple"])
    raise ValueError(f"unknown entry {sorted(node)}")


def _decode_tensor(node, arrays, map_location):
    from core._factories import tensor  # noqa: PLC0415

    arr = arrays[node["tensor"]]
    dt = _dtype.to_dtype(node["dtype"])
    if arr.dtype != dt.np:
        raise ValueError(f"tensor {node['tensor']} holds {arr.dtype} data but is declared {dt}")
    device = map_location if map_location is not None else node.get("device", "cpu")
    if callable(device):
        device = "cpu"
    t = tensor(arr, dtype=dt, device=device)
    if node.get("parameter"):
        from core.nn import Parameter  # noqa: PLC0415 - only files with parameters need nn

        return Parameter(t, requires_grad=bool(node.get("requires_grad")))
    if node.get("requires_grad"):
        t.requires_grad_(True)
    return t

