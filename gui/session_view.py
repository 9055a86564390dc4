"""What the canvas and the status bar show for a session's state (read from the session, formatted).

``displays(session, graph, highlight)`` gives each node's NodeDisplay (value, gradient with its
accumulation counter, autograd role badges, error, spent: its saved tensors freed, said in a badge and the
tooltip) and each edge's shape label with broadcast marks; ``describe(event, session, graph)`` says in words
what the last step did.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from core.nodegraph.model.names import key_label, parameter_labels
from gui import format as fmt
from gui.canvas.node_item import NodeDisplay

if TYPE_CHECKING:
    from core.nodegraph.explain.diagnostics import Hint
    from core.nodegraph.model.document import Edge, Graph
    from core.nodegraph.model.events import SessionEvent
    from core.nodegraph.run.inspection import PortInfo
    from core.nodegraph.run.ledger import Contribution
    from core.nodegraph.run.session import Session


def title_of(graph: Graph, nid: str) -> str:
    node = graph.nodes.get(nid)
    if node is None:
        return str(nid)
    spec = node.spec
    return node.title or (spec.title if spec is not None else node.type)


def param_display(graph: Graph, nid: str, highlight: bool = False) -> NodeDisplay:
    """Before anything ran: the parameters that differ from their defaults, and a leaf's gold frame."""
    node = graph.nodes[nid]
    spec = node.spec
    d = NodeDisplay(highlight=highlight)
    if spec is None:
        return d
    defaults = spec.default_params()
    notes = {p.name: p.value_note(node.params.get(p.name)) for p in spec.params}  # batch_size=0 (whole set)
    shown = [f"{k}={fmt.param_text(v) if isinstance(v, (list, tuple, int, float)) or hasattr(v, 'tolist') else v}"
             + (f" ({notes[k]})" if notes.get(k) else "")
             for k, v in node.params.items()
             if k not in ("requires_grad", "retain_grad") and v != defaults.get(k)
             and not (k == "name" and v == node.title)]  # a parameter's name is its title already
    d.badges = [" ".join(shown)] if shown else []
    d.params = shown  # the node lays them out a few to a line, each whole (gui.canvas.node_item.pack_params)
    d.leaf = bool(node.params.get("requires_grad"))
    d.retain = bool(node.params.get("retain_grad"))
    if d.leaf:
        d.badges.append("requires_grad")
    return d


def node_display(session: Session | None, graph: Graph, nid: str, highlight: bool = False) -> NodeDisplay:
    """A node's face from the session: the value the session says is its output (``PortInspector.face_info``:
    nothing for a layer or a collapsed block that has not run, so it shows its parameters like any node not run
    yet), its gradient, badges and error."""
    info = session.inspector.face_info(nid) if session is not None else None
    err = session.errors.get(nid) if session is not None else None
    if session is None or (info is None and err is None):
        return param_display(graph, nid, highlight)
    d = NodeDisplay(highlight=highlight)
    if err is not None:
        d.error = str(err)
    d.spent = session.inspector.freed(nid)
    if info is None:
        return _error_tip(d)
    d.value = _value_text(info.value)
    d.heat = fmt.heat_rows(info.value)
    if info.grad is not None:
        d.grad = fmt.short(info.grad)
        history = session.ledger.contributions(info.key)
        d.grad_note = fmt.grad_note(len({c.backward_call for c in history}))
        d.tooltip = gradient_story(session, nid, info.port, history)
    d.leaf = info.requires_grad and info.is_leaf
    d.retain = info.retains_grad and not info.is_leaf
    d.badges = _badges(session, graph, nid, info)
    d.device = info.device or ""
    if d.spent:  # drawn faded: say why, on the node and on hovering it
        d.badges.append("saved tensors freed")
        d.tooltip += f"<p>{html.escape(_freed_note(session, nid))}</p>"  # rich text: Qt wraps it
    return _error_tip(d)


def _error_tip(d: NodeDisplay) -> NodeDisplay:
    """A failed node has room for two lines of its error: hovering it shows the whole message first."""
    if d.error:
        d.tooltip = f"<p>{html.escape(d.error)}</p>{d.tooltip}"
    return d


def _value_text(value: object) -> str:
    """A port's value in short; a result held as a dict (gradcheck's) by its numbers and flags,
    ``passed False max_error 4.747``, not ``dict`` (``dict`` when it holds none); a tiny or huge number with a
    short mantissa, so its exponent fits the node (``passed True max_error 1.3e-10``)."""
    if not isinstance(value, dict):
        return fmt.short(value)
    shown = [f"{k} {fmt.compact(v)}" for k, v in value.items() if isinstance(v, (bool, int, float))]
    return " ".join(shown) or "dict"


def _freed_note(session: Session, nid: str) -> str:
    """Why a node is drawn faded: which autograd nodes' saved tensors the backward released."""
    names = ", ".join(name for name, released in session.inspector.autograd_info(nid) if released)
    return (f"{names} freed what it saved for backward (retain_graph=False): another backward through this node "
            "raises. Turn on Retain graph to keep it.")


