"""Reductions over dims (int or tuple, negative allowed; ``None`` means all) with ``keepdim`` and ``dtype``.

Result dtypes follow PyTorch: integer and bool sums/products give int64, ``mean`` refuses integers,
``max``/``amax`` keep the input dtype. Gradients that pick elements (max, amax) use masks computed
in forward as constants, so backward is a differentiable product with the incoming gradient.
"""

from __future__ import annotations

import collections
import functools
import types

import numpy as np

from core import _dtype
from core._arg_types import refuse_bool_dim, require_bool, tp_name
from core._cascade_sum import ordered_sum
from core._tensor import Tensor, new_tensor
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled
from core.autograd.node_api import SavedFromCtx
from core.ops._float32_compute import computes_in_float32
from core.ops._prod_order import GRAIN, LANES, row_products
from core.ops._saved_attrs import dims_as_given, numel_of_input
from core.ops._strided import row_major
from core.ops._util import ALL_DIMS, normalize_dim, normalize_dims, wrap, xp_of
from core.ops.conversion import to
from core.ops.elementwise import DivByNumber, _out
from core.ops.method_args import only_plausible, parser_form
from core.ops.numpy_names import call_with_keywords, rename_numpy_kwargs
from core.ops.views import expand, reshape, unsqueeze
from core.overrides import handle_torch_function, has_torch_function_unary

__all__ = ["sum", "nansum", "mean", "nanmean", "prod", "amax", "amin", "max", "min", "aminmax", "argmax",
           "argmin", "return_types"]
_EXTREMES = ("amax", "amin", "max", "min", "aminmax", "argmax", "argmin")  # (``reduction_extremes``)


# ----- torch.return_types ----------------------------------------------------------------------

return_types = types.ModuleType("core.return_types", "Named tuples returned by reductions and sorting.")


def named_repr(name: str, fields):
    """A ``__repr__`` printing a result tuple like ``torch.return_types.max(values=..., indices=...)``."""
    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{name}(\n{body})"
    return __repr__


def _return_type(name: str, fields: str):
    """A named tuple printing like ``torch.return_types.max(values=..., indices=...)``."""
    base = collections.namedtuple(name, fields)
    __repr__ = named_repr(name, base._fields)
    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__str__": __repr__,
                               "__module__": "torch.return_types"})
    setattr(return_types, name, cls)
    return cls


for _name in ("max", "min", "mode", "median", "nanmedian", "kthvalue", "sort", "topk", "cummax", "cummin",
              "max_out", "min_out"):  # ``max(x, dim, out=(values, indices))`` returns a ``max_out``
    _return_type(_name, "values indices")
_return_type("aminmax", "min max")

# ----- helpers ---------------------------------------------------------------------------------


def accept_numpy_names(namespace: dict, names, checks=None) -> None:
    """Let each op take NumPy's ``axis``/``keepdims`` for ``dim``/``keepdim``, as PyTorch's parser does; ``checks``
    maps a name to a check of the keyword call's ``(args, kwargs)`` (run only when keywords are given)."""
    for name in names:
        fn = namespace[name]
        if not callable(fn) or isinstance(fn, type):
            continue
        overloads = _KEEPDIM_NEEDS_DIM.get(fn.__name__)
        check = (checks or {}).get(name)

        def op(*args, _fn=fn, _overloads=overloads, _check=check, **kwargs):
            if not kwargs:
                return _fn(*args)
            if _overloads is not None and (len(args) == 1 or not args and "input" in kwargs):
                _refuse_keepdim_without_dim(_fn.__name__, args, kwargs, _overloads)
            if _check is not None:
                _check(args, kwargs)
            return call_with_keywords(_fn, args, rename_numpy_kwargs(_fn.__name__, kwargs))

        namespace[name] = functools.wraps(fn)(op)



def reduce_dims(input: Tensor, dim) -> tuple:
    """Wrapped dims to reduce; ``None`` or ``()`` mean every dim."""
    nd = input._data.ndim
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(nd))
    dims = normalize_dims(dim, nd)
    return () if nd == 0 else dims  # a 0-d tensor accepts dim 0/-1 but has no axis


