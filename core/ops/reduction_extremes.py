"""max, min, amax, amin, aminmax, argmax and argmin (split from ``reduction``, which still exports them): values
and indices with PyTorch's tie rules (amax/amin share the gradient evenly among ties; max(dim) and its subclasses in
``order_stats`` send it to the selected index), its errors for empty and complex inputs and for argument
combinations no overload takes, and ``max(x, other)`` as ``maximum``.
"""

from __future__ import annotations

import numpy as np

from core._arg_types import refuse_bool_dim, require_bool, require_input, require_tensor_input, tp_name
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled
from core.autograd.node_api import SavedFromCtx, SavedFromNode
from core.ops import reduction
from core.ops._recorded import recorded
from core.ops._saved_attrs import dims_as_given
from core.ops._strided import row_major
from core.ops._util import ALL_DIMS, normalize_dim, wrap, xp_of
from core.ops.complex_ops import refuse_complex
from core.ops.elementwise import _out
from core.ops.reduction import (
    _tensor_like,
    accept_numpy_names,
    axes,
    const,
    expand_reduced,
    reduce_dims,
    return_types,
    unsqueeze_reduced,
)
from core.ops.views import reshape

__all__ = ["amax", "amin", "max", "min", "aminmax", "argmax", "argmin"]


def _check_nonempty(input: Tensor, dims, op: str, full: bool, exc=RuntimeError) -> None:
    """PyTorch's errors for reductions without an identity over empty dims."""
    x = input._data
    if x.size:
        return
    if full:
        raise exc(f"{op}(): Expected reduction dim to be specified for input.numel() == 0."
                  + (" Specify the reduction dim with the 'dim' argument." if exc is RuntimeError else ""))
    for d in dims:
        if d < x.ndim and x.shape[d] == 0:
            raise IndexError(f"{op}(): Expected reduction dim {d} to have non-zero size.")


class Amax(Function):
    node_name = "AmaxBackward0"
    reducer, nan_aware = "max", False
    saved_names = ("self", "result")  # (PyTorch saves both: a write to either before backward is refused)
    _saved_dim = dims_as_given("raw_dim", fallback="dims")
    _saved_keepdim = SavedFromCtx(lambda ctx: ctx["keepdim"])

    @classmethod
    def forward(cls, ctx, a, *, dims, keepdim, raw_dim=None):
        x = a._data
        xp = xp_of(x)
        if raw_dim is not None:
            ctx.raw_dim = raw_dim  # (``_saved_dim``: the dims as the call gave them, where they differ from ``dims``)
        ax = axes(dims, x.ndim)
        out = xp.asarray(getattr(xp, cls.reducer)(x, axis=ax, keepdims=True))
        ctx.in_shape, ctx.dims, ctx.keepdim, ctx.kept_shape = x.shape, dims, keepdim, out.shape
        if x.dtype.kind in "fV":  # ("V": bfloat16)
            ctx.mask = x == out
            if cls.nan_aware and bool(xp.isnan(out).any()):
                ctx.mask = xp.isnan(x)  # PyTorch's evenly_distribute_backward: NaNs take the gradient
            ctx.count = row_major(ctx.mask.sum(axis=ax, keepdims=True))  # (torch's mask.sum: contiguous, which lays
            # the gradient out as torch's: g / count leads the iterator's order)
        # NOTE: torch allocates the result contiguous whatever the input's layout (NumPy's keeps the input's order)
        kept = out if keepdim else out.reshape([s for i, s in enumerate(x.shape) if i not in ax])
        result = new_tensor(row_major(kept))
        ctx.save_for_backward(a, result)  # (as PyTorch's: a write to either before backward is refused)
        return result

    @staticmethod
    def backward(ctx, g):
        _ = ctx._unpacked  # (the version check of the saved result)
        # NOTE: PyTorch's scale_grad_by_count: the gradient viewed back to the kept dims, divided by the number
        # of ties, times the mask (DivBackward0, MulBackward0)
        if g.shape != ctx.kept_shape:
            g = reshape(g, ctx.kept_shape)
        return (g / const(ctx.count, g)) * const(ctx.mask, g)

    @staticmethod
    def jvp(ctx, t):
        with np.errstate(invalid="ignore", divide="ignore"):
            weights = ctx.mask / ctx.count
        # NOTE: ties share the tangent evenly
        return reduction.sum(t * const(weights, t), ctx.dims, keepdim=ctx.keepdim)


class Amin(Amax):
    node_name = "AminBackward0"
    reducer = "min"


