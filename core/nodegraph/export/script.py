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

A subgraph node becomes a function of its inputs whose inner random nodes are seeded like
``core.nodegraph.model.evaluate`` seeds them; inner nodes that own parameters, and inner random nodes in torch
scripts, are refused (expand the subgraph first). Formula nodes are inlined as one expression.
"""

from __future__ import annotations

import base64
import builtins
import io
import keyword
import re

import numpy as np

import core
import core.nodegraph.model.nodes  # registers the node types and their code
from core.nodegraph.export import ddp as export_ddp
from core.nodegraph.model import tensor_store
from core.nodegraph.model.document import Graph
from core.nodegraph.model.evaluate import node_seed
from core.nodegraph.model.names import node_label
from core.nodegraph.model.spec import get_spec
from core.nodegraph.training import holdout
from core.nodegraph.training.trainer import accuracy_plan

__all__ = ["ExportError", "NodeCode", "export_script", "write_script", "node_code", "APIS"]

APIS = ("core", "torch")
INLINE_MAX = 64
_IMPORTS = {"core": "import core as torch\nimport core.nn.functional as F",
            "torch": "import torch\nimport torch.nn.functional as F"}
PROBE_TYPE = "probe.gradient"
# Names a node's variable never takes: the script's own globals, Python's keywords and builtins.
_TAKEN = frozenset({"torch", "F", "np", "io", "json", "base64", "sys", "DEVICE", "SEED", "STEPS", "TRAINING", "PARAMS",
                    "LABELS", "JSON", "SPLIT", "VAL_SEED", "ACC_KIND", "gen", "step", "forward", "main", "values",
                    "backward", "validation_loss"}) | frozenset(keyword.kwlist) | frozenset(dir(builtins))


class ExportError(ValueError):
    """A graph that can't be exported; the message names the node and the reason."""


def _array_text(arr: np.ndarray) -> str:
    """Python text for an array's values: an inline list when small and finite, else ``_arr(<npy base64>)``."""
    if arr.size <= INLINE_MAX and (arr.dtype.kind not in "fc" or np.isfinite(arr).all()):
        return repr(arr.tolist())
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(arr), allow_pickle=False)
    return f"_arr({base64.b64encode(buf.getvalue()).decode('ascii')!r})"


def _numpy(t) -> np.ndarray:
    return np.asarray(t.detach().cpu().numpy()) if isinstance(t, core.Tensor) else np.asarray(t)


class _Fmt(dict):
    def __missing__(self, key):
        raise ExportError(f"the code template names '{key}', which is neither an input nor a parameter")


