"""Comparison, logical and selection nodes (``compare.*``): boolean results, ``where`` and ``masked_fill``."""

from __future__ import annotations

from collections.abc import Callable

import core
from core.nodegraph.model.nodes._common import as_tensor, call_code, op_node
from core.nodegraph.model.spec import Param, Port

BINARY = {"eq": "a == b", "ne": "a != b", "lt": "a < b", "le": "a <= b", "gt": "a > b", "ge": "a >= b",
          "logical_and": "a and b", "logical_or": "a or b", "logical_xor": "a xor b",
          "bitwise_and": "a & b (integers, bools)", "bitwise_or": "a | b (integers, bools)",
          "bitwise_xor": "a ^ b (integers, bools)"}
UNARY = {"logical_not": "not x", "bitwise_not": "~x (integers, bools)", "isnan": "x is nan", "isinf": "x is ±inf",
         "isfinite": "x is neither inf nor nan", "isposinf": "x is +inf", "isneginf": "x is -inf"}


def _binary(name: str) -> Callable[[core.Tensor | float, core.Tensor | float], core.Tensor]:
    fn = getattr(core, name)
    return lambda a, b: fn(as_tensor(a), b)


for _name, _doc in BINARY.items():
    op_node(f"compare.{_name}", _name, _doc, _binary(_name), inputs=("a", "b"),
            code=call_code(f"torch.{_name}", ("a", "b")))

for _name, _doc in UNARY.items():
    op_node(f"compare.{_name}", _name, _doc, getattr(core, _name), code=call_code(f"torch.{_name}"))

_TOL = (Param("rtol", "float", 1e-5, 0.0), Param("atol", "float", 1e-8, 0.0), Param("equal_nan", "bool", False))
op_node("compare.isclose", "isclose", "|a - b| <= atol + rtol * |b|, elementwise",
        lambda a, b, rtol, atol, equal_nan: core.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan),
        inputs=("a", "b"), params=_TOL, code=call_code("torch.isclose", ("a", "b"), _TOL))
op_node("compare.allclose", "allclose", "isclose for every element (one bool)",
        lambda a, b, rtol, atol, equal_nan: core.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan),
        inputs=("a", "b"), params=_TOL, outputs=(Port("out", "scalar"),),
        code=call_code("torch.allclose", ("a", "b"), _TOL))
op_node("compare.equal", "equal", "same shape and values (one bool)", core.equal, inputs=("a", "b"),
        outputs=(Port("out", "scalar"),), code="torch.equal({a}, {b})")
op_node("compare.where", "where", "a where condition holds, else b",
        lambda condition, a, b: core.where(condition, a, b), inputs=("condition", "a", "b"),
        code="torch.where({condition}, {a}, {b})")
op_node("compare.masked_fill", "masked_fill", "x with value where mask is true",
        lambda x, mask, value: core.masked_fill(x, mask, value), inputs=("x", "mask"),
        params=(Param("value", "float", 0.0),), code="torch.masked_fill({x}, {mask}, {value})")
