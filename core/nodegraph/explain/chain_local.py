"""Local derivatives in words, with the numbers plugged in, for the autograd nodes whose rule is simple.

``local_factor(anode, k, saved, name_of)`` says what ``anode`` multiplies the incoming gradient by on
its way to input ``k``: ``("1", None)`` for an addition, ``("w", [1.5, -0.5])`` for a product (the other
factor, named after the graph node that made it), ``("ones(2)", None)`` for a sum, ``("exp({x})", ...)``
for ``exp``... ``saved`` are the node's saved tensors (None where nothing was kept) and ``name_of``
names a tensor the session knows; ``{x}`` in the words stands for the input's name, which the caller
fills in. ``(None, None)`` means no simple rule: the caller then shows the
gradient in and out. Values are backend arrays (or Python numbers) computed from what the node saved,
read once the step ran, so a later in-place update (an optimizer step) does not change them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeGuard

import numpy as np

import core
from core.autograd import graph
from core.autograd.graph import Node
from core.nodegraph.model.numtext import number, shape_text

__all__ = ["local_factor", "saved_tensors"]

Saved = tuple[Any, ...]  # a node's saved tensors, None where nothing was kept
NameOf = Callable[[core.Tensor], str | None]  # the session's name for a tensor, None when it has none
Factor = tuple[str | None, Any]  # (words, value); (None, None): no simple rule
FactorRule = Callable[[Node, int, Saved, NameOf], Factor]  # (anode, input k, saved, name_of) -> Factor

_RESHAPES = ("ViewBackward0", "UnsafeViewBackward0", "ReshapeAliasBackward0", "SqueezeBackward0", "SqueezeBackward1",
             "SqueezeBackward2", "SqueezeBackward4", "UnsqueezeBackward0", "AliasBackward0", "CloneBackward0")
_TRANSPOSES = ("TransposeBackward0", "TBackward0", "PermuteBackward0")


def saved_tensors(anode: Node, backup: Any = None) -> Saved:
    """The tensors ``anode`` saved for backward (from ``backup``, a ``graph.saved_state``, once a backward freed
    them), no checks."""
    saved = graph.saved_tensors(anode) or (graph.saved_tensors(anode, backup) if backup is not None else ())
    return tuple(s.tensor for s in saved)


def _in_shape(anode: Node, k: int) -> tuple[int, ...] | None:
    metas = graph.input_metadata(anode)
    meta = metas[k] if k < len(metas) else None
    return tuple(meta[0]) if meta else None


def _out_shape(anode: Node) -> tuple[int, ...] | None:
    metas = graph.output_metadata(anode)
    meta = metas[0] if metas else None
    return tuple(meta[0]) if meta else None


def _summed_back(anode: Node, k: int, words: str) -> str:
    """``words``, noting a broadcast input whose gradient the engine sums back to its shape."""
    shape, out = _in_shape(anode, k), _out_shape(anode)
    if shape is not None and out is not None and shape != out:
        return f"{words}, summed back to {shape_text(shape) if shape else 'a scalar'}"
    return words


def _operand(saved: Saved, scalars: Sequence[Any] | None, i: int) -> Any:
    """Operand ``i`` of a binary op: the saved tensor, else the Python number it kept in ``scalars``."""
    t = saved[i] if i < len(saved) else None
    if t is not None:
        return t
    return scalars[i] if scalars is not None and i < len(scalars) else None


def _is_tensor(v: object) -> TypeGuard[core.Tensor]:
    return isinstance(v, core.Tensor)


def _data(v: Any) -> Any:
    """A backend array for a tensor, the number itself for a Python number."""
    return graph.array_of(v) if _is_tensor(v) else v


def _named(v: Any, name_of: NameOf, fallback: str) -> str:
    if _is_tensor(v):
        return name_of(v) or fallback
    return number(v)


def _add(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    alpha = getattr(anode, "alpha", 1)
    return _summed_back(anode, k, "1" if k == 0 or alpha == 1 else number(alpha)), None


def _sub(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    alpha = getattr(anode, "alpha", 1)
    return _summed_back(anode, k, "1" if k == 0 else number(-alpha)), None


def _self_other(saved: Saved, scalars: Sequence[Any] | None, i: int) -> Any:
    """Operand ``i`` (0: self, 1: other) of a MulBackward0 or DivBackward0 node, which save other before self
    (PyTorch's order of saved variables)."""
    return _operand(saved, scalars, 1 - i)


def _mul(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    other = _self_other(saved, getattr(anode, "scalars", None), 1 - k)
    if other is None:
        return None, None
    return _summed_back(anode, k, _named(other, name_of, "the other factor")), _data(other)


def _div(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    scalars = getattr(anode, "scalars", None)
    a, b = _self_other(saved, scalars, 0), _self_other(saved, scalars, 1)
    if b is None or (k == 1 and a is None):
        return None, None
    bn = _named(b, name_of, "b")
    with np.errstate(all="ignore"):
        if k == 0:
            return _summed_back(anode, k, f"1/{bn}"), 1 / _data(b)
        return _summed_back(anode, k, f"-{_named(a, name_of, 'a')}/{bn}²"), -_data(a) / (_data(b) * _data(b))


def _sum(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    shape = _in_shape(anode, k)
    return ("1" if not shape else f"ones{shape_text(shape)}"), None


def _mean(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    shape, out = _in_shape(anode, k), _out_shape(anode)
    if shape is None or out is None:
        return None, None
    n = math.prod(shape) // max(math.prod(out), 1)
    return f"1/{n} each", 1.0 / n if n else None


def _pow(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    """``n·x^(n-1)`` towards the base; ``x^n·ln x`` towards a tensor exponent (PowBackward1)."""
    scalars = getattr(anode, "scalars", None)
    x, e = _operand(saved, scalars, 0), _operand(saved, scalars, 1)
    if x is None or e is None or isinstance(e, bool):
        return None, None
    xn, xd, ed = _named(x, name_of, "{x}"), _data(x), _data(e)
    single = not _is_tensor(e) or ed.size == 1
    en = number(ed.reshape(()).item() if _is_tensor(e) else e) if single else _named(e, name_of, "n")
    with np.errstate(all="ignore"):
        if k == 0:
            less = number(float(en) - 1) if single else f"({en} - 1)"
            return f"{en}·{xn}^{less}", ed * xd ** (ed - 1)
        return f"{xn}^{en}·ln {xn}", xd ** ed * np.log(xd) if isinstance(xd, np.ndarray) else None


def _unary(words: str, rule: Callable[[Any], Any], slot: int) -> FactorRule:
    """A rule of the unary op's saved input (slot 0) or output (slot 1)."""

    def factor(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
        v = saved[slot] if slot < len(saved) else None
        if v is None:
            return None, None
        with np.errstate(all="ignore"):
            return words, rule(_data(v))

    return factor


def _mm(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    if graph.primitive_name(anode) == "Linear2dNoBias":
        return _linear(anode, k, saved, name_of)
    if len(saved) < 2 or saved[1 - k] is None:
        return None, None
    other = saved[1 - k]
    words = f"{_named(other, name_of, 'B' if k == 0 else 'A')}ᵀ"
    return (f"· {words}" if k == 0 else f"{words} ·"), _data(other).T


def _mv(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    if len(saved) < 2 or saved[1 - k] is None:
        return None, None
    other = saved[1 - k]
    if k == 0:
        return f"⊗ {_named(other, name_of, 'v')}", _data(other)
    return f"{_named(other, name_of, 'A')}ᵀ ·", _data(other).T


def _dot(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    if len(saved) < 2 or saved[1 - k] is None:
        return None, None
    other = saved[1 - k]
    return _named(other, name_of, "the other vector"), _data(other)


def _linear(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    """``nn.functional.linear``'s one-node form: y = x · Wᵀ + b, inputs b, x and Wᵀ as torch's AddmmBackward0 has
    them (x, Wᵀ without a bias); Wᵀ is ``weight.t()``, whose TBackward0 hands W its gradient transposed back."""
    name = graph.primitive_name(anode)
    if name not in ("Linear2d", "Linear2dNoBias") or len(saved) < 2:
        return None, None
    x, wt = saved[0], saved[1]
    k -= 1 if name == "Linear2d" else 0
    if (k == 0 and wt is None) or (k == 1 and x is None):  # (kept only for the other input's gradient)
        return None, None
    if k == 0:
        return f"· {_named(_weight_behind(anode, wt), name_of, 'W')}", _data(wt).T
    if k == 1:
        return f"{_named(x, name_of, 'x')}ᵀ ·", _data(x).T
    return "summed over the batch", None


def _weight_behind(anode: Node, wt: Any) -> Any:
    """The leaf W of a linear node's last edge (Wᵀ, through ``t()``'s TBackward0 and W's AccumulateGrad), to name
    it as the user knows it; Wᵀ itself when the graph goes elsewhere."""
    t_node = anode.next_functions[-1][0]
    if t_node is not None and t_node.name() == "TBackward0":
        accumulate = t_node.next_functions[0][0]
        weight = getattr(accumulate, "variable", None)
        if weight is not None:
            return weight
    return wt


def _mse(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    """mean (or sum) of (input - target)²: 2·(input - target), over n for the mean."""
    reduction = getattr(anode, "reduction", None)
    if len(saved) < 2 or saved[0] is None or saved[1] is None or reduction not in ("mean", "sum"):
        return None, None
    x, t = _data(saved[0]), _data(saved[1])
    n = x.size if reduction == "mean" else 1
    words = f"2·({_named(saved[0], name_of, 'input')} - {_named(saved[1], name_of, 'target')})" + (
        f"/{n}" if n != 1 else "")
    with np.errstate(all="ignore"):
        value = 2 * (x - t) / n
    return (words, value) if k == 0 else (f"-{words}", -value)


def _loss_operands(anode: Node, saved: Saved) -> tuple[Any, Any, int] | None:
    """(input, target, n) of a loss node reduced by mean (n = numel) or sum (n = 1); None for anything else."""
    reduction = getattr(anode, "reduction", None)
    if len(saved) < 2 or saved[0] is None or saved[1] is None or reduction not in ("mean", "sum"):
        return None
    x = _data(saved[0])
    return x, _data(saved[1]), (x.size if reduction == "mean" else 1)


def _bce(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    """Binary cross entropy of probabilities: (input - target)/(input·(1 - input)) towards the input (the
    denominator clamped at 1e-12, as PyTorch's), -logit(input) towards the target; over n for the mean."""
    operands = _loss_operands(anode, saved)
    if operands is None:
        return None, None
    x, t, n = operands
    xn, tn = _named(saved[0], name_of, "input"), _named(saved[1], name_of, "target")
    xp = graph.array_module(x)
    with np.errstate(all="ignore"):
        if k == 0:
            words, value = f"({xn} - {tn})/({xn}·(1 - {xn}))", (x - t) / xp.maximum(x * (1 - x), 1e-12)
        else:
            words, value = f"-logit({xn})", -xp.log(x / (1 - x))
    weight = getattr(anode, "w", None)
    if weight is not None:
        words, value = f"{words}·weight", value * weight
    return words + (f"/{n}" if n != 1 else ""), value / n


def _piecewise(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    """Smooth L1 (beta) and Huber (delta) losses: the slope at input - target, linear inside ±c and ±1 (smooth L1)
    or ±delta (Huber) outside; over n for the mean."""
    operands, c = _loss_operands(anode, saved), getattr(anode, "c", None)
    if operands is None or not c:
        return None, None
    x, t, n = operands
    huber = anode.name().startswith("Huber")
    d = x - t
    edge = c if huber else 1.0
    xp = graph.array_module(x)
    value = xp.where(d <= -c, -edge, xp.where(d >= c, edge, d if huber else d / c)) / n
    dn = f"({_named(saved[0], name_of, 'input')} - {_named(saved[1], name_of, 'target')})"
    words = f"{dn} within ±{number(c)}, ±{number(edge)} beyond" if huber else \
        f"{dn}/{number(c)} within ±{number(c)}, ±1 beyond"
    words += f", /{n}" if n != 1 else ""
    return (words, value) if k == 0 else (f"-({words})", -value)


def _reshape(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    shape = _in_shape(anode, k)
    return (f"reshaped back to {shape_text(shape)}" if shape is not None else "reshaped back"), None


def _expand(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    shape = _in_shape(anode, k)
    return (f"summed back to {shape_text(shape)}" if shape is not None else "summed back"), None


_RULES: dict[str, FactorRule] = {
    "AddBackward0": _add, "SubBackward0": _sub, "MulBackward0": _mul, "DivBackward0": _div,
    "NegBackward0": lambda anode, k, saved, name_of: ("-1", None),
    "SumBackward0": _sum, "SumBackward1": _sum, "NansumBackward0": _sum,
    "MeanBackward0": _mean, "MeanBackward1": _mean, "PowBackward0": _pow, "PowBackward1": _pow,
    "ExpBackward0": _unary("exp({x})", lambda o: o, 1),
    "TanhBackward0": _unary("1 - tanh²({x})", lambda o: 1 - o * o, 1),
    "SigmoidBackward0": _unary("σ({x})·(1 - σ({x}))", lambda o: o * (1 - o), 1),
    "ReluBackward0": _unary("mask {x} > 0", lambda o: (o > 0).astype(o.dtype), 1),
    "MmBackward0": _mm, "MvBackward0": _mv, "DotBackward0": _dot, "AddmmBackward0": _linear,
    "MseLossBackward0": _mse, "BinaryCrossEntropyBackward0": _bce, "SmoothL1LossBackward0": _piecewise,
    "HuberLossBackward0": _piecewise,
    "ExpandBackward0": _expand,
    "ToCopyBackward0": lambda anode, k, saved, name_of: ("cast back", None),
    **{name: _reshape for name in _RESHAPES},
    **{name: (lambda anode, k, saved, name_of: ("transposed back", None)) for name in _TRANSPOSES},
}


def local_factor(anode: Node, k: int, saved: Saved, name_of: NameOf) -> Factor:
    """``(words, value)``: what ``anode`` multiplies the gradient by towards input ``k``; ``(None, None)``
    when there is no simple rule or what it needs was not saved."""
    rule = _RULES.get(anode.name())
    if rule is None:
        return None, None
    try:
        return rule(anode, k, saved, name_of)
    except Exception:  # an unexpected saved layout: show the gradient in and out instead
        return None, None
