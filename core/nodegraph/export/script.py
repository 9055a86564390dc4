"""Export a graph document as a standalone Python script, on ``core`` (``import core as torch``) or on PyTorch.

The code comes from the node specs: each ``NodeSpec.code`` is a template (``"torch.mul({a}, {b})"``, formatted
with the input expressions and the repr of each parameter) or a hook ``code(cg)`` that receives a ``NodeCode``
and returns an expression (or ``{port: expression}``). A node type without ``code`` can't be exported and
``ExportError`` names it.

What the script does mirrors a fresh ``Session(graph, device, seed)`` with the graph's training settings:
- with a loss node and trainable parameters: ``STEPS`` iterations of zero_grad, forward, backward, optimizer
  (and schedule) step, printing ``loss <step> <value>`` each step -- ``Session.train(STEPS)``; with a dataset
  that holds rows out it also prints ``val_loss <step> <value>`` (and ``val_accuracy`` for a classification
  loss) on the steps ``core.nodegraph.training.holdout`` measures, evaluating the loss's ancestors on those rows
  as the session does (torch scripts replay the held-out values the session used, as they replay its training batches);
- otherwise one forward and, when the loss requires grad, one backward -- ``Session.forward(); backward()``;
then what the session shows: every output under its node's name (``xw = tensor([ 3.0000, -1.5000],
grad_fn=<MulBackward0>)``), ``z.backward()`` when it ran backward, and the ``.grad`` of leaves and parameters.
Variables are named after the nodes' titles (``x = torch.tensor(...)``, ``xw = torch.mul(x, w)``), so the
script reads like the chapter's code. Run with ``--json``, it prints ``value <node.port> <json>``,
``grad``/``param`` lines instead, exact and keyed by the document's ids, for tests and tools.

Reproducibility: parameters and layer weights start from their initial values written as literals (taken
from a fresh session, so both APIs start equal); random sources draw from the same ``Generator`` seeding as
the session in ``core`` scripts (exact match), while ``torch`` scripts, whose generators differ, replay the
values the session drew, recorded per step. Floats are written exactly (repr, or ``.npy`` bytes in base64).

A node whose forward fails in a fresh session (lesson 3's ``b.view(12)``) raises at its line of the script too:
a ``# NOTE:`` comment above the line says so, with the node's name and the error the app shows on it.

A subgraph node becomes a function of its inputs whose inner random nodes are seeded like
``core.nodegraph.model.evaluate`` seeds them; inner nodes that own parameters, and inner random nodes in torch
scripts, are refused (expand the subgraph first). Formula nodes are inlined as one expression.
"""

from __future__ import annotations

import builtins
import keyword
import os
import re
import textwrap
from typing import TYPE_CHECKING, Any

import numpy as np

import core
import core.nodegraph.model.nodes  # registers the node types and their code
from core.nodegraph.export import ddp as export_ddp
from core.nodegraph.export import holdout as export_holdout
from core.nodegraph.export.code_hooks import ExportError, NodeCode, as_numpy
from core.nodegraph.export.script_text import (
    HELPERS,
    IMPORTS,
    Recorded,
    RecordedHeldOut,
    docstring,
    forward_function,
    optimizer_lines,
    recorded_text,
)
from core.nodegraph.model.document import Graph, Node
from core.nodegraph.model.names import node_label
from core.nodegraph.model.spec import get_spec
from core.nodegraph.training import holdout

if TYPE_CHECKING:
    from core.nodegraph.model.events import NodeError
    from core.nodegraph.run.session import Session

__all__ = ["ExportError", "NodeCode", "export_script", "write_script", "node_code", "APIS"]

APIS = ("core", "torch")
PROBE_TYPE = "probe.gradient"
# Names a node's variable never takes: the script's own globals, Python's keywords and builtins.
_TAKEN = frozenset({"torch", "F", "np", "io", "json", "base64", "sys", "DEVICE", "SEED", "STEPS", "TRAINING", "PARAMS",
                    "LABELS", "JSON", "SPLIT", "VAL_SEED", "ACC_KIND", "gen", "step", "forward", "main", "values",
                    "backward", "validation_loss"}) | frozenset(keyword.kwlist) | frozenset(dir(builtins))


