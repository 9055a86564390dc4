"""Ordered ``from -> to`` migrations of graph files, on plain dicts (never regexes on text).

Format history (``version`` in the file header):

- **1** (0.0.x): edges were strings ``"n1.out -> n2.a"``; positions were objects ``{"x": 10, "y": 20}``
  (nodes and inner nodes of subgraphs alike). Everything else as in version 2. Early files that already
  used the version 2 shapes under version 1 (the first format brief's example) pass through unchanged.
- **2**: edges are ``{"from": [node, port], "to": [node, port]}``; positions ``[x, y]``.
- **3**: a tensor literal may also be a reference to an entry of a ``.npz`` sidecar beside the file
  (``{"npz", "key", "dtype", "shape"}``, see ``core.nodegraph.model.tensor_store``). A version 2 file is a valid
  version 3 file, so ``v2_to_v3`` only sets the version; an older app refuses version 3 files instead of
  meeting a sidecar reference it can't read. A version 3 file may also hold a ``trained`` section (the parameter
  values of a session that trained, added without a version change): an app from before it ignores the section
  and opens the untrained recipe, as it always did. Likewise ``lesson`` (the id of the bundled lesson a document
  belongs to, so a copy of an example saved elsewhere reopens with its lesson): an app from before it ignores it
  (unknown top-level fields are ignored) and opens the graph without the lesson.
- **4** (current): ``training`` has no ``batch_size``: the rows a step draws are the dataset node's own
  ``batch_size`` (``core.nodegraph.model.batch_size``), the one value runs read. ``v3_to_v4`` puts an older file's
  ``training.batch_size`` (what the Train dock showed and edited then, unread by any run) on its ``data.dataset``
  nodes, so the batch size the learner chose is the one that runs, and drops the key (a file without a dataset
  node just loses it). The app's default, ``OLD_DEFAULT_BATCH_SIZE``, is left off the nodes: every older file
  carries it whether or not anyone chose it, and a node's own size (set in the Inspector, the one that ran) stays.

Node types have versions too (``node_types`` in the header, ``NodeSpec.version``): when a node type
changes its parameters, it registers ``register_node_migration(type_id, v, fn)`` (``fn(node_dict) ->
node_dict`` for ``v -> v + 1``), and ``migrate_nodes`` brings every node of an older type version
up to date (inner nodes of subgraphs too) before the parameters are validated.

``migrate(data)`` applies ``MIGRATIONS[v]`` (``v -> v + 1``) until the data is current. A migration
runs BEFORE schema validation, so it checks the shapes it relies on and raises ``MigrationError``
(naming the field) on what it can't read; the loader turns that into its one clear ``LoadError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.nodegraph.model.batch_size import DATASET_TYPE
from core.nodegraph.model.spec import NODE_MIGRATIONS, register_node_migration
from core.nodegraph.model.training_settings import SettingError, check_value

__all__ = ["CURRENT_VERSION", "MIGRATIONS", "NODE_MIGRATIONS", "SAME_FRAGMENTS", "MigrationError", "migrate",
           "migrate_nodes", "register_node_migration"]

CURRENT_VERSION = 4
SAME_FRAGMENTS = (2, 3, 4)  # clipboard fragments of these versions paste as they are (nothing to migrate)
OLD_DEFAULT_BATCH_SIZE = 32  # training.batch_size of every document up to version 3 that never edited it

FileData = dict[str, Any]  # a file's JSON object (or a subgraph's), before schema validation


class MigrationError(ValueError):
    """An old file that a migration can't read; the message names the field."""


def _edge_v1(text: object, path: str) -> dict[str, Any]:
    if isinstance(text, dict):  # already the version 2 shape (files written from the early format brief)
        return text
    if not isinstance(text, str):
        raise MigrationError(f"{path}: a version 1 edge must be a string like 'n1.out -> n2.a'")
    parts = [p.strip() for p in text.split("->")]
    ends = [p.rsplit(".", 1) for p in parts]
    if len(parts) != 2 or any(len(e) != 2 or not all(e) for e in ends):
        raise MigrationError(f"{path}: can't read edge {text[:80]!r} (expected 'node.port -> node.port')")
    return {"from": ends[0], "to": ends[1]}


def _position_v1(pos: object, path: str) -> list[Any]:
    if isinstance(pos, dict):
        return [pos.get("x", 0.0), pos.get("y", 0.0)]
    if isinstance(pos, list):  # already the version 2 shape
        return pos
    raise MigrationError(f"{path}: a version 1 position must be an object {{\"x\": .., \"y\": ..}}")