def gradient_story(session: Session, nid: str, port: str, history: Sequence[Contribution]) -> str:
    """Hovering a gradient: the chain-rule product that produced it, with the numbers plugged in (one block
    per backward call and their sum; the sum over paths where several reach it), from the session. A ``<pre>``
    block, so the ``=`` lines stay aligned under each other."""
    from core.nodegraph.explain.chain_rule import chain_rule  # only once a gradient exists

    story = chain_rule(session, nid, port)
    lines = [story.text()] if story is not None else []
    if len(history) > 1:
        lines.append("gradients accumulate: call zero_grad between backward calls to start from 0")
    return "<pre>" + html.escape("\n".join(lines), quote=False) + "</pre>"


def _badges(session: Session, graph: Graph, nid: str, info: PortInfo) -> list[str]:
    out = []
    if info.is_parameter:
        out.append("parameter")
    elif info.requires_grad and info.is_leaf:
        out.append("leaf, requires_grad")
    if info.retains_grad and not info.is_leaf:
        out.append("retain_grad")
    if info.shape is not None and not info.requires_grad:
        ins = [session.inspector.port_info(e.src, e.src_port) for e in graph.inputs_of(nid).values()]
        if any(i.requires_grad for i in ins):
            out.append("detached")
    others = list(dict.fromkeys(k.split(".")[0] for k in info.shares_memory_with if k.split(".")[0] != nid))
    if others:  # (a parameter node's own value and parameter are one tensor: no note about itself)
        # by the names the canvas shows (not node ids), and either way round: a view's base shares it too
        out.append("shares memory with " + ", ".join(title_of(graph, n) for n in others[:2]))
    return out


def edge_label(session: Session, graph: Graph, edge: Edge) -> tuple[str, bool]:
    """``("(2,)", broadcast)``: the shape carried (``() scalar`` for a 0-d tensor), and whether an elementwise op
    broadcast it."""
    src = session.inspector.port_info(edge.src, edge.src_port) if edge.src in session.values else None
    if src is None or src.shape is None:
        return ("", False)
    label = fmt.shape_text(src.shape)  # "(32, 1)", "() scalar" (the Inspector's words for the shape)
    dst = session.inspector.port_info(edge.dst, "out") if edge.dst in session.values else None
    node = graph.nodes.get(edge.dst)
    elementwise = node is not None and node.type.startswith("math.")
    broadcast = bool(elementwise and dst is not None and dst.shape is not None and dst.shape != src.shape)
    return (label, broadcast)


def displays(session: Session | None, graph: Graph, highlight: str | None = None,
             hints: Sequence[Hint] | None = None) -> tuple[dict[str, NodeDisplay], dict[Edge, tuple[str, bool]]]:
    """Each node's display and each edge's label; ``hints`` (the diagnostics panel's list, else the
    session's diagnostics run here) put a badge on the nodes they name."""
    nodes = {nid: node_display(session, graph, nid, nid == highlight) for nid in graph.nodes}
    edges = {e: edge_label(session, graph, e) for e in graph.edges} if session is not None else {}
    for h in session_hints(session) if hints is None else hints:
        if h.node_id in nodes:
            nodes[h.node_id].diagnostics.append(h)
    return nodes, edges


def session_hints(session: Session | None) -> list[Hint]:
    """The session's diagnostics now (none before it ran)."""
    if session is None:
        return []
    from core.nodegraph.explain.diagnostics import diagnose  # the rules load on first use

    return diagnose(session)


def describe(event: SessionEvent, session: Session, graph: Graph) -> str:
    """The status bar's sentence for a step, e.g. ``MulBackward0: sent grad [1.5, -0.5] to x``."""
    nid, d = event.node, event.detail
    name = title_of(graph, nid) if nid else ""
    if event.phase == "forward":
        out = (session.values.get(nid) if nid is not None else None) or {}
        return f"Forward: {name} = {_value_text(out['out']) if 'out' in out else ''}" + _failed_elsewhere(
            session, graph, nid)
    if event.phase == "error":
        return _describe_error(session, graph, nid, name, d.get("error"))
    if event.phase == "backward":
        return _describe_backward(session, graph, name, d)
    if event.phase == "optimizer":
        return _optimizer_text(session, graph, d)
    return {"zero_grad": "Zero grad: every .grad cleared",
            "reset": "Reset: values and gradients cleared", "history": _history_text(graph, d.get("label"))}.get(
        event.phase, event.phase)


def _leaf_labels(session: Session, graph: Graph, keys: Sequence[str]) -> list[str]:
    """What the learner reads for leaf keys: a parameter as ``names.parameter_labels`` names it among the session's
    (``w``, not ``w.w``; ``model.weight``), any other leaf as ``key_label`` (``x``)."""
    labels = parameter_labels(graph, session.parameters())
    return [labels.get(k) or key_label(graph, k) for k in keys]