_CodeResult = str | dict[str, str]  # what a node's code gives: an expression, or expressions by output port
# A fresh session's first forward: (parameters (copies), errors, {node: {port: value}}).
_Fresh = tuple[dict[str, core.Tensor], dict[str, "NodeError"], dict[str, dict[str, Any]]]


class _Exporter:
    """Writes one graph's code: node variables, setup lines, helpers and the values the script replays. A formula's
    nodes (``child``) and a subgraph's inner graph (``subgraph_call``) get an exporter of their own that writes into
    the same script."""

    def __init__(self, graph: Graph, api: str, steps: int | None, ddp: bool = False) -> None:
        if api not in APIS:
            raise ExportError(f"unknown api '{api}': choose one of {', '.join(APIS)}")
        if ddp and api != "torch":
            raise ExportError("--ddp exports a torch script: use it with --api torch")
        self.graph, self.api, self.ddp = graph, api, ddp
        self.training = {**graph.training}
        self.steps = int(self.training.get("steps") or 0) if steps is None else steps
        self.recorded: dict[str, None] = {}  # "node.port[:nonzero]" keys of the values the script replays
        self.setup: list[str] = []
        self.helpers: list[str] = []
        self._vars: dict[str, str] = {}
        self._used: set[str] = set()  # every variable name given out (node outputs and setup globals)
        self._suffix: dict[str, int] = {}  # base name -> the last number unique() tried for it
        self._initial: _Fresh | None = None
        self.outputs: dict[str, dict[str, str]] = {}  # node -> port -> the expression (variable) holding it
        self.has_params = False  # set by NodeCode.parameter/module: the script then trains when there is a loss
        self.owners: list[str] = []  # layer nodes (NodeCode.module): their parameters print as <layer>.<name>
        self.inner: tuple[str, int] | None = None  # (subgraph node id, run seed) while exporting its inner graph
        self.feeds: dict[tuple[str, str], str] = {}  # (inner node, port) -> expression of a subgraph input
        self.prefix = ""

    def var(self, nid: str) -> str:
        """The node's variable: its title (``xw``; an untitled node's type title in lower case, ``mul``), made a fresh
        Python name."""
        if nid not in self._vars:
            node = self.graph.nodes.get(nid)
            label = node_label(self.graph, nid) if node is None or node.title else node_label(self.graph, nid).lower()
            label = re.sub(r"\W", "_", label, flags=re.ASCII).lstrip("_0123456789")
            if not label:
                label = "v_" + re.sub(r"\W", "_", nid, flags=re.ASCII)
            self._vars[nid] = self.unique(self.prefix + label)
        return self._vars[nid]

    def child(self, graph: Graph) -> _Exporter:
        """An exporter for a formula's nodes, inlined into this script: it shares the setup lines, helpers and
        recorded values."""
        sub = _Exporter(graph, self.api, 0)
        sub.setup, sub.helpers, sub.recorded = self.setup, self.helpers, self.recorded
        return sub

    def unique(self, base: str) -> str:
        """``base``, or ``base_2``, ``base_3``...: a name no other variable, global or builtin has."""
        name = base + "_" if base in _TAKEN else base
        i = self._suffix.get(base, 1)  # NOTE: from the last suffix given: counting up from 2 each time was quadratic
        while name in self._used or name in _TAKEN:  # in the untitled nodes of a type (500 'mul's: 125,000 tries)
            i += 1
            name = f"{base}_{i}"
        self._suffix[base] = i
        self._used.add(name)
        return name

    # ----- the session this script mirrors ----------------------------------------------------------
    def session(self) -> Session:
        from core.nodegraph.run.session import Session  # the session imports the node registry

        return Session(Graph.from_dict(self.graph.to_dict()), device=self.training.get("device") or "cpu",
                       seed=int(self.training.get("seed") or 0), history_limit=2)

    def _fresh_forward(self) -> _Fresh:
        """``(parameters (copies), errors, values)`` of a fresh session after one forward pass (run once)."""
        if self._initial is None:
            s = self.session()
            s.run_forward()  # the training step's pass: no snapshot per node (a 2,000-node export spent 2 s in them)
            values = {nid: dict(ports) for nid, ports in s.values.items() if isinstance(ports, dict)}
            self._initial = ({k: t.detach().clone() for k, t in s.parameters().items()}, dict(s.errors), values)
        return self._initial

    def forward_values(self) -> dict[str, dict[str, Any]]:
        """``{node: {port: value}}`` of a fresh session's first forward pass."""
        return self._fresh_forward()[2]

    def initial_parameters(self, nid: str) -> dict[str, core.Tensor]:
        """The node's trainable tensors as a fresh session creates them (copies)."""
        params, errors, _ = self._fresh_forward()
        found = {k[len(nid) + 1:]: t for k, t in params.items() if k.startswith(nid + ".")}
        if not found:
            why = f": {errors[nid]}" if nid in errors else ""
            raise ExportError(f"node '{nid}': its parameters could not be created{why}")
        return found

    def record(self, mode: str, val: bool = False) -> tuple[Recorded, RecordedHeldOut]:
        """Run the session the script mirrors and keep the values of the recorded ports: ``({key: [per step]},
        {key: {step: held-out values}})``, the latter for the steps that measure the validation rows (``val``);
        values the same at every step are kept once (under step None for the held-out ones)."""
        if not self.recorded:
            return {}, {}
        s = self.session()
        steps: list[dict[str, np.ndarray]] = []
        held: dict[int, dict[str, np.ndarray]] = {}
        if mode == "train":
            for metrics in s.train(self.steps):
                steps.append(self._recorded_values(s))
                if val and "val_loss" in metrics:
                    held[metrics["step"]] = self._held_out_values(s, metrics["step"])
        else:
            s.forward()
            steps.append(self._recorded_values(s))
        out = {key: _once([st[key] for st in steps]) for key in self.recorded}
        out_val: RecordedHeldOut = {}
        for key in dict.fromkeys(k for values in held.values() for k in values):  # (a set: _REC_VAL's order, and the
            # exported text, changed from one run of the app to the next)
            by_step = {step: values[key] for step, values in held.items() if key in values}
            same = len(_once(list(by_step.values()))) == 1
            out_val[key] = {None: by_step[min(by_step)]} if same else {st: a for st, a in by_step.items()}
        return out, out_val

    def _held_out_values(self, s: Session, step: int) -> dict[str, np.ndarray]:
        """The recorded ports' values in the session's validation of ``step`` (the loss's ancestors only)."""
        store = holdout.held_out_values(s, step)
        out: dict[str, np.ndarray] = {}
        if store is None:  # the session measured no validation (record asks only for steps that did)
            return out
        for key in self.recorded:
            nid, port = key.split(":")[0].rsplit(".", 1)
            value = (store.outputs.get(nid) or {}).get(port)
            if isinstance(value, core.Tensor) and not key.endswith(":nonzero"):  # dropout is off in validation
                out[key] = as_numpy(value)
        return out

    def _recorded_values(self, s: Session) -> dict[str, np.ndarray]:
        """The recorded ports' values in the session's last forward (``:nonzero`` keys: where they are non-zero)."""
        out: dict[str, np.ndarray] = {}
        for key in self.recorded:
            nid, port = key.split(":")[0].rsplit(".", 1)
            value = (s.values.get(nid) or {}).get(port)
            if not isinstance(value, core.Tensor):
                raise ExportError(f"node '{nid}' has no value to record: {s.errors.get(nid, 'it did not run')}")
            out[key] = as_numpy(value) != 0 if key.endswith(":nonzero") else as_numpy(value)
        return out

    # ----- code ------------------------------------------------------------------------------------
    def node_lines(self, nid: str) -> list[str]:
        """The node's assignment lines; its outputs' variables go to ``outputs``."""
        names, result, var = self.node_result(nid)
        if isinstance(result, dict):  # a hook may give only some ports (the others have no code)
            names = [p for p in names if p in result]
        ports = {p: var if p == names[0] else self.unique(f"{var}_{p}") for p in names}
        self.outputs[nid] = ports
        if isinstance(result, dict):
            return [f"{ports[p]} = {expr}" for p, expr in result.items()]
        if len(names) > 1:
            return [f"{', '.join(ports.values())} = {result}"]
        return [f"{var} = {result}"]

    def inline(self, nid: str) -> dict[str, str]:
        """The node's outputs as expressions (no variables): for formulas, whose nodes form a small tree."""
        names, result, _ = self.node_result(nid)
        if isinstance(result, dict):
            out = {p: f"({e})" for p, e in result.items()}
        elif len(names) > 1:
            out = {p: f"({result})[{i}]" for i, p in enumerate(names)}
        else:
            out = {names[0]: result}
        self.outputs[nid] = out
        return out

    def node_result(self, nid: str) -> tuple[list[str], _CodeResult, str]:
        """``(output port names, the code hook's result, the node's variable)``."""
        node = self.graph.nodes[nid]
        spec = node.spec
        inputs: dict[str, str] = {}
        for port, e in self.graph.inputs_of(nid).items():
            if e.src_port not in self.outputs[e.src]:
                raise ExportError(f"node '{nid}': output '{e.src_port}' of node '{e.src}' has no export code")
            inputs[port] = self.outputs[e.src][e.src_port]
        inputs.update({port: expr for (n, port), expr in self.feeds.items() if n == nid})
        if node.graph is not None:
            names = [p["name"] for p in node.graph.get("outputs", ())]
            return names, self.subgraph_call(nid, node.graph, inputs), self.var(nid)
        if spec is None:
            raise ExportError(f"node '{nid}' has an unknown type '{node.type}'")
        if spec.code is None:
            raise ExportError(f"node '{nid}' ({node.type}): this node type has no export code yet")
        try:
            params = spec.validate_params(node.params)
        except ValueError as exc:
            raise ExportError(f"node '{nid}': {exc}") from None
        cg = NodeCode(self, nid, params, inputs)
        result = spec.code(cg) if callable(spec.code) else cg.format(spec.code)
        return [p.name for p in spec.outputs], result, cg.var

    def subgraph_call(self, nid: str, inner: dict[str, Any], inputs: dict[str, str]) -> str:
        """A subgraph node (``inner``: its graph): the inner graph becomes a function (inner nodes seeded as
        ``run_subgraph`` seeds them)."""
        g = Graph.from_dict({"nodes": inner.get("nodes", ()), "edges": inner.get("edges", ())})
        sub = _Exporter(g, self.api, self.steps, self.ddp)
        sub.training, sub.setup, sub.helpers = self.training, self.setup, self.helpers
        sub.inner, sub.prefix = (nid, int(self.training.get("seed") or 0)), f"{self.var(nid)}__"
        args = {p["name"]: f"a_{i}" for i, p in enumerate(inner.get("inputs", ()))}
        for p in inner.get("inputs", ()):
            for dst, dst_port in p.get("to", ()):
                sub.feeds[(dst, dst_port)] = args[p["name"]]
        body = [line for n in g.topological_order() for line in sub.node_lines(n)]
        outs = [sub.outputs[p["from"][0]][p["from"][1]] for p in inner.get("outputs", ())]
        fn = f"_subgraph_{self.var(nid)}"
        self.helpers.append(f"def {fn}({', '.join(args.values())}):\n    step = 0\n"
                            + "".join(f"    {line}\n" for line in body) + f"    return {', '.join(outs) or 'None'}\n")
        return f"{fn}({', '.join(inputs.get(name, 'None') for name in args)})"


