"""The graph file schema, checked field by field on current-version data (after migrations).

Each check raises ``LoadError`` with the field path (``nodes[3].params``, ``edges[0].to``,
``nodes[2].graph.inputs[0].to[1]``) and the reason, so a bad file gets one clear message. The checks
return normalised plain data (validated parameter values, float positions) ready for
``Graph.from_dict``. Unknown fields of a node are kept (placeholders keep their data); unknown
top-level fields are ignored.
"""

from __future__ import annotations

import base64
import io
import math
import re
from typing import Any, NoReturn

import numpy as np

from core.nodegraph.model import spec as _spec
from core.nodegraph.model import tensor_store, training_settings
from core.nodegraph.model.document import SUBGRAPH_TYPE, Comment, Node
from core.nodegraph.model.document_items import MAX_COORD

__all__ = ["LESSON_ID", "LoadError", "MAX_DEPTH", "MAX_SUBGRAPH_DEPTH", "SESSION_KEY", "check_document",
           "check_fragment", "check_lesson_id", "check_names", "decode_npy", "decode_tensor", "what"]

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


# ----- nodes and edges --------------------------------------------------------------------------------
def _params(spec: _spec.NodeSpec, params: dict[str, Any], path: str) -> dict[str, Any]:
    kinds = {p.name: p.kind for p in spec.params}
    params = {k: _param_tensor(v, f"{path}.{k}") if kinds.get(k) == "tensor" and isinstance(v, dict) else v
              for k, v in params.items()}
    try:
        checked = spec.validate_params(params)
    except _spec.ParamError as exc:
        _fail(path, str(exc))
    return {k: tensor_store.frozen(v) if kinds.get(k) == "tensor" else v for k, v in checked.items()}


def _param_tensor(value: dict[str, Any], path: str) -> tensor_store.TensorValue:
    """A tensor parameter written as an object: a stored tensor. Any other object is refused naming every form the
    parameter takes (a lesson's file writes ``"tensor": [2.0, 3.0]``: a hand edit that broke it must not read as
    if only the base64 form were allowed)."""
    if not tensor_store.is_reference(value) and list(value) != ["npy_base64"]:
        keys = ", ".join(_spec.quote(k, 40) for k in list(value)[:4]) or "none"
        _fail(path, 'must be a number, a rectangular list of numbers or a stored tensor {"npy_base64": "..."}, '
                    f"got an object with keys {keys}")
    return decode_tensor(value, path)


def _check_node(nd: object, path: str, level: int) -> dict[str, Any]:
    node = _obj(nd, path)
    out = dict(node)
    out["id"] = _id(_required(node, "id", path + "."), f"{path}.id")
    out["type"] = _id(_required(node, "type", path + "."), f"{path}.type")
    out["params"] = dict(_obj(node.get("params", {}), f"{path}.params"))
    out["position"] = _coords(node.get("position", [0.0, 0.0]), 2, f"{path}.position")
    out["title"] = _opt_str(node.get("title"), f"{path}.title", max_len=1000)
    out["color"] = _opt_str(node.get("color"), f"{path}.color", max_len=100)
    spec = _spec._REGISTRY.get(out["type"])
    if node.get("graph") is not None:
        if spec is not None and out["type"] != SUBGRAPH_TYPE:
            _fail(f"{path}.graph", f"only {SUBGRAPH_TYPE} nodes carry an inner graph, not {out['type']}")
        out["graph"] = _check_inner(node["graph"], f"{path}.graph", level + 1)
    elif out["type"] == SUBGRAPH_TYPE:
        _fail(f"{path}.graph", "missing field (a subgraph node carries its inner graph)")
    if spec is not None:
        out["params"] = _params(spec, out["params"], f"{path}.params")
    return Node.from_dict(out).to_dict()


def _check_ports(node: Node, port: str, output: bool, path: str) -> None:
    if node.spec is None and node.graph is None:
        return  # a placeholder: its ports are unknown, its edges are kept
    names = node.output_names() if output else node.input_names()
    if port not in names:
        _fail(path, f"node '{node.id}' ({node.type}) has no {'output' if output else 'input'} '{port}'")


