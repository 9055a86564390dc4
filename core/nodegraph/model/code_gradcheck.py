"""Read a snippet's ``gradcheck(fn, inputs, ...)`` call as a ``check.gradcheck`` node: the recorder calls this.

``read_call`` gets the function and arguments the snippet passed and the snippet's text, and returns what
the node needs: ``formula`` (the checked function as a formula over ``x`` in the expression language),
``params`` (``eps``, ``atol``, ``rtol``), ``x`` (the tensor checked) and ``title`` (the variable the
snippet binds the result to, if any); or ``why``: the reason the call can't be that node (the recorder
then keeps its result as a value and the importer's notes say why).

The formula comes from the function's source: a lambda (``lambda inp: (inp ** 3).sum()``) or a def whose
body is one ``return``, found in the snippet's syntax tree by its code object's first line and argument
names. Its argument becomes ``x``; ``torch.exp(...)``/``F.gelu(...)`` become the language's ``exp(...)``/
``gelu(...)``, and ``torch.tensor(<number>, ...)`` the number. A core op passed itself (``gradcheck(torch.sin,
...)``) becomes ``sin(x)``. Nothing here runs the function: the ops it runs inside ``gradcheck`` are not
recorded (the recorder records only calls made by the snippet's own top level).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from types import CodeType
from typing import Any

import core
from core.nodegraph.model import code_ops, expression

__all__ = ["read_call"]

_OWN_PARAMS = ("eps", "atol", "rtol")
_FREE_PARAMS = ("raise_exception",)  # the node never raises; a failing check raised in the snippet already


def read_call(source: str, filename: str, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
              line: int | None) -> dict[str, Any]:
    """``{"formula", "params", "x", "title"}`` for the node, or ``{"why": reason}`` (see the module docstring)."""
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {"why": "gradcheck's arguments could not be read"}
    bound.apply_defaults()
    arguments = bound.arguments
    inputs = arguments["inputs"]
    inputs = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
    if len(inputs) != 1 or not isinstance(inputs[0], core.Tensor):
        return {"why": "gradcheck checks one tensor in a graph, and this call passes "
                       f"{len(inputs)} inputs"}
    params = {k: arguments[k] for k in _OWN_PARAMS}
    for name, p in inspect.signature(fn).parameters.items():
        if name not in ("func", "inputs", *_OWN_PARAMS, *_FREE_PARAMS) and arguments[name] != p.default:
            return {"why": f"gradcheck's {name}={arguments[name]!r} has no place in the check.gradcheck node"}
    formula = _formula(arguments["func"], source, filename)
    if formula.startswith("!"):
        return {"why": formula[1:]}
    return {"formula": formula, "params": params, "x": inputs[0], "title": _bound_name(source, line)}


def _formula(func: object, source: str, filename: str) -> str:
    """The formula, or ``"!reason"``."""
    name = code_ops.name_of(inspect.unwrap(func)) if callable(func) else None
    short = name.rsplit(".", 1)[-1] if name else None
    if short in expression.FUNCTIONS and _parses(f"{short}(x)"):
        return f"{short}(x)"
    code = getattr(func, "__code__", None)
    if code is None or code.co_filename != filename:
        return "!the checked function is not written in the snippet"
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "!the snippet's text could not be read"
    found = _function_node(tree, code)
    if found is None:
        return "!the checked function is not a lambda or a def of one argument whose body is one return"
    arg, body = found
    try:
        formula = ast.unparse(_AsFormula(arg).visit(body))
    except ValueError as exc:
        return f"!the checked function {exc}"
    return formula if _parses(formula) else f"!the checked function ({formula}) is not a formula over its argument"


def _function_node(tree: ast.AST, code: CodeType) -> tuple[str, ast.expr] | None:
    """``(argument name, body expression)`` of the lambda or def that compiled to ``code``."""
    names = code.co_varnames[:code.co_argcount]
    if len(names) != 1 or code.co_kwonlyargcount or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda) and node.lineno == code.co_firstlineno and code.co_name == "<lambda>" \
                and [a.arg for a in node.args.args] == list(names):
            return names[0], node.body
        if isinstance(node, ast.FunctionDef) and node.name == code.co_name and node.lineno == code.co_firstlineno:
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
                return names[0], body[0].value
            return None
    return None


class _AsFormula(ast.NodeTransformer):
    """The function's argument becomes ``x``; ``torch.exp(...)`` becomes ``exp(...)``; ``torch.tensor(2.0)`` 2.0."""

    def __init__(self, arg: str) -> None:
        self.arg = arg

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id != self.arg:
            raise ValueError(f"uses '{node.id}', a name other than its argument")
        return ast.copy_location(ast.Name("x", ast.Load()), node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if isinstance(node.func, ast.Attribute) and _dotted(node.func):
            name = node.func.attr
            if name == "tensor" and node.args and isinstance(node.args[0], ast.Constant):
                return node.args[0]
            node.func = ast.copy_location(ast.Name(name, ast.Load()), node.func)
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
            return node
        return self.generic_visit(node)


def _dotted(node: ast.expr) -> bool:
    """``torch.exp``, ``F.gelu``, ``torch.nn.functional.gelu``: a chain of attributes on a module's name."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in ("torch", "F", "nn", "functional", "linalg", "special")


def _parses(formula: str) -> bool:
    try:
        expression.parse(formula, ["x"])
    except expression.ExpressionError:
        return False
    return True


def _bound_name(source: str, line: int | None) -> str | None:
    """The variable a one-target assignment on ``line`` binds (``check = gradcheck(...)``), else None."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and node.lineno == line and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
            return node.targets[0].id
    return None