def _once(arrays: list[np.ndarray]) -> list[np.ndarray]:
    """``arrays``, or only the first one when they are all equal."""
    same = all(a.shape == arrays[0].shape and np.array_equal(a, arrays[0]) for a in arrays)
    return arrays[:1] if same else arrays


def _mode(graph: Graph, ex: _Exporter) -> tuple[str, str | None]:
    """``("train" | "forward", the loss node or None)``: the script trains when it has a loss and parameters."""
    setting = graph.training.get("loss")
    loss = setting if setting in graph.nodes else None
    return ("train" if loss and ex.has_params else "forward"), loss


def _main(ex: _Exporter, mode: str, loss: str | None, probes: list[tuple[str, str]], labels: dict[str, str],
          val: bool = False) -> str:
    """``main()``: train or run forward (and backward), then show the values, gradients and parameters."""
    loss_key = f"{loss}.{next(iter(ex.outputs[loss]))}" if loss else None
    if ex.ddp:
        if loss is None or loss_key is None:  # export_ddp.check refused the graph already
            raise ExportError("--ddp exports a training script: the graph needs a loss and trainable parameters")
        unused = export_ddp.unused_parameters(ex.graph, loss, ex._initial[0] if ex._initial else ())
        due = export_holdout.due_text(ex) if val else None
        return export_ddp.main_code(optimizer_lines(ex.training), loss_key, due, unused)
    if mode == "train":
        run = (optimizer_lines(ex.training)
               + "    values = {}\n"
               "    for step in range(STEPS):\n"
               "        for p in PARAMS.values():\n"
               "            p.grad = None\n"
               "        values = forward(step)\n"
               f"        loss = values[{loss_key!r}]\n"
               "        loss.backward()\n"
               "        with torch.no_grad():\n"
               "            opt.step()\n"
               "        if sched is not None:\n"
               "            sched.step()\n"
               "        print('loss', step, repr(loss.item()))\n")
        if val:
            run += (f"        if {export_holdout.due_text(ex)}:\n"
                    "            val_loss, val_accuracy = _validate(step)\n"
                    "            print('val_loss', step, repr(val_loss))\n"
                    "            if val_accuracy is not None:\n"
                    "                print('val_accuracy', step, repr(val_accuracy))\n")
    else:
        run = "    values = forward(0)\n    backward = False\n"
        if loss and loss_key:
            loss_var = ex.outputs[loss][loss_key.rsplit(".", 1)[1]]
            run += (f"    {loss_var} = values[{loss_key!r}]\n"
                    f"    if isinstance({loss_var}, torch.Tensor) and {loss_var}.requires_grad:\n"
                    f"        {loss_var}.backward()\n"
                    "        backward = True\n")
            run += "".join(f"    values[{p!r}] = _probe(values[{src!r}])\n" for p, src in probes)
    show = ("    for key, t in values.items():\n"
            "        _show('value', key, t)\n"
            + (f"    if backward and not JSON:\n        print({labels[loss_key] + '.backward()'!r})\n"
               if mode != "train" and loss_key else "")
            + "    for key, t in values.items():\n"
            "        if isinstance(t, torch.Tensor) and t.is_leaf and t.grad is not None:\n"
            "            _show('grad', key, t.grad)\n"
            "    for key, t in PARAMS.items():\n"
            "        if JSON or not any(t is v for v in values.values()):  # a parameter node's value is shown above\n"
            "            _show('param', key, t)\n"
            "            _show('grad', key, t.grad)\n")
    return "def main():\n" + run + show


