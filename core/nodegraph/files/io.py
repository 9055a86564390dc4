"""Graph files: versioned, diff-friendly JSON; atomic saves; loads that validate and never execute.

Layout: the header first (``format``, ``version``, ``app_version``, ``node_types`` with each type's spec
version), then ``nodes`` (one block per node, in document order), ``edges``, ``comments``, ``training``,
``view``, then ``code`` (an imported snippet) and ``lesson`` (the id of the bundled lesson the document
belongs to, ``Graph.lesson``) when set, then ``trained`` when there is something in it: the parameter values
of a session that trained (``Session.trained_values``, ``{node id: {name: tensor}}``), which a new session puts
back into the nodes' parameters on their first evaluation, so a saved model reopens trained, and under ``"@session"``
(``schema.SESSION_KEY``) where training stood: step count, generator, optimizer and schedule state, running
statistics (``core.nodegraph.run.training_state``), so its next step is the one it would have made. Short
lists (positions, shapes, edges) stay on one line. Tensor literal parameters are inline lists up to
``INLINE_MAX`` elements, else ``{"npy_base64": ...}`` (``np.save`` bytes, read back with
``allow_pickle=False``), and above ``tensor_store.SIDECAR_MIN`` bytes entries of a ``.npz`` sidecar beside
the file, written atomically with it (``core.nodegraph.model.tensor_store``); in a document they are
``TensorValue``s.

Loading parses the JSON (nesting depth bounded, each key once per object: ``json_keys``), checks the header,
migrates older versions through ``core.nodegraph.files.migrations``, validates every field against the schema
(types, missing fields, dangling edges, duplicate ids, one edge per input, cycles, parameters through their specs,
which also bound shapes by ``spec.MAX_NUMEL``) and refuses bad input with ONE ``LoadError`` naming the field path
and the reason. Unknown node types load as placeholders that keep all their data and save back unchanged.
Nothing in a file is ever executed: formulas are strings, tensors are plain numbers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from core.nodegraph.files import json_keys, migrations, schema
from core.nodegraph.files.schema import MAX_DEPTH, LoadError, what
from core.nodegraph.model import spec as _spec
from core.nodegraph.model import subgraph as _subgraph  # noqa: F401 - registers graph.subgraph for loading
from core.nodegraph.model import tensor_store
from core.nodegraph.model.document import Graph
from core.nodegraph.model.gc_pause import gc_paused

__all__ = ["FORMAT", "APP_VERSION", "INLINE_MAX", "MAX_DEPTH", "LoadError", "dumps", "save", "loads", "load",
           "to_file_dict", "from_file_dict", "fragment_of", "dumps_fragment", "loads_fragment", "sidecar_paths"]

FORMAT = "nodegrad-graph"
APP_VERSION = "0.1.0"
INLINE_MAX = tensor_store.INLINE_MAX  # tensor literals with more elements are stored as .npy bytes
sidecar_paths = tensor_store.sidecar_paths
MAX_CHARS = 256 * 2 ** 20
WIDTH = 100  # a list or small object that fits in this many columns is written on one line

NodeDict = dict[str, Any]  # one node as a file holds it
FileText = str | bytes | bytearray  # a file's or the clipboard's text (bytes: UTF-8)
Trained = dict[str, dict[str, Any]]  # {node id: {parameter name: values}}: a session's trained parameters


# ----- saving -----------------------------------------------------------------------------------------
def _encode_nodes(nodes: list[NodeDict], sidecar: tensor_store.Sidecar | None = None) -> list[NodeDict]:
    """Node dicts with large tensor literals encoded (known types only: placeholders stay as they are); with
    ``sidecar`` the largest go to its arrays."""
    out = []
    for nd in nodes:
        s = _spec._REGISTRY.get(nd["type"])
        if s is not None:
            kinds = {p.name: p.kind for p in s.params}
            nd = {**nd, "params": {k: tensor_store.encode(v, sidecar) if kinds.get(k) == "tensor" and v is not None
                                   else v for k, v in nd["params"].items()}}
        if nd.get("graph") is not None:
            nd = {**nd, "graph": {**nd["graph"], "nodes": _encode_nodes(nd["graph"].get("nodes", []), sidecar)}}
        out.append(nd)
    return out


def _types_used(nodes: list[NodeDict], found: dict[str, None]) -> dict[str, None]:
    for nd in nodes:
        found.setdefault(nd["type"], None)
        if nd.get("graph") is not None:
            _types_used(nd["graph"].get("nodes", []), found)
    return found


def _encode_state(value: Any, sidecar: tensor_store.Sidecar | None) -> Any:
    """Where training stood (``schema.check_session_state``) as file data: every array a stored tensor, its dtype
    and bits kept (a scalar optimizer step too), so it reads back as it was written."""
    if isinstance(value, dict):
        return {k: _encode_state(v, sidecar) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode_state(v, sidecar) for v in value]
    if isinstance(value, np.ndarray):
        return tensor_store.encode(value, sidecar, inline=False)
    return value


def _encode_trained(trained: Trained, sidecar: tensor_store.Sidecar | None) -> dict[str, Any]:
    return {nid: _encode_state(params, sidecar) if nid == schema.SESSION_KEY else
            {name: tensor_store.encode(np.asarray(v), sidecar) for name, v in params.items()}
            for nid, params in trained.items() if params}


def to_file_dict(graph: Graph, sidecar: tensor_store.Sidecar | None = None,
                 trained: Trained | None = None) -> dict[str, Any]:
    """The file's content as plain data: header then the document, large tensors encoded (the largest into
    ``sidecar``, see ``tensor_store.save_with_sidecar``, when given). ``trained`` (``Session.trained_values()``;
    by default what the file it was loaded from held) is written as the ``trained`` section after ``view``."""
    body = graph.to_dict()
    kept = graph.file_node_types
    kept_trained = {nid: v for nid, v in (graph.trained_values if trained is None else trained).items()
                    if (nid in graph.nodes or nid == schema.SESSION_KEY) and v}
    types = {t: (_spec._REGISTRY[t].version if t in _spec._REGISTRY else kept.get(t, 1))
             for t in sorted(_types_used(body["nodes"], {}))}
    return {"format": FORMAT, "version": migrations.CURRENT_VERSION, "app_version": APP_VERSION,
            "node_types": types, "nodes": _encode_nodes(body["nodes"], sidecar), "edges": body["edges"],
            "comments": body["comments"], "training": body["training"], "view": body["view"],
            **({"code": body["code"]} if "code" in body else {}),
            **({"lesson": graph.lesson} if graph.lesson else {}),
            **({"trained": _encode_trained(kept_trained, sidecar)} if kept_trained else {})}


def _json_default(obj: object) -> Any:
    if isinstance(obj, (np.ndarray, np.generic, tensor_store.TensorValue)):
        return obj.tolist()
    raise TypeError(f"can't save a {type(obj).__name__} in a graph file")


_encode_text = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) writes for a str
_SPECIAL_FLOATS = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _flat(value: Any) -> str:
    """One-line JSON of ``value``; text, numbers, booleans and null are written directly (as ``json.dumps``
    writes them), since a file holds hundreds of thousands of them."""
    t = type(value)
    if t is str:
        return _encode_text(value)
    if t is float:
        text = float.__repr__(value)
        return _SPECIAL_FLOATS.get(text, text)
    if t is int:
        return int.__repr__(value)
    if t is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    return json.dumps(value, ensure_ascii=False, default=_json_default)


def _flat_upto(value: Any, budget: int) -> str | None:
    """``_flat(value)`` if it has at most ``budget`` characters, else None, found without writing out more than
    about ``budget`` characters of it (so a large list is not serialised once per nesting level)."""
    if not isinstance(value, (dict, list, tuple)) or not value or budget < 2:
        flat = _flat(value)
        return flat if len(flat) <= budget else None
    is_dict = isinstance(value, dict)
    if is_dict and not all(type(k) is str for k in value):
        flat = _flat(value)  # JSON spells non-text keys its own way
        return flat if len(flat) <= budget else None
    pieces: list[str] = []
    used = 2
    items = value.items() if isinstance(value, dict) else value
    for item in items:
        if is_dict:
            key = _flat(item[0]) + ": "
            rest = _flat_upto(item[1], budget - used - len(key))
            piece = None if rest is None else key + rest
        else:
            piece = _flat_upto(item, budget - used)
        if piece is None:
            return None
        used += len(piece) + (2 if pieces else 0)
        if used > budget:
            return None
        pieces.append(piece)
    inner = ", ".join(pieces)
    return "{" + inner + "}" if is_dict else "[" + inner + "]"


def _format(value: Any, level: int = 0) -> str:
    """Indented JSON; lists and objects that fit in ``WIDTH`` on one line stay there (nodes never do)."""
    if not isinstance(value, (dict, list, tuple)) or not value:
        return _flat(value)
    is_node = isinstance(value, dict) and "id" in value and "type" in value
    if not is_node:
        flat = _flat_upto(value, WIDTH - 2 * level)
        if flat is not None:
            return flat
    pad, end = "  " * (level + 1), "  " * level
    if isinstance(value, dict):
        items = [f"{pad}{_flat(str(k))}: {_format(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    return "[\n" + ",\n".join(pad + _format(v, level + 1) for v in value) + "\n" + end + "]"


def dumps(graph: Graph, sidecar: tensor_store.Sidecar | None = None, trained: Trained | None = None) -> str:
    """The file text of ``graph`` (ends with a newline); every tensor in the text unless ``sidecar`` is given."""
    return _format(to_file_dict(graph, sidecar, trained)) + "\n"


def save(graph: Graph, path: str | os.PathLike[str], trained: Trained | None = None) -> None:
    """Write atomically (``core.serialization.atomic_write``: a temporary file beside it, fsynced, renamed over
    ``path``; a symlink is written through; stale temporaries of interrupted saves are removed). Tensors above
    ``tensor_store.SIDECAR_MIN`` bytes go to a new ``.npz`` sidecar written before the JSON; the document's older
    sidecars are removed after it.

    An error while serialising or writing leaves ``path`` (and its sidecar) as it was.
    """
    tensor_store.save_with_sidecar(path, lambda sidecar: dumps(graph, sidecar, trained).encode("utf-8"))


# ----- loading: parsing and the header ------------------------------------------------------------------
def load(path: str | os.PathLike[str]) -> Graph:
    """Read and validate a graph file (and its tensor sidecar); LoadError (a ValueError) names the field and the
    reason."""
    try:
        with open(path, "rb") as f:  # read(MAX_CHARS + 1) would allocate 256 MiB whatever the file's size
            raw = f.read(min(os.fstat(f.fileno()).st_size, MAX_CHARS) + 1)
            raw += f.read(MAX_CHARS + 1 - len(raw)) if len(raw) <= MAX_CHARS and f.peek(1) else b""
    except OSError as exc:
        raise LoadError(f"can't read {os.fspath(path)!r}: {exc.strerror or exc}") from None
    with tensor_store.reading_sidecars(os.path.dirname(os.path.realpath(os.fspath(path)))):
        return loads(raw)


def loads(text: FileText) -> Graph:
    """Parse and validate file text (str or UTF-8 bytes) into a Graph."""
    with gc_paused():  # the parsed data and the document all stay alive: no collection walks them meanwhile
        return _build(_parse(text))


def _parse(text: FileText) -> Any:
    """JSON text (str or UTF-8 bytes) to data, or LoadError: bad encoding, empty, damaged, a key repeated in an
    object (``json_keys``: json would keep the last silently), an integer too long to read, too deep."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LoadError(f"not a text file: invalid UTF-8 at byte {exc.start}") from None
    text = text.removeprefix("\ufeff")  # a byte order mark some editors write
    if len(text) > MAX_CHARS:
        raise LoadError(f"file too large (more than {MAX_CHARS} characters)")
    if not text.strip():
        raise LoadError("empty file")
    try:
        data = json_keys.loads_unique(text)
    except (json_keys.DuplicateKey, json_keys.LongInteger) as exc:
        raise LoadError(str(exc)) from None
    except json.JSONDecodeError as exc:
        # NOTE: json's "Unterminated string starting at" ends in "at" itself: one "at" before the line
        raise LoadError(f"not valid JSON (truncated or damaged file?): {exc.msg.removesuffix(' at')} at line "
                        f"{exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise LoadError(f"JSON nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError as exc:  # e.g. an integer literal with more digits than Python converts
        raise LoadError(f"not valid JSON: {exc}") from None
    _check_depth(data)
    return data


def _check_depth(data: Any) -> None:
    """Nesting within ``MAX_DEPTH`` and every text (keys too) encodable as UTF-8, so what loads can be saved.

    JSON escapes can spell a lone surrogate (``"\\ud800"``) that Python reads but no UTF-8 file can hold.
    """
    _check_text(data, data)
    stack = [(data, 1)] if type(data) in (dict, list) else []
    while stack:  # only containers go on the stack: a long list of numbers is one tight loop
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise LoadError(f"JSON nested too deeply (at most {MAX_DEPTH} levels)")
        if type(value) is dict:
            for k in value:
                if not k.isascii():
                    _check_text(k, data)
            value = value.values()
        for v in value:
            t = type(v)
            if t is dict or t is list:
                stack.append((v, depth + 1))
            elif t is str and not v.isascii():
                _check_text(v, data)


def _check_text(value: object, data: Any) -> None:
    if isinstance(value, str) and not value.isascii() and not _is_utf8(value):
        raise LoadError(f"{_path_to(data, value)}: holds a lone surrogate ({_surrogate(value)}), which a "
                        "UTF-8 file can't hold")


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _surrogate(text: str) -> str:
    at = next(i for i, c in enumerate(text) if 0xD800 <= ord(c) <= 0xDFFF)
    return f"\\u{ord(text[at]):04x} at character {at + 1}"


def _path_to(data: Any, target: str) -> str:
    """The field path (``nodes[0].title``) of the text ``target`` in ``data`` (found only on a refusal)."""
    stack = [(data, "")]
    while stack:
        value, path = stack.pop()
        if value is target:
            return path or "the file"
        if isinstance(value, dict):
            for k, v in value.items():
                key = k[:100].encode("utf-8", "backslashreplace").decode("utf-8")
                where = f"{path}.{key}" if path else key
                if k is target:
                    return f"{where} (a key)"
                stack.append((v, where))
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
    return "the file"


def _check_header(data: Any) -> int:
    if not isinstance(data, dict):
        raise LoadError(f"the file must hold a JSON object, not {what(data)}")
    if data.get("format") != FORMAT:
        if "format" not in data:
            raise LoadError(f"format: missing field (not a {FORMAT} file?)")
        raise LoadError(f"format: expected {FORMAT!r}, got {str(data['format'])[:60]!r}")
    version = data.get("version")
    if "version" not in data:
        raise LoadError("version: missing field")
    if isinstance(version, bool) or not isinstance(version, int):
        raise LoadError(f"version: must be an integer, got {what(version)}")
    if version > migrations.CURRENT_VERSION:  # quoted short: a 4000-digit version is no message to show
        raise LoadError(f"version: file version {_spec.quote(version)} is newer than this app reads "
                        f"(up to {migrations.CURRENT_VERSION}); update Nodegrad")
    if version not in migrations.MIGRATIONS and version != migrations.CURRENT_VERSION:
        raise LoadError(f"version: unknown file version {_spec.quote(version)}")
    return version


def from_file_dict(data: Any) -> Graph:
    """Validate parsed file data (any JSON value), migrate it and build the Graph; LoadError if refused."""
    _check_depth(data)
    return _build(data)


def _register_node_types() -> None:
    import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types: known types never load as placeholders


def _build(data: Any) -> Graph:
    _register_node_types()
    version = _check_header(data)
    if version != migrations.CURRENT_VERSION:
        try:
            data = migrations.migrate(data)
        except migrations.MigrationError as exc:
            raise LoadError(f"(version {version} file) {exc}") from None
    data = migrations.migrate_nodes(data, {s.type_id: s.version for s in _spec._REGISTRY.values()})
    doc, file_types = schema.check_document(data)
    trained = doc.pop("trained", {})
    lesson = doc.pop("lesson", None)
    graph = Graph.from_dict(doc)
    graph.file_node_types = file_types
    graph.trained_values = trained
    graph.lesson = lesson
    return graph


# ----- fragments: the clipboard / paste format -----------------------------------------------------------
def fragment_of(graph: Graph, node_ids: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """The selected nodes and the edges among them: ``{"nodes", "edges"}`` (what Copy puts on the clipboard)."""
    selected = set(node_ids)
    return {"nodes": [n.to_dict() for n in graph.nodes.values() if n.id in selected],
            "edges": [e.to_dict() for e in graph.edges if e.src in selected and e.dst in selected]}


def dumps_fragment(graph: Graph, node_ids: Iterable[str]) -> str:
    """Clipboard text of a selection (large tensors encoded as in files)."""
    frag = fragment_of(graph, node_ids)
    return _format({"format": FORMAT + "-fragment", "version": migrations.CURRENT_VERSION,
                    "nodes": _encode_nodes(frag["nodes"]), "edges": frag["edges"]}) + "\n"


def loads_fragment(text: FileText) -> dict[str, list[Any]]:
    """Validate clipboard text (untrusted, like a file) into a fragment dict for ``commands.Paste``.

    Accepts what ``dumps_fragment`` writes, or a bare ``{"nodes", "edges"}`` object (plus the optional
    ``inputs``: names of an expression's free variables). LoadError names the field, as for files.
    """
    data = _parse(text)
    if not isinstance(data, dict):
        raise LoadError(f"a fragment must be a JSON object, not {what(data)}")
    if data.get("version", migrations.CURRENT_VERSION) not in migrations.SAME_FRAGMENTS:
        raise LoadError(f"version: fragments of version {str(data.get('version'))[:20]} can't be pasted")
    _register_node_types()  # a pasted node of a built-in type is checked as such, never kept as a placeholder
    nodes, edges = schema.check_fragment(data)
    out: dict[str, list[Any]] = {"nodes": nodes, "edges": edges}
    if "inputs" in data:
        out["inputs"] = schema.check_names(data["inputs"], "inputs")
    return out
