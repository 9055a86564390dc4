"""``torch.fx.Graph``: the list of nodes of a traced program and how to edit it.

Names are unique within a graph and never shadow a Python keyword or builtin (``getattr`` becomes
``getattr_1``, as torch names it). ``python_code`` returns the ``forward`` torch 2.13 writes for the graph
(``core.fx._codegen``).
"""

from __future__ import annotations

import contextlib
import inspect
import re
from typing import Any

from core.fx._codegen import PythonCode, _CodeWriter, _Namespace
from core.fx.node import Node, map_arg

__all__ = ["Graph", "PythonCode"]

_SNAKE = re.compile(r"(?<=[a-z])([A-Z])")


def _snake_case(s: str) -> str:
    return _SNAKE.sub(r"_\1", s).lower()


class _NodeList:
    """``graph.nodes``: the nodes in order; erasing the current node while iterating is allowed."""

    def __init__(self, graph: Graph, reverse: bool = False):
        self._graph, self._reverse = graph, reverse

    def __len__(self) -> int:
        return self._graph._len

    def __iter__(self):
        root = self._graph._root
        cur = root._prev if self._reverse else root._next
        while cur is not root:
            if not cur._erased:
                yield cur
            cur = cur._prev if self._reverse else cur._next

    def __reversed__(self):
        return iter(_NodeList(self._graph, not self._reverse))


