"""The ``grad_fn`` graph behind a session's loss, as the rows the autograd view draws, computed headless.

``autograd_rows(session)`` returns ``(rows, origin)``: one row per autograd node reachable from the loss's
``grad_fn``, in the order backward runs them, and where the graph comes from:

- ``"forward"``: the last stepped forward (Forward, Forward step, Backward step...); owners were recorded
  as it ran, and saved tensors stay readable after backward freed them (the session keeps a copy).
- ``"train"``: the last training step through the autograd engine; owners come from the step's creation
  marks (``core.nodegraph.run.step_owners``), and its backward freed the saved tensors (training keeps no copy).
- None: no graph (no loss, or it has no ``grad_fn``).

``grad_label(rows, src, dst)`` is the text of an edge: the shape of the gradient that flows along it.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any, Protocol

from core.autograd.graph import AccumulateGrad, Node, input_metadata, saved_tensors, sequence_nr
from core.nodegraph.model.numtext import printed

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph

__all__ = ["autograd_rows", "autograd_graph", "grad_label", "AutogradSession"]

Row = dict[str, Any]  # see autograd_rows


class AutogradSession(Protocol):
    """What the rows read of ``core.nodegraph.run.session.Session`` (run sits above explain, so the session is
    described here rather than imported)."""

    @property
    def graph(self) -> Graph: ...
    @property
    def values(self) -> dict[str, dict[str, Any]]: ...
    def loss_node(self) -> str | None: ...
    def owner_of(self, autograd_node: Node) -> str | None: ...
    def autograd_origin(self, autograd_node: Node) -> str: ...
    def saved_backup(self, autograd_node: Node) -> Any: ...
    def leaves(self) -> dict[str, Any]: ...
    def leaf_key(self, tensor: Any) -> str | None: ...


def autograd_graph(session: AutogradSession) -> list[Row]:
    """The rows of ``autograd_rows``."""
    return autograd_rows(session)[0]


def autograd_rows(session: AutogradSession) -> tuple[list[Row], str | None]:
    """``(rows, origin)`` (see the module docstring). A row: ``{"name", "owner" (graph node id or None), "node"
    (the autograd node), "next": [row indices], "grads": [shape of the gradient sent along each of "next"],
    "saved": [one line per tensor saved for backward], "freed" (backward released them), "leaf" (for
    ``AccumulateGrad``: the tensor whose ``.grad`` it fills, else None)}``."""
    root, origin = _root(session)
    if root is None:
        return [], None
    order = _backward_order(root)
    index = {n: i for i, n in enumerate(order)}
    names = _tensor_names(session)
    rows: list[Row] = []
    for n in order:
        edges = [(fn, meta) for (fn, _), meta in zip(n.next_functions, _metas(n)) if fn is not None]
        # a row is named by its class (AccumulateGrad); name() says torch::autograd::AccumulateGrad as torch's
        rows.append({"name": type(n).__name__, "owner": session.owner_of(n), "node": n,
                     "next": [index[e] for e, _ in edges],
                     "grads": [meta[0] if meta is not None else None for _, meta in edges],
                     "saved": _saved(session, n, names), "freed": n.is_released, "leaf": _leaf(session, n, names)})
    for row in rows:  # a leaf no node registered (made inside a node) belongs to the node that uses it
        if row["owner"] is None and row["leaf"] is not None:
            row["owner"] = next((r["owner"] for r in rows if index[row["node"]] in r["next"]), None)
    return rows, origin


def grad_label(rows: list[Row], src: int, dst: int) -> str:
    """The shape(s) of the gradient row ``src`` sends to row ``dst``: ``"(2,)"``, ``"()"``, or for a node that sends
    several gradients to one node (``x * x``'s MulBackward0 to x) ``"(4, 3) (2 gradients)"`` (``×2`` read as a
    product)."""
    row = rows[src]
    shapes = [tuple(g) for j, g in zip(row["next"], row["grads"]) if j == dst and g is not None]
    if not shapes:
        return ""
    text = ", ".join(dict.fromkeys(str(s) for s in shapes))
    return f"{text} ({len(shapes)} gradients)" if len(shapes) > 1 else text


def _metas(node: Node) -> list[Any]:
    metas = list(input_metadata(node))
    return metas + [None] * (len(node.next_functions) - len(metas))


def _root(session: AutogradSession) -> tuple[Node, str] | tuple[None, None]:
    """``(root grad_fn, origin)``."""
    loss = session.loss_node()
    out = session.values.get(loss) if loss else None
    value = next(iter(out.values()), None) if out else None
    root = getattr(value, "grad_fn", None)
    if root is None:
        return None, None
    return root, session.autograd_origin(root)


def _backward_order(root: Node) -> list[Node]:
    """Reachable autograd nodes in the order the engine runs them: a node once every node that sends to
    it ran, the most recently created of the ready ones first (AccumulateGrad as soon as it is ready)."""
    deps: dict[Node, int] = {}
    seen, stack = {root}, [root]
    while stack:
        for fn, _ in stack.pop().next_functions:
            if fn is not None:
                deps[fn] = deps.get(fn, 0) + 1
                if fn not in seen:
                    seen.add(fn)
                    stack.append(fn)
    order: list[Node] = []
    ready: list[tuple[int | float, int, Node]] = [(-sequence_nr(root), 0, root)]
    counter = 1
    while ready:
        node = heapq.heappop(ready)[2]
        order.append(node)
        for fn, _ in node.next_functions:
            if fn is not None:
                deps[fn] -= 1
                if deps[fn] == 0:
                    heapq.heappush(ready, (-sequence_nr(fn), counter, fn))
                    counter += 1
    return order


def _tensor_names(session: AutogradSession) -> dict[int, str]:
    """``id(tensor)`` -> a readable name (``"x"``, ``"linear.weight"``) for the session's values and leaves."""
    graph = session.graph
    names: dict[int, str] = {}

    def label(nid: str, port: str) -> str:
        node = graph.nodes.get(nid)
        title = (node.title or nid) if node is not None else nid
        return title if port == "out" else f"{title}.{port}"

    for nid, out in session.values.items():
        for port, t in (out or {}).items():
            names.setdefault(id(t), label(nid, port))
    for t in session.leaves().values():
        key = session.leaf_key(t)
        if key:
            names.setdefault(id(t), label(*key.split(".", 1)))
    return names


def _describe(t: Any, name: str | None) -> str:
    """``x: (2,) float32 [2., 3.]``: name, shape, dtype and, for a few elements, the values as PyTorch prints
    them (on one line)."""
    if not hasattr(t, "shape"):
        return f"{name or 'value'}: {t!r}"[:60]
    text = f"{name or 'inner tensor'}: {tuple(t.shape)} {str(t.dtype).split('.')[-1]}"
    if t.numel() <= 6:
        text += " " + " ".join(line.strip() for line in printed(t).split("\n") if line.strip())
    return text


def _saved(session: AutogradSession, node: Node, names: dict[int, str]) -> list[str]:
    """One line per tensor ``node`` saved for backward (from the session's copy once backward freed them)."""
    saved = saved_tensors(node) or saved_tensors(node, session.saved_backup(node))
    return [_describe(s.tensor, "its own output" if s.output_nr >= 0 else names.get(id(s.tensor)))
            for s in saved if s.tensor is not None]


def _leaf(session: AutogradSession, node: Node, names: dict[int, str]) -> str | None:
    variable = node.variable if isinstance(node, AccumulateGrad) else None
    return _describe(variable, names.get(id(variable))) if variable is not None else None
