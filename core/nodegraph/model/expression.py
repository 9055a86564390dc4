"""A small SAFE expression language over tensors: ``(x * w).sum() + b`` -> a value, or -> a graph fragment.

The formula is parsed with ``ast.parse(mode="eval")`` and only read as data: nothing is ever compiled,
``eval``-ed or executed. Every AST node must be in a whitelist: numbers, declared input names, the
operators ``+ - * / // % ** @`` and unary ``-``/``+``/``~``, one comparison (``== != < <= > >=``),
calls of whitelisted functions (``exp(x)``, ``matmul(a, b)``...), calls of whitelisted METHODS on
sub-expressions (``x.sum()``, ``x.view(2, 3)``), the attribute ``.T``, subscripts with constant
ints/slices/``...``/``None`` (or one tensor index) and keyword arguments. Anything else -- other
attributes (``__class__``, any dunder), unknown names or functions, strings, lambdas, comprehensions,
chained comparisons, formulas over 1000 characters, 200 AST nodes or 32 levels -- raises
``ExpressionError`` naming the column.

A parsed formula is a tree of node-type applications (each operation is one registered node type, e.g.
``math.mul``, ``reduce.sum``), so ``evaluate`` and ``expand`` agree by construction:
- ``evaluate(formula, inputs)`` runs each operation's node ``evaluate`` on ``core`` tensors;
- ``expand(formula)`` gives a fragment ``{"nodes", "edges", "inputs"}`` in the graph JSON format with one
  node per operation, one ``source.tensor`` node per constant, and one ``source.tensor`` placeholder node
  per free variable whose ``title`` is the variable's name (``inputs`` lists those names in order of first
  use); the user types its values or reconnects its consumers. Nodes are laid out left to right by depth.
"""

from __future__ import annotations

import ast
import importlib
import re
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NoReturn

import core
from core.nodegraph.model import budget
from core.nodegraph.model.spec import EvalContext, get_spec

__all__ = ["ExpressionError", "parse", "evaluate", "expand", "free_names", "FUNCTIONS", "METHODS",
           "MAX_CHARS", "MAX_NODES", "MAX_DEPTH"]

MAX_CHARS, MAX_NODES, MAX_DEPTH = 1000, 200, 32

Row = tuple[str, tuple[str, ...]]  # (node type, positional slots), see FUNCTIONS


class ExpressionError(ValueError):
    """A formula the safe parser refuses or cannot evaluate; the message names the position (``column``)."""

    @property
    def column(self) -> int | None:
        """The 1-based column the message names ("at column 12"), for a box to put its cursor there; None if none."""
        found = re.search(r"at column (\d+)", str(self))
        return int(found.group(1)) if found else None


def _unary_math(*names: str) -> dict[str, Row]:
    return {n: (f"math.{n}", ("x",)) for n in names}


def _reduce(names: tuple[str, ...], slots: tuple[str, ...] = ("x", "dim", "keepdim")) -> dict[str, Row]:
    return {n: (f"reduce.{n}", slots) for n in names}


