"""``torch.fx.Interpreter`` and ``Transformer``: run a graph node by node, or rebuild it node by node.

``Interpreter.run(*args)`` walks ``graph.nodes`` in order; ``run_node`` fetches a node's arguments from the
values computed so far and calls the method named after its op (``placeholder``, ``get_attr``,
``call_function``, ``call_method``, ``call_module``, ``output``), each of which a subclass may override (the
profiling tutorial's pattern). Values are dropped after their last use unless ``garbage_collect_values`` is False.
``Transformer`` runs the same walk with Proxies and returns a new GraphModule of what its methods produced.
"""

from __future__ import annotations

import collections
import inspect
from typing import Any

from core.fx.graph import Graph
from core.fx.graph_module import GraphModule
from core.fx.node import Node, map_aggregate, map_arg
from core.fx.proxy import Proxy, Scope, TracerBase

__all__ = ["Interpreter", "Transformer"]


class Interpreter:
    """Runs a GraphModule's graph one node at a time (see the module docstring)."""

    def __init__(self, module, garbage_collect_values: bool = True, graph: Graph | None = None):
        self.module = module
        self.submodules = dict(self.module.named_modules())
        self.graph = graph if graph is not None else self.module.graph
        self.env: dict[Node, Any] = {}
        self.name = "Interpreter"
        self.garbage_collect_values = garbage_collect_values
        self.extra_traceback = True
        if self.garbage_collect_values:
            self.user_to_last_uses: dict[Node, list[Node]] = {}
            seen: set[Node] = set()
            for node in reversed(self.graph.nodes):
                for used in node._input_nodes:
                    if used not in seen:
                        seen.add(used)
                        self.user_to_last_uses.setdefault(node, []).append(used)

    def run(self, *args, initial_env: dict | None = None, enable_io_processing: bool = True) -> Any:
        """The graph's output for ``args``."""
        self.env = initial_env if initial_env is not None else {}
        self.args_iter = iter(args)
        for node in self.graph.nodes:
            if node in self.env:
                continue  # given in initial_env
            try:
                self.env[node] = self.run_node(node)
            except Exception as e:
                if self.extra_traceback:
                    self._annotate(e, node)
                    if isinstance(e, KeyError):
                        raise RuntimeError(*e.args) from e
                raise
            if self.garbage_collect_values:
                for to_delete in self.user_to_last_uses.get(node, []):
                    del self.env[to_delete]
            if node.op == "output":
                return self.env[node]
        return None

    def boxed_run(self, args_list: list) -> Any:
        """``run`` on the values of ``args_list``, which it empties (so the inputs can be freed early)."""
        args_iter = iter(args_list)
        env = {}
        for n in self.graph.nodes:
            if n.op == "placeholder":
                env[n] = next(args_iter)
        args_list.clear()
        return self.run(initial_env=env)

    @staticmethod
    def _annotate(e: Exception, node: Node) -> None:
        """torch's note on an error raised while running a node: which node, and where it was traced."""
        msg = f"While executing {node.format_node()}"
        msg = f"{e.args[0]}\n\n{msg}" if e.args else str(msg)
        msg += f"\nOriginal traceback:\n{node.stack_trace}"
        msg += "\nUse tlparse to see full graph. "
        msg += "(https://github.com/pytorch/tlparse?tab=readme-ov-file#tlparse-parse-structured-pt2-logs)"
        e.args = (msg, *e.args[1:])

    def run_node(self, n: Node) -> Any:
        """Compute ``n``'s value: fetch its arguments, then call the method named after its op."""
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        return getattr(self, n.op)(n.target, args, kwargs)

    def placeholder(self, target: str, args: tuple, kwargs: dict) -> Any:
        if target.startswith("*"):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration as si:
            if len(args) > 0:
                return args[0]
            raise RuntimeError(f"Expected positional argument for parameter {target}, but one was not passed in!") \
                from si

    def get_attr(self, target: str, args: tuple, kwargs: dict) -> Any:
        return self.fetch_attr(target)

    def call_function(self, target, args: tuple, kwargs: dict) -> Any:
        return target(*args, **kwargs)

    def call_method(self, target: str, args: tuple, kwargs: dict) -> Any:
        self_obj, *args_tail = args
        return getattr(self_obj, target)(*args_tail, **kwargs)

    def call_module(self, target: str, args: tuple, kwargs: dict) -> Any:
        return self.fetch_attr(target)(*args, **kwargs)

    def output(self, target, args: tuple, kwargs: dict) -> Any:
        return args[0]

    def fetch_attr(self, target: str) -> Any:
        """The attribute ``target`` (a dotted path) of the module."""
        atoms = target.split(".")
        attr_itr = self.module
        for i, atom in enumerate(atoms):
            if not hasattr(attr_itr, atom):
                raise RuntimeError(f"Node referenced nonexistent target {'.'.join(atoms[:i + 1])}")
            attr_itr = getattr(attr_itr, atom)
        return attr_itr

    def fetch_args_kwargs_from_env(self, n: Node) -> tuple[tuple, dict]:
        args = self.map_nodes_to_values(n.args, n)
        kwargs = self.map_nodes_to_values(n.kwargs, n)
        return args, kwargs

    def map_nodes_to_values(self, args, n: Node):
        def load_arg(n_arg: Node):
            if n_arg not in self.env:
                raise RuntimeError(f"Node {n} referenced nonexistent value {n_arg}! Run Graph.lint() to diagnose "
                                   "such issues")
            return self.env[n_arg]

        return map_arg(args, load_arg)


class _TransformerTracer(TracerBase):
    def __init__(self, graph: Graph):
        self.graph = graph
        self.tensor_attrs: dict = {}
        self.scope = Scope("", None)
        self.module_stack = collections.OrderedDict()
        self.node_name_to_scope: dict = {}

    def is_leaf_module(self, _, __) -> bool:
        return True


class Transformer(Interpreter):
    """Builds a new graph by running the old one on Proxies; ``transform()`` returns it as a GraphModule."""

    def __init__(self, module):
        super().__init__(module)
        self.new_graph = Graph()
        self.tracer = _TransformerTracer(self.new_graph)
        self.tracer.root = module

    def placeholder(self, target: str, args: tuple, kwargs: dict) -> Proxy:
        default = next(iter(args)) if args else inspect.Signature.empty
        return Proxy(self.new_graph.placeholder(target, default_value=default), self.tracer)

    def get_attr(self, target: str, args: tuple, kwargs: dict) -> Proxy:
        return self.tracer.create_proxy("get_attr", target, args, kwargs)

    def call_module(self, target: str, args: tuple, kwargs: dict) -> Any:
        return self.tracer.create_proxy("call_module", target, args, kwargs)

    def call_function(self, target, args: tuple, kwargs: dict) -> Any:
        return self.tracer.create_proxy("call_function", target, args, kwargs)

    def transform(self) -> GraphModule:
        """The new GraphModule."""
        result = super().run(enable_io_processing=False)
        if result is not None:
            def strip_proxy(a):
                return a.node if isinstance(a, Proxy) else a

            self.new_graph.output(map_aggregate(result, strip_proxy))
        return GraphModule(self.module, self.new_graph)
