"""PyTorch's ``torch._foreach_*`` list ops: one per-tensor op applied down lists of tensors.

On CPU PyTorch runs every foreach op as a loop over its per-tensor op (its "slow" kernels; the fused ones are
CUDA's), so each function here calls core's per-tensor op on each element: the values, PyTorch's rounding included
(``add(..., alpha=)`` is fused), are the per-tensor op's, and the out-of-place forms are differentiable through
them. Out-of-place forms return a tuple of new tensors; in-place forms (``_`` suffix) update each tensor in turn and
return the very list they were given, as PyTorch's bindings do. The list checks (a non-empty list, equal lengths, a
scalar list as long as the tensor list, a 0-d scalar tensor) raise PyTorch's errors before any tensor is touched.

The second argument picks the overload as PyTorch's argument parser does: a list of tensors, a list of numbers, a
number (or a 0-d tensor that needs no gradient), or, for ``add``/``mul``/``div``, one tensor (0-d) for all.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from core._arg_types import tp_name
from core._dtype import SCALAR_NAMES
from core._tensor import Tensor

_UNARY = ("abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1", "floor", "frac",
          "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal", "round", "rsqrt", "sigmoid", "sign", "sin",
          "sinh", "sqrt", "tan", "tanh", "trunc")
# name -> (per-tensor method, the second argument's forms, takes alpha=); maximum/minimum are PyTorch's clamp kernels
_BINARY = {
    "add": ("add", ("list", "tensor", "scalar", "scalars"), True),
    "sub": ("sub", ("list", "scalar", "scalars"), True),
    "mul": ("mul", ("list", "tensor", "scalar", "scalars"), False),
    "div": ("div", ("list", "tensor", "scalar", "scalars"), False),
    "clamp_min": ("clamp_min", ("list", "scalar", "scalars"), False),
    "clamp_max": ("clamp_max", ("list", "scalar", "scalars"), False),
    "maximum": ("clamp_min", ("list", "scalar", "scalars"), False),
    "minimum": ("clamp_max", ("list", "scalar", "scalars"), False),
    "pow": ("pow", ("list", "scalar", "scalars"), False),
}


_SHAPES = {"list": "tuple of Tensors other", "tensor": "Tensor other", "scalar": "Number scalar",
           "scalars": "tuple of Scalars scalars"}


def _invalid(op: str, args, kwargs, forms=("list",)) -> TypeError:
    """PyTorch's argument parser's TypeError, naming the overloads ``forms`` of the second argument."""
    got = [type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()]
    expected = "".join(f"\n * (tuple of Tensors self, {_SHAPES[f]})" for f in forms)
    return TypeError(f"{op}() received an invalid combination of arguments - got ({', '.join(got)}), but expected "
                     f"one of:{expected}")


def _is_number(value) -> bool:
    return isinstance(value, (numbers.Number, np.bool_)) and not isinstance(value, Tensor)


def _tensor_list(op: str, value, position: int, args, kwargs) -> list | tuple:
    """``value`` when it is a list or tuple of tensors; PyTorch's TypeError otherwise."""
    if not isinstance(value, (list, tuple)):
        raise _invalid(op, args, kwargs)
    for i, t in enumerate(value):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument {position}, but got {tp_name(t)}")
    return value


def _form(op: str, value, forms, position: int, args, kwargs) -> tuple[str, object]:
    """Which overload a second argument selects: ("list"|"tensor"|"scalar"|"scalars", the value to use)."""
    if isinstance(value, Tensor):
        if "tensor" in forms:
            return "tensor", value
        if "scalar" in forms and value.ndim == 0 and not value.requires_grad:
            return "scalar", value.item()
    elif isinstance(value, (list, tuple)):
        if "list" in forms and value and all(isinstance(v, Tensor) for v in value):
            return "list", value
        if "scalars" in forms and all(_is_number(v) for v in value):
            return "scalars", list(value)
        if "list" in forms and any(isinstance(v, Tensor) for v in value):
            _tensor_list(op, value, position, args, kwargs)
    elif _is_number(value) and "scalar" in forms:
        return "scalar", value
    raise _invalid(op, args, kwargs, forms)


def _check(*lists, scalars=None) -> None:
    """PyTorch's ``check_foreach_api_restrictions``: a non-empty first list, equal lengths, as many scalars."""
    n = len(lists[0])
    if n == 0:
        raise RuntimeError("Tensor list must have at least one tensor.")
    for other in lists[1:]:
        if len(other) != n:
            raise RuntimeError(f"Tensor lists must have the same number of tensors, got {n} and {len(other)}")
    if scalars is not None and len(scalars) != n:
        raise RuntimeError("Tensor list must have same number of elements as scalar list.")