# function name -> (node type, positional slots: input port or parameter names; "*name" takes the rest)
FUNCTIONS: dict[str, Row] = {
    **_unary_math("abs", "neg", "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos",
                  "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "relu",
                  "sign", "floor", "ceil", "trunc", "frac", "reciprocal", "square", "erf", "erfc", "lgamma",
                  "logit", "sinc"),
    **{n: (f"math.{n}", ("a", "b")) for n in ("add", "sub", "mul", "pow", "minimum", "maximum", "atan2", "hypot",
                                              "remainder", "fmod", "floor_divide", "xlogy", "logaddexp")},
    "div": ("math.div", ("a", "b")), "clamp": ("math.clamp", ("x", "min", "max")),
    "round": ("math.round", ("x",)), "lerp": ("math.lerp", ("a", "b", "weight")),
    **{n: (f"compare.{n}", ("a", "b")) for n in ("eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or")},
    "where": ("compare.where", ("condition", "a", "b")), "isnan": ("compare.isnan", ("x",)),
    **_reduce(("sum", "mean", "amax", "amin", "argmax", "argmin", "all", "any", "logsumexp", "max", "min",
               "prod", "median")),
    "var": ("reduce.var", ("x", "dim")), "std": ("reduce.std", ("x", "dim")),
    "norm": ("reduce.norm", ("x", "p", "dim", "keepdim")),
    **_reduce(("softmax", "log_softmax", "cumsum", "cumprod"), ("x", "dim")),
    **{n: (f"linalg.{n}", ("a", "b")) for n in ("matmul", "mm", "bmm", "dot", "outer", "solve")},
    **{n: (f"linalg.{n}", ("x",)) for n in ("det", "inv", "cholesky", "pinv")},
    "transpose": ("shape.transpose", ("x", "dim0", "dim1")), "t": ("shape.t", ("x",)),
    "permute": ("shape.permute", ("x", "*dims")), "reshape": ("shape.reshape", ("x", "*shape")),
    "flatten": ("shape.flatten", ("x", "start_dim", "end_dim")), "squeeze": ("shape.squeeze", ("x", "dim")),
    "unsqueeze": ("shape.unsqueeze", ("x", "dim")),
    "cat": ("join.cat", ("*tensors", "dim")), "stack": ("join.stack", ("*tensors", "dim")),
    "detach": ("grad.detach", ("x",)),
    **{n: (f"nn.{n}", ("x",)) for n in ("relu6", "gelu", "silu", "softplus", "leaky_relu", "elu", "logsigmoid")},
    "mse_loss": ("loss.mse", ("input", "target")), "l1_loss": ("loss.l1", ("input", "target")),
    "cross_entropy": ("loss.cross_entropy", ("input", "target")),
    "binary_cross_entropy": ("loss.bce", ("input", "target")),
    "binary_cross_entropy_with_logits": ("loss.bce_with_logits", ("input", "target")),
}
_METHOD_ONLY: dict[str, Row] = {"view": ("shape.view", ("x", "*shape")), "expand": ("shape.expand", ("x", "*shape")),
                "contiguous": ("shape.contiguous", ("x",))}
# x.name(...) is name(x, ...); only these names may follow a dot
METHODS = {**{n: FUNCTIONS[n] for n in FUNCTIONS if n not in ("cat", "stack", "where", "lerp")}, **_METHOD_ONLY}
_BINOPS = {ast.Add: "math.add", ast.Sub: "math.sub", ast.Mult: "math.mul", ast.Div: "math.div",
           ast.FloorDiv: "math.floor_divide", ast.Mod: "math.remainder", ast.Pow: "math.pow",
           ast.MatMult: "linalg.matmul"}
_COMPARE = {ast.Eq: "compare.eq", ast.NotEq: "compare.ne", ast.Lt: "compare.lt", ast.LtE: "compare.le",
            ast.Gt: "compare.gt", ast.GtE: "compare.ge"}
_JOIN_PORTS = ("in0", "in1", "in2", "in3")


@dataclass
class Var:
    name: str


@dataclass
class Const:
    value: object


@dataclass
class _Seq:
    """A list of sub-expressions (only as the first argument of cat/stack)."""

    value: list[Expr]


@dataclass
class Op:
    """One operation: a node type, its input expressions by port and its constant parameters."""

    type_id: str
    args: dict[str, Expr] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)


Expr = Var | Const | _Seq | Op  # a parsed formula


def _where(node: ast.AST) -> str:
    return f"at column {getattr(node, 'col_offset', 0) + 1}"


def _fail(node: ast.AST, message: str) -> NoReturn:
    raise ExpressionError(f"{message} ({_where(node)})")


def parse(formula: str, names: Iterable[str] | None = None) -> Expr:
    """The formula as a tree of ``Op``/``Var``/``Const``; ``names`` (if given) are the only allowed inputs."""
    if not isinstance(formula, str):
        raise ExpressionError(f"a formula must be text, got {type(formula).__name__}")
    if len(formula) > MAX_CHARS:
        raise ExpressionError(f"formula too long: {len(formula)} characters (at most {MAX_CHARS})")
    if not formula.strip():
        raise ExpressionError("empty formula")
    try:
        with warnings.catch_warnings():  # a string literal's odd escape ("\-") is the user's text, not our code
            warnings.simplefilter("ignore", (DeprecationWarning, SyntaxWarning))
            tree = ast.parse(formula.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"syntax error: {exc.msg} (at column {exc.offset or 0})") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError("formula too deeply nested or malformed") from None
    importlib.import_module("core.nodegraph.model.nodes")  # registers the node types a formula maps to
    count = sum(1 for _ in ast.walk(tree))
    if count > MAX_NODES:
        raise ExpressionError(f"formula too large: {count} syntax nodes (at most {MAX_NODES})")
    return _Reader(None if names is None else set(names)).read(tree.body, 0)


