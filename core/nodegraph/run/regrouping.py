"""What collapse and expand carry: the trained state of the nodes they move into or out of a subgraph.

Collapsing removes the selected nodes and adds a ``graph.subgraph`` node holding them; expanding removes the subgraph
and adds its inner nodes back (``core.nodegraph.model.commands``). As plain removals and additions the session would
drop each moved layer's module and build the subgraph's anew from its seed: a user who trained and then collapsed a
group lost the trained weights and, with them, the optimizer's state (keyed by the very tensors), and a file saved
after it agreed, so the loss was silent. ``carry`` is called with each ``node_added`` event of an edit after
``KeptStates.note``; when nothing came back to the node (a redo or undo gives back what it had), it takes what the
same edit removed (``KeptStates.removed``):

- a subgraph node: each inner node's state under ``state["inner"]`` (in the inner graph's topological order, the
  order a fresh session of the saved file builds them in, so the optimizer sees its parameters in the same order);
- a node an expand brought out (the event's ``detail`` is ``(subgraph id, inner id)``): the state it had inside.

The states are the very modules and tensors (a shallow copy of each state dict), so the optimizer keeps stepping
the same tensors with the same momentum and moments: training on after a collapse gives the numbers training on
without it gives, bit for bit. The file's trained values still waiting for a moved node, and a file's optimizer
state not yet used, are renamed along (``"lin.weight"`` is ``"n7.lin.weight"`` inside subgraph ``n7``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.nodegraph.model.document import Graph, GraphError

if TYPE_CHECKING:
    from core.nodegraph.model.document import GraphEvent
    from core.nodegraph.run.kept_states import KeptStates
    from core.nodegraph.run.optimizer_slot import OptimizerSlot

__all__ = ["carry"]

Renames = dict[str, str]  # old parameter key prefix ("lin.") -> new one ("n7.lin.")


def carry(event: GraphEvent, graph: Graph, kept: KeptStates, states: dict[str, dict[str, Any]],
          pending: dict[str, dict[str, Any]], restored: set[str], opt: OptimizerSlot) -> bool:
    """Give the node ``event`` added the state the same edit removed from where it comes from (``states``,
    ``pending``: the file's trained values waiting, ``restored``: the nodes that took theirs, changed in place).
    True when a state moved."""
    nid, mark = event.node_id, event.edit
    node = graph.nodes.get(nid) if nid is not None else None
    if node is None or mark is None or states.get(node.id):
        return False
    if isinstance(event.detail, tuple):
        sub, inner_id = event.detail
        state, waiting = kept.removed(mark, sub)
        inner = (state or {}).get("inner") or {}
        moved = {inner_id: inner[inner_id]} if inner_id in inner else {}
        renames = {f"{sub}.{inner_id}.": f"{node.id}."}
        found = _unprefixed(waiting, f"{inner_id}.")
        if sub in restored:
            restored.add(node.id)
        if moved:
            states[node.id] = moved[inner_id]
    elif node.graph is not None:
        moved, found = {}, {}
        order = _inner_order(node.graph)  # builds a Graph of the inner nodes: once per collapse
        for iid in order:
            state, waiting = kept.removed(mark, iid)
            if state:
                moved[iid] = state
            found.update({f"{iid}.{k}": v for k, v in (waiting or {}).items()})
            if iid in restored:
                restored.add(node.id)
        renames = {f"{iid}.": f"{node.id}.{iid}." for iid in order}
        if moved:
            states[node.id] = {"inner": moved}
    else:
        return False
    if found:
        pending[node.id] = found
    _rename_optimizer_pending(opt, renames)
    return bool(moved)


def _inner_order(inner: dict[str, Any]) -> list[str]:
    """The inner node ids in the order a run builds their states (topological; document order if it has none)."""
    try:
        return Graph.from_dict({"nodes": inner.get("nodes", ()), "edges": inner.get("edges", ())}).topological_order()
    except (GraphError, KeyError, TypeError, ValueError):
        return [nd["id"] for nd in inner.get("nodes", ()) if isinstance(nd, dict) and isinstance(nd.get("id"), str)]


def _unprefixed(values: dict[str, Any] | None, prefix: str) -> dict[str, Any]:
    """The entries of ``values`` whose key starts with ``prefix``, keyed without it."""
    return {k[len(prefix):]: v for k, v in (values or {}).items() if k.startswith(prefix)}


def _renamed(key: Any, renames: Renames) -> Any:
    if isinstance(key, str):
        for old, new in renames.items():
            if key.startswith(old):
                return new + key[len(old):]
    return key


def _rename_optimizer_pending(opt: OptimizerSlot, renames: Renames) -> None:
    """A file's optimizer state not yet in an optimizer names its parameters by key: rename the moved ones."""
    saved = opt.pending
    if not saved or not renames:
        return
    if isinstance(saved.get("state"), dict):
        saved["state"] = {_renamed(k, renames): v for k, v in saved["state"].items()}
    for group in saved.get("param_groups") or ():
        if isinstance(group, dict) and isinstance(group.get("params"), list):
            group["params"] = [_renamed(k, renames) for k in group["params"]]