class Graph:
    """A program as a list of nodes (see the module docstring)."""

    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None):
        self._root = Node(self, "", "root", "", (), {})
        self._len = 0
        self._namespace = _Namespace()
        self._insert = self._root.prepend
        self.owning_module = owning_module
        self._tracer_cls = tracer_cls

    @property
    def nodes(self) -> _NodeList:
        return _NodeList(self)

    def find_nodes(self, *, op: str, target=None) -> list[Node]:
        return [n for n in self.nodes if n.op == op and (target is None or n.target == target)]

    # -- building ---------------------------------------------------------------------------------------------
    def _target_to_str(self, target) -> str:
        if callable(target):
            op = target.__name__
        else:
            if not isinstance(target, str):
                raise AssertionError(f"Expected target to be str, got {type(target)}")
            op = target
            if op.startswith("__") and op.endswith("__"):
                op = op[2:-2]
        return _snake_case(op)

    def create_node(self, op: str, target, args: tuple | None = None, kwargs: dict | None = None,
                    name: str | None = None, type_expr=None) -> Node:
        """Make a node and insert it at the current insertion point."""
        candidate = name if name is not None else self._target_to_str(target)
        name = self._namespace.create_name(candidate, None)
        n = Node(self, name, op, target, tuple(args or ()), dict(kwargs or {}), type_expr)
        self._insert(n)
        self._len += 1
        return n

    def placeholder(self, name: str, type_expr=None, default_value=inspect.Signature.empty) -> Node:
        args = () if default_value is inspect.Signature.empty else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name: str, type_expr=None) -> Node:
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name: str, args=None, kwargs=None, type_expr=None) -> Node:
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name: str, args=None, kwargs=None, type_expr=None) -> Node:
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None, name=None) -> Node:
        return self.create_node("call_function", the_function, args, kwargs, name=name, type_expr=type_expr)

    def output(self, result, type_expr=None) -> Node:
        return self.create_node("output", "output", (result,), type_expr=type_expr)

    def node_copy(self, node: Node, arg_transform=lambda x: x) -> Node:
        """A copy of ``node`` (from any graph) in this one, its node arguments mapped by ``arg_transform``."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        result.meta = dict(node.meta)
        return result

    def graph_copy(self, g: Graph, val_map: dict) -> Any:
        """Copy ``g``'s nodes (but its output, and those ``val_map`` already maps) into this graph; returns the
        value its output returned."""
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                return map_arg(node.args[0], lambda n: val_map[n])
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def __deepcopy__(self, memo) -> Graph:
        """A copy node by node (iterative: a long graph does not recurse)."""
        g = Graph(tracer_cls=self._tracer_cls)
        memo[id(self)] = g
        val_map: dict = {}
        result = g.graph_copy(self, val_map)
        output = next((n for n in reversed(self.nodes) if n.op == "output"), None)
        if output is not None:
            g.output(result, type_expr=output.type)
        return g

    @contextlib.contextmanager
    def _inserting(self, insert):
        saved, self._insert = self._insert, insert
        try:
            yield
        finally:
            self._insert = saved

    def inserting_before(self, n: Node | None = None):
        """``with graph.inserting_before(n):`` new nodes go before ``n`` (at the start for ``None``)."""
        if n is None:
            return self.inserting_after(self._root)
        return self._inserting(n.prepend)

    def inserting_after(self, n: Node | None = None):
        """``with graph.inserting_after(n):`` new nodes go after ``n`` (at the end for ``None``)."""
        if n is None:
            return self.inserting_before(self._root)
        return self._inserting(n.append)

    def erase_node(self, to_erase: Node) -> None:
        """Remove a node that has no users."""
        if len(to_erase.users) > 0:
            raise RuntimeError(f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} "
                               f"users in the graph: {to_erase.users}!")
        if to_erase.graph is not self:
            raise RuntimeError(f"Attempting to remove {to_erase} from wrong graph!")
        if to_erase._erased:
            return
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        to_erase._update_args_kwargs((), {})

    def eliminate_dead_code(self) -> bool:
        """Erase the nodes nothing uses (keeping inputs, outputs and in-place calls); whether any went."""
        changed = False
        for node in reversed(self.nodes):
            if not node.is_impure() and len(node.users) == 0:
                self.erase_node(node)
                changed = True
        return changed

    # -- checking and printing --------------------------------------------------------------------------------
    def lint(self) -> None:
        """Check that nodes belong here, come in topological order, have unique names and existing targets."""
        seen: set[Node] = set()
        names: set[str] = set()

        def check_arg(arg: Node, n: Node) -> None:
            if arg.graph is not self:
                raise RuntimeError(f"Argument '{arg}' of Node '{n}' does not belong to this Graph, but was used as "
                                   f"an argument! If you are copying nodes from another graph, make sure to use "
                                   f"``arg_transform`` on node_copy() to remap values\n{self}")
            if arg not in seen:
                raise RuntimeError(f"Argument '{arg}' of Node '{n}' was used before it has been defined! Please "
                                   f"check that Nodes in the graph are topologically ordered\n{self}")

        for node in self.nodes:
            if node.graph is not self:
                raise RuntimeError(f"Node '{node}' does not belong to this Graph!")
            map_arg(node.args, lambda a, node=node: check_arg(a, node))
            map_arg(node.kwargs, lambda a, node=node: check_arg(a, node))
            seen.add(node)
            if node.name in names:
                raise RuntimeError(f"Node redefined name {node.name}!")
            names.add(node.name)
        if self.owning_module is not None:
            for node in self.nodes:
                if node.op in ("get_attr", "call_module"):
                    self._check_target(node)

    def _check_target(self, node: Node) -> None:
        from core import nn

        obj = self.owning_module
        atoms = node.target.split(".")
        for i, atom in enumerate(atoms):
            if not hasattr(obj, atom):
                seen = ".".join(atoms[:i])
                raise RuntimeError(f"Node {node} target {node.target} references nonexistent attribute {atom} of "
                                   f"{seen}")
            obj = getattr(obj, atom)
        if node.op == "call_module" and not isinstance(obj, nn.Module):
            raise RuntimeError(f"Node {node} target {node.target} {atoms[-1]} of {'.'.join(atoms[:-1])} does not "
                               f"reference an nn.Module")

    def __str__(self) -> str:
        placeholder_names: list[str] = []
        lines = [node.format_node(placeholder_names) for node in self.nodes]  # (torch never fills these two)
        text = f"graph({', '.join(placeholder_names)}):"
        return text + "".join("\n    " + line for line in lines if line)

    def print_tabular(self) -> None:
        """Print the nodes as a table; needs the ``tabulate`` package, as torch's does."""
        try:
            from tabulate import tabulate
        except ImportError:
            print("`print_tabular` relies on the library `tabulate`, which could not be found on this machine. "
                  "Run `pip install tabulate` to install the library.")
            raise
        specs = [[n.op, n.name, n.target, n.args, n.kwargs] for n in self.nodes]
        print(tabulate(specs, headers=["opcode", "name", "target", "args", "kwargs"]))

    def python_code(self, root_module: str = "self", *, verbose: bool = False) -> PythonCode:
        """The ``forward`` function this graph compiles to, and its globals; ``verbose`` adds what
        ``print_readable`` shows (each value's dtype and shape from ``node.meta``, stack-trace notes)."""
        return _CodeWriter(self, root_module, verbose).write()