class _Reader:
    """Turns whitelisted AST nodes into Op/Var/Const; everything else is refused."""

    def __init__(self, names: set[str] | None) -> None:
        self.names = names

    def read(self, node: ast.AST, depth: int) -> Expr:
        if depth > MAX_DEPTH:
            _fail(node, f"formula nested deeper than {MAX_DEPTH} levels")
        method: Callable[[ast.AST, int], Expr] | None = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            _fail(node, f"{type(node).__name__} is not allowed in a formula")
        return method(node, depth + 1)

    def _Constant(self, node: ast.Constant, depth: int) -> Expr:  # named after the AST class
        v = node.value
        if isinstance(v, bool) or v is None or isinstance(v, (int, float)) and not isinstance(v, complex):
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2 ** 63:
                _fail(node, "integer constant out of range")
            return Const(v)
        if v is Ellipsis:
            return Const(Ellipsis)
        _fail(node, f"{type(v).__name__} constants are not allowed in a formula")

    def _Name(self, node: ast.Name, depth: int) -> Expr:
        if node.id.startswith("_") or (self.names is not None and node.id not in self.names):
            _fail(node, f"unknown name '{node.id}'")
        return Var(node.id)

    def _Tuple(self, node: ast.Tuple | ast.List, depth: int) -> Expr:
        values = [self.read(e, depth) for e in node.elts]
        if all(isinstance(v, Const) for v in values):
            return Const(tuple(v.value for v in values if isinstance(v, Const)))
        return _Seq(values)

    _List = _Tuple

    def _BinOp(self, node: ast.BinOp, depth: int) -> Expr:
        type_id = _BINOPS.get(type(node.op))
        if type_id is None:
            _fail(node, f"operator {type(node.op).__name__} is not allowed")
        return Op(type_id, {"a": self._operand(node.left, depth), "b": self._operand(node.right, depth)})

    def _operand(self, node: ast.AST, depth: int) -> Expr:
        """A sub-expression used as a tensor: anything but None, ``...`` or a list of tensors."""
        value = self.read(node, depth)
        if isinstance(value, _Seq) or isinstance(value, Const) and (value.value is None or value.value is Ellipsis):
            _fail(node, "an operand must be a tensor or a number")
        return value

    def _UnaryOp(self, node: ast.UnaryOp, depth: int) -> Expr:
        x = self._operand(node.operand, depth)
        if isinstance(node.op, ast.UAdd):
            return x
        if isinstance(node.op, ast.USub):
            if isinstance(x, Const) and isinstance(x.value, (int, float)) and not isinstance(x.value, bool):
                return Const(-x.value)
            return Op("math.neg", {"x": x})
        if isinstance(node.op, ast.Invert):
            return Op("compare.bitwise_not", {"x": x})
        _fail(node, f"operator {type(node.op).__name__} is not allowed")

    def _Compare(self, node: ast.Compare, depth: int) -> Expr:
        if len(node.ops) != 1:
            _fail(node, "chained comparisons are not allowed; use logical_and(a < b, b < c)")
        type_id = _COMPARE.get(type(node.ops[0]))
        if type_id is None:
            _fail(node, f"comparison {type(node.ops[0]).__name__} is not allowed")
        return Op(type_id, {"a": self._operand(node.left, depth), "b": self._operand(node.comparators[0], depth)})

    def _Attribute(self, node: ast.Attribute, depth: int) -> Expr:
        if node.attr != "T":
            _fail(node, f"attribute '{node.attr}' is not allowed (only .T and whitelisted method calls)")
        return Op("shape.t", {"x": self._operand(node.value, depth)})

    def _Subscript(self, node: ast.Subscript, depth: int) -> Expr:
        x = self.read(node.value, depth)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(items) == 1 and not isinstance(items[0], (ast.Slice, ast.Constant, ast.UnaryOp)):
            return Op("shape.index", {"x": x, "index": self.read(items[0], depth)})
        return Op("shape.slice", {"x": x}, {"index": format_index([self._index_item(i, depth) for i in items])})

    def _index_item(self, node: ast.expr, depth: int) -> object:
        if isinstance(node, ast.Slice):
            return slice(*(None if b is None else self._int(b, depth) for b in (node.lower, node.upper, node.step)))
        value = self._constant(node, depth)
        if value is Ellipsis or value is None or isinstance(value, int) and not isinstance(value, bool):
            return value
        _fail(node, "an index must be an integer, a slice, ..., None or one tensor")

    def _int(self, node: ast.expr, depth: int) -> int:
        value = self._constant(node, depth)
        if not isinstance(value, int) or isinstance(value, bool):
            _fail(node, "slice bounds must be integers")
        return value

    def _constant(self, node: ast.AST, depth: int) -> object:
        value = self.read(node, depth)
        if not isinstance(value, Const):
            _fail(node, "a constant (number, bool, None or tuple of them) is needed here")
        return value.value

    def _Call(self, node: ast.Call, depth: int) -> Expr:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            _fail(node, "* and ** arguments are not allowed")
        if isinstance(node.func, ast.Name):
            if node.func.id not in FUNCTIONS:
                _fail(node, f"function '{node.func.id}' is not allowed")
            type_id, slots = FUNCTIONS[node.func.id]
            args = [self.read(a, depth) for a in node.args]
        elif isinstance(node.func, ast.Attribute):
            if node.func.attr not in METHODS:
                _fail(node.func, f"method '{node.func.attr}' is not allowed")
            type_id, slots = METHODS[node.func.attr]
            args = [self.read(node.func.value, depth)] + [self.read(a, depth) for a in node.args]
        else:
            _fail(node, "only whitelisted functions and methods can be called")
        op = Op(type_id)
        self._fill(op, node, slots, args)
        for kw in node.keywords:
            if kw.arg is not None:  # always: ** arguments were refused above
                self._put(op, node, kw.arg, self.read(kw.value, depth))
        return op

    def _fill(self, op: Op, node: ast.Call, slots: tuple[str, ...], args: list[Expr]) -> None:
        if slots[0] == "*tensors" and args and isinstance(args[0], _Seq):  # cat([x, w], 0): torch's form
            self._join(op, node, args[:1])
            slots, args = slots[1:], args[1:]
            if len(args) > len(slots):
                _fail(node, f"too many arguments for {op.type_id} (a list of tensors and a dim)")
        for i, slot in enumerate(slots):
            if slot.startswith("*"):
                rest = args[i:]
                if slot == "*tensors":
                    self._join(op, node, rest)
                else:
                    values = rest[0].value if len(rest) == 1 and isinstance(rest[0], Const) and \
                        isinstance(rest[0].value, tuple) else tuple(self._const_of(a, node) for a in rest)
                    self._put(op, node, slot[1:], Const(values))
                return
            if i < len(args):
                self._put(op, node, slot, args[i])
        if len(args) > len(slots):
            _fail(node, f"too many arguments for {op.type_id} (at most {len(slots)})")

    def _join(self, op: Op, node: ast.Call, rest: list[Expr]) -> None:
        items = rest[0].value if len(rest) == 1 and isinstance(rest[0], _Seq) else rest
        if any(isinstance(item, _Seq) for item in items):
            _fail(node, f"{op.type_id} takes one list of tensors, then the dim: cat([x, w], 0)")
        if not 1 <= len(items) <= len(_JOIN_PORTS):
            _fail(node, f"{op.type_id} joins 1 to {len(_JOIN_PORTS)} tensors")
        for port, item in zip(_JOIN_PORTS, items):
            op.args[port] = item

    def _const_of(self, value: Expr, node: ast.AST) -> object:
        if not isinstance(value, Const):
            _fail(node, "a constant is needed here")
        return value.value

    def _put(self, op: Op, node: ast.Call, name: str, value: Expr) -> None:
        spec = get_spec(op.type_id)
        if name in op.args or name in op.params:
            _fail(node, f"argument '{name}' given twice")
        if name in {p.name for p in spec.inputs}:
            if isinstance(value, Const) and not isinstance(value.value, (int, float, tuple)):
                _fail(node, f"argument '{name}' of {op.type_id} must be a tensor or a number")
            op.args[name] = value
        elif name in {p.name for p in spec.params}:
            op.params[name] = self._const_of(value, node)
        else:
            _fail(node, f"{op.type_id} has no argument '{name}'")