def _check_scalar_tensor(t: Tensor) -> None:
    if t.ndim != 0 or t.numel() != 1:
        raise RuntimeError(f"scalar tensor expected to be 0 dim but it has {t.ndim} dimensions and {t.numel()} "
                           "elements.")


def _take(op: str, call, rest, kwargs, names, default=None, required=True):
    """The one argument in ``rest``, or under one of ``names``; PyTorch's TypeError (naming ``call``) for extras."""
    given = [k for k in names if k in kwargs]
    if len(rest) + len(given) > 1 or set(kwargs) - set(names) or (required and not rest and not given):
        raise _invalid(op, call, kwargs)
    if rest:
        return rest[0]
    return kwargs[given[0]] if given else default


def _finish(inplace: bool, self, results):
    return self if inplace else tuple(results)


def _self_of(op, args, kwargs):
    if args:
        return args[0], args[1:]
    if "self" in kwargs:
        return kwargs.pop("self"), ()
    raise _invalid(op, args, kwargs)


def _make_unary(name: str, inplace: bool):
    op = f"_foreach_{name}{'_' if inplace else ''}"
    method = name + "_" if inplace else name

    def fn(self):
        tensors = _tensor_list(op, self, 0, (self,), {})
        _check(tensors)
        return _finish(inplace, self, [getattr(t, method)() for t in tensors])

    return op, fn


def _make_binary(name: str, inplace: bool):
    op = f"_foreach_{name}{'_' if inplace else ''}"
    method, forms, has_alpha = _BINARY[name]
    method += "_" if inplace else ""

    def fn(*args, **kwargs):
        self, rest = _self_of(op, args, kwargs)
        if name == "pow" and _is_number(self) and not inplace:
            return _scalar_pow(op, self, rest, kwargs)
        alpha = kwargs.pop("alpha", None) if has_alpha else None
        tensors = _tensor_list(op, self, 0, args, kwargs)
        names = ("exponent",) if name == "pow" else ("other", "scalar", "scalars")
        kind, other = _form(op, _take(op, args, rest, kwargs, names), forms, 1, args, kwargs)
        if alpha is not None and kind not in ("list", "tensor"):
            raise _invalid(op, args, {**kwargs, "alpha": alpha}, forms)
        extra = {} if alpha is None else {"alpha": alpha}
        if kind == "tensor":
            _check_scalar_tensor(other)
        _check(tensors, *([other] if kind == "list" else []), scalars=other if kind == "scalars" else None)
        per = other if kind in ("list", "scalars") else [other] * len(tensors)
        return _finish(inplace, self, [getattr(t, method)(o, **extra) for t, o in zip(tensors, per)])

    return op, fn


def _scalar_pow(op, base, rest, kwargs):
    from core.ops.math import pow as _pow

    exponents = _tensor_list(op, _take(op, (base, *rest), rest, kwargs, ("exponent",)), 1, (base, *rest), kwargs)
    _check(exponents)
    return tuple(_pow(base, t) for t in exponents)


def _packed_scalars(scalars: Tensor, n: int) -> list:
    """PyTorch's ``convert_tensor_to_scalar_list``: a 1-D tensor of ``n`` values as Python numbers."""
    if scalars.ndim != 1:
        raise RuntimeError(f"Expected packed scalar Tensor to be of dimension 1. Got {scalars.ndim} instead.")
    if scalars.numel() != n:
        raise RuntimeError(f"Expected length of scalars to match input of length {n} but got {scalars.numel()} "
                           "instead.")
    return scalars.tolist()


def _make_pointwise(name: str, inplace: bool):
    """``addcmul``/``addcdiv``: ``self + value * t1 (*|/) t2`` with one value, a list of them, or a 1-D tensor."""
    op = f"_foreach_{name}{'_' if inplace else ''}"
    method = name + "_" if inplace else name

    def fn(self, tensor1, tensor2, *args, **kwargs):
        call = (self, tensor1, tensor2, *args)
        tensors = _tensor_list(op, self, 0, call, kwargs)
        first = _tensor_list(op, tensor1, 1, call, kwargs)
        second = _tensor_list(op, tensor2, 2, call, kwargs)
        value = _take(op, call, args, kwargs, ("value", "scalars"), default=1, required=False)
        if isinstance(value, Tensor):
            values = _packed_scalars(value, len(tensors))
        else:
            kind, value = _form(op, value, ("scalar", "scalars"), 3, call, kwargs)
            values = value if kind == "scalars" else None
        _check(tensors, first, second, scalars=values)
        values = values if values is not None else [value] * len(tensors)
        return _finish(inplace, self, [getattr(t, method)(a, b, value=v)
                                       for t, a, b, v in zip(tensors, first, second, values)])

    return op, fn