class NodeCode:
    """What a node's code hook may use: ``inputs`` (port -> expression; unconnected optional ports absent),
    ``params`` (validated values), ``api``, ``node_id``, ``var`` (the node's variable name) and helpers."""

    def __init__(self, exporter, node_id: str, params: dict, inputs: dict):
        self._ex = exporter
        self.node_id, self.params, self.inputs, self.api = node_id, params, inputs, exporter.api
        self.var = exporter.var(node_id)

    def format(self, template: str) -> str:
        """``template`` formatted with the inputs (absent ones as None) and the repr of every parameter."""
        values = {k: repr(v) for k, v in self.params.items()}
        spec = get_spec(self._ex.graph.nodes[self.node_id].type)
        values.update({p.name: "None" for p in spec.input_ports(self._ex.graph.nodes[self.node_id].params)})
        values.update(self.inputs)
        return template.format_map(_Fmt(values))

    def connected(self, ports) -> list:
        """The expressions of the connected ones among ``ports``, in order."""
        return [self.inputs[p] for p in ports if p in self.inputs]

    def generator(self, seed) -> str:
        """The generator a random node draws from: its own seed, else the script's ``gen`` (the session's); inside
        a subgraph, a generator seeded from the run's seed and the node's id like ``core.nodegraph.model.evaluate``."""
        if seed is not None:
            return f"torch.Generator().manual_seed({seed!r})"
        if self._ex.inner is not None:
            return f"torch.Generator(DEVICE).manual_seed({node_seed(self._ex.inner[1], self.node_id)!r})"
        return "gen"

    def array(self, value) -> str:
        """A tensor literal parameter as the values ``core.tensor`` makes of it (a long list as its array)."""
        return _array_text(_numpy(tensor_store.literal(tensor_store.frozen(value))))

    def literal(self, tensor) -> str:
        """A tensor with exactly these values and dtype, on DEVICE."""
        arr = _numpy(tensor)
        dtype = str(tensor.dtype).split(".")[-1] if isinstance(tensor, core.Tensor) else arr.dtype.name
        return f"torch.tensor({_array_text(arr)}, dtype=torch.{dtype}, device=DEVICE)"

    def recorded(self, port: str = "out", nonzero: bool = False) -> str:
        """The values the session computed for this port, replayed per step (random sources in torch);
        ``nonzero``: where they are non-zero instead (a dropout node's kept entries)."""
        self._refuse_inside("random values inside a subgraph can't be replayed in a torch script")
        key = f"{self.node_id}.{port}" + (":nonzero" if nonzero else "")
        self._ex.recorded.setdefault(key, None)
        if self._ex.ddp:  # each process keeps its rows of the dataset's batch; other random values are refused
            return export_ddp.shard(self._ex.graph.nodes[self.node_id], f"_rec({key!r}, step)", ExportError)
        return f"_rec({key!r}, step)"

    def _refuse_inside(self, why: str) -> None:
        if self._ex.inner is not None:
            raise ExportError(f"node '{self.node_id}' inside subgraph '{self._ex.inner[0]}': {why}; expand the "
                              "subgraph to export it")

    def setup(self, line: str) -> None:
        """A line run once before the forward function (modules, parameters, datasets)."""
        self._ex.setup.append(line)

    def setup_var(self, prefix: str, expr: str) -> str:
        name = self._ex.unique(f"{prefix}_{self.var}")
        self.setup(f"{name} = {expr}")
        return name

    def helper(self, text: str) -> None:
        """A helper function's source, emitted once at the top of the script."""
        if text not in self._ex.helpers:
            self._ex.helpers.append(text)

    def formula(self, formula: str, names: dict | None = None) -> str:
        """An ``expr.expression`` node: the formula expanded into node types, inlined as one expression; its free
        names are the node's inputs, or the expressions ``names`` gives them (``{"x": "x"}`` in a lambda)."""
        from core.nodegraph.model import expression  # the expression module imports the node registry

        try:
            frag = expression.expand(formula)
        except ValueError as exc:
            raise ExportError(f"node '{self.node_id}': {exc}") from None
        sub = _Exporter(Graph.from_dict({"nodes": frag["nodes"], "edges": frag["edges"]}), self.api, 0)
        sub.setup, sub.helpers, sub.recorded = self._ex.setup, self._ex.helpers, self._ex.recorded
        free = set(frag.get("inputs", ()))
        given = self.inputs if names is None else names
        result = None
        for nid in sub.graph.topological_order():
            node = sub.graph.nodes[nid]
            if node.type == "source.tensor" and node.title in free:
                if node.title not in given:
                    raise ExportError(f"node '{self.node_id}': input '{node.title}' is not connected")
                sub._outputs[nid] = {"out": given[node.title]}
            else:
                sub.inline(nid)
            result = sub._outputs[nid]["out"] if nid == frag["nodes"][-1]["id"] else result
        return result

    def input_value(self, port: str):
        """The value a fresh session feeds to input ``port`` (None when unconnected, inside a subgraph or when
        its source failed): for code that reads better when it knows a dtype."""
        edge = self._ex.graph.inputs_of(self.node_id).get(port)
        if edge is None or self._ex.inner is not None:
            return None
        return self._ex.forward_values().get(edge.src, {}).get(edge.src_port)

    def refuse(self, why: str):
        """Stop the export: this node can't be written as code (``why`` says what to change)."""
        raise ExportError(f"node '{self.node_id}' ({self._ex.graph.nodes[self.node_id].type}): {why}")

    def parameter(self) -> str:
        """A ``param.parameter`` node: an ``nn.Parameter`` holding its initial values, trained by the optimizer."""
        ((name, t),) = self._ex.initial_parameters(self.node_id).items()
        self._refuse_inside("it owns parameters")
        self._ex.has_params = True
        p = self.setup_var("p", f"torch.nn.Parameter({self.literal(t)})")
        self.setup(f"PARAMS[{self.node_id + '.' + name!r}] = {p}")
        return p

    def module(self, constructor: str) -> str:
        """A layer node: build ``constructor`` (a template), load its initial weights, apply it to input ``x``."""
        self._refuse_inside("it owns parameters")
        self._ex.has_params = True
        self._ex.owners.append(self.node_id)
        m = self.setup_var("m", f"{self.format(constructor)}.to(DEVICE)")
        weights = ", ".join(f"{n!r}: {self.literal(t)}" for n, t in self._ex.initial_parameters(self.node_id).items())
        self.setup(f"_load({m}, {{{weights}}})")
        self.setup(f"{m}.train(TRAINING)")
        self.setup(f"PARAMS.update({{{self.node_id!r} + '.' + n: p for n, p in {m}.named_parameters()}})")
        return f"{m}({self.inputs['x']})"