def _labels(ex: _Exporter, order: list[str]) -> dict[str, str]:
    """What the script prints each value and parameter as: the variable that holds it (``xw``, ``lin.weight``)."""
    labels = {f"{nid}.{p}": v for nid in order for p, v in ex.outputs[nid].items()}
    for nid in ex.owners:
        labels.update({f"{nid}.{name}": f"{ex.var(nid)}.{name}" for name in ex.initial_parameters(nid)})
    return labels


def export_script(graph: Graph, api: str = "core", steps: int | None = None, ddp: bool = False) -> str:
    """The script's text; ``steps`` overrides ``graph.training["steps"]``; ``ddp`` (torch only): a training script
    for ``torchrun`` with DistributedDataParallel (``core.nodegraph.export.ddp``). ExportError names what can't be
    exported."""
    from core.nodegraph.model.validation import validate

    ex = _Exporter(graph, api, steps, ddp)
    for nid, issues in validate(graph).items():
        raise ExportError(f"{'the training settings' if nid == 'training' else f'node {nid!r}'}: {issues[0].message}")
    order = graph.topological_order()
    lines = {nid: _failing_note(ex, nid) + ex.node_lines(nid) for nid in order}
    body = [line for nid in order for line in lines[nid]]
    mode, loss = _mode(graph, ex)
    probes = [(f"{nid}.out", f"{e.src}.{e.src_port}") for nid in order if graph.nodes[nid].type == PROBE_TYPE
              for e in graph.inputs_of(nid).values()]
    val_loss = export_holdout.measured_loss(graph, mode, loss)
    labels = _labels(ex, order)
    if val_loss:
        ex.helpers.append(export_holdout.VALIDATE)
    if ddp:
        export_ddp.check(graph, mode, loss, ExportError)
        ex.helpers.append(export_ddp.HELPERS)  # last: it joins the process group before the setup lines run
    rec_text = recorded_text(*ex.record(mode, bool(val_loss)), bool(val_loss))
    what = f"trains for {ex.steps} steps" if mode == "train" else "runs forward" + (" and backward" if loss else "")
    what += " with DistributedDataParallel: torchrun --nproc_per_node=N SCRIPT" if ddp else ""
    count = f"{len(order)} node{'' if len(order) == 1 else 's'}"
    parts = [docstring(f"Exported from Nodegrad ({api}): {count}; {what}.", bool(val_loss)),
             f"import base64\nimport io\nimport json\nimport sys\n\nimport numpy as np\n\n{IMPORTS[api]}",
             f"DEVICE = {ex.training.get('device') or 'cpu'!r}\nSEED = {int(ex.training.get('seed') or 0)!r}\n"
             f"STEPS = {ex.steps!r}\nTRAINING = True\nPARAMS = {{}}\n"
             "JSON = '--json' in sys.argv[1:]  "
             "# print exact values keyed by node ids instead of what the session shows\n"
             f"LABELS = {labels!r}"
             + (export_holdout.constants(ex, val_loss) if val_loss else ""),
             HELPERS.strip() + "\n\n" + "\n\n".join(h.strip() for h in ex.helpers),
             f"_REC = {rec_text}\ngen = torch.Generator().manual_seed(SEED)\n" + "\n".join(ex.setup),
             forward_function(ex.outputs, order, body),
             export_holdout.validation_function(ex, val_loss, lines) if val_loss else "",
             _main(ex, mode, loss, probes, labels, bool(val_loss)),
             'if __name__ == "__main__":\n    main()']
    return "\n\n\n".join(p.strip("\n") for p in parts if p) + "\n"