class MaxAll(Amax):
    node_name = "MaxBackward1"
    nan_aware = True
    _saved_dim = _saved_keepdim = None  # (the whole tensor's: only self and result)

    @staticmethod
    def backward(ctx, g):
        # NOTE: PyTorch's evenly_distribute_backward: zeros with the ties filled with grad / count
        _ = ctx._unpacked  # (the version check of the saved result)
        from core.ops.comparison import masked_fill  # (core.ops.comparison builds on this module)
        zero = wrap(xp_of(g._data).zeros(ctx.in_shape, dtype=g._data.dtype))
        return masked_fill(zero, wrap(ctx.mask), g / wrap(ctx.count.reshape(())))


class MinAll(MaxAll):
    node_name = "MinBackward1"
    reducer, nan_aware = "min", True


def amax(input: Tensor, dim=(), keepdim: bool = False):
    require_bool("amax", "keepdim", 3, keepdim)
    return _extreme_values(amax, Amax, "max", input, dim, keepdim)


def amin(input: Tensor, dim=(), keepdim: bool = False):
    require_bool("amin", "keepdim", 3, keepdim)
    return _extreme_values(amin, Amin, "min", input, dim, keepdim)


def _extreme_values(public_api, node, kernel: str, input, dim, keepdim):
    """``amax``/``amin`` (``public_api``) through ``node``, with torch's checks in its order; ``kernel`` "max" or
    "min" names torch's CPU kernel in the complex refusal."""
    name = public_api.__name__
    refuse_bool_dim(name, dim, "tuple of ints")
    try:
        refuse_complex(input, NotImplementedError, f"\"{kernel}_values_cpu\" not implemented for '{{dtype}}'")
        dims = reduce_dims(input, dim)
    except AttributeError:
        return _tensor_like(public_api, input, dim == () and not keepdim, dim, keepdim)
    _check_nonempty(input, dims, name, len(dims) == input.ndim and not dim)
    same = dim == dims or (dim,) == dims  # (the dims as given, kept only where normalizing changed them)
    return node.apply(input, dims=dims, keepdim=bool(keepdim), **({} if same else {"raw_dim": dim}))


class MaxDim(Function):
    """``max(dim)``: values and indices; the gradient goes to the selected index only.

    Subclasses (min, median, mode, kthvalue) only change ``pick``: the index along ``dim``.
    """

    node_name = "MaxBackward0"
    _saved_dim = SavedFromCtx(lambda ctx: ctx.get("raw_dim", ctx["dim"]))  # the dim as the call gave it
    _saved_keepdim = SavedFromCtx(lambda ctx: ctx["keepdim"])
    _saved_self_sym_sizes = SavedFromCtx(lambda ctx: ctx["in_shape"])
    _saved_indices = SavedFromNode(lambda node: _picked_indices(node.__dict__), tensor=True)

    @staticmethod
    def pick(x, dim, **kw):
        return xp_of(x).argmax(x, axis=dim)

    @classmethod
    def forward(cls, ctx, a, *, dim, keepdim, raw_dim=None, **kw):
        x = a._data
        xp = xp_of(x)
        ctx.in_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        if raw_dim is not None:
            ctx.raw_dim = raw_dim
        if x.ndim == 0:
            ctx.onehot = xp.ones((), dtype=bool)
            return x.copy(), xp.zeros((), dtype=np.int64)
        idx = xp.expand_dims(cls.pick(x, dim, **kw), dim)
        values = xp.take_along_axis(x, idx, axis=dim)
        ctx.onehot, ctx.index = index_mask(idx, x.shape, dim), idx
        if not keepdim:
            values, idx = values.squeeze(dim), idx.squeeze(dim)
        return values, idx.astype(np.int64)

    @staticmethod
    def backward(ctx, g, _gi):
        if ctx.onehot.ndim == 0:
            return g
        if is_grad_enabled():  # NOTE: recorded as PyTorch's value_selecting_reduction_backward: zeros scattered
            from core.ops.scatter import scatter  # with the gradient at the indices (ScatterBackward0)
            zero = wrap(xp_of(g._data).zeros(ctx.in_shape, dtype=g._data.dtype))
            return scatter(zero, ctx.dim, wrap(ctx.index.astype(np.int64)), unsqueeze_reduced(g, ctx.in_shape,
                                                                                            (ctx.dim,), ctx.keepdim))
        # NOTE: zeros with the gradient put at the indices, not g * onehot: a negative gradient times False is -0.0
        # where PyTorch's scatter leaves +0.0 (snnTorch's ce_max_membrane_loss's input gradient printed -0.0)
        g = expand_reduced(g, ctx.in_shape, (ctx.dim,), ctx.keepdim)._data
        return wrap(xp_of(g).where(ctx.onehot, g, xp_of(g).zeros((), dtype=g.dtype)))


def _picked_indices(ctx: dict):
    """``_saved_indices``: the indices the forward returned, from the positions its ctx kept (int64, the output's
    shape)."""
    index = ctx["index"] if "index" in ctx else ctx["onehot"].astype(np.int64) * 0  # (a 0-d input: index 0)
    return wrap(index.astype(np.int64) if ctx["keepdim"] or index.ndim == 0 else index.squeeze(ctx["dim"]).astype(
        np.int64))