def format_index(items: Iterable[object]) -> str:
    """Index items (ints, slices, ..., None) as the text ``shape.slice`` parses, e.g. ``"0, 1:3, ..."``."""
    def one(i: object) -> str:
        if i is Ellipsis:
            return "..."
        if isinstance(i, slice):
            text = ":".join("" if v is None else str(v) for v in (i.start, i.stop, i.step))
            return text[:-1] if i.step is None else text
        return str(i)
    return ", ".join(one(i) for i in items)


def free_names(formula: str) -> list[str]:
    """The free variables of a formula in order of first use."""
    seen: list[str] = []

    def walk(t: Expr) -> None:
        if isinstance(t, Var) and t.name not in seen:
            seen.append(t.name)
        elif isinstance(t, Op):
            for a in t.args.values():
                walk(a)
        elif isinstance(t, _Seq):
            for a in t.value:
                walk(a)
    walk(parse(formula))
    return seen


def evaluate(formula: str, inputs: dict[str, Any], ctx: EvalContext | None = None) -> Any:
    """The formula's value for ``inputs`` (name -> tensor or number), computed with the node types' evaluate."""
    return _run(_rooted(parse(formula, names=set(inputs))), inputs, ctx or EvalContext())


def _rooted(tree: Expr) -> Expr:
    if isinstance(tree, Const) and (tree.value is None or tree.value is Ellipsis):
        raise ExpressionError("a formula must compute a tensor or a number")
    return tree


