"""The graph file schema, checked field by field on current-version data (after migrations).

Each check raises ``LoadError`` with the field path (``nodes[3].params``, ``edges[0].to``,
``nodes[2].graph.inputs[0].to[1]``) and the reason, so a bad file gets one clear message. The checks
return normalised plain data (validated parameter values, float positions) ready for
``Graph.from_dict``. Unknown fields of a node are kept (placeholders keep their data); unknown
top-level fields are ignored.

The limits, ``LoadError`` and the one-field checks are ``files.schema_fields``'; the ``trained`` section's checks
are ``files.schema_trained``'s (``check_document`` calls ``check_trained``).
"""

from __future__ import annotations

from typing import Any

from core.nodegraph.files.schema_fields import (
    LESSON_ID,
    MAX_DEPTH,
    MAX_ID,
    MAX_SUBGRAPH_DEPTH,
    SESSION_KEY,
    LoadError,
    _coords,
    _fail,
    _id,
    _int,
    _list,
    _num,
    _obj,
    _opt_str,
    _pair,
    _required,
    _str,
    decode_npy,
    decode_tensor,
    what,
)
from core.nodegraph.files.schema_trained import check_session_state, check_trained
from core.nodegraph.model import spec as _spec
from core.nodegraph.model import tensor_store, training_settings
from core.nodegraph.model.document import SUBGRAPH_TYPE, Comment, Node

# the field checks (files.schema_fields) and the trained section's (files.schema_trained) are re-exported: callers
# found them here before the split
__all__ = ["LESSON_ID", "LoadError", "MAX_DEPTH", "MAX_SUBGRAPH_DEPTH", "SESSION_KEY", "check_document",
           "check_fragment", "check_lesson_id", "check_names", "check_session_state", "check_trained", "decode_npy",
           "decode_tensor", "what"]


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
def _check_comments(raw: object, nodes: set[str]) -> list[dict[str, Any]]:
    """Comments and groups; a group carries nodes only (``Graph.add_comment`` refuses any other member, so a group
    that named itself or another group loaded and then broke the undo of its deletion)."""
    out = []
    ids = set(nodes)
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
            if n == cid:
                _fail(f"{p}.nodes[{j}]", f"a group can't hold itself ('{n}'): a group holds nodes")
            if n in ids and n not in nodes:
                _fail(f"{p}.nodes[{j}]", f"'{n}' is a group, not a node: a group holds nodes, not other groups")
            if n not in nodes:
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


def check_fragment(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, list[str]]]]:
    """``(nodes, edges)`` of a clipboard fragment, checked like a document's."""
    return _check_graph(data, "", 0)


def check_names(raw: object, path: str) -> list[str]:
    return [_id(v, f"{path}[{i}]") for i, v in enumerate(_list(raw, path))]
