"""The ``grad_fn`` graph behind a session's loss, as the rows the autograd view draws, computed headless.

``autograd_rows(session)`` returns ``(rows, origin)``: one row per autograd node reachable from the loss's
``grad_fn``, in the order backward runs them, and where the graph comes from:

- ``"forward"``: the last stepped forward (Forward, Forward step, Backward step...); owners were recorded
  as it ran, and saved tensors stay readable after backward freed them (the session keeps a copy).
- ``"train"``: the last training step through the autograd engine; owners come from the step's creation
  marks (``core.nodegraph.step_owners``), and its backward freed the saved tensors (training keeps no copy).
- ``"fused"``: the last training step was the fused step (``core.nodegraph.fused``), which builds no graph;
  the rows come from a forward made for the view: the layer chain and the loss evaluated again with autograd
  on the last batch, with the current (already updated) weights. It changes nothing in the session.
- None: no graph (no loss, or it has no ``grad_fn``).

``grad_label(rows, src, dst)`` is the text of an edge: the shape of the gradient that flows along it.
"""

from __future__ import annotations

import heapq
import weakref

import numpy as np

import core
from core.nodegraph.spec import EvalContext
from core.nodegraph.step_owners import StepMarks, mark

__all__ = ["autograd_rows", "autograd_graph", "grad_label"]

_FUSED_VIEW = weakref.WeakKeyDictionary()  # session -> (the fused loss tensor, root, StepMarks): one rebuild per step


def autograd_graph(session) -> list:
    """The rows of ``autograd_rows``."""
    return autograd_rows(session)[0]


def autograd_rows(session) -> tuple:
    """``(rows, origin)`` (see the module docstring). A row: ``{"name", "owner" (graph node id or None), "node"
    (the autograd node), "next": [row indices], "grads": [shape of the gradient sent along each of "next"],
    "saved": [one line per tensor saved for backward], "freed" (backward released them), "leaf" (for
    ``AccumulateGrad``: the tensor whose ``.grad`` it fills, else None)}``."""
    root, origin, marks = _root(session)
    if root is None:
        return [], None
    order = _backward_order(root)
    index = {n: i for i, n in enumerate(order)}
    names = _tensor_names(session)
    rows = []
    for n in order:
        edges = [(e[0], meta) for e, meta in zip(n._edges, _metas(n)) if e is not None]
        owner = marks.owner(n, session._leaves) if marks is not None else session.owner_of(n)
        rows.append({"name": n.name() if callable(getattr(n, "name", None)) else type(n).__name__,
                     "owner": owner, "node": n, "next": [index[e] for e, _ in edges],
                     "grads": [meta[0] if meta is not None else None for _, meta in edges],
                     "saved": _saved(session, n, names), "freed": bool(getattr(n, "_released", False)),
                     "leaf": _leaf(session, n, names)})
    for row in rows:  # a leaf no node registered (made inside a node) belongs to the node that uses it
        if row["owner"] is None and row["leaf"] is not None:
            row["owner"] = next((r["owner"] for r in rows if index[row["node"]] in r["next"]), None)
    return rows, origin


def grad_label(rows, src: int, dst: int) -> str:
    """The shape(s) of the gradient row ``src`` sends to row ``dst``: ``"(2,)"``, ``"()"``, ``"(4, 3) ×2"``."""
    row = rows[src]
    shapes = [tuple(g) for j, g in zip(row["next"], row["grads"]) if j == dst and g is not None]
    if not shapes:
        return ""
    text = ", ".join(dict.fromkeys(str(s) for s in shapes))
    return f"{text} ×{len(shapes)}" if len(shapes) > 1 else text


def _metas(node) -> list:
    metas = list(node._in_meta)
    return metas + [None] * (len(node._edges) - len(metas))


def _root(session) -> tuple:
    """``(root grad_fn, origin, StepMarks of a rebuilt graph or None)``."""
    loss = session.loss_node()
    out = session.values.get(loss) if loss else None
    value = next(iter(out.values()), None) if out else None
    root = getattr(value, "grad_fn", None)
    if root is not None:
        stepped = session._owner.get(root) is not None or session._step_marks is None
        return root, "forward" if stepped else "train", None
    fused = getattr(session, "_fused", None)
    if value is None or type(fused).__name__ != "FusedStep" or fused.loss_id != loss:
        return None, None, None
    cached = _FUSED_VIEW.get(session)
    if cached is None or cached[0] is not value:
        rebuilt = _fused_forward(session, fused)
        if rebuilt is None:
            return None, None, None
        cached = _FUSED_VIEW[session] = (value,) + rebuilt
    return cached[1], "fused", cached[2]


