"""``expr.expression``: a formula such as ``(x * w).sum() + b`` over named inputs.

The input ports follow the ``inputs`` parameter (comma-separated names, at most 8), through
``NodeSpec.dynamic_inputs``; ``Node.input_names()`` and ``NodeSpec.input_ports(params)`` report them. The
formula is read by the safe parser of ``core.nodegraph.model.expression`` (nothing is executed).
"""

from __future__ import annotations

import re
from typing import Any

from core.nodegraph.model import expression
from core.nodegraph.model.spec import EvalContext, NamedValues, NodeSpec, Param, ParamError, Port, quote, register

MAX_INPUTS = 8
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
RESERVED = ("formula", "inputs")


def input_names(text: str) -> list:
    """``"x, w, b"`` as ``["x", "w", "b"]``; ParamError for a bad, reserved or repeated name."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if not _NAME.match(n) or n in RESERVED]
    if bad:
        raise ParamError(f"parameter 'inputs': {quote(bad[0])} is not a valid input name")
    if len(set(names)) != len(names) or len(names) > MAX_INPUTS:
        raise ParamError(f"parameter 'inputs': names must be distinct and at most {MAX_INPUTS}, got {quote(text)}")
    return names


def _ports(params: NamedValues) -> tuple[Port, ...]:
    return tuple(Port(n) for n in input_names(params["inputs"]))


def _evaluate(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> Any:
    names = input_names(p["inputs"])
    missing = [n for n in names if n not in inputs]
    if missing:
        raise ParamError(f"expr.expression: input '{missing[0]}' is not connected")
    return expression.evaluate(p["formula"], {n: inputs[n] for n in names}, ctx)


register(NodeSpec("expr.expression", "expr", "Expression", "a formula over named inputs, e.g. (x * w).sum() + b",
                  _evaluate, inputs=(Port("x"), Port("w"), Port("b")), dynamic_inputs=_ports,
                  params=(Param("formula", "str", "(x * w).sum() + b"),
                          Param("inputs", "str", "x, w, b", doc="comma-separated input names")),
                  code=lambda cg: cg.formula(cg.params["formula"])))