def _check_edges(raw: list[Any], objs: dict[str, Node], path: str) -> list[dict[str, list[str]]]:
    edges: list[dict[str, list[str]]] = []
    into: dict[tuple[str, ...], int] = {}
    for i, ed in enumerate(raw):
        p = f"{path}edges[{i}]"
        edge = _obj(ed, p)
        src = _pair(_required(edge, "from", p + "."), f"{p}.from")
        dst = _pair(_required(edge, "to", p + "."), f"{p}.to")
        for end, output, where in ((src, True, "from"), (dst, False, "to")):
            if end[0] not in objs:
                _fail(f"{p}.{where}", f"dangling edge: no node '{end[0]}'")
            _check_ports(objs[end[0]], end[1], output, f"{p}.{where}")
        key = tuple(dst)
        if key in into:
            _fail(f"{p}.to", f"input {dst[0]}.{dst[1]} already has an edge ({path}edges[{into[key]}])")
        into[key] = i
        edges.append({"from": src, "to": dst})
    _check_acyclic(list(objs), edges, path)
    return edges


def _check_acyclic(ids: list[str], edges: list[dict[str, list[str]]], path: str) -> None:
    """Kahn's algorithm; on a cycle, name one edge whose both ends are left on it."""
    indeg = dict.fromkeys(ids, 0)
    out: dict[str, list[str]] = {}
    for e in edges:
        indeg[e["to"][0]] += 1
        out.setdefault(e["from"][0], []).append(e["to"][0])
    ready = [n for n, d in indeg.items() if d == 0]
    while ready:
        for m in out.get(ready.pop(), ()):
            indeg[m] -= 1
            if indeg[m] == 0:
                ready.append(m)
    left = {n for n, d in indeg.items() if d > 0}
    for i, e in enumerate(edges):
        if e["from"][0] in left and e["to"][0] in left:
            (s, sp), (d, dp) = e["from"], e["to"]
            _fail(f"{path}edges[{i}]", f"edge {s}.{sp} -> {d}.{dp} is part of a cycle")


def _check_graph(d: dict[str, Any], path: str, level: int) -> tuple[list[dict[str, Any]], list[dict[str, list[str]]]]:
    """``(nodes, edges)`` of a document or an inner graph, checked and normalised."""
    nodes: list[dict[str, Any]] = []
    ids: dict[str, int] = {}
    for i, nd in enumerate(_list(_required(d, "nodes", path), f"{path}nodes")):
        node = _check_node(nd, f"{path}nodes[{i}]", level)
        if node["id"] in ids:
            _fail(f"{path}nodes[{i}].id", f"duplicate id '{node['id']}' (also {path}nodes[{ids[node['id']]}])")
        ids[node["id"]] = i
        nodes.append(node)
    objs = {n["id"]: Node.from_dict(n) for n in nodes}
    edges = _check_edges(_list(_required(d, "edges", path), f"{path}edges"), objs, path)
    return nodes, edges


def _check_inner(raw: object, path: str, level: int) -> dict[str, Any]:
    """A subgraph's inner graph: nodes, edges, and the ports that lead in and out."""
    if level > MAX_SUBGRAPH_DEPTH:
        _fail(path, f"subgraphs nested deeper than {MAX_SUBGRAPH_DEPTH} levels")
    g = _obj(raw, path)
    nodes, edges = _check_graph(g, path + ".", level)
    objs = {n["id"]: Node.from_dict(n) for n in nodes}
    taken = {tuple(e["to"]) for e in edges}
    inputs: list[dict[str, Any]] = []
    names: set[str] = set()
    for i, port in enumerate(_list(g.get("inputs", []), f"{path}.inputs")):
        p = f"{path}.inputs[{i}]"
        name, kind = _port_head(port, p, names)
        targets = []
        for j, raw_target in enumerate(_list(_required(port, "to", p + "."), f"{p}.to")):
            t = _pair(raw_target, f"{p}.to[{j}]")
            if t[0] not in objs:
                _fail(f"{p}.to[{j}]", f"no inner node '{t[0]}'")
            _check_ports(objs[t[0]], t[1], False, f"{p}.to[{j}]")
            if tuple(t) in taken:
                _fail(f"{p}.to[{j}]", f"input {t[0]}.{t[1]} already has an edge")
            taken.add(tuple(t))
            targets.append(t)
        inputs.append({"name": name, "kind": kind, "to": targets})
    outputs: list[dict[str, Any]] = []
    names = set()
    for i, port in enumerate(_list(g.get("outputs", []), f"{path}.outputs")):
        p = f"{path}.outputs[{i}]"
        name, kind = _port_head(port, p, names)
        src = _pair(_required(port, "from", p + "."), f"{p}.from")
        if src[0] not in objs:
            _fail(f"{p}.from", f"no inner node '{src[0]}'")
        _check_ports(objs[src[0]], src[1], True, f"{p}.from")
        outputs.append({"name": name, "kind": kind, "from": src})
    return {"nodes": nodes, "edges": edges, "inputs": inputs, "outputs": outputs}