def _optimizer_text(session: Session, graph: Graph, d: Mapping[str, Any]) -> str:
    """``Optimizer step (lr 0.01): w, b updated``: the learning rate used and the parameters it changed."""
    keys = list(d.get("update_ratio") or ())
    names = ", ".join(_leaf_labels(session, graph, keys[:4])) + (f" and {len(keys) - 4} more" if len(keys) > 4 else "")
    lr = d.get("lr")
    used = f" (lr {fmt.number(float(lr))})" if isinstance(lr, (int, float)) else ""
    return f"Optimizer step{used}: {names or 'parameters'} updated"


def _describe_error(session: Session, graph: Graph, nid: str | None, name: str, error: object) -> str:
    """A forward error names the node that failed and PyTorch's message, and counts the nodes skipped after it
    ("Forward stopped at mul: RuntimeError: ...; 2 later nodes skipped"), whichever of them ran last."""
    if getattr(error, "phase", None) != "forward":
        if not name:  # no node: a step of the whole graph (the optimizer's) failed
            step = {"optimizer": "Optimizer step"}.get(getattr(error, "phase", ""), "The step")
            return f"{step} failed: {error}"
        return f"Error at {name}: {error}"
    failed, skipped = _failed_and_skipped(session, graph, nid)
    if failed is None:  # a skipped node whose failed input is no longer in the session's errors
        return str(error)
    text = f"Forward stopped at {title_of(graph, failed)}: {session.errors[failed]}"
    if skipped:
        text += f"; {skipped} later node{'s' if skipped != 1 else ''} skipped"
    return text


FAILED_EARLIER = "; failed earlier: "  # a forward message that also names a node failed before it (see below)


def _failed_elsewhere(session: Session, graph: Graph, nid: str | None) -> str:
    """A forward step that ran although another node failed in the same pass (another branch: lesson 2's a_plus_b
    with b's shape [5, 4], then Forward all ending on loss_fixed) names the first such node and PyTorch's message,
    so the status bar no longer reads as a pass without errors: ``; failed earlier: a_plus_b: RuntimeError: ...``
    ("and N more" after it); '' when no other node failed."""
    failed = [n for n in session.order if n != nid and (e := session.errors.get(n)) is not None
              and getattr(e, "phase", None) == "forward" and e.type != "Skipped"]
    if not failed:
        return ""
    more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
    return f"{FAILED_EARLIER}{title_of(graph, failed[0])}: {session.errors[failed[0]]}{more}"


def _failed_and_skipped(session: Session, graph: Graph, nid: str | None) -> tuple[str | None, int]:
    """The node upstream of ``nid`` (or ``nid``) whose forward error was its own, and how many nodes are skipped."""
    forward = {n: e for n, e in session.errors.items() if getattr(e, "phase", None) == "forward"}
    skipped = sum(1 for e in forward.values() if e.type == "Skipped")
    if nid in forward and forward[nid].type != "Skipped":
        return nid, skipped
    upstream = graph.ancestors(nid) if nid in graph.nodes else set()
    failed = next((n for n in session.order if n in upstream and n in forward and forward[n].type != "Skipped"),
                  None)
    return failed, skipped


def _history_text(graph: Graph, label: object) -> str:
    phase, nid = label if isinstance(label, tuple) and len(label) == 2 else (str(label), None)
    return f"Stepped back to: {phase}" + (f" {title_of(graph, nid)}" if nid else "")


def _describe_backward(session: Session, graph: Graph, name: str, d: Mapping[str, Any]) -> str:
    """One backward step's sentence; the first step of a later call says a new pass starts, the last step
    says the pass is complete (a further Backward step starts another, as a second ``backward()`` would)."""
    text = _backward_step_text(session, graph, name, d)
    if d.get("done") and d.get("autograd_node"):
        text += f". Backward pass #{d.get('backward_call')} complete" + _no_gradient_note(session, graph, d)
    if d.get("starts") and (d.get("backward_call") or 1) > 1:
        text = f"Backward pass #{d['backward_call']} starts: {text}"
    return text


def _no_gradient_note(session: Session, graph: Graph, d: Mapping[str, Any]) -> str:
    missing = _leaf_labels(session, graph, d.get("no_gradient") or [])
    return f"; no gradient for {', '.join(missing)}" if missing else ""


def _backward_step_text(session: Session, graph: Graph, name: str, d: Mapping[str, Any]) -> str:
    if d.get("accumulated"):
        key = d["accumulated"]
        contribs = session.ledger.contributions(key)
        last = contribs[-1] if contribs else None
        leaf = _leaf_labels(session, graph, [key])[0]  # "x", "w" or "model.weight" for a parameter a layer holds
        fn = " + ".join(d.get("sent_by") or ()) or None  # the autograd nodes that fed the leaf's AccumulateGrad
        grad = fmt.short_array(last.grad) if last is not None else ""
        return f"{fn or d.get('autograd_node')}: sent grad {grad} to {leaf}"
    if d.get("done") and not d.get("autograd_node"):
        return f"Backward pass #{d.get('backward_call')} complete" + _no_gradient_note(session, graph, d)
    return f"{d.get('autograd_node')} ran (node {name})"