def _fused_forward(session, fused):
    """The fused step's layer chain and loss evaluated again with autograd on the last batch: ``(root, StepMarks)``,
    or None when it can't run. Each node gets a copy of its state dict (same modules, nothing written back) and
    a generator of its own, so the session is left as it was."""
    graph, values, order, marks = session.graph, {}, [*fused.chain, fused.loss_id], []
    try:
        with core.enable_grad():
            for nid in order:
                node = graph.nodes[nid]
                inputs = {port: (values.get(e.src) or session.values.get(e.src) or {})[e.src_port]
                          for port, e in graph.inputs_of(nid).items()}
                ctx = EvalContext(nid, session.device, session.training, core.Generator().manual_seed(session.seed),
                                  dict(session.states.get(nid, {})), session.step_count, node, session.seed)
                marks.append(mark())
                result = node.spec.evaluate(ctx, inputs, node.spec.validate_params(node.params))
                values[nid] = result if isinstance(result, dict) else {"out": result}
            marks.append(mark())
    except Exception:  # noqa: BLE001 - a graph that can't be evaluated again just shows no rebuilt view
        return None
    root = getattr(next(iter(values[fused.loss_id].values())), "grad_fn", None)
    return (root, StepMarks(order, marks)) if root is not None else None


def _backward_order(root) -> list:
    """Reachable autograd nodes in the order the engine runs them: a node once every node that sends to
    it ran, the most recently created of the ready ones first (AccumulateGrad as soon as it is ready)."""
    deps, seen, stack = {}, {root}, [root]
    while stack:
        for e in stack.pop()._edges:
            if e is not None:
                deps[e[0]] = deps.get(e[0], 0) + 1
                if e[0] not in seen:
                    seen.add(e[0])
                    stack.append(e[0])
    order, ready, counter = [], [(-root._seq, 0, root)], 1
    while ready:
        node = heapq.heappop(ready)[2]
        order.append(node)
        for e in node._edges:
            if e is not None:
                deps[e[0]] -= 1
                if deps[e[0]] == 0:
                    heapq.heappush(ready, (-e[0]._seq, counter, e[0]))
                    counter += 1
    return order


def _tensor_names(session) -> dict:
    """``id(tensor)`` -> a readable name (``"x"``, ``"linear.weight"``) for the session's values and leaves."""
    graph, names = session.graph, {}

    def label(nid, port):
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


def _describe(t, name: str | None) -> str:
    """``x: (2,) float32 [2. 3.]``: name, shape, dtype and, for a few elements, the values."""
    if not hasattr(t, "shape"):
        return f"{name or 'value'}: {t!r}"[:60]
    text = f"{name or 'inner tensor'}: {tuple(t.shape)} {str(t.dtype).split('.')[-1]}"
    if t.numel() <= 6:
        values = np.array2string(np.asarray(t.detach().cpu().numpy()), precision=4, separator=", ")
        text += " " + " ".join(values.split()).replace("[ ", "[").replace(" ,", ",")
    return text


def _saved(session, node, names) -> list:
    """One line per tensor ``node`` saved for backward (from the session's copy once backward freed them)."""
    saved = node._saved if node._saved is not None else getattr(session, "_saved_backup", {}).get(node)
    if not saved:
        return []
    lines = []
    for entry in saved if isinstance(saved, (tuple, list)) else [saved]:
        t, output_nr = (entry[0], entry[2]) if isinstance(entry, tuple) and len(entry) == 3 else (entry, -1)
        if t is not None:
            lines.append(_describe(t, "its own output" if output_nr >= 0 else names.get(id(t))))
    return lines


def _leaf(session, node, names) -> str | None:
    variable = getattr(node, "variable", None) if type(node).__name__ == "AccumulateGrad" else None
    return _describe(variable, names.get(id(variable))) if variable is not None else None