def _port_head(raw: object, path: str, names: set[str]) -> tuple[str, str]:
    port = _obj(raw, path)
    name = _id(_required(port, "name", path + "."), f"{path}.name")
    if name in names:
        _fail(f"{path}.name", f"duplicate port name '{name}'")
    names.add(name)
    kind = _str(port.get("kind", "any"), f"{path}.kind")
    if kind not in _spec.PORT_KINDS:
        _fail(f"{path}.kind", f"unknown port kind '{kind[:40]}' (one of {', '.join(_spec.PORT_KINDS)})")
    return name, kind


# ----- comments, training, view, the whole document --------------------------------------------------
def _check_comments(raw: object, ids: set[str]) -> list[dict[str, Any]]:
    out = []
    for i, c in enumerate(_list(raw, "comments")):
        p = f"comments[{i}]"
        c = _obj(c, p)
        cid = _id(_required(c, "id", p + "."), f"{p}.id")
        if cid in ids:
            _fail(f"{p}.id", f"duplicate id '{cid}'")
        ids.add(cid)
        text = _str(c.get("text", ""), f"{p}.text")
        rect = _coords(c.get("rect", [0.0, 0.0, 200.0, 100.0]), 4, f"{p}.rect")
        members = [_id(n, f"{p}.nodes[{j}]") for j, n in enumerate(_list(c.get("nodes", []), f"{p}.nodes"))]
        for j, n in enumerate(members):
            if n not in ids:
                _fail(f"{p}.nodes[{j}]", f"no node '{n}'")
        out.append(Comment(cid, text, tuple(rect), members).to_dict())
    return out


def _check_training(raw: object) -> dict[str, Any]:
    """Every training setting, checked against what the Train dock shows and the training loop runs
    (``core.nodegraph.model.training_settings``); a loss naming no node (its node was deleted) is kept: validation
    reports it."""
    try:
        return training_settings.check(raw)
    except training_settings.SettingError as exc:
        raise LoadError(str(exc)) from None


def _check_view(raw: object) -> dict[str, Any]:
    v = dict(_obj(raw, "view"))
    if "zoom" in v and _num(v["zoom"], "view.zoom") <= 0:
        _fail("view.zoom", "must be positive")
    if "center" in v:
        v["center"] = _coords(v["center"], 2, "view.center")
    return v


MAX_CODE = 1_000_000  # characters of an imported snippet kept in a file


def _check_code(raw: object, ids: set[str]) -> dict[str, Any]:
    """An imported snippet (``core.nodegraph.files.code_import``): its text is kept as text and never run on load."""
    c = _obj(raw, "code")
    lines = _obj(c.get("lines", {}), "code.lines")
    for nid, line in lines.items():
        _int(line, f"code.lines.{_spec.quote(nid, 40)}", 1, 10_000_000)
    notes = [_str(n, f"code.notes[{i}]", max_len=2000) for i, n in enumerate(_list(c.get("notes", []), "code.notes"))]
    return {"text": _str(c.get("text", ""), "code.text", max_len=MAX_CODE),
            "name": _str(c.get("name", "snippet.py"), "code.name", max_len=1000),
            "lines": {k: v for k, v in lines.items() if k in ids}, "notes": notes}