def axes(dims, nd: int) -> tuple:
    """Backend axes: a 0-d tensor accepts dim 0/-1 but has no axis."""
    for d in dims:
        if d >= nd:
            return tuple(d for d in dims if d < nd)
    return tuple(dims)  # NOTE: the usual case, every dim an axis, without a generator


def unsqueeze_reduced(g: Tensor, in_shape, dims, keepdim: bool) -> Tensor:
    """``g`` with the reduced dims put back as size-1 dims: PyTorch's ``unsqueeze_multiple``, one
    ``UnsqueezeBackward0`` per dim in ascending order when it records (nothing to do with ``keepdim``)."""
    if keepdim:
        return g
    for d in sorted(dims):
        if d < len(in_shape):  # (a 0-d input accepts dim 0 but has no axis)
            g = unsqueeze(g, d)
    return g


def expand_reduced(g: Tensor, in_shape, dims, keepdim: bool, *, whole: bool = False) -> Tensor:
    """Broadcast a reduced gradient back over the reduced dims (differentiable).

    Recorded as PyTorch's ``sum_backward``: unsqueezes then ``expand``; ``whole`` (a reduction without dim,
    ``SumBackward0``/``MeanBackward0``) expands the 0-d gradient directly."""
    if not is_grad_enabled():  # a plain backward: a stride-0 view without recording (autograd's hot path)
        # NOTE: a view, as PyTorch's gradient is the expanded tensor, which a hook sees (strides 0, not contiguous,
        # an in-place write refused); AccumulateGrad copies it. One element: NumPy's constructor over its memory
        # (~0.5 µs, broadcast_to ~5)
        arr = g._data
        if arr.size == 1 and type(arr) is np.ndarray and in_shape:
            return new_tensor(np.ndarray(in_shape, arr.dtype, arr, 0, (0,) * len(in_shape)))
        shape = [1 if i in dims else s for i, s in enumerate(in_shape)] if not keepdim and dims else arr.shape
        return new_tensor(xp_of(arr).broadcast_to(arr.reshape(shape), in_shape))
    if not whole:
        g = unsqueeze_reduced(g, in_shape, dims, keepdim)
    return expand(g, in_shape)


def const(arr, like: Tensor) -> Tensor:
    """A constant (non-differentiable) tensor of ``arr`` in the dtype of ``like``."""
    return wrap(arr.astype(like._data.dtype, copy=False))


def type_name(d: _dtype.dtype) -> str:
    return _dtype.SCALAR_NAMES[d.name]


def _cast_back(g: Tensor, ctx) -> Tensor:
    """A gradient in the input's dtype when ``dtype=`` changed the compute dtype."""
    if g._data.dtype != ctx.in_dtype:
        return to(g, _dtype.from_numpy_dtype(ctx.in_dtype))
    return g


def _int_promoted(a: Tensor, dtype) -> _dtype.dtype:
    if dtype is not None:
        return _dtype.to_dtype(dtype)
    d = a.dtype
    return _dtype.int64 if d.category < 2 else d


# ----- sum, nansum, mean, nanmean ----------------------------------------------------------------


class Sum(Function):
    node_name = "SumBackward0"
    _saved_self_sym_sizes = SavedFromCtx(lambda ctx: ctx["in_shape"])

    @staticmethod
    def forward(ctx, a, *, dims, keepdim, dt, raw_dim=ALL_DIMS):
        x = a._data
        ctx.in_shape, ctx.in_dtype, ctx.dims, ctx.keepdim = x.shape, x.dtype, dims, keepdim
        if raw_dim is not ALL_DIMS:  # (the dim overload's ``_saved_dim``: the dims as the call gave them, None
            ctx.raw_dim = raw_dim  # for dim=None, where ``dims`` has them normalized)
        ax = axes(dims, x.ndim)  # a float32 sum adds in PyTorch's order (core._cascade_sum)
        if x.dtype != dt.np and dt.is_floating_point and x.dtype.kind in "fV":
            x = x.astype(dt.np)  # sum(dtype=float32) of a half tensor: torch's cast, then its float32 sum's order
        res = ordered_sum(x, ax, keepdim) if x.dtype == dt.np and x.dtype.kind not in "biu" else \
            row_major(x.sum(axis=ax, keepdims=keepdim, dtype=dt.np))  # (NumPy widens a small integer sum unless told
        # its dtype; it keeps a permuted input's order where torch allocates the result contiguous)
        return res if type(res) is type(x) else xp_of(x).asarray(res)

    whole = True  # no dim: the gradient expands as it is (PyTorch's SumBackward0)

    @classmethod
    def backward(cls, ctx, g):
        return _cast_back(expand_reduced(g, ctx.in_shape, ctx.dims, ctx.keepdim, whole=cls.whole), ctx)

    jvp = linear_jvp