class MinDim(MaxDim):
    node_name = "MinBackward0"

    @staticmethod
    def pick(x, dim, **kw):
        return xp_of(x).argmin(x, axis=dim)


def index_mask(idx, shape, dim: int):
    """A boolean mask of ``shape``: True where the position along ``dim`` equals ``idx`` (size 1 there)."""
    xp = xp_of(idx)
    pos = xp.arange(shape[dim]).reshape([-1 if i == dim else 1 for i in range(len(shape))])
    return pos == idx


def _extreme(input, dim, keepdim, other, name, full_cls, dim_cls, binary, out=None):
    if isinstance(dim, Tensor) and other is None:
        dim, other = None, dim
    if out is not None and is_grad_enabled() and (input.requires_grad or getattr(other, "requires_grad", False)):
        raise RuntimeError(f"{binary if other is not None else name}(): functions with out=... arguments don't "
                           "support automatic differentiation, but one of the arguments requires grad.")
    if other is not None:
        from core.ops import math_binary  # math_binary imports comparison, which imports this module

        return getattr(math_binary, binary)(input, other, **({} if out is None else {"out": out}))
    if dim is None:
        _check_nonempty(input, (), name, True)
        result = full_cls.apply(input, dims=tuple(range(input.ndim)), keepdim=False)
        return result if out is None else _into(result, out)
    d = normalize_dim(dim, input._data.ndim)
    _check_nonempty(input, (d,), name, False)
    values, indices = dim_cls.apply(input, dim=d, keepdim=bool(keepdim), **({} if d == dim else {"raw_dim": dim}))
    if out is None:
        return getattr(return_types, name)(values, indices)
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, int, out="
                        f"{type(out).__name__}), but expected (Tensor input, int dim, bool keepdim = False, *, "
                        "tuple of Tensors out = None)")
    values_out, indices_out = out
    return getattr(return_types, f"{name}_out")(_into(values, values_out), _into(indices, indices_out))


def _into(result: Tensor, out: Tensor) -> Tensor:
    """``result`` written into ``out`` (resized to its shape first), which is returned."""

    return _out(result, out)


_EXTREME_OVERLOADS = (" * (Tensor input, *, Tensor out = None)",
                      " * (Tensor input, Tensor other, *, Tensor out = None)",
                      " * (Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)")


def _require_tensor(input, dim, name: str) -> None:
    """PyTorch's TypeError for ``torch.max(0, x)`` (a number first: max is no maximum) or ``torch.max([1, 2])``."""
    if dim is None:
        require_input(name, input)
    else:
        require_tensor_input(name, input, dim, _EXTREME_OVERLOADS)


def _check_extreme_args(name: str, dim, keepdim, extra: tuple) -> None:
    """PyTorch's TypeErrors for arguments no overload of max/min takes: a fourth positional argument (``torch.max(x, 0,
    False, out)``: out is keyword-only), or a ``dim`` that is neither a tensor (``other``) nor an int, such as a bool
    (``torch.max(x, True)``: bool is an int in Python, not in PyTorch's parser) or a float."""
    if len(extra) == 1:
        raise TypeError(f"{name}() takes from 2 to 3 positional arguments but 4 were given")
    bad_dim = dim is not None and not isinstance(dim, Tensor) and (
        isinstance(dim, bool) or not hasattr(type(dim), "__index__"))
    if dim is not None and not bad_dim and not extra and not isinstance(dim, Tensor):
        require_bool(name, "keepdim", 3, keepdim)
    if extra or bad_dim:
        given = [dim] + ([] if keepdim is False and not extra else [keepdim]) + list(extra)
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, "
                        f"{', '.join(tp_name(v) for v in given)}), but expected one of:\n"
                        + "\n".join(_EXTREME_OVERLOADS) + "\n")


def _given_dim(name: str, dim, keepdim):
    """``dim`` as the op reads it (None: no dim given), or PyTorch's TypeError for the calls no overload of max/min
    takes: ``x.max(None)``, ``x.max(keepdim=True)`` (keepdim only with a dim), ``x.max(x, True)`` (no keepdim with
    ``other``), where Python's defaults would take them as the maximum of all elements or ``maximum``."""
    if dim is ALL_DIMS and keepdim is False:
        return None
    if dim is not None and dim is not ALL_DIMS and (keepdim is False or not isinstance(dim, Tensor)):
        return dim
    given = ["Tensor"] + ([] if dim is ALL_DIMS else [tp_name(dim)])
    given += [] if keepdim is False else ["keepdim=bool" if dim is ALL_DIMS else tp_name(keepdim)]
    raise TypeError(f"{name}() received an invalid combination of arguments - got ({', '.join(given)}), but expected "
                    "one of:\n" + "\n".join(_EXTREME_OVERLOADS) + "\n")