def check_lesson_id(raw: object, path: str) -> str:
    """A lesson id: the name of a bundled lesson's files without folder or extension (``04-autograd-graph``),
    never a path, so a file can't point the app at another file. Whether such a lesson exists is the app's
    question (an unknown one opens without its lesson), not the schema's."""
    text = _str(raw, path, max_len=MAX_ID)
    if not LESSON_ID.fullmatch(text):
        _fail(path, f"must be a lesson id such as '04-autograd-graph' (letters, digits, '-' and '_'), "
                    f"got {_spec.quote(text, 60)}")
    return text


def _check_node_types(raw: object) -> dict[str, int]:
    types = _obj(raw, "node_types")
    for name, version in types.items():
        _int(version, f"node_types.{name[:MAX_ID]}", 1)
        s = _spec._REGISTRY.get(name)
        if s is not None and version > s.version:
            _fail(f"node_types.{name}", f"the file uses version {version} of this node type; this app has "
                                        f"version {s.version} (update Nodegrad)")
    return {k: v for k, v in types.items() if k not in _spec._REGISTRY}


def check_document(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """``(document dict for Graph.from_dict, versions of the unknown node types)``; LoadError if refused."""
    _str(data.get("app_version", ""), "app_version", max_len=100)
    file_types = _check_node_types(data.get("node_types", {}))
    nodes, edges = _check_graph(data, "", 0)
    ids = {n["id"] for n in nodes}
    doc = {"nodes": nodes, "edges": edges, "comments": _check_comments(data.get("comments", []), set(ids)),
           "training": _check_training(data.get("training", {})),
           "view": _check_view(data.get("view", {}))}
    if data.get("code") is not None:
        doc["code"] = _check_code(data["code"], ids)
    if data.get("lesson") is not None:
        doc["lesson"] = check_lesson_id(data["lesson"], "lesson")
    if data.get("trained") is not None:
        doc["trained"] = check_trained(data["trained"], ids)
    return doc, file_types


def _trained_array(v: object, path: str) -> np.ndarray:
    """One saved parameter: a list of numbers (any nesting, rectangular) or a stored tensor, as a float array."""
    if isinstance(v, dict):
        arr = decode_tensor(v, path).array
    elif isinstance(v, (list, int, float)) and not isinstance(v, bool):
        try:
            arr = np.asarray(v, dtype=np.float64)
        except (TypeError, ValueError):
            _fail(path, "must be a rectangular list of numbers")
    else:
        _fail(path, f"must be a list of numbers or a stored tensor, got {what(v)}")
    if arr.dtype.kind != "f" or arr.size > _spec.MAX_NUMEL:
        _fail(path, f"must hold at most {_spec.MAX_NUMEL} floating-point numbers")
    return arr


def check_trained(raw: object, ids: set[str]) -> dict[str, dict[str, Any]]:
    """The ``trained`` section: ``{node id: {parameter name: values}}``, the parameter values a session had when
    the file was saved (a node the file lacks is refused, as a dangling edge is)."""
    out: dict[str, dict[str, Any]] = {}
    for nid, params in _obj(raw, "trained").items():
        if nid == SESSION_KEY and nid not in ids:
            out[nid] = check_session_state(params, f"trained.{SESSION_KEY}", ids)
            continue
        if nid not in ids:
            _fail(f"trained.{nid[:60]}", "no node has this id")
        out[nid] = {_str(name, f"trained.{nid}", max_len=200): _trained_array(v, f"trained.{nid}.{name}")
                    for name, v in _obj(params, f"trained.{nid}").items()}
    return out


def _stored(v: object, path: str) -> np.ndarray:
    """A stored tensor (``{"npy_base64"}`` or a sidecar reference) as its array, dtype and all."""
    return decode_tensor(_obj(v, path), path).array


def _setting(v: object, path: str) -> Any:
    """An optimizer's or schedule's setting: a number, boolean, text, null or a list of them."""
    if isinstance(v, list):
        if len(v) > MAX_SETTING_LIST:
            _fail(path, f"longer than {MAX_SETTING_LIST} items")
        if any(isinstance(x, (list, dict)) for x in v):
            _fail(path, "must be a flat list")
        return [_setting(x, f"{path}[{i}]") for i, x in enumerate(v)]
    if v is None or isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, str):
        return _str(v, path, max_len=200)
    _fail(path, f"must be a number, boolean, text, null or a list of them, got {what(v)}")