class SumDim(Sum):
    node_name = "SumBackward1"
    whole = False
    _saved_dim = dims_as_given()
    _saved_keepdim = SavedFromCtx(lambda ctx: ctx["keepdim"])


def _given_dim(dim):
    """A dim overload's ``dim`` as PyTorch's node keeps it (``_saved_dim``): None when no dim was given."""
    return None if dim is ALL_DIMS else dim


def _tensor_like(public_api, input, whole: bool, *dim_args):
    """``public_api(input)`` (``whole``) or ``public_api(input, *dim_args)`` handed to a tensor-like ``input``'s
    ``__torch_function__`` (MaskedTensor). A plain non-Tensor gets PyTorch's TypeError for a call without dims (a
    call with dims re-raises the AttributeError: PyTorch lists the overloads it tried)."""
    if not has_torch_function_unary(input):
        if whole:
            raise TypeError(f"{public_api.__name__}(): argument 'input' (position 1) must be Tensor, not "
                            f"{tp_name(input)}") from None
        raise
    args = (input,) if whole else (input, *dim_args)
    return handle_torch_function(public_api, (input,), *args)


def _fill_shared_out(out, input, identity) -> None:
    """PyTorch's reduction kernel fills ``out=`` with the reduction's identity before it reads the input, so an
    ``out`` that shares memory with the input changes what is reduced (``torch.sum(x[:-1], 0, out=x[1:2])`` sums
    the zeroed row): the same fill here. (Not where ``_out`` refuses the call: an input that records a graph.)"""
    if (isinstance(out, Tensor) and isinstance(input, Tensor) and out._root is input._root
            and not (input._requires_grad and is_grad_enabled())
            and type(out._data) is np.ndarray and type(input._data) is np.ndarray  # (CPU memory)
            and out._data.size and np.may_share_memory(out._data, input._data)):
        out._data[...] = identity


def _refuse_bool_dim(name: str, dim, overloads: tuple, given: int = 0) -> None:
    """PyTorch's TypeError for a bool, float or str ``dim`` (the caller found it one) of a function with several
    overloads (a bool is an int in Python, not in PyTorch's parser, so ``x.sum(True)`` is no sum over dim 1): its
    "invalid combination" message listing ``overloads``, or the dim overload's own error where the call's ``given``
    other arguments (keepdim, dtype, out) rule the others out (``x.mean(dim="a", keepdim=True)``)."""
    single = only_plausible(overloads, 2 + given)
    if single is not None and "dim" in single:
        raise TypeError(f"{name}(): argument 'dim' (position 2) must be {single['dim']}, not {tp_name(dim)}")
    raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, {tp_name(dim)}), but "
                    "expected one of:\n" + "\n".join(overloads) + "\n")


_SUM_OVERLOADS = (" * (Tensor input, *, torch.dtype dtype = None)",
                  " * (Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out "
                  "= None)")
_MEAN_OVERLOADS = (" * (Tensor input, *, torch.dtype dtype = None, Tensor out = None)", _SUM_OVERLOADS[1])
_PROD_OVERLOADS = (" * (Tensor input, *, torch.dtype dtype = None)",
                   " * (Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)")


_KEEPDIM_NEEDS_DIM = {"sum": _SUM_OVERLOADS, "mean": _MEAN_OVERLOADS, "prod": _PROD_OVERLOADS}


def _refuse_keepdim_without_dim(name: str, args: tuple, kwargs: dict, overloads: tuple) -> None:
    """PyTorch's TypeError for ``keepdim`` given by keyword without a ``dim`` (``x.sum(keepdim=True)``): only the
    dim overload of sum, mean and prod takes keepdim, so even ``keepdim=False`` is refused. Worded by the parser
    (the method's form by ``method_args.translating`` on the way out); nothing is checked without keywords."""
    if ("keepdim" in kwargs or "keepdims" in kwargs) and "dim" not in kwargs and "axis" not in kwargs:
        error = TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, ), but expected "
                          "one of:\n" + "\n".join(overloads) + "\n")
        raise parser_form(error, name, args, kwargs, method=False) from None


