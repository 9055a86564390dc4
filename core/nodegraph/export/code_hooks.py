"""What a node's export code hook receives: ``NodeCode``, the exporter's view of one node (its input expressions,
parameters, variable name and helpers that write literals, setup lines and replayed values), and ``ExportError``.

``core.nodegraph.export.script`` builds one ``NodeCode`` per node and re-exports both names; the node specs'
``code`` hooks (``core.nodegraph.model.nodes``) call the methods below.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

import core
from core.nodegraph.export import ddp as export_ddp
from core.nodegraph.model import tensor_store
from core.nodegraph.model.document import Graph
from core.nodegraph.model.evaluate import node_seed
from core.nodegraph.model.numtext import tensor_values
from core.nodegraph.model.spec import get_spec

if TYPE_CHECKING:
    from core.nodegraph.export.script import _Exporter

__all__ = ["ExportError", "NodeCode", "INLINE_MAX", "npy_base64", "array_text", "as_numpy"]

INLINE_MAX = 64  # arrays with more elements are written as .npy bytes in base64


class ExportError(ValueError):
    """A graph that can't be exported; the message names the node and the reason."""


def npy_base64(arr: np.ndarray) -> str:
    """The array's ``np.save`` bytes in base64 (exact, whatever the values)."""
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(arr), allow_pickle=False)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def array_text(arr: np.ndarray) -> str:
    """Python text for an array's values: an inline list when small (``float('inf')`` for a real non-finite
    value, so ``torch.tensor(...)`` without a dtype still makes the default dtype the session made, not the
    float64 of the .npy bytes), else ``_arr(<npy base64>)``."""
    if arr.size <= INLINE_MAX and (arr.dtype.kind not in "fc" or np.isfinite(arr).all()):
        return repr(arr.tolist())
    if arr.size <= INLINE_MAX and arr.dtype.kind == "f":
        return re.sub(r"\b(inf|nan)\b", r"float('\1')", repr(arr.tolist()))  # (a list's repr: numbers only)
    return f"_arr({npy_base64(arr)!r})"


def as_numpy(t: Any) -> np.ndarray:
    """A tensor's values (detached, on the CPU), or anything else through ``np.asarray``."""
    return tensor_values(t) if isinstance(t, core.Tensor) else np.asarray(t)


class _Fmt(dict[str, str]):
    def __missing__(self, key: str) -> NoReturn:
        raise ExportError(f"the code template names '{key}', which is neither an input nor a parameter")


class NodeCode:
    """What a node's code hook may use: ``inputs`` (port -> expression; unconnected optional ports absent),
    ``params`` (validated values), ``api``, ``node_id``, ``var`` (the node's variable name) and helpers."""

    def __init__(self, exporter: _Exporter, node_id: str, params: dict[str, Any], inputs: dict[str, str]) -> None:
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

    def connected(self, ports: Iterable[str]) -> list[str]:
        """The expressions of the connected ones among ``ports``, in order."""
        return [self.inputs[p] for p in ports if p in self.inputs]

    def generator(self, seed: int | None) -> str:
        """The generator a random node draws from: its own seed, else the script's ``gen`` (the session's); inside
        a subgraph, a generator seeded from the run's seed and the node's id like ``core.nodegraph.model.evaluate``."""
        if seed is not None:
            return f"torch.Generator().manual_seed({seed!r})"
        if self._ex.inner is not None:
            return f"torch.Generator(DEVICE).manual_seed({node_seed(self._ex.inner[1], self.node_id)!r})"
        return "gen"

    def array(self, value: Any) -> str:
        """A tensor literal parameter as the values ``core.tensor`` makes of it (a long list as its array)."""
        return array_text(as_numpy(tensor_store.literal(tensor_store.frozen(value))))

    def literal(self, tensor: Any) -> str:
        """A tensor with exactly these values and dtype, on DEVICE."""
        arr = as_numpy(tensor)
        dtype = str(tensor.dtype).split(".")[-1] if isinstance(tensor, core.Tensor) else arr.dtype.name
        return f"torch.tensor({array_text(arr)}, dtype=torch.{dtype}, device=DEVICE)"

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
        """A fresh global ``<prefix>_<var>`` set to ``expr`` in the setup lines; returns its name."""
        name = self._ex.unique(f"{prefix}_{self.var}")
        self.setup(f"{name} = {expr}")
        return name

    def helper(self, text: str) -> None:
        """A helper function's source, emitted once at the top of the script."""
        if text not in self._ex.helpers:
            self._ex.helpers.append(text)

    def formula(self, formula: str, names: dict[str, str] | None = None) -> str:
        """An ``expr.expression`` node: the formula expanded into node types, inlined as one expression; its free
        names are the node's inputs, or the expressions ``names`` gives them (``{"x": "x"}`` in a lambda)."""
        from core.nodegraph.model import expression  # the expression module imports the node registry

        try:
            frag = expression.expand(formula)
        except ValueError as exc:
            raise ExportError(f"node '{self.node_id}': {exc}") from None
        sub = self._ex.child(Graph.from_dict({"nodes": frag["nodes"], "edges": frag["edges"]}))
        free = set(frag.get("inputs", ()))
        given = self.inputs if names is None else names
        for nid in sub.graph.topological_order():
            node = sub.graph.nodes[nid]
            if node.type == "source.tensor" and node.title in free:
                if node.title not in given:
                    raise ExportError(f"node '{self.node_id}': input '{node.title}' is not connected")
                sub.outputs[nid] = {"out": given[node.title]}
            else:
                sub.inline(nid)
        return sub.outputs[frag["nodes"][-1]["id"]]["out"]

    def input_value(self, port: str) -> Any:
        """The value a fresh session feeds to input ``port`` (None when unconnected, inside a subgraph or when
        its source failed): for code that reads better when it knows a dtype."""
        edge = self._ex.graph.inputs_of(self.node_id).get(port)
        if edge is None or self._ex.inner is not None:
            return None
        return self._ex.forward_values().get(edge.src, {}).get(edge.src_port)

    def refuse(self, why: str) -> NoReturn:
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