def max(input: Tensor, dim=ALL_DIMS, keepdim: bool = False, *extra, other=None, out=None):  # PyTorch's name
    """``max(x)`` (a tensor), ``max(x, dim)`` (values, indices) or ``max(x, other)`` (= maximum).

    ``out``: a tensor, or ``(values, indices)`` with ``dim``."""
    dim = _given_dim("max", dim, keepdim)
    _require_tensor(input, dim, "max")
    _check_extreme_args("max", dim, keepdim, extra)
    _refuse_complex_extreme(input, dim, "max")
    return _extreme(input, dim, keepdim, other, "max", MaxAll, MaxDim, "maximum", out)


def min(input: Tensor, dim=ALL_DIMS, keepdim: bool = False, *extra, other=None, out=None):
    """``min(x)``, ``min(x, dim)`` (values, indices) or ``min(x, other)`` (= minimum).

    ``out``: as ``max``'s."""
    dim = _given_dim("min", dim, keepdim)
    _require_tensor(input, dim, "min")
    _check_extreme_args("min", dim, keepdim, extra)
    _refuse_complex_extreme(input, dim, "min")
    return _extreme(input, dim, keepdim, other, "min", MinAll, MinDim, "minimum", out)


class Aminmax(Function):
    node_name = "AminmaxBackward0"

    @staticmethod
    def forward(ctx, a, *, dims, keepdim):
        lo_ctx, hi_ctx = Amin._backward_cls(), Amax._backward_cls()
        lo = Amin.forward(lo_ctx, a, dims=dims, keepdim=keepdim)
        hi = Amax.forward(hi_ctx, a, dims=dims, keepdim=keepdim)
        ctx.parts = (lo_ctx, hi_ctx)
        return lo, hi

    @staticmethod
    def backward(ctx, g_lo, g_hi):
        lo_ctx, hi_ctx = ctx.parts
        return Amin.backward(lo_ctx, g_lo) + Amax.backward(hi_ctx, g_hi)


def aminmax(input: Tensor, *, dim=None, keepdim: bool = False):
    require_bool("aminmax", "keepdim", None, keepdim)
    x = input._data
    if dim is None:
        dims = tuple(range(x.ndim))
        if x.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation "
                               "has no identity.")
    else:
        dims = reduce_dims(input, normalize_dim(dim, x.ndim))
        _check_nonempty(input, dims, "aminmax", False)
    refuse_complex(input, NotImplementedError, "\"aminmax_cpu\" not implemented for '{dtype}'")
    lo, hi = Aminmax.apply(input, dims=dims, keepdim=bool(keepdim))
    return return_types.aminmax(lo, hi)


def _refuse_complex_extreme(input, dim, name: str) -> None:
    if isinstance(dim, Tensor) and (input.is_complex() or dim.is_complex()):  # max(a, b) is maximum(a, b)
        raise RuntimeError(f"{name}imum not implemented for complex tensors.")
    if dim is None:
        refuse_complex(input, NotImplementedError, f"\"{name}_all\" not implemented for '{{dtype}}'")
    refuse_complex(input, RuntimeError, f"{name}(): does not support complex input")


def _arg(input: Tensor, dim, keepdim, name: str):
    refuse_bool_dim(name, dim)
    refuse_complex(input, RuntimeError, f"{name}(): does not support complex input")
    x = input._data
    xp = xp_of(x)
    if x.dtype == np.bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        _check_nonempty(input, (), name, True, IndexError)
        out = getattr(xp, name)(x.reshape(-1))
        return wrap(xp.asarray(out, dtype=np.int64).reshape((1,) * x.ndim if keepdim else ()))
    d = normalize_dim(dim, x.ndim)
    _check_nonempty(input, (d,), name, False)
    if x.ndim == 0:
        return wrap(xp.zeros((), dtype=np.int64))
    out = getattr(xp, name)(x, axis=d, keepdims=bool(keepdim))
    return wrap(xp.asarray(out, dtype=np.int64))


@recorded
def argmax(input: Tensor, dim=None, keepdim: bool = False):
    require_bool("argmax", "keepdim", 3, keepdim)
    try:
        return _arg(input, dim, keepdim, "argmax")
    except AttributeError:
        return _tensor_like(argmax, input, dim is None and not keepdim, dim, keepdim)


@recorded
def argmin(input: Tensor, dim=None, keepdim: bool = False):
    require_bool("argmin", "keepdim", 3, keepdim)
    try:
        return _arg(input, dim, keepdim, "argmin")
    except AttributeError:
        return _tensor_like(argmin, input, dim is None and not keepdim, dim, keepdim)


accept_numpy_names(globals(), __all__)