def _make_lerp(inplace: bool):
    op = f"_foreach_lerp{'_' if inplace else ''}"
    method = "lerp_" if inplace else "lerp"

    def fn(self, tensors1, *args, **kwargs):
        call = (self, tensors1, *args)
        tensors = _tensor_list(op, self, 0, call, kwargs)
        ends = _tensor_list(op, tensors1, 1, call, kwargs)
        weight = _take(op, call, args, kwargs, ("weight", "weights"))
        kind, weight = _form(op, weight, ("list", "scalar", "scalars"), 2, call, kwargs)
        _check(tensors, ends, *([weight] if kind == "list" else []), scalars=weight if kind == "scalars" else None)
        weights = weight if kind in ("list", "scalars") else [weight] * len(tensors)
        return _finish(inplace, self, [getattr(t, method)(e, w) for t, e, w in zip(tensors, ends, weights)])

    return op, fn


def _ord(op: str, ord) -> float:
    if isinstance(ord, Tensor) or not _is_number(ord):
        raise TypeError(f"{op}(): argument 'ord' (position 2) must be Number, not {type(ord).__name__}")
    if isinstance(ord, complex):
        raise RuntimeError(f"foreach_tensor_{op[len('_foreach_'):]}_slow expects ord to be integer or float")
    return ord


def _foreach_norm(self, ord=2, dtype=None):
    from core.linalg import vector_norm

    tensors = _tensor_list("_foreach_norm", self, 0, (self,), {})
    ord = _ord("_foreach_norm", ord)
    _check(tensors)
    if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: dtype should be floating point or complex, but got "
                           f"{SCALAR_NAMES[dtype.name]}")
    results = []
    for t in tensors:
        if ord == math.inf and t.numel() == 0:
            raise RuntimeError("_foreach_norm cannot compute the infinity norm on an empty tensor because the "
                               "operation does not have an identity")
        results.append(vector_norm(t, ord, dtype=dtype))
    return tuple(results)


def _foreach_powsum(self, ord=2, dtype=None):
    """``sum(|t| ** ord)`` of each tensor (the norm without its root; ``0 ** 0`` counts 1, as in PyTorch)."""
    tensors = _tensor_list("_foreach_powsum", self, 0, (self,), {})
    ord = _ord("_foreach_powsum", ord)
    _check(tensors)
    results = []
    for t in tensors:
        x = t if dtype is None else t.to(dtype)
        if not (x.is_floating_point() or x.is_complex()):
            raise NotImplementedError(f"\"powsum_cpu\" not implemented for '{SCALAR_NAMES[x.dtype.name]}'")
        results.append(x.abs().pow(ord).sum())
    return tuple(results)


def _foreach_max(self):
    from core.ops.reduction import max as _max

    tensors = _tensor_list("_foreach_max", self, 0, (self,), {})
    _check(tensors)
    for t in tensors:
        if t.numel() == 0:
            raise RuntimeError("_foreach_max cannot compute the maximum of an empty tensor; max over zero elements "
                               "is undefined.")
    return tuple(_max(t) for t in tensors)


def _foreach_mm(self, mat2):
    tensors = _tensor_list("_foreach_mm", self, 0, (self, mat2), {})
    others = _tensor_list("_foreach_mm", mat2, 1, (self, mat2), {})
    _check(tensors, others)
    return tuple(a.mm(b) for a, b in zip(tensors, others))


def _foreach_clone(self, *, memory_format=None):
    tensors = _tensor_list("_foreach_clone", self, 0, (self,), {})
    _check(tensors)
    return tuple(t.clone() if memory_format is None else t.clone(memory_format=memory_format) for t in tensors)


def _foreach_copy_(self, src, non_blocking=False):
    tensors = _tensor_list("_foreach_copy_", self, 0, (self, src), {})
    sources = _tensor_list("_foreach_copy_", src, 1, (self, src), {})
    _check(tensors, sources)
    for t, s in zip(tensors, sources):
        t.copy_(s, non_blocking)
    return self


def _foreach_zero_(self):
    tensors = _tensor_list("_foreach_zero_", self, 0, (self,), {})
    _check(tensors)
    for t in tensors:
        t.zero_()
    return self


def _build() -> dict:
    ops = {}
    for inplace in (False, True):
        made = [_make_unary(n, inplace) for n in _UNARY]
        made += [_make_binary(n, inplace) for n in _BINARY]
        made += [_make_pointwise(n, inplace) for n in ("addcdiv", "addcmul")] + [_make_lerp(inplace)]
        for op, fn in made:
            fn.__name__ = fn.__qualname__ = op
            fn.__doc__ = f"PyTorch's ``torch.{op}``: the per-tensor op down a list of tensors (see the module)."
            ops[op] = fn
    for fn in (_foreach_norm, _foreach_powsum, _foreach_max, _foreach_mm, _foreach_clone, _foreach_copy_,
               _foreach_zero_):
        ops[fn.__name__] = fn
    return ops


_OPS = _build()
globals().update(_OPS)
__all__ = sorted(_OPS)
