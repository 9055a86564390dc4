"""``torch.fx.Graph``: the list of nodes of a traced program, how to edit it and the Python it compiles to.

Names are unique within a graph and never shadow a Python keyword or builtin (``getattr`` becomes
``getattr_1``, as torch names it). ``python_code`` writes the ``forward`` function torch 2.13 writes, line for
line: operators as ``a + b``, methods as ``x.view(...)``, core's functions under torch's names (``torch.relu``,
``torch.nn.functional.relu``: the generated code runs with ``torch`` bound to ``core``), and each value set to
``None`` after its last use.
"""

from __future__ import annotations

import builtins
import contextlib
import inspect
import keyword
import math
import re
import types
import typing
from typing import Any, NamedTuple

from core.fx.node import Node, _qualified_name, _type_repr, map_arg

__all__ = ["Graph", "PythonCode"]

_NAME = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")
_ILLEGAL_CHARS = re.compile("[^0-9a-zA-Z_]+")
_SNAKE = re.compile(r"(?<=[a-z])([A-Z])")
_ILLEGAL_NAMES = {k: object() for k in keyword.kwlist}
_ILLEGAL_NAMES.update(builtins.__dict__)
_ILLEGAL_NAMES.update({"inf": math.inf, "nan": math.nan, "NoneType": type(None), "torch": None, "device": None,
                       "fx_pytree": None, "pytree": None})

_REFLECTABLE = {"add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}", "truediv": "{} / {}",
                "div": "{} / {}", "mod": "{} % {}", "pow": "{} ** {}", "lshift": "{} << {}", "rshift": "{} >> {}",
                "and_": "{} & {}", "or_": "{} | {}", "xor": "{} ^ {}", "getitem": "{}[{}]", "matmul": "{} @ {}"}
MAGIC_METHODS = {"eq": "{} == {}", "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}", "le": "{} <= {}",
                 "ge": "{} >= {}", "pos": "+{}", "neg": "-{}", "invert": "~{}", **_REFLECTABLE}
REFLECTABLE_MAGIC_METHODS = _REFLECTABLE
_DTYPE_ABBRS = {"uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "float16": "f16",
                "float32": "f32", "float64": "f64", "complex32": "c32", "complex64": "c64", "complex128": "c128",
                "bool": "b8", "bfloat16": "bf16", "uint16": "u16", "uint32": "u32", "uint64": "u64",
                "float8_e5m2": "f8e5m2", "float8_e4m3fn": "f8e4m3fn", "float8_e5m2fnuz": "f8e5m2fnuz",
                "float8_e4m3fnuz": "f8e4m3fnuz", "float8_e8m0fnu": "f8e8m0fnu"}
_ORIGIN_TYPES = {list: typing.List, dict: typing.Dict, set: typing.Set, frozenset: typing.FrozenSet,
                 tuple: typing.Tuple}
_NO_STACKTRACE = "# No stacktrace found for following nodes"


class _Namespace:
    """Unique names: one per object, none repeated, none shadowing a keyword or builtin it is not."""

    def __init__(self):
        self._obj_to_name: dict = {}
        self._used: set[str] = set()
        self._base_count: dict[str, int] = {}

    def create_name(self, candidate: str, obj) -> str:
        if obj is not None and obj in self._obj_to_name:
            return self._obj_to_name[obj]
        match = _NAME.match(candidate)
        if match is None:
            candidate = _ILLEGAL_CHARS.sub("_", candidate) or "_unnamed"
            if candidate[0].isdigit():
                candidate = f"_{candidate}"
            match = _NAME.match(candidate)
        base, num = match.group(1, 2)
        if num is None or candidate in self._used:
            num = self._base_count.get(base, 0)
            if _ILLEGAL_NAMES.get(candidate, obj) is not obj:
                num += 1
                candidate = f"{base}_{num}"
        else:
            num = int(num)
        while candidate in self._used:
            num += 1
            candidate = f"{base}_{num}"
        self._used.add(candidate)
        self._base_count[base] = num
        if obj is not None:
            self._obj_to_name[obj] = candidate
        return candidate

    def release(self, name: str) -> None:
        self._used.discard(name)