def sum(input: Tensor, dim=ALL_DIMS, keepdim: bool = False, *, dtype=None, out=None):  # PyTorch's name
    if isinstance(dim, (bool, float, str)):
        _refuse_bool_dim("sum", dim, _SUM_OVERLOADS, (keepdim is not False) + (dtype is not None) + (out is not None))
    if keepdim is not False and keepdim is not True:
        require_bool("sum", "keepdim", 3, keepdim)
    if out is not None:  # only the dim overload takes out=, as PyTorch's
        if dim is ALL_DIMS:
            raise TypeError("sum() got an unexpected keyword argument 'out'")
        _fill_shared_out(out, input, 0)
        if dtype is None and isinstance(out, Tensor):  # out's dtype is the one summed in, as torch's
            dtype = out.dtype
        return _out(sum(input, dim, keepdim, dtype=dtype), out)
    # NOTE: as in PyTorch, only a call without dim (and keepdim) is SumBackward0; an explicit dim=None is the
    # dim overload, SumBackward1
    try:
        dt = _int_promoted(input, dtype)
        if dim is ALL_DIMS and not keepdim:
            return Sum.apply(input, dims=tuple(range(input._data.ndim)), keepdim=False, dt=dt)
        dims = reduce_dims(input, None if dim is ALL_DIMS else dim)
    except AttributeError:
        return _tensor_like(sum, input, dim is ALL_DIMS and not keepdim and dtype is None, dim, keepdim, dtype)
    return SumDim.apply(input, dims=dims, keepdim=bool(keepdim), dt=dt, raw_dim=_given_dim(dim))


class Nansum(Function):
    node_name = "NansumBackward0"

    @staticmethod
    def forward(ctx, a, *, dims, keepdim, dt):
        x = a._data
        ctx.in_shape, ctx.in_dtype, ctx.dims, ctx.keepdim = x.shape, x.dtype, dims, keepdim
        xp = xp_of(x)
        ctx.keep = ~xp.isnan(x) if x.dtype.kind in "fV" else None  # ("V": bfloat16)
        if ctx.keep is not None:  # NOTE: sum's kernel over the zero-filled values, as PyTorch's nansum: its order,
            x = xp.where(ctx.keep, x, x.dtype.type(0))  # and half types accumulated in float32 (NumPy's nansum
        ax = axes(dims, x.ndim)  # of float16 adds in float16)
        res = ordered_sum(x, ax, keepdim) if x.dtype == dt.np and x.dtype.kind not in "biu" else \
            x.sum(axis=ax, keepdims=keepdim, dtype=dt.np)
        return res if type(res) is type(x) else xp.asarray(res)

    @staticmethod
    def backward(ctx, g):
        g = expand_reduced(g, ctx.in_shape, ctx.dims, ctx.keepdim)
        return _cast_back(g * const(ctx.keep, g), ctx)


def nansum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None):
    refuse_bool_dim("nansum", dim, "tuple of ints")
    require_bool("nansum", "keepdim", 3, keepdim)
    dims = reduce_dims(input, dim)
    if input._data.dtype.kind == "c" and input.device.type == "cpu":
        raise RuntimeError("nansum on CPU does not support complex inputs")
    return Nansum.apply(input, dims=dims, keepdim=bool(keepdim), dt=_int_promoted(input, dtype))


def _float_dtype(input: Tensor, dtype, op: str) -> _dtype.dtype:
    if dtype is not None:
        dt = _dtype.to_dtype(dtype)
        if not (dt.is_floating_point or dt.is_complex):
            raise RuntimeError(f"{op}(): could not infer output dtype. Optional dtype must be either a floating "
                               f"point or complex dtype. Got: {type_name(dt)}")
        return dt
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(f"{op}(): could not infer output dtype. Input dtype must be either a floating point "
                           f"or complex dtype. Got: {type_name(input.dtype)}")
    return input.dtype