HELPERS = '''
def _arr(text):
    return np.load(io.BytesIO(base64.b64decode(text)), allow_pickle=False)


def _rec(key, step):
    values = _REC[key]
    return torch.tensor(values[min(step, len(values) - 1)]).to(DEVICE)


def _load(module, weights):
    with torch.no_grad():
        for name, p in module.named_parameters():
            p.copy_(weights[name])


def _probe(x):
    if isinstance(x, torch.Tensor) and x.requires_grad and not x.is_leaf:
        x.retain_grad()
    return x.grad


def _show(kind, key, t):
    if not isinstance(t, (torch.Tensor, bool, int, float)):
        return
    if not JSON:
        print(LABELS.get(key, key) + ('.grad' if kind == 'grad' else ''), '=', repr(t))
    elif isinstance(t, torch.Tensor):
        print(kind, key, json.dumps(t.detach().cpu().tolist()))
    else:
        print(kind, key, json.dumps(t))
'''


class _Exporter:
    def __init__(self, graph: Graph, api: str, steps: int | None, ddp: bool = False):
        if api not in APIS:
            raise ExportError(f"unknown api '{api}': choose one of {', '.join(APIS)}")
        if ddp and api != "torch":
            raise ExportError("--ddp exports a torch script: use it with --api torch")
        self.graph, self.api, self.ddp = graph, api, ddp
        self.training = {**graph.training}
        self.steps = int(self.training.get("steps") or 0) if steps is None else steps
        self.recorded: dict = {}
        self.setup: list = []
        self.helpers: list = []
        self._vars: dict = {}
        self._used: set = set()  # every variable name given out (node outputs and setup globals)
        self._initial = None
        self._outputs: dict = {}
        self.has_params = False  # set by NodeCode.parameter/module: the script then trains when there is a loss
        self.owners: list = []  # layer nodes (NodeCode.module): their parameters print as <layer>.<name>
        self.inner = None  # (subgraph node id, run seed) while exporting a subgraph's inner graph
        self.feeds: dict = {}  # (inner node, port) -> expression of a subgraph input
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

    def unique(self, base: str) -> str:
        """``base``, or ``base_2``, ``base_3``...: a name no other variable, global or builtin has."""
        name = base + "_" if base in _TAKEN else base
        i = 1
        while name in self._used or name in _TAKEN:
            i += 1
            name = f"{base}_{i}"
        self._used.add(name)
        return name

    # ----- the session this script mirrors ----------------------------------------------------------
    def session(self):
        from core.nodegraph.run.session import Session  # the session imports the node registry

        return Session(Graph.from_dict(self.graph.to_dict()), device=self.training.get("device") or "cpu",
                       seed=int(self.training.get("seed") or 0), history_limit=2)

    def _fresh_forward(self) -> tuple:
        """``(parameters (copies), errors, values)`` of a fresh session after one forward pass (run once)."""
        if self._initial is None:
            s = self.session()
            s.forward()
            values = {nid: dict(ports) for nid, ports in s.values.items() if isinstance(ports, dict)}
            self._initial = ({k: t.detach().clone() for k, t in s.parameters().items()}, dict(s.errors), values)
        return self._initial

    def forward_values(self) -> dict:
        """``{node: {port: value}}`` of a fresh session's first forward pass."""
        return self._fresh_forward()[2]

    def initial_parameters(self, nid: str) -> dict:
        """The node's trainable tensors as a fresh session creates them (copies)."""
        params, errors, _ = self._fresh_forward()
        found = {k[len(nid) + 1:]: t for k, t in params.items() if k.startswith(nid + ".")}
        if not found:
            why = f": {errors[nid]}" if nid in errors else ""
            raise ExportError(f"node '{nid}': its parameters could not be created{why}")
        return found

    def record(self, mode: str, val: bool = False) -> tuple:
        """Run the session the script mirrors and keep the values of the recorded ports: ``({key: [per step]},
        {key: {step: held-out values}})``, the latter for the steps that measure the validation rows (``val``);
        values the same at every step are kept once (under step None for the held-out ones)."""
        if not self.recorded:
            return {}, {}
        s = self.session()
        steps: list = []
        held: dict = {}
        if mode == "train":
            for metrics in s.train(self.steps):
                steps.append(self._recorded_values(s))
                if val and "val_loss" in metrics:
                    held[metrics["step"]] = self._held_out_values(s, metrics["step"])
        else:
            s.forward()
            steps.append(self._recorded_values(s))
        out = {key: _once([st[key] for st in steps]) for key in self.recorded}
        out_val = {}
        for key in {k for values in held.values() for k in values}:
            by_step = {step: values[key] for step, values in held.items() if key in values}
            out_val[key] = {None: by_step[min(by_step)]} if len(_once(list(by_step.values()))) == 1 else by_step
        return out, out_val

    def _held_out_values(self, s, step: int) -> dict:
        """The recorded ports' values in the session's validation of ``step`` (the loss's ancestors only)."""
        store = holdout.held_out_values(s, step)
        out = {}
        for key in self.recorded:
            nid, port = key.split(":")[0].rsplit(".", 1)
            value = (store.outputs.get(nid) or {}).get(port)
            if isinstance(value, core.Tensor) and not key.endswith(":nonzero"):  # dropout is off in validation
                out[key] = _numpy(value)
        return out

    def _recorded_values(self, s) -> dict:
        out = {}
        for key in self.recorded:
            nid, port = key.split(":")[0].rsplit(".", 1)
            value = (s.values.get(nid) or {}).get(port)
            if not isinstance(value, core.Tensor):
                raise ExportError(f"node '{nid}' has no value to record: {s.errors.get(nid, 'it did not run')}")
            out[key] = _numpy(value) != 0 if key.endswith(":nonzero") else _numpy(value)
        return out

    # ----- code ------------------------------------------------------------------------------------
    def node_lines(self, nid: str) -> list:
        names, result, var = self.node_result(nid)
        if isinstance(result, dict):  # a hook may give only some ports (the others have no code)
            names = [p for p in names if p in result]
        ports = {p: var if p == names[0] else self.unique(f"{var}_{p}") for p in names}
        self._outputs[nid] = ports
        if isinstance(result, dict):
            return [f"{ports[p]} = {expr}" for p, expr in result.items()]
        if len(names) > 1:
            return [f"{', '.join(ports.values())} = {result}"]
        return [f"{var} = {result}"]

    def inline(self, nid: str) -> dict:
        """The node's outputs as expressions (no variables): for formulas, whose nodes form a small tree."""
        names, result, _ = self.node_result(nid)
        if isinstance(result, dict):
            out = {p: f"({e})" for p, e in result.items()}
        elif len(names) > 1:
            out = {p: f"({result})[{i}]" for i, p in enumerate(names)}
        else:
            out = {names[0]: result}
        self._outputs[nid] = out
        return out

    def node_result(self, nid: str) -> tuple:
        """``(output port names, the code hook's result, the node's variable)``."""
        node = self.graph.nodes[nid]
        spec = node.spec
        inputs = {}
        for port, e in self.graph.inputs_of(nid).items():
            if e.src_port not in self._outputs[e.src]:
                raise ExportError(f"node '{nid}': output '{e.src_port}' of node '{e.src}' has no export code")
            inputs[port] = self._outputs[e.src][e.src_port]
        inputs.update({port: expr for (n, port), expr in self.feeds.items() if n == nid})
        if node.graph is not None:
            names = [p["name"] for p in node.graph.get("outputs", ())]
            return names, self.subgraph_call(nid, node, inputs), self.var(nid)
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

    def subgraph_call(self, nid: str, node, inputs: dict) -> str:
        """A subgraph node: its inner graph becomes a function (inner nodes seeded as ``run_subgraph`` seeds them)."""
        inner = node.graph
        g = Graph.from_dict({"nodes": inner.get("nodes", ()), "edges": inner.get("edges", ())})
        sub = _Exporter(g, self.api, self.steps, self.ddp)
        sub.training, sub.setup, sub.helpers = self.training, self.setup, self.helpers
        sub.inner, sub.prefix = (nid, int(self.training.get("seed") or 0)), f"{self.var(nid)}__"
        args = {p["name"]: f"a_{i}" for i, p in enumerate(inner.get("inputs", ()))}
        for p in inner.get("inputs", ()):
            for dst, dst_port in p.get("to", ()):
                sub.feeds[(dst, dst_port)] = args[p["name"]]
        body = [line for n in g.topological_order() for line in sub.node_lines(n)]
        outs = [sub._outputs[p["from"][0]][p["from"][1]] for p in inner.get("outputs", ())]
        fn = f"_subgraph_{self.var(nid)}"
        self.helpers.append(f"def {fn}({', '.join(args.values())}):\n    step = 0\n"
                            + "".join(f"    {line}\n" for line in body) + f"    return {', '.join(outs) or 'None'}\n")
        return f"{fn}({', '.join(inputs.get(name, 'None') for name in args)})"


