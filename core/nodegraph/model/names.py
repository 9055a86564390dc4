"""What a learner reads for a node or a port: the node's title as the canvas draws it, never its internal id.

Ids (``n1``, ``n3.out``) are the document's stable references; messages, narration and labels say ``x``,
``x.grad``, ``mlp.0.weight``. ``node_label`` is the title (else the node type's title, else the type id);
``key_label`` turns a ``"node.port"`` or ``"node.param.name"`` key into the node's label followed by the port,
leaving out the usual ``out`` port (``"n1.out"`` -> ``"x"``); ``parameter_labels`` names trainable tensors
(``"n9.w_cut"`` -> ``"w_cut"``: a node's title alone where it owns one of them, ``mlp.0.weight`` where it owns
several); a collapsed block's inner node reads by its title too (``block.model.weight``, not ``block.n4.weight``:
``port_label``); ``free_label`` is the first of ``randn``,
``randn_2``, ``randn_3``... that no node reads yet (a node added beside another of its type). An id the graph does
not hold is returned as it is, and so is every id when there is no graph (a watch list not attached to a document).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from core.nodegraph.model.spec import get_spec, has_spec

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph

__all__ = ["node_label", "key_label", "port_label", "parameter_labels", "split_key", "free_label"]


def node_label(graph: Graph | None, node_id: object) -> str:
    node = graph.nodes.get(node_id) if graph is not None and isinstance(node_id, str) else None
    if node is None:
        return str(node_id)
    spec = node.spec
    return node.title or (spec.title if spec is not None else node.type)


def free_label(graph: Graph, base: str) -> str:
    """``base``, else ``base_2``, ``base_3``...: the first label no node of ``graph`` reads (title or type title)."""
    labels = {node_label(graph, nid) for nid in graph.nodes}
    k, label = 2, base
    while label in labels:
        label, k = f"{base}_{k}", k + 1
    return label


def split_key(graph: Graph | None, key: str) -> tuple[str | None, str]:
    """``(node id, rest)`` of a key, the longest prefix that is a node id (ids may hold dots); (None, key)."""
    if graph is None:
        return None, key
    parts = key.split(".")
    for i in range(len(parts), 0, -1):
        nid = ".".join(parts[:i])
        if nid in graph.nodes:
            return nid, ".".join(parts[i:])
    return None, key


def key_label(graph: Graph | None, key: str) -> str:
    nid, rest = split_key(graph, key)
    if nid is None:
        return key
    label = node_label(graph, nid)
    return label if rest in ("", "out") else f"{label}.{port_label(graph, nid, rest)}"


def port_label(graph: Graph | None, node_id: str, port: str) -> str:
    """A port or owned parameter of node ``node_id`` as a learner reads it: as it is, but on a collapsed block an
    inner node's id is its title (``n4.weight`` -> ``model.weight``, through nested blocks; a Parameter node's
    ``w_cut.w_cut`` -> ``w_cut``)."""
    node = graph.nodes.get(node_id) if graph is not None else None
    return _inner_rest(node.graph if node is not None else None, port)


def _inner_rest(inner: object, rest: str) -> str:
    """``rest`` with its leading inner node id (the longest that is one: ids may hold dots) read by its title."""
    if not isinstance(inner, dict) or not rest:
        return rest
    nodes = {n.get("id"): n for n in inner.get("nodes", ()) if isinstance(n, dict)}
    parts = rest.split(".")
    for i in range(len(parts), 0, -1):
        node = nodes.get(".".join(parts[:i]))
        if node is not None:
            title = node.get("title") or _type_title(node.get("type"))
            tail = _inner_rest(node.get("graph"), ".".join(parts[i:]))
            own = _own_name(node)  # a Parameter node's tensor: its title
            return title if tail in ("", title, own) else f"{title}.{tail}"
    return rest


def _own_name(node: dict) -> object:
    """The ``name`` a Parameter node (an inner node's dict) gives its tensor: its ``name`` parameter, else that
    parameter's default (a node written without its defaults, by hand or by an older version, names it ``w``: an
    untitled one read ``Parameter.w`` instead of its title, ``Parameter``); None for a type without one."""
    params = node.get("params")
    if isinstance(params, dict) and "name" in params:
        return params["name"]
    type_id = node.get("type")
    spec = get_spec(type_id) if isinstance(type_id, str) and has_spec(type_id) else None
    return next((p.default for p in spec.params if p.name == "name"), None) if spec is not None else None


def _type_title(type_id: object) -> str:
    return get_spec(type_id).title if isinstance(type_id, str) and has_spec(type_id) else str(type_id)


def parameter_labels(graph: Graph | None, keys: Iterable[str]) -> dict[str, str]:
    """What a learner reads for each of the parameter ``keys`` (``"node.name"``, as ``Session.parameters`` names
    them): the node's title where the node owns one of ``keys`` (a Parameter node's ``n9.w_cut`` is ``w_cut``, not
    ``w_cut.w_cut``, its tensor's name repeated), the title and the tensor's name where it owns several
    (``mlp.0.weight``, ``mlp.0.bias``). A key of no node of ``graph`` is left as it is."""
    keys = list(keys)
    owners = {key: split_key(graph, key)[0] for key in keys}
    owned = Counter(nid for nid in owners.values() if nid is not None)
    return {key: node_label(graph, nid) if nid is not None and owned[nid] == 1 else key_label(graph, key)
            for key, nid in owners.items()}