@computes_in_float32
class Mean(Function):
    node_name = "MeanBackward0"
    _saved_self_sym_sizes = SavedFromCtx(lambda ctx: ctx["in_shape"])
    _saved_self_sym_numel = numel_of_input()

    @staticmethod
    def forward(ctx, a, *, dims, keepdim, dt, raw_dim=ALL_DIMS):
        x = a._data
        ctx.in_shape, ctx.in_dtype, ctx.dims, ctx.keepdim = x.shape, x.dtype, dims, keepdim
        if raw_dim is not ALL_DIMS:
            ctx.raw_dim = raw_dim
        ax = axes(dims, x.ndim)
        count = 1
        for d in ax:
            count *= x.shape[d]
        ctx.count = count
        xp = xp_of(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            s = ordered_sum(x if x.dtype == dt.np else x.astype(dt.np), ax, keepdim)  # PyTorch's order for float32
            s = s / xp.asarray(count, dtype=dt.np)
        return s if type(s) is type(x) else xp.asarray(s)

    whole = True

    @classmethod
    def backward(cls, ctx, g):
        g = expand_reduced(g, ctx.in_shape, ctx.dims, ctx.keepdim, whole=cls.whole)
        return _cast_back(DivByNumber.apply(g, ctx.count) if ctx.count else g, ctx)  # NOTE: torch's <DivBackward1>

    jvp = linear_jvp


@computes_in_float32
class MeanDim(Mean):
    node_name = "MeanBackward1"
    whole = False
    _saved_dim = dims_as_given()
    _saved_keepdim = SavedFromCtx(lambda ctx: ctx["keepdim"])


def mean(input: Tensor, dim=ALL_DIMS, keepdim: bool = False, *, dtype=None, out=None):
    if isinstance(dim, (bool, float, str)):
        _refuse_bool_dim("mean", dim, _MEAN_OVERLOADS, (keepdim is not False) + (dtype is not None) + (out is not None))
    if keepdim is not False and keepdim is not True:
        require_bool("mean", "keepdim", 3, keepdim)
    if out is not None:
        _fill_shared_out(out, input, 0)
        return _out(mean(input, dim, keepdim, dtype=dtype), out)
    try:
        dt = _float_dtype(input, dtype, "mean")
        if dim is ALL_DIMS and not keepdim:  # MeanBackward0 only without dim, as sum
            return Mean.apply(input, dims=tuple(range(input._data.ndim)), keepdim=False, dt=dt)
        dims = reduce_dims(input, None if dim is ALL_DIMS else dim)
    except AttributeError:
        return _tensor_like(mean, input, dim is ALL_DIMS and not keepdim and dtype is None, dim, keepdim, dtype)
    return MeanDim.apply(input, dims=dims, keepdim=bool(keepdim), dt=dt, raw_dim=_given_dim(dim))


def nanmean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None):
    """``nansum / count of non-NaN``, composed like PyTorch's (its grad_fn is DivBackward0)."""
    refuse_bool_dim("nanmean", dim, "tuple of ints")
    require_bool("nanmean", "keepdim", 3, keepdim)
    if not input.dtype.is_floating_point:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but got "
                           f"{type_name(input.dtype)}")
    keepdim = bool(keepdim)
    dims = reduce_dims(input, dim)
    x = input._data
    count = xp_of(x).sum(~xp_of(x).isnan(x), axis=axes(dims, x.ndim), keepdims=keepdim)
    return nansum(input, dim, keepdim, dtype=dtype) / wrap(row_major(xp_of(x).asarray(count)))  # (torch's layout)


# ----- prod --------------------------------------------------------------------------------------