def _once(arrays: list) -> list:
    """``arrays``, or only the first one when they are all equal."""
    same = all(a.shape == arrays[0].shape and np.array_equal(a, arrays[0]) for a in arrays)
    return arrays[:1] if same else arrays


def _mode(graph: Graph, ex: _Exporter) -> tuple:
    loss = graph.training.get("loss")
    loss = loss if loss in graph.nodes else None
    return ("train" if loss and ex.has_params else "forward"), loss


def _forward_function(ex: _Exporter, order: list, body: list) -> str:
    values = ", ".join(f"{nid + '.' + p!r}: {v}" for nid in order for p, v in ex._outputs[nid].items())
    return "def forward(step):\n" + "".join(f"    {line}\n" for line in body) + f"    return {{{values}}}\n"


VALIDATE = '''
def _validate(step):
    """The loss on the held-out rows as the session measures it: the loss's inputs only, no grad, dropout off,
    a generator of its own (training's stream goes on) and the held-out values the session drew (_REC_VAL)."""
    global SPLIT, TRAINING, gen, _REC
    saved = SPLIT, TRAINING, gen, _REC
    SPLIT, TRAINING, gen = 'val', False, torch.Generator().manual_seed(VAL_SEED)
    _REC = {**_REC, **{k: [v[step] if step in v else v[None]] for k, v in _REC_VAL.items()}}
    try:
        with torch.no_grad():
            loss, pred, target = validation_loss(step)
            return loss.item(), (None if pred is None else _accuracy(pred, target))
    finally:
        SPLIT, TRAINING, gen, _REC = saved


def _accuracy(pred, target):
    """The fraction of the held-out rows classified right, counted as the session counts it (None: the target
    holds no class indices). The script stands alone, so this is core.nodegraph.training.trainer.accuracy_of again."""
    p, t = pred.detach().cpu().numpy(), target.detach().cpu().numpy()
    if ACC_KIND in ('loss.cross_entropy', 'loss.nll'):
        if t.dtype.kind not in 'iu' or p.ndim != 2:
            return None
        guess = p.argmax(1)
    else:
        guess = p > (0.0 if ACC_KIND == 'loss.bce_with_logits' else 0.5)
    hits = guess.reshape(t.shape) == t.astype(guess.dtype)
    return int(np.count_nonzero(hits)) / hits.size if hits.size else float('nan')
'''