NOTE_WIDTH = 100  # characters of a comment line that says why the next line raises


def _failing_note(ex: _Exporter, nid: str) -> list[str]:
    """Comment lines for a node whose forward fails in a fresh session (lesson 3's ``b.view(12)``): the script's line
    raises the same error, so it says so above that line, with the node's name and the error as the app shows it."""
    error = ex._fresh_forward()[1].get(nid)
    if error is None or error.phase != "forward" or error.origin not in (None, nid):
        return []
    name = node_label(ex.graph, nid)
    text = f"NOTE: the next line raises, as node {name!r} does in Nodegrad: {error}"
    return [f"# {line}" for line in textwrap.wrap(text, NOTE_WIDTH, break_long_words=False, break_on_hyphens=False)]


def node_code(type_id: str, params: dict[str, Any] | None = None, inputs: dict[str, str] | None = None,
              api: str = "core") -> dict[str, str]:
    """The code of one node on its own: ``{port: expression}`` given input expressions by port name (a
    multi-output call is indexed per port).

    For inspecting a node's code, and for testing templates; nodes that own state (parameters, layers) need a
    whole graph (``export_script``).
    """
    g = Graph()
    g.add_node(Node("n", type_id, dict(params or {})))
    ex = _Exporter(g, api, 0)
    ex.outputs.update({f"in_{p}": {"out": expr} for p, expr in (inputs or {}).items()})
    spec = get_spec(type_id)
    if spec.code is None:
        raise ExportError(f"node type '{type_id}' has no export code")
    cg = NodeCode(ex, "n", spec.validate_params(params or {}), dict(inputs or {}))
    result = spec.code(cg) if callable(spec.code) else cg.format(spec.code)
    names = [p.name for p in spec.outputs]
    if isinstance(result, dict):
        return result
    return {names[0]: result} if len(names) == 1 else {p: f"({result})[{i}]" for i, p in enumerate(names)}


def write_script(graph: Graph, path: str | os.PathLike[str], api: str = "core", steps: int | None = None,
                 ddp: bool = False) -> str:
    """Export to ``path`` (written only once the whole script was generated); returns the text."""
    text = export_script(graph, api, steps, ddp)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return text
