"""Build a graph document from a ``code_trace.Trace``: one node per recorded op, leaves and constants as sources.

- A recorded op becomes the node type that computes it (``mul`` -> ``math.mul``, ``F.mse_loss`` ->
  ``loss.mse``, ``x.view(2, 3)`` -> ``shape.view``), its tensor arguments edges and its other arguments the
  node's parameters (``code_map``). An op with no node type, or arguments the node type can't hold,
  becomes a ``code.op`` node (an opaque op) that calls the same ``core`` function by its registry name.
- A leaf (a tensor the ops consumed but did not compute) becomes ``source.tensor`` with its values, dtype
  and ``requires_grad``; an ``nn.Parameter`` or a tensor an optimizer trains becomes ``param.values``,
  titled after the module attribute it is (``model.weight``).
- A Python number in a tensor argument becomes a constant ``source.tensor`` node.
- The tensor ``backward()`` was called on (or the last op's output) is the training loss; a recognised
  training loop gives the optimizer, its settings and the steps.

Titles are the snippet's variable names; ``graph.code`` keeps the snippet's text, each node's line and the
importer's notes.
"""

from __future__ import annotations

import ast
import copy
import json
from collections.abc import Sequence
from typing import Any

import numpy as np

import core
from core.nodegraph.model import code_ops, layout, training_settings
from core.nodegraph.model.code_map import Mapped, map_call
from core.nodegraph.model.code_trace import CHANGED, Call, SnippetError, Trace
from core.nodegraph.model.document import Edge, Graph, GraphError, Node
from core.nodegraph.model.nodes.code import MAX_INPUTS, OP_TYPE, OUTPUTS, VALUES_TYPE
from core.nodegraph.model.numtext import tensor_values
from core.nodegraph.model.spec import ParamError, get_spec

__all__ = ["build_graph"]

FLOAT_DTYPES = ("float32", "float64", "float16", "bfloat16")
SHORT_MAX = 10_000  # float32 leaves up to this size are written in their shortest text (0.1, not 0.10000000149)

Port = tuple[str, str]  # (node id, output port)


def _dtype_name(t: core.Tensor) -> str:
    return str(t.dtype).split(".")[-1]