def _check_optimizer_state(raw: object, path: str) -> dict[str, Any]:
    """An optimizer's ``state_dict()`` with its parameters named (``"node.name"``) instead of numbered."""
    obj = _obj(raw, path)
    groups = []
    for i, g in enumerate(_list(_required(obj, "param_groups", f"{path}."), f"{path}.param_groups")):
        gpath = f"{path}.param_groups[{i}]"
        g = _obj(g, gpath)
        groups.append({k: [_str(n, f"{gpath}.params", max_len=MAX_ID * 2) for n in _list(v, f"{gpath}.params")]
                       if k == "params" else _setting(v, f"{gpath}.{k}") for k, v in g.items()})
    state: dict[str, dict[str, Any]] = {}
    for name, entries in _obj(obj.get("state", {}), f"{path}.state").items():
        epath = f"{path}.state.{name[:60]}"
        state[name] = {k: _stored(v, f"{epath}.{k}") if isinstance(v, dict) else _setting(v, f"{epath}.{k}")
                       for k, v in _obj(entries, epath).items()}
    out = {"type": _str(_required(obj, "type", f"{path}."), f"{path}.type", max_len=100), "param_groups": groups,
           "state": state}
    if obj.get("schedule") is not None:
        out["schedule"] = {k: _setting(v, f"{path}.schedule.{k}")
                           for k, v in _obj(obj["schedule"], f"{path}.schedule").items()}
    return out


def check_session_state(raw: object, path: str, ids: set[str]) -> dict[str, Any]:
    """Where training stood when the file was saved (``core.nodegraph.run.training_state``): ``step`` (the step
    count), ``generator`` (the session generator's state), ``optimizer`` (``_check_optimizer_state``) and
    ``buffers`` (``{node id: {port: stored tensor}}``, running statistics a training step updated in place) and
    ``history`` (``{"runs": [_check_run...]}``, what the plots drew; files saved before it have none) and ``watch``
    (``{"node.port": _check_watched...}``, the Watch dock's recorded points)."""
    obj = _obj(raw, path)
    out: dict[str, Any] = {}
    if obj.get("step") is not None:
        out["step"] = _int(obj["step"], f"{path}.step")
    if obj.get("generator") is not None:
        out["generator"] = _stored(obj["generator"], f"{path}.generator")
        if out["generator"].dtype != np.uint8 or out["generator"].ndim != 1:
            _fail(f"{path}.generator", "must be a 1-d uint8 tensor")
    if obj.get("optimizer") is not None:
        out["optimizer"] = _check_optimizer_state(obj["optimizer"], f"{path}.optimizer")
    if obj.get("buffers") is not None:
        buffers: dict[str, dict[str, np.ndarray]] = {}
        for nid, ports in _obj(obj["buffers"], f"{path}.buffers").items():
            if nid not in ids:
                _fail(f"{path}.buffers.{nid[:60]}", "no node has this id")
            buffers[nid] = {_str(port, f"{path}.buffers.{nid}", max_len=200): _stored(v, f"{path}.buffers.{nid}.{port}")
                            for port, v in _obj(ports, f"{path}.buffers.{nid}").items()}
        out["buffers"] = buffers
    if obj.get("watch") is not None:
        out["watch"] = {_str(key, f"{path}.watch", max_len=400): _check_watched(v, f"{path}.watch.{key[:60]}")
                        for key, v in _obj(obj["watch"], f"{path}.watch").items()}
    if obj.get("history") is not None:
        out["history"] = {"runs": [_check_run(run, f"{path}.history.runs[{i}]") for i, run in
                                   enumerate(_list(_obj(obj["history"], f"{path}.history").get("runs", []),
                                                   f"{path}.history.runs"))]}
    return out


