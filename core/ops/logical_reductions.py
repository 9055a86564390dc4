"""all, any, count_nonzero: reductions that test elements for truth (or count them), with no gradient.

Separate from the statistics because they share none of their arithmetic: they compare with zero, and their
keyword errors (the parser's "didn't match" lines for ``all``/``any``) are their own.
"""

from __future__ import annotations

import builtins

import numpy as np

from core._arg_types import dim_overloads_error, is_index, require_bool, tp_name
from core._tensor import Tensor
from core.ops._recorded import recorded
from core.ops._strided import row_major
from core.ops._util import wrap, xp_of
from core.ops.reduction import accept_numpy_names, axes, reduce_dims
from core.overrides import handle_torch_function, has_torch_function_unary

__all__ = ["all", "any", "count_nonzero"]


def _logical(input: Tensor, dim, keepdim, fn: str):
    x = input._data
    xp = xp_of(x)
    if isinstance(dim, (tuple, list)) and not dim:  # NOTE: PyTorch's all/any over no dims reduce nothing (sum's
        out = x != 0                                 # dim=() still means every dim)
        return wrap(out.astype(np.uint8) if x.dtype == np.uint8 else out)
    dims = reduce_dims(input, dim)
    out = row_major(xp.asarray(getattr(xp, fn)(x, axis=axes(dims, x.ndim), keepdims=bool(keepdim))))
    return wrap(out.astype(np.uint8) if x.dtype == np.uint8 else out)


@recorded
def all(input: Tensor, dim=None, keepdim: bool = False):  # PyTorch's name
    if isinstance(dim, (bool, float)):  # (no int to PyTorch's parser: torch.all(x, True) is no all over dim 1)
        raise dim_overloads_error("all", dim, method=False)
    require_bool("all", "keepdim", 3, keepdim)
    try:
        return _logical(input, dim, keepdim, "all")
    except AttributeError:  # NOTE: a tensor-like (MaskedTensor) takes the call only where a plain one failed
        if not has_torch_function_unary(input):
            raise
        whole = dim is None and not keepdim
        return handle_torch_function(all, (input,), *((input,) if whole else (input, dim, keepdim)))


@recorded
def any(input: Tensor, dim=None, keepdim: bool = False):
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("any", dim, method=False)
    require_bool("any", "keepdim", 3, keepdim)
    return _logical(input, dim, keepdim, "any")


@recorded
def all_method(self: Tensor, dim=None, keepdim: bool = False):
    """``x.all(dim)``: ``all``, its argument errors in the method's form."""
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("all", dim, method=True)
    require_bool("all", "keepdim", 3, keepdim)
    return _logical(self, dim, keepdim, "all")


@recorded
def any_method(self: Tensor, dim=None, keepdim: bool = False):
    """``x.any(dim)``: ``any``, its argument errors in the method's form."""
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("any", dim, method=True)
    require_bool("any", "keepdim", 3, keepdim)
    return _logical(self, dim, keepdim, "any")


@recorded
def count_nonzero(input: Tensor, dim=None):
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("count_nonzero", dim, method=False)
    return _count_nonzero(input, dim)


@recorded
def count_nonzero_method(self: Tensor, dim=None):
    """``x.count_nonzero(dim)``: ``count_nonzero``, its argument errors in the method's form."""
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("count_nonzero", dim, method=True)
    return _count_nonzero(self, dim)


for _method, _name in ((all_method, "all"), (any_method, "any"), (count_nonzero_method, "count_nonzero")):
    _method.__name__ = _method.__qualname__ = _name  # (PyTorch's method names; their errors name the op)


def _count_nonzero(input: Tensor, dim):
    x = input._data
    xp = xp_of(x)
    dims = reduce_dims(input, dim)
    return wrap(row_major(xp.asarray(xp.sum(x != 0, axis=axes(dims, x.ndim)), dtype=np.int64)))


_LOGICAL_OVERLOADS = ("()", "(tuple of ints dim = None, bool keepdim = False)", "(int dim, bool keepdim = False)")


def _logical_keywords_check(name: str, method: bool):
    """A check of ``all``'s/``any``'s keyword call (``accept_numpy_names``): PyTorch's parser error where a keyword
    is unknown (``x.any(dim=0, out=None)``), ``keepdim`` is no bool, or a ``dim`` given among several keywords is no
    int or ints; its "didn't match" lines as the parser prints them for the call's argument count (observed)."""
    def check(args, kwargs):
        dim = kwargs.get("dim", kwargs.get("axis", args[1] if len(args) > 1 else None))
        keepdim = kwargs.get("keepdim", kwargs.get("keepdims", False))
        unknown = builtins.any(k not in ("dim", "axis", "keepdim", "keepdims") for k in kwargs)
        bad_dim = not (dim is None or is_index(dim) or (isinstance(dim, (tuple, list)) and builtins.all(
            is_index(d) for d in dim)))
        if not (unknown or not isinstance(keepdim, bool) or (bad_dim and len(kwargs) > 1)):
            return
        keys = list(reversed(kwargs))  # (the parser lists keywords last first)
        given = [tp_name(a) for a in args[1:]] + [f"{k}={tp_name(v)}" for k, v in reversed(kwargs.items())]
        count = len(given)
        if method:
            lines = [(" * " + o, keys if (count == 1 and i == 0) or (count == 2 and i == 1) else
                      [k for k in keys if k != "dim"] if count == 2 and i == 2 else [])
                     for i, o in enumerate(_LOGICAL_OVERLOADS)]
            listed = ", ".join(given) + (", " if len(args) == 1 else "")
        else:
            lines = [(f" * (Tensor input, {o[1:-1]}{', ' if o != '()' else ''}*, Tensor out = None)",
                      keys if count == 2 and i == 0 else []) for i, o in enumerate(_LOGICAL_OVERLOADS)]
            listed = ", ".join(["Tensor", *given])
        text = "".join(f"{line}\n" + (f"      didn't match because some of the keywords were incorrect: "
                                      f"{', '.join(why)}\n" if why else "") for line, why in lines)
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({listed}), but expected one "
                        f"of:\n{text}")

    return check


_LOGICAL_CHECKS = {"all": _logical_keywords_check("all", False), "any": _logical_keywords_check("any", False),
                   "all_method": _logical_keywords_check("all", True),
                   "any_method": _logical_keywords_check("any", True)}
accept_numpy_names(globals(), __all__, _LOGICAL_CHECKS)
accept_numpy_names(globals(), ["all_method", "any_method", "count_nonzero_method"], _LOGICAL_CHECKS)  # (x.all(axis=0))