class _Builder:
    def __init__(self, tr: Trace) -> None:
        self.tr = tr
        self.g = Graph()
        self.current: dict[int, Port] = {}  # id(tensor) -> (node id, port): the node that holds this tensor now
        self.lines: dict[str, int] = {}  # node id -> line
        self.titles: set[str] = set()
        self.trained = {id(p) for p in (tr.training.params if tr.training else ())}
        self.notes: list[str] = []
        self.tables: set[str] = set()  # nodes whose (first) value is 2-D: the canvas draws its colour table under it
        self.changed: dict[int, tuple[core.Tensor, int | None]] = {}  # id -> (values, line): see changed_outside

    # ----- nodes ---------------------------------------------------------------------------------------------
    def title(self, base: str | None) -> str | None:
        if not base:
            return None
        name, k = base, 1
        while name in self.titles:
            k += 1
            name = f"{base}_{k}"
        self.titles.add(name)
        return name

    def add(self, type_id: str, params: dict[str, Any], title: str | None, line: int | None) -> str:
        nid = self.g.new_id()
        self.g.add_node(Node(nid, type_id, params, title=self.title(title)))
        if line is not None:
            self.lines[nid] = line
        return nid

    def param_name(self, t: core.Tensor) -> str | None:
        for name, module in self.tr.modules.values():
            for pname, p in module.named_parameters():
                if p is t:
                    return f"{name}.{pname}"
        return self.tr.names.get(id(t))

    def leaf(self, t: core.Tensor) -> Port:
        leaf = self.tr.leaves.get(id(t))
        value, line = (leaf.value, leaf.line) if leaf else (t.detach().clone(), self.tr.lines.get(id(t)))
        if id(t) in self.changed:  # changed outside the graph since: its values from then on
            value, line = self.changed.pop(id(t))
        if value.is_complex():  # a tensor node's values are JSON numbers: real, integer or bool
            name = self.tr.names.get(id(t))
            raise SnippetError(f"{name + ' is a' if name else 'A'} {_dtype_name(value)} tensor: the graph's tensor "
                               "nodes hold real, integer and bool values only (its .real and .imag are real)", line)
        values = _values(value)
        trained = (leaf.parameter if leaf else isinstance(t, core.nn.Parameter)) or id(t) in self.trained
        if trained and _dtype_name(value) in FLOAT_DTYPES:
            name = self.param_name(t) or "w"
            nid = self.add(VALUES_TYPE, {"name": name, "tensor": values, "dtype": _dtype_name(value)}, name, line)
        else:
            params = {"tensor": values, "dtype": _dtype_name(value),
                      "requires_grad": bool(t.requires_grad and t.is_leaf)}
            nid = self.add("source.tensor", params, self.tr.names.get(id(t)), line)
        self.current[id(t)] = (nid, "out")
        self._note_table(nid, value)
        return nid, "out"

    def _note_table(self, nid: str, t: object) -> None:
        if isinstance(t, core.Tensor) and t.dim() == 2 and t.numel() > 0:
            self.tables.add(nid)

    def source_of(self, value: object, line: int | None) -> Port:
        """The (node, port) that feeds ``value``: its producer, a new leaf, or a constant for a number."""
        if isinstance(value, core.Tensor):
            return self.current.get(id(value)) or self.leaf(value)
        if isinstance(value, complex):  # a constant node's value is a JSON number, as a tensor node's values are
            raise SnippetError(f"the complex number {value!r}: the graph's constants and tensor nodes hold real, "
                               "integer and bool values only (a complex tensor's .real and .imag are real)", line)
        try:
            nid = self.add("source.tensor", {"tensor": value}, None, line)
        except GraphError as exc:  # e.g. an int beyond 64 bits (the tracer's core took it; no tensor holds it)
            shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:37]}..."
            raise SnippetError(f"the constant {shown}: {str(exc).split('): ', 1)[-1]}", line) from None
        self.g.set_node_attr(nid, "title", repr(value))
        return nid, "out"

    # ----- calls ------------------------------------------------------------------------------------------
    def changed_outside(self, call: Call) -> None:
        """A ``CHANGED`` call: the tensor's node no longer holds its values; its next use reads a new node that
        holds them (and the notes say so), as eager code reads the changed tensor."""
        t = call.args[0]
        if self.current.pop(id(t), None) is None and id(t) not in self.tr.leaves:
            return  # not in the graph yet: its first use reads its values then
        self.changed[id(t)] = (call.result, call.line)
        name = self.tr.names.get(id(t))
        note = (f"line {call.line}: {name or 'a tensor'} is changed in place outside autograd (torch.no_grad or "
                ".data); the graph's later uses of it read its new values from a new node")
        if note not in self.notes:  # once for a loop's every pass
            self.notes.append(note)

    def call(self, call: Call) -> None:
        if call.name == CHANGED:
            self.changed_outside(call)
            return
        outs = _outputs(call)
        title = None
        if outs:
            title = self.tr.rebound.get((id(outs[0]), call.line)) or self.tr.names.get(id(outs[0]))
        title = title or call.extra.get("title")
        mapped = map_call(call)
        if mapped is None and call.extra.get("why"):
            self.kept(call, f"{call.name}: {call.extra['why']}")
            return
        nid = self.mapped(call, mapped, title) if mapped else None
        if nid is None:
            nid = self.opaque(call, title)
        if nid is None:
            return
        ports: Sequence[str] = self.g.nodes[nid].output_names()
        if mapped and not self.g.nodes[nid].type == OP_TYPE:
            ports = mapped[3] or ports
        for t, port in zip(outs, ports):
            self.current[id(t)] = (nid, port)
        if outs:
            self._note_table(nid, outs[0])

    def mapped(self, call: Call, mapped: Mapped, title: str | None) -> str | None:
        type_id, inputs, params, _ = mapped
        try:
            params = get_spec(type_id).validate_params(params)
        except (ParamError, KeyError):
            return None
        sources = {port: self.source_of(value, call.line) for port, value in inputs.items() if value is not None}
        nid = self.add(type_id, params, title, call.line)
        for port, (src, src_port) in sources.items():
            self.g.connect(Edge(src, src_port, nid, port))
        return nid

    def opaque(self, call: Call, title: str | None) -> str | None:
        tensors: list[core.Tensor] = []
        try:
            data = {"args": code_ops.encode_args(list(call.args), tensors),
                    "kwargs": code_ops.encode_args(dict(call.kwargs), tensors)}
        except code_ops.OpError as exc:
            self.kept(call, f"{call.name}: {exc}")
            return None
        if len(tensors) > MAX_INPUTS:
            self.kept(call, f"{call.name} takes more than {MAX_INPUTS} tensors")
            return None
        sources = [self.source_of(t, call.line) for t in tensors]
        nid = self.add(OP_TYPE, {"op": call.name, "args": json.dumps(data), "tensors": len(tensors)},
                       title or call.name.rsplit(".", 1)[-1], call.line)
        for i, (src, src_port) in enumerate(sources):
            self.g.connect(Edge(src, src_port, nid, f"in{i}"))
        return nid

    def kept(self, call: Call, why: str) -> None:
        """A call that can't become a node: its outputs are kept as values (leaves) and the notes say so."""
        self.notes.append(f"line {call.line}: {why}; its result is kept as a value")


def _values(t: core.Tensor) -> Any:
    """A tensor's values as nested lists; float32 values in their shortest text that reads back the same."""
    arr = tensor_values(t)
    if arr.dtype == np.float32 and arr.size <= SHORT_MAX:
        short = [float(str(np.float32(v))) for v in arr.ravel().tolist()]
        return np.array(short, dtype=np.float64).reshape(arr.shape).tolist()
    return arr.tolist()