def _validates(graph: Graph, mode: str, loss: str | None) -> bool:
    """Whether the training script measures the validation split like ``Session.train`` does."""
    return mode == "train" and holdout.measures(graph, loss)


def _validation_function(ex: _Exporter, loss: str, lines: dict) -> str:
    """``validation_loss(step)``: the forward of the loss's ancestors only, as the session's validation runs it
    (so random nodes elsewhere draw nothing from the validation generator)."""
    needed = ex.graph.ancestors(loss) | {loss}
    body = [line for nid, node_lines in lines.items() if nid in needed for line in node_lines]
    plan = accuracy_plan(ex.graph, loss)
    pred, target = (ex._outputs[n][p] for n, p in plan[1:]) if plan else ("None", "None")
    return ("def validation_loss(step):\n" + "".join(f"    {line}\n" for line in body)
            + f"    return {next(iter(ex._outputs[loss].values()))}, {pred}, {target}\n")


def _val_constants(ex: _Exporter, loss: str) -> str:
    """The validation generator's seed (the session's), the loss type that counts right answers (``ACC_KIND``) and,
    in torch (whose datasets are replayed), ``SPLIT``."""
    plan = accuracy_plan(ex.graph, loss)
    text = (f"\nVAL_SEED = {node_seed(int(ex.training.get('seed') or 0), 'validation')!r}"
            f"\nACC_KIND = {plan[0] if plan else None!r}  # the loss that makes validation count right answers")
    split = "\nSPLIT = 'train'  # 'val' while the script measures the validation rows"
    return text + (split if ex.api != "core" else "")


