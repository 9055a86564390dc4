"""The graph file schema's building blocks: its limits, ``LoadError``, and the checks of one field each.

Each check takes a value and its field path (``nodes[3].params``) and returns it normalised, or raises
``LoadError`` naming the path and the reason; ``decode_tensor`` reads a stored tensor (inline ``npy_base64`` or a
sidecar reference) checking its dtype and size from the header before reading its data. ``files.schema`` (the
document) and ``files.schema_trained`` (the ``trained`` section) are written with them. (Split from
``files.schema``, which re-exports the public names.)
"""

from __future__ import annotations

import base64
import io
import math
import re
from typing import Any, NoReturn

import numpy as np

from core.nodegraph.model import spec as _spec
from core.nodegraph.model import tensor_store
from core.nodegraph.model.document_items import MAX_COORD

__all__ = ["LESSON_ID", "LoadError", "MAX_DEPTH", "MAX_ID", "MAX_SETTING_LIST", "MAX_SUBGRAPH_DEPTH", "SESSION_KEY",
           "decode_npy", "decode_tensor", "what"]

MAX_DEPTH = 64  # JSON nesting deeper than this is refused before any recursive walk
MAX_SUBGRAPH_DEPTH = 12
MAX_ID = 200
# the ``trained`` section's entry that holds where training stood (step count, generator, optimizer state,
# running statistics: ``check_session_state``) rather than a node's parameters; a node with this id keeps its
# parameters under it as before, and its file then has no such entry
SESSION_KEY = "@session"
LESSON_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")  # a bundled lesson's file name, without its .json
MAX_SETTING_LIST = 10_000  # numbers in one list of an optimizer's or schedule's settings


class LoadError(ValueError):
    """A file the loader refuses; the message names the field path and the reason."""


def what(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
             int: "an integer", float: "a number"}
    return names.get(type(value), type(value).__name__)


def _fail(path: str, reason: str) -> NoReturn:
    raise LoadError(f"{path}: {reason}")


def _obj(v: object, path: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        _fail(path, f"must be an object, got {what(v)}")
    return v


def _list(v: object, path: str) -> list[Any]:
    if not isinstance(v, list):
        _fail(path, f"must be a list, got {what(v)}")
    return v


def _two(v: object, path: str, names: str) -> list[Any]:
    """A two-item list (``names`` says what the two are, for the message)."""
    items = _list(v, path)
    if len(items) != 2:
        _fail(path, f"must be [{names}]")
    return items


def _required(d: dict[str, Any], key: str, path: str) -> Any:
    if key not in d:
        _fail(f"{path}{key}", "missing field")
    return d[key]


def _str(v: object, path: str, max_len: int = 100_000, optional: bool = False) -> str:
    if not isinstance(v, str):
        _fail(path, f"must be a string{' or null' if optional else ''}, got {what(v)}")
    if len(v) > max_len:
        _fail(path, f"longer than {max_len} characters")
    return v


def _opt_str(v: object, path: str, max_len: int) -> str | None:
    """A string or null."""
    return None if v is None else _str(v, path, max_len, optional=True)


def _id(v: object, path: str) -> str:
    text = _str(v, path, max_len=MAX_ID)
    if not text:
        _fail(path, "must not be empty")
    return text


def _int(v: object, path: str, lo: int = 0, hi: int = 2 ** 63) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        _fail(path, f"must be an integer, got {what(v)}")
    if not lo <= v < hi:
        _fail(path, f"must be in [{lo}, {hi}), got {_spec.quote(v)}")
    return v


def _num(v: object, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        _fail(path, f"must be a number, got {what(v)}")
    try:
        f = float(v)
    except OverflowError:
        f = math.inf
    if not math.isfinite(f):
        _fail(path, f"must be a finite number, got {str(v)[:40]}")
    return f


def _nums(v: object, n: int, path: str) -> list[float]:
    if not isinstance(v, list) or len(v) != n:
        _fail(path, f"must be a list of {n} numbers, got {what(v)}")
    return [_num(x, f"{path}[{i}]") for i, x in enumerate(v)]


def _coords(v: object, n: int, path: str) -> list[float]:
    """``n`` canvas coordinates (a position, a rectangle, the view's centre): finite and within ``MAX_COORD``."""
    nums = _nums(v, n, path)
    for i, x in enumerate(nums):
        if not -MAX_COORD <= x <= MAX_COORD:
            _fail(f"{path}[{i}]", f"must be within ±{MAX_COORD:g} (a canvas coordinate), got {x:g}")
    return nums


def _pair(v: object, path: str) -> list[str]:
    if not isinstance(v, list) or len(v) != 2:
        _fail(path, f"must be [node id, port name], got {what(v)}")
    return [_id(v[0], f"{path}[0]"), _id(v[1], f"{path}[1]")]


def decode_tensor(value: dict[str, Any], path: str) -> tensor_store.TensorValue:
    """A stored tensor literal (``{"npy_base64"}`` or a sidecar reference) as a ``TensorValue``."""
    if tensor_store.is_reference(value):
        return tensor_store.read_reference(value, path, _fail)
    return decode_npy(value, path)


def decode_npy(value: dict[str, Any], path: str) -> tensor_store.TensorValue:
    """``{"npy_base64": ...}`` to a ``TensorValue``, checking dtype and size from the header before reading data
    (the array is a view of the decoded bytes: no copy)."""
    if not isinstance(value.get("npy_base64"), str) or len(value) != 1:
        _fail(path, 'a stored tensor must be {"npy_base64": "..."}')
    try:
        raw = base64.b64decode(value["npy_base64"], validate=True)
        buf = io.BytesIO(raw)
        major, _ = np.lib.format.read_magic(buf)
        if major not in (1, 2):
            _fail(path, f"unsupported .npy format version {major}")
        read_header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read_header(buf)
        if dtype.kind not in "biuf" or math.prod(shape) > _spec.MAX_NUMEL:
            _fail(path, f"stored tensor of dtype {dtype} and shape {_spec.quote(list(shape))} is not allowed")
        if len(raw) - buf.tell() != math.prod(shape) * dtype.itemsize:
            _fail(path, "damaged tensor data (its size doesn't match its header)")
        flat = np.frombuffer(raw, dtype=dtype, offset=buf.tell())
        return tensor_store.TensorValue(flat.reshape(shape, order="F" if fortran else "C"))
    except LoadError:
        raise
    except Exception as exc:  # NumPy's header parser raises many types (tokenize, ast...)
        _fail(path, f"damaged tensor data ({str(exc)[:120]})")