def _outputs(call: Call) -> list[core.Tensor]:
    result = call.result
    if result is None and call.args and isinstance(call.args[0], core.Tensor):
        return [call.args[0]]
    if isinstance(result, core.Tensor):
        return [result]
    if isinstance(result, (tuple, list)):
        return [t for t in result if isinstance(t, core.Tensor)][:len(OUTPUTS)]
    return []


def _training(b: _Builder, loss_node: str | None) -> None:
    loop = b.tr.training
    training = copy.deepcopy(b.g.training)
    training["loss"] = loss_node
    if loop is not None:
        training.update({"optimizer": loop.optimizer, "optimizer_params": loop.settings, "steps": max(loop.steps, 1)})
        if not loop.zero_grad:
            b.notes.append(f"line {loop.line}: the loop never calls zero_grad(); the graph's training zeroes the "
                           "gradients every step")
    try:
        training = training_settings.check(training)
    except training_settings.SettingError as exc:
        b.notes.append(f"the training settings were not taken over ({exc})")
        training = {**b.g.training, "loss": loss_node}
    for key, value in training.items():
        b.g.set_training(key, value)


def _fresh_in_loop(tr: Trace) -> list[str]:
    """Notes for values the training loop makes anew each pass (``xb = torch.randn(...)``): the graph keeps
    the first."""
    loop = tr.training
    if loop is None or not loop.span:
        return []
    span, trained = loop.span, {id(p) for p in loop.params}
    return [f"line {leaf.line}: {tr.names.get(key, 'a value')} is made anew in every pass of the loop; the graph "
            "keeps the first pass's values" for key, leaf in tr.leaves.items()
            if key not in trained and not leaf.parameter and leaf.line and span[0] <= leaf.line <= span[1]]


def _calls_of(source: str) -> dict[str, int]:
    """Name -> line of its first call in ``source`` (``lstm(x)``, ``self.lstm(x)``: both ``lstm``)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    lines: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name is not None and node.lineno < lines.get(name, node.lineno + 1):
                lines[name] = node.lineno
    return lines


def _unrecorded_modules(tr: Trace, source: str) -> list[tuple[int, str]]:
    """Modules the snippet called whose parameters no recorded op read: ``nn.LSTM``, ``nn.GRU``,
    ``nn.MultiheadAttention`` compute in helpers the recorder does not see, so their outputs reach the graph as
    values. ``(line of the first call, what to say)`` for each, so the notes (or the refusal) name it."""
    calls = _calls_of(source)
    span = tr.training.span if tr.training else None
    out = []
    for name, module in tr.modules.values():
        params = [id(p) for p in module.parameters()]
        line = calls.get(name.rsplit(".", 1)[-1])
        if not params or line is None or any(p in tr.leaves for p in params) or (span and line > span[1]) \
                or any(note.startswith(f"line {line}: ops run without gradient") for note in tr.notes):
            continue  # read by the graph, never called, or called where nothing is recorded (and said so)
        out.append((line, f"{name} (nn.{type(module).__name__}) is not supported by code import: it computes in "
                          "steps the import does not record"))
    return sorted(out)


def build_graph(tr: Trace, source: str = "", name: str = "snippet.py") -> Graph:
    """The graph of a trace; ``graph.code`` holds ``source``, each node's line and the notes."""
    b = _Builder(tr)
    for call in tr.calls:
        b.call(call)
    loss = b.current.get(id(tr.loss)) if tr.loss is not None else None
    ops = [c for c in tr.calls if c.name != CHANGED]
    if loss is None and ops:  # no backward() in the code: its last scalar result is the graph's loss
        # (a non-scalar one is not: backward() of it raises, so Backward would fail and the export would crash)
        loss = next((b.current[id(t)] for t in reversed(_outputs(ops[-1]))
                     if id(t) in b.current and t.numel() == 1), None)
    _training(b, loss[0] if loss else None)
    b.notes.extend(_fresh_in_loop(tr))
    unrecorded = _unrecorded_modules(tr, source)
    if unrecorded and not b.g.nodes:  # nothing else to show: say which call made nothing, at its line
        raise SnippetError(f"{unrecorded[0][1]}, and nothing else in the snippet makes a graph", unrecorded[0][0])
    b.notes.extend(f"line {line}: {what}; its outputs are kept as values and its parameters are not in the graph"
                   for line, what in unrecorded)
    tall = {nid: (layout.NODE_WIDTH, layout.node_size(b.g.nodes[nid])[1] + layout.HEAT_ROOM) for nid in b.tables}
    for nid, pos in layout.layered(b.g, sizes=tall).items():  # room for the colour tables a forward pass will draw
        b.g.move_node(nid, pos)
    notes = tr.notes + b.notes
    b.g.set_code({"text": source, "name": name, "lines": dict(b.lines), "notes": notes})
    return b.g