def _snake_case(s: str) -> str:
    return _SNAKE.sub(r"_\1", s).lower()


def _format_target(base: str, target: str) -> str:
    out = base
    for atom in target.split("."):
        out = f"{out}.{atom}" if atom.isidentifier() else f'getattr({out}, "{atom}")'
    return out


class PythonCode(NamedTuple):
    """The source of ``forward`` and the globals it runs with."""

    src: str
    globals: dict


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


class _CodeWriter:
    """Writes a graph's ``forward`` source as torch's CodeGen does (see the module docstring)."""

    def __init__(self, graph: Graph, root_module: str, verbose: bool = False):
        import core

        self.graph, self.root_module, self.verbose = graph, root_module, verbose
        self.summary: str | None = None
        self.namespace = _Namespace()
        for name in graph._namespace._used:
            self.namespace.create_name(name, None)
        self.globals: dict = {"inf": math.inf, "nan": math.nan, "NoneType": type(None), "torch": core,
                              "device": core.device}
        self.free_vars: list[str] = []
        self.return_annotation = ""
        self.wrapped: dict[str, None] = {}  # functions recorded by fx.wrap: the code wraps them again
        self.body: list[str] = []

    def add_global(self, name_hint: str, obj) -> str:
        if name_hint.startswith("torch."):
            return name_hint
        name = self.namespace.create_name(name_hint, obj)
        self.globals.setdefault(name, obj)
        return name

    def type_repr(self, o) -> str:
        """An annotation in the generated code; the types it names become globals (``typing_Union``)."""
        if o == ():
            return "()"
        typename = _type_repr(o)
        if isinstance(o, types.UnionType) and "|" in typename:
            return "|".join(self.type_repr(arg) for arg in typing.get_args(o))
        origin = getattr(o, "__origin__", None)
        if origin is not None:
            if isinstance(o, typing._GenericAlias):  # typing.List[...]: pre-PEP 585 spellings
                origin = _ORIGIN_TYPES.get(origin, origin)
            origin_name = self.add_global(_type_repr(origin), origin)
            type_args = typing.get_args(o)
            if type_args:
                return f"{origin_name}[{','.join(self.type_repr(arg) for arg in type_args)}]"
            return origin_name
        return self.add_global(typename, o)

    def repr_arg(self, arg) -> str:
        import core

        if isinstance(arg, Node):
            return repr(arg)
        if isinstance(arg, tuple) and hasattr(arg, "_fields"):
            name = self.add_global(_qualified_name(type(arg)), type(arg))
            return f"{name}{repr(tuple(arg))}"
        if isinstance(arg, core.Tensor):
            return f"torch.Tensor(size={list(arg.size())}, dtype={str(arg.dtype).split('.')[-1]})"
        if isinstance(arg, tuple):
            if len(arg) == 1:
                return f"({self.repr_arg(arg[0])},)"
            return "(" + ", ".join(self.repr_arg(a) for a in arg) + ")"
        if isinstance(arg, list):
            return "[" + ", ".join(self.repr_arg(a) for a in arg) + "]"
        if isinstance(arg, slice):
            return f"slice({self.repr_arg(arg.start)}, {self.repr_arg(arg.stop)}, {self.repr_arg(arg.step)})"
        if isinstance(arg, core.dtype):
            return f"torch.{str(arg).split('.')[-1]}"
        if isinstance(arg, core.device):
            return f"device({str(arg)!r})"
        return repr(arg)

    def format_args(self, args, kwargs) -> str:
        parts = [self.repr_arg(a) for a in args]
        parts += [f"{k} = {self.repr_arg(v)}" for k, v in kwargs.items()]
        return ", ".join(parts)

    def write(self) -> PythonCode:
        nodes = list(self.graph.nodes)
        last_uses: dict[Node, list[Node]] = {}
        seen: set[Node] = set()
        for node in reversed(nodes):
            for used in node._input_nodes:
                if used not in seen:
                    seen.add(used)
                    last_uses.setdefault(node, []).append(used)
        for node in nodes:
            if self.verbose and node.op not in ("placeholder", "output"):
                self.note_stack_trace(node)
            self.emit(node)
            self.free_after(node, last_uses.get(node, []))
        if not self.body:
            self.body.append("pass\n")
        lines = "".join(self.body).lstrip("\n").split("\n")
        code = "\n".join("    " + line for line in lines)
        free_vars = self.free_vars if self.free_vars[:1] == ["self"] else ["self", *self.free_vars]
        wraps = "\n".join(f'torch.fx._symbolic_trace.wrap("{name}")' for name in self.wrapped)
        src = f"\n{wraps}\n\ndef forward({', '.join(free_vars)}){self.return_annotation}:\n{code}"
        return PythonCode(src, self.globals)

    def free_after(self, node: Node, dead: list[Node]) -> None:
        if node.op == "placeholder":
            return
        if node.op == "output":
            self.body.append("\n")
            return
        dead = list(dead)
        if not node.users:
            dead.append(node)
        self.body.append(f";  {' = '.join([repr(n) for n in dead] + ['None'])}\n" if dead else "\n")

    def note_stack_trace(self, node: Node) -> None:
        """A comment over each run of nodes with the same stack trace (core records none)."""
        summary = f"\n{_NO_STACKTRACE if node.stack_trace is None else '# ' + str(node.stack_trace)}\n"
        if summary != self.summary:
            self.summary = summary
            self.body.append(summary)

    def annotation(self, node: Node) -> str:
        annotation = "" if node.type is None else f" : {self.type_repr(node.type)}"
        if not self.verbose:
            return annotation
        import core

        meta = node.meta.get("val", node.meta.get("tensor_meta", node.meta.get("example_value")))
        if isinstance(meta, core.Tensor) or (isinstance(meta, tuple) and hasattr(meta, "_fields")
                                             and hasattr(meta, "shape") and hasattr(meta, "dtype")):
            dtype = _DTYPE_ABBRS.get(str(meta.dtype).split(".")[-1], str(meta.dtype))
            return f': "{dtype}[{", ".join(str(d) for d in meta.shape)}]"'
        return annotation

    def emit(self, node: Node) -> None:
        annotation = self.annotation(node)
        if node.op == "placeholder":
            default = f" = {self.repr_arg(node.args[0])}" if node.args else ""
            self.free_vars.append(f"{node.target}{annotation}{default}")
            raw = node.target.replace("*", "")
            if raw != repr(node):
                self.body.append(f"{repr(node)} = {raw}\n")
            return
        if node.op == "call_method":
            self.body.append(f"{repr(node)}{annotation} = {_format_target(self.repr_arg(node.args[0]), node.target)}"
                             f"({self.format_args(node.args[1:], node.kwargs)})")
            return
        if node.op == "call_function":
            self.emit_function(node, annotation)
            return
        if node.op == "call_module":
            self.body.append(f"{repr(node)}{annotation} = {_format_target(self.root_module, node.target)}"
                             f"({self.format_args(node.args, node.kwargs)})")
            return
        if node.op == "get_attr":
            self.body.append(f"{repr(node)}{annotation} = {_format_target(self.root_module, node.target)}")
            return
        if node.op == "output":
            if node.type is not None:
                self.return_annotation = f" -> {self.type_repr(node.type)}"
            self.body.append(f"return {self.repr_arg(node.args[0])}")
            return
        raise NotImplementedError(f"node: {node.op} {node.target}")

    def emit_function(self, node: Node, annotation: str) -> None:
        target = node.target
        if getattr(target, "__module__", "") == "_operator" and target.__name__ in MAGIC_METHODS:
            text = MAGIC_METHODS[target.__name__].format(*(self.repr_arg(a) for a in node.args))
            self.body.append(f"{repr(node)}{annotation} = {text}")
            return
        name = self.add_global(_qualified_name(target), target)
        if (name == "getattr" and len(node.args) == 2 and isinstance(node.args[1], str)
                and node.args[1].isidentifier()):
            self.body.append(f"{repr(node)}{annotation} = {_format_target(self.repr_arg(node.args[0]), node.args[1])}")
            return
        self.body.append(f"{repr(node)}{annotation} = {name}({self.format_args(node.args, node.kwargs)})")
        if node.meta.get("is_wrapped", False):
            self.wrapped.setdefault(name)