def _run(t: Expr, inputs: dict[str, Any], ctx: EvalContext) -> Any:
    if isinstance(t, Var):
        return inputs[t.name]
    if isinstance(t, Const):
        return core.tensor(t.value)
    if isinstance(t, _Seq):
        raise ExpressionError("a list of tensors can only be joined by cat or stack")
    spec = get_spec(t.type_id)
    params = spec.validate_params(t.params)
    args = {port: _run(a, inputs, ctx) for port, a in t.args.items()}
    budget.check(spec, args, params)  # each op of a formula is held to the same budgets as a node
    out = spec.evaluate(ctx, args, params)
    return out["out"] if isinstance(out, dict) else out


def expand(formula: str, origin: tuple[float, float] = (0.0, 0.0),
           spacing: tuple[float, float] = (180.0, 90.0)) -> dict[str, Any]:
    """A fragment ``{"nodes", "edges", "inputs"}`` with one node per operation, laid out left to right."""
    tree = _rooted(parse(formula))
    builder = _Builder()
    builder.add(tree)
    return builder.fragment(origin, spacing)


class _Builder:
    def __init__(self) -> None:
        self.nodes: list[dict[str, Any]] = []
        self.edges: list[dict[str, Any]] = []
        self.depth: dict[str, int] = {}  # node id -> column
        self.vars: dict[str, str] = {}  # free variable -> its node id

    def _node(self, type_id: str, params: dict[str, Any], title: str | None, depth: int) -> str:
        node_id = f"n{len(self.nodes) + 1}"
        self.nodes.append({"id": node_id, "type": type_id, "params": params, "position": [0.0, 0.0],
                           "title": title, "color": None})
        self.depth[node_id] = depth
        return node_id

    def add(self, t: Expr) -> str:
        """The id of the node computing ``t`` (created once per free variable)."""
        if isinstance(t, Var):
            if t.name not in self.vars:
                self.vars[t.name] = self._node("source.tensor", {"tensor": 0.0}, t.name, 0)
            return self.vars[t.name]
        if isinstance(t, Const):
            return self._node("source.tensor", {"tensor": list(t.value) if isinstance(t.value, tuple) else t.value},
                              repr(t.value), 0)
        if isinstance(t, _Seq):
            raise ExpressionError("a list of tensors can only be joined by cat or stack")
        sources = {port: self.add(a) for port, a in t.args.items()}
        params = {k: list(v) if isinstance(v, tuple) else v for k, v in t.params.items()}
        node_id = self._node(t.type_id, params, None, 1 + max((self.depth[s] for s in sources.values()),
                                                                        default=0))
        for port, src in sources.items():
            self.edges.append({"from": [src, "out"], "to": [node_id, port]})
        return node_id

    def fragment(self, origin: tuple[float, float], spacing: tuple[float, float]) -> dict[str, Any]:
        rows: dict[int, int] = {}
        for node in self.nodes:
            d = self.depth[node["id"]]
            node["position"] = [origin[0] + d * spacing[0], origin[1] + rows.get(d, 0) * spacing[1]]
            rows[d] = rows.get(d, 0) + 1
        return {"nodes": self.nodes, "edges": self.edges, "inputs": list(self.vars)}