def _due_text(ex: _Exporter) -> str:
    """``holdout.due`` for a ``train(STEPS)`` call, as a Python condition on ``step``."""
    steps = ex.training.get("steps")
    return (f"(step + 1) % {holdout.val_every(ex.graph)} == 0 or step + 1 == {steps!r} or "
            "(STEPS > 1 and step == STEPS - 1)")


def _optimizer_lines(ex: _Exporter) -> str:
    """``opt = ...`` and ``sched = ...`` lines of ``main()`` from the graph's training settings."""
    t = ex.training
    sched = t.get("schedule")
    sched_args = {k: v for k, v in sched.items() if k != "type"} if sched else {}
    sched_line = "None" if not sched else f"torch.optim.lr_scheduler.{sched['type']}(opt, **{sched_args!r})"
    return (f"    opt = torch.optim.{t.get('optimizer') or 'SGD'}(list(PARAMS.values()), "
            f"**{dict(t.get('optimizer_params') or {})!r})\n"
            f"    sched = {sched_line}\n")


def _main(ex: _Exporter, mode: str, loss: str | None, probes: list, val: bool = False) -> str:
    loss_key = f"{loss}.{next(iter(ex._outputs[loss]))}" if loss else None
    if ex.ddp:
        unused = export_ddp.unused_parameters(ex.graph, loss, ex._initial[0] if ex._initial else ())
        return export_ddp.main_code(_optimizer_lines(ex), loss_key, _due_text(ex) if val else None, unused)
    if mode == "train":
        run = (_optimizer_lines(ex)
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
            run += (f"        if {_due_text(ex)}:\n"
                    "            val_loss, val_accuracy = _validate(step)\n"
                    "            print('val_loss', step, repr(val_loss))\n"
                    "            if val_accuracy is not None:\n"
                    "                print('val_accuracy', step, repr(val_accuracy))\n")
    else:
        run = "    values = forward(0)\n    backward = False\n"
        if loss_key:
            loss_var = ex._outputs[loss][loss_key.rsplit(".", 1)[1]]
            run += (f"    {loss_var} = values[{loss_key!r}]\n"
                    f"    if isinstance({loss_var}, torch.Tensor) and {loss_var}.requires_grad:\n"
                    f"        {loss_var}.backward()\n"
                    "        backward = True\n")
            run += "".join(f"    values[{p!r}] = _probe(values[{src!r}])\n" for p, src in probes)
    show = ("    for key, t in values.items():\n"
            "        _show('value', key, t)\n"
            + (f"    if backward and not JSON:\n        print({ex.labels[loss_key] + '.backward()'!r})\n"
               if mode != "train" and loss_key else "")
            + "    for key, t in values.items():\n"
            "        if isinstance(t, torch.Tensor) and t.is_leaf and t.grad is not None:\n"
            "            _show('grad', key, t.grad)\n"
            "    for key, t in PARAMS.items():\n"
            "        if JSON or not any(t is v for v in values.values()):  # a parameter node's value is shown above\n"
            "            _show('param', key, t)\n"
            "            _show('grad', key, t.grad)\n")
    return "def main():\n" + run + show


def _labels(ex: _Exporter, order: list) -> dict:
    """What the script prints each value and parameter as: the variable that holds it (``xw``, ``lin.weight``)."""
    labels = {f"{nid}.{p}": v for nid in order for p, v in ex._outputs[nid].items()}
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
    lines = {nid: ex.node_lines(nid) for nid in order}
    body = [line for nid in order for line in lines[nid]]
    mode, loss = _mode(graph, ex)
    probes = [(f"{nid}.out", f"{e.src}.{e.src_port}") for nid in order if graph.nodes[nid].type == PROBE_TYPE
              for e in graph.inputs_of(nid).values()]
    val = _validates(graph, mode, loss)
    ex.labels = _labels(ex, order)
    if val:
        ex.helpers.append(VALIDATE)
    if ddp:
        export_ddp.check(graph, mode, loss, ExportError)
        ex.helpers.append(export_ddp.HELPERS)  # last: it joins the process group before the setup lines run
    rec, rec_val = ex.record(mode, val)
    rec_text = "{" + ", ".join(f"{k!r}: [{', '.join(f'_arr({_b64(a)!r})' for a in v)}]" for k, v in rec.items()) + "}"
    if val:
        splits = {k: ", ".join(f"{s!r}: _arr({_b64(a)!r})" for s, a in v.items()) for k, v in rec_val.items()}
        rec_text += "\n_REC_VAL = {" + ", ".join(f"{k!r}: {{{v}}}" for k, v in splits.items()) + "}"
    what = f"trains for {ex.steps} steps" if mode == "train" else "runs forward" + (" and backward" if loss else "")
    what += " with DistributedDataParallel: torchrun --nproc_per_node=N SCRIPT" if ddp else ""
    parts = [f'"""Exported from Nodegrad ({api}): {len(order)} nodes; {what}.\n\n'
             'Prints "value <node.port> <json>", "grad ...", "param ..." and, when training, "loss <step> <value>"'
             + (' (and "val_loss <step> <value>", "val_accuracy <step> <value>" for classifiers, on the steps that'
                ' measure the held-out rows)' if val else "")
             + '.\n"""',
             f"import base64\nimport io\nimport json\nimport sys\n\nimport numpy as np\n\n{_IMPORTS[api]}",
             f"DEVICE = {ex.training.get('device') or 'cpu'!r}\nSEED = {int(ex.training.get('seed') or 0)!r}\n"
             f"STEPS = {ex.steps!r}\nTRAINING = True\nPARAMS = {{}}\n"
             "JSON = '--json' in sys.argv[1:]  "
             "# print exact values keyed by node ids instead of what the session shows\n"
             f"LABELS = {ex.labels!r}"
             + (_val_constants(ex, loss) if val else ""),
             HELPERS.strip() + "\n\n" + "\n\n".join(h.strip() for h in ex.helpers),
             f"_REC = {rec_text}\ngen = torch.Generator().manual_seed(SEED)\n" + "\n".join(ex.setup),
             _forward_function(ex, order, body), _validation_function(ex, loss, lines) if val else "",
             _main(ex, mode, loss, probes, val),
             'if __name__ == "__main__":\n    main()']
    return "\n\n\n".join(p.strip("\n") for p in parts if p) + "\n"


def node_code(type_id: str, params: dict | None = None, inputs: dict | None = None, api: str = "core"):
    """The code of one node on its own: ``{port: expression}`` given input expressions by port name (a
    multi-output call is indexed per port).

    For inspecting a node's code, and for testing templates; nodes that own state (parameters, layers) need a
    whole graph (``export_script``).
    """
    from core.nodegraph.model.document import Node

    g = Graph()
    g.add_node(Node("n", type_id, dict(params or {})))
    ex = _Exporter(g, api, 0)
    ex._outputs.update({f"in_{p}": {"out": expr} for p, expr in (inputs or {}).items()})
    spec = get_spec(type_id)
    if spec.code is None:
        raise ExportError(f"node type '{type_id}' has no export code")
    cg = NodeCode(ex, "n", spec.validate_params(params or {}), dict(inputs or {}))
    result = spec.code(cg) if callable(spec.code) else cg.format(spec.code)
    names = [p.name for p in spec.outputs]
    if isinstance(result, dict):
        return result
    return {names[0]: result} if len(names) == 1 else {p: f"({result})[{i}]" for i, p in enumerate(names)}


def _b64(arr: np.ndarray) -> str:
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(arr), allow_pickle=False)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def write_script(graph: Graph, path, api: str = "core", steps: int | None = None, ddp: bool = False) -> str:
    """Export to ``path`` (written only once the whole script was generated); returns the text."""
    text = export_script(graph, api, steps, ddp)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return text