def _check_watched(raw: object, path: str) -> dict[str, Any]:
    """A watched port's recorded points (``core.nodegraph.training.watch.WatchList.state``): ``points`` (n, 3) of
    step, value and gradient, the ``stride`` they are kept apart, the two ``kinds`` of number."""
    obj = _obj(raw, path)
    points = _stored(_required(obj, "points", f"{path}."), f"{path}.points")
    if points.ndim != 2 or points.shape[1] != 3 or points.dtype.kind not in "iuf":
        _fail(f"{path}.points", "must be an (n, 3) tensor of numbers")
    kinds = _two(obj.get("kinds", ["", ""]), f"{path}.kinds", "value kind, gradient kind")
    return {"points": points.astype(np.float64), "stride": _int(obj.get("stride", 1), f"{path}.stride", lo=1),
            "kinds": [_str(k, f"{path}.kinds", max_len=20) for k in kinds]}


def _series(v: object, path: str, n: int | None = None) -> np.ndarray:
    """A stored 1-d series of numbers (``n`` of them where given), as float64."""
    arr = _stored(v, path)
    if arr.ndim != 1 or arr.dtype.kind not in "iuf" or (n is not None and len(arr) != n):
        _fail(path, "must be a 1-d tensor of numbers" + (f", {n} long" if n is not None else ""))
    return arr.astype(np.float64)


def _check_run(raw: object, path: str) -> dict[str, Any]:
    """One plotted training run (``core.nodegraph.training.runs.Run.state``): its step axis, series as long as it,
    the sparse validation series as (rows, values), markers ``[step, text]`` and optimizers ``[rows, settings]``."""
    obj = _obj(raw, path)
    steps = _series(_required(obj, "steps", f"{path}."), f"{path}.steps")
    n = len(steps)
    series = {_str(name, f"{path}.series", max_len=200): _series(v, f"{path}.series.{name[:60]}", n)
              for name, v in _obj(obj.get("series", {}), f"{path}.series").items()}
    val: dict[str, list[np.ndarray]] = {}
    for name, pair in _obj(obj.get("val", {}), f"{path}.val").items():
        vpath = f"{path}.val.{name[:60]}"
        items = _two(pair, vpath, "rows, values")
        rows = _series(items[0], f"{vpath}[0]")
        if len(rows) and (rows.min() < 0 or rows.max() >= n or np.any(rows != np.round(rows))):
            _fail(f"{vpath}[0]", f"rows must be whole numbers below {n}")
        val[_str(name, f"{path}.val", max_len=200)] = [rows, _series(items[1], f"{vpath}[1]", len(rows))]
    markers = []
    for i, m in enumerate(_list(obj.get("markers", []), f"{path}.markers")):
        mpath = f"{path}.markers[{i}]"
        m = _two(m, mpath, "step, text")
        markers.append([_int(m[0], f"{mpath}[0]"), _str(m[1], f"{mpath}[1]", max_len=1000)])
    optimizers = []
    for i, o in enumerate(_list(obj.get("optimizers", []), f"{path}.optimizers")):
        opath = f"{path}.optimizers[{i}]"
        o = _two(o, opath, "rows, settings")
        settings = _obj(o[1], f"{opath}[1]")
        kept: dict[str, Any] = {}
        if settings.get("optimizer") is not None:
            kept["optimizer"] = _str(settings["optimizer"], f"{opath}[1].optimizer", max_len=100)
        if settings.get("optimizer_params") is not None:
            kept["optimizer_params"] = {k: _setting(v, f"{opath}[1].optimizer_params.{k[:60]}")
                                        for k, v in _obj(settings["optimizer_params"],
                                                         f"{opath}[1].optimizer_params").items()}
        optimizers.append([_int(o[0], f"{opath}[0]", hi=n + 1), kept])
    return {"number": _int(_required(obj, "number", f"{path}."), f"{path}.number", lo=1), "steps": steps,
            "series": series, "val": val, "markers": markers, "optimizers": optimizers}


def check_fragment(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, list[str]]]]:
    """``(nodes, edges)`` of a clipboard fragment, checked like a document's."""
    return _check_graph(data, "", 0)


def check_names(raw: object, path: str) -> list[str]:
    return [_id(v, f"{path}[{i}]") for i, v in enumerate(_list(raw, path))]
