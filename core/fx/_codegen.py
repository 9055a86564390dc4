"""The Python a ``torch.fx`` Graph compiles to, written as torch 2.13's CodeGen writes it, line for line.

Operators as ``a + b``, methods as ``x.view(...)``, core's functions under torch's names (``torch.relu``,
``torch.nn.functional.relu``: the code runs with ``torch`` bound to ``core``), type annotations under torch's
names, and each value set to ``None`` after its last use. ``verbose`` adds what ``print_readable`` shows. Names
come from a namespace that, as torch's, never shadows a keyword or builtin (``getattr_1``).
"""

from __future__ import annotations

import builtins
import keyword
import math
import re
import types
import typing
from typing import TYPE_CHECKING, NamedTuple

from core.fx.node import Node, _qualified_name, _type_repr

if TYPE_CHECKING:
    from core.fx.graph import Graph

_NAME = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")
_ILLEGAL_CHARS = re.compile("[^0-9a-zA-Z_]+")
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


def _format_target(base: str, target: str) -> str:
    out = base
    for atom in target.split("."):
        out = f"{out}.{atom}" if atom.isidentifier() else f'getattr({out}, "{atom}")'
    return out


class PythonCode(NamedTuple):
    """The source of ``forward`` and the globals it runs with."""

    src: str
    globals: dict


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
        if isinstance(arg, core.device):  # torch's repr: device(type='cpu')
            return repr(arg)
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
        if isinstance(getattr(meta, "fx_annotation", None), str):  # a symbolic size (torch.export's ``Sym(s77)``)
            return f': "{meta.fx_annotation}"'
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