class Prod(Function):
    node_name = "ProdBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a, *, dim, keepdim, dt, raw_dim=None):
        x = a._data
        ctx.in_shape, ctx.in_dtype, ctx.dim, ctx.keepdim = x.shape, x.dtype, dim, keepdim
        if isinstance(raw_dim, int) and raw_dim != dim:
            ctx.raw_dim = raw_dim  # (grad_fn._saved_dim: as the call gave it)
        axis = None if dim is None or x.ndim == 0 else dim
        res = wrap(row_major(Prod.products(x.astype(dt.np, copy=False), axis, keepdim)))  # (torch's: contiguous)
        ctx.save_for_backward(a, res)
        return res

    @staticmethod
    def products(a, axis, keepdim: bool):
        if type(a) is np.ndarray and a.dtype in LANES and a.size and a.flags.c_contiguous:  # the kernel's order
            if axis is None and a.size < GRAIN:
                return np.asarray(row_products(a.reshape(1, -1))[0])
            if axis is not None and axis % a.ndim == a.ndim - 1:
                out = row_products(a.reshape(-1, a.shape[-1])).reshape(a.shape[:-1])
                return out[..., None] if keepdim else out
        return xp_of(a).asarray(xp_of(a).prod(a, axis=axis, keepdims=keepdim, dtype=a.dtype))  # (NumPy widens ints)

    @staticmethod
    def backward(ctx, g):
        a, res = ctx._unpacked
        if a.is_complex():  # PyTorch's convention: the gradient times the conjugate derivative
            a, res = a.conj_physical(), res.conj_physical()
        if not a._data.ndim:  # a 0-d input: the product of no other elements is 1
            return _cast_back(g, ctx)
        if not bool((a._data == 0).any()):  # NOTE: PyTorch's grad * (result / input) without zeros,
            if ctx.dim is not None and not ctx.keepdim:  # grad and result unsqueezed over dim
                g, res = unsqueeze(g, ctx.dim), unsqueeze(res, ctx.dim)
            return _cast_back(g * (res / a), ctx)
        if ctx.dim is None:  # all elements: the rule below on the flattened input
            return _cast_back(reshape(prod_backward(reshape(g, (1,)), reshape(a, (-1,)), 0), ctx.in_shape), ctx)
        return _cast_back(prod_backward(g if ctx.keepdim else unsqueeze(g, ctx.dim), a, ctx.dim), ctx)


class ProdDim(Prod):
    node_name = "ProdBackward1"
    _saved_dim = SavedFromCtx(lambda c: c.get("raw_dim", c["dim"]))
    _saved_keepdim = SavedFromCtx(lambda c: c["keepdim"])


def prod_backward(g: Tensor, a: Tensor, dim: int) -> Tensor:
    """``g`` times the product of the other elements along ``dim``, exact where the input holds zeros: PyTorch's
    prod_safe_zeros_backward (a cumprod from each side), so the zeros' signs and double backward are torch's."""
    from core.ops.cumulative import cumprod  # (cumulative imports this module)
    from core.ops.joining import cat
    from core.ops.movement import narrow
    from core.ops.rearranging import flip

    n = a.shape[dim]
    if n == 1:  # (as PyTorch's: g itself)
        return g
    ones = const(xp_of(a._data).ones_like(narrow(a, dim, 0, 1)._data), a)
    before = cumprod(cat([ones, narrow(a, dim, 0, n - 1)], dim), dim)
    after = flip(cumprod(cat([ones, flip(narrow(a, dim, 1, n - 1), (dim,))], dim), dim), (dim,))
    return g * (before * after)


def prod(input: Tensor, dim=ALL_DIMS, keepdim: bool = False, *, dtype=None):
    if isinstance(dim, (bool, float, str)) or dim is None:  # (None: the parser's refusal, as max's)
        _refuse_bool_dim("prod", dim, _PROD_OVERLOADS, (keepdim is not False) + (dtype is not None))
    require_bool("prod", "keepdim", 3, keepdim)
    try:
        dt = _int_promoted(input, dtype)
    except AttributeError:
        return _tensor_like(prod, input, dim is ALL_DIMS and not keepdim and dtype is None, dim, keepdim, dtype)
    if isinstance(dim, (tuple, list)):
        raise TypeError("prod() received an invalid combination of arguments - got (tuple), but expected "
                        "(int dim, bool keepdim = False, *, torch.dtype dtype = None)")
    try:
        if dim is ALL_DIMS:
            return Prod.apply(input, dim=None, keepdim=False, dt=dt)
        return ProdDim.apply(input, dim=normalize_dim(dim, input._data.ndim), keepdim=bool(keepdim), dt=dt, raw_dim=dim)
    except AttributeError:
        return _tensor_like(prod, input, dim is ALL_DIMS and not keepdim and dtype is None, dim, keepdim, dtype)


# max, min and their kin build on the helpers above (and take NumPy's argument names there)
from core.ops.reduction_extremes import amax, amin, aminmax, argmax, argmin, max, min  # noqa: E402

accept_numpy_names(globals(), [name for name in __all__ if name not in _EXTREMES])
