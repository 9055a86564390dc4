"""Elementwise arithmetic and math nodes (``math.*``), one table row per ``core`` op.

Unary nodes take input ``x``; binary nodes take ``a`` and ``b`` (broadcasting, PyTorch's promotion).
Expression constants may arrive as Python numbers; a binary op with two numbers wraps the first as a
0-d tensor so the result is always a tensor.
"""

from __future__ import annotations

from collections.abc import Callable

import core
from core.nodegraph.model.nodes._common import as_tensor, call_code, op_node
from core.nodegraph.model.spec import Param

UNARY = ("abs", "neg", "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan",
         "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "relu", "sign",
         "signbit", "floor", "ceil", "trunc", "frac", "reciprocal", "square", "erf", "erfc", "erfinv", "lgamma",
         "digamma", "logit", "sinc", "deg2rad", "rad2deg", "nan_to_num", "positive")

BINARY = {"add": "a + b", "sub": "a - b", "mul": "a * b", "pow": "a ** b", "float_power": "a ** b in float64",
          "floor_divide": "a // b (rounded down)", "remainder": "a % b (sign of b)", "fmod": "C-style a % b",
          "minimum": "elementwise minimum (nan wins)", "maximum": "elementwise maximum (nan wins)",
          "fmin": "elementwise minimum (ignores nan)", "fmax": "elementwise maximum (ignores nan)",
          "atan2": "angle of (b, a)", "hypot": "sqrt(a**2 + b**2)", "xlogy": "a * log(b), 0 where a == 0",
          "logaddexp": "log(exp(a) + exp(b))", "copysign": "|a| with the sign of b", "heaviside": "step(a), b at 0"}


def _unary(name: str) -> Callable[[core.Tensor], core.Tensor]:
    fn = getattr(core, name)
    return lambda x: fn(x)


def _binary(name: str) -> Callable[[core.Tensor | float, core.Tensor | float], core.Tensor]:
    fn = getattr(core, name)
    return lambda a, b: fn(as_tensor(a), b) if not isinstance(b, core.Tensor) else fn(a, b)


for _name in UNARY:
    op_node(f"math.{_name}", _name, f"elementwise {_name}(x)", _unary(_name), code=call_code(f"torch.{_name}"))

for _name, _doc in BINARY.items():
    op_node(f"math.{_name}", _name, _doc, _binary(_name), inputs=("a", "b"),
            code=call_code(f"torch.{_name}", ("a", "b")))

op_node("math.div", "div", "a / b, optionally rounded (trunc or floor)",
        lambda a, b, rounding_mode: core.div(as_tensor(a), b, rounding_mode=None if rounding_mode == "none"
                                             else rounding_mode),
        inputs=("a", "b"), params=(Param("rounding_mode", "choice", "none", choices=("none", "trunc", "floor")),),
        code=lambda cg: f"torch.div({cg.inputs['a']}, {cg.inputs['b']}, rounding_mode="
                        f"{None if cg.params['rounding_mode'] == 'none' else cg.params['rounding_mode']!r})")
op_node("math.clamp", "clamp", "x limited to [min, max]; an unconnected bound is not applied",
        lambda x, lo, hi: core.clamp(x, lo, hi), inputs=("x", "min", "max"), optional=("min", "max"),
        code="torch.clamp({x}, {min}, {max})")
op_node("math.round", "round", "x rounded half to even, to a number of decimals",
        lambda x, decimals: core.round(x, decimals=decimals), params=(Param("decimals", "int", 0, -20, 20),),
        code="torch.round({x}, decimals={decimals})")
op_node("math.polygamma", "polygamma", "the n-th derivative of digamma",
        lambda x, n: core.polygamma(n, x), params=(Param("n", "int", 1, 0, 20),),
        code="torch.polygamma({n}, {x})")
op_node("math.lerp", "lerp", "a + weight * (b - a)", core.lerp, inputs=("a", "b", "weight"),
        code="torch.lerp({a}, {b}, {weight})")
op_node("math.addcmul", "addcmul", "x + value * t1 * t2",
        lambda x, t1, t2, value: core.addcmul(x, t1, t2, value=value), inputs=("x", "t1", "t2"),
        params=(Param("value", "float", 1.0),), code="torch.addcmul({x}, {t1}, {t2}, value={value})")
op_node("math.addcdiv", "addcdiv", "x + value * t1 / t2",
        lambda x, t1, t2, value: core.addcdiv(x, t1, t2, value=value), inputs=("x", "t1", "t2"),
        params=(Param("value", "float", 1.0),), code="torch.addcdiv({x}, {t1}, {t2}, value={value})")