def _graph_v1_to_v2(data: FileData, path: str, depth: int = 0) -> FileData:
    if depth > 32:
        raise MigrationError(f"{path}: subgraphs nested deeper than 32 levels")
    out = dict(data)
    nodes = data.get("nodes", [])
    if not isinstance(nodes, list):
        raise MigrationError(f"{path}nodes: must be a list")
    out["nodes"] = []
    for i, nd in enumerate(nodes):
        if isinstance(nd, dict):
            nd = dict(nd)
            if "position" in nd:
                nd["position"] = _position_v1(nd["position"], f"{path}nodes[{i}].position")
            if isinstance(nd.get("graph"), dict):
                nd["graph"] = _graph_v1_to_v2(nd["graph"], f"{path}nodes[{i}].graph.", depth + 1)
        out["nodes"].append(nd)
    edges = data.get("edges", [])
    if not isinstance(edges, list):
        raise MigrationError(f"{path}edges: must be a list")
    out["edges"] = [_edge_v1(e, f"{path}edges[{i}]") for i, e in enumerate(edges)]
    return out


def v1_to_v2(data: FileData) -> FileData:
    """Edges from ``"a.out -> b.x"`` strings to from/to pairs; positions from ``{x, y}`` to ``[x, y]``."""
    out = _graph_v1_to_v2(data, "")
    out["version"] = 2
    return out


def v2_to_v3(data: FileData) -> FileData:
    """Nothing to change: version 3 only adds sidecar references for large tensors."""
    return {**data, "version": 3}


def v3_to_v4(data: FileData) -> FileData:
    """``training.batch_size`` moved onto the file's ``data.dataset`` nodes (their ``params.batch_size``) unless it
    is the old default, and dropped from ``training``; a value the Train dock would refuse is refused, naming the
    field."""
    out = {**data, "version": 4}
    training = data.get("training")
    if not isinstance(training, dict) or "batch_size" not in training:
        return out
    size = training["batch_size"]
    try:
        check_value("batch_size", size, "training.batch_size")
    except SettingError as exc:
        raise MigrationError(str(exc)) from None
    out["training"] = {k: v for k, v in training.items() if k != "batch_size"}
    nodes = data.get("nodes")
    if isinstance(nodes, list) and size != OLD_DEFAULT_BATCH_SIZE:
        out["nodes"] = [{**nd, "params": {**nd["params"], "batch_size": size}} if _is_dataset(nd) else nd
                        for nd in nodes]
    return out


def _is_dataset(nd: object) -> bool:
    return isinstance(nd, dict) and nd.get("type") == DATASET_TYPE and isinstance(nd.get("params"), dict)


MIGRATIONS: dict[int, Callable[[FileData], FileData]] = {1: v1_to_v2, 2: v2_to_v3, 3: v3_to_v4}


def migrate(data: FileData) -> FileData:
    """``data`` brought to ``CURRENT_VERSION`` through every migration from its version on."""
    version = data["version"]
    while version < CURRENT_VERSION:
        data = MIGRATIONS[version](data)
        version = data["version"]
    return data




def migrate_nodes(data: FileData, current_versions: dict[str, int]) -> FileData:
    """Nodes of older node-type versions (per the header's ``node_types``) brought to ``current_versions``.

    Runs before schema validation, on data whose shapes are not checked yet: whatever is not a list of
    node objects is left for the schema to report. A type with no migration step is left as it is.
    """
    saved = data.get("node_types")
    if not isinstance(saved, dict):
        return data
    todo = {t: v for t, v in saved.items() if isinstance(v, int) and t in current_versions
            and v < current_versions[t] and any(k[0] == t for k in NODE_MIGRATIONS)}
    if not todo:
        return data
    return {**data, "nodes": _migrate_node_list(data.get("nodes"), todo, current_versions, 0)}


def _migrate_node_list(nodes: Any, todo: dict[str, int], current: dict[str, int], depth: int) -> Any:
    """``nodes`` with each node migrated (``nodes`` itself when it is not a list: the schema reports it)."""
    if not isinstance(nodes, list) or depth > 32:
        return nodes
    out = []
    for nd in nodes:
        if isinstance(nd, dict) and nd.get("type") in todo:
            version = todo[nd["type"]]
            while version < current[nd["type"]] and (nd["type"], version) in NODE_MIGRATIONS:
                nd = NODE_MIGRATIONS[(nd["type"], version)](dict(nd))
                version += 1
        if isinstance(nd, dict) and isinstance(nd.get("graph"), dict):
            inner = nd["graph"]
            nd = {**nd, "graph": {**inner, "nodes": _migrate_node_list(inner.get("nodes"), todo, current, depth + 1)}}
        out.append(nd)
    return out
