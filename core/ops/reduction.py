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
from core._arg_types import refuse_bool_dim, require_input, require_tensor_input, tp_name
from core._cascade_sum import ordered_sum
from core._tensor import Tensor, new_tensor
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled
from core.ops._float32_compute import computes_in_float32
from core.ops._prod_order import GRAIN, LANES, row_products
from core.ops._recorded import recorded
from core.ops._util import normalize_dim, normalize_dims, wrap, xp_of
from core.ops.complex_ops import refuse_complex
from core.ops.conversion import to
from core.ops.elementwise import DivByNumber, _out
from core.ops.method_args import only_plausible, parser_form
from core.ops.numpy_names import call_with_keywords, rename_numpy_kwargs
from core.ops.views import expand, reshape, unsqueeze
from core.overrides import handle_torch_function, has_torch_function_unary

__all__ = ["sum", "nansum", "mean", "nanmean", "prod", "amax", "amin", "max", "min", "aminmax", "argmax",
           "argmin", "return_types"]


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


class _AllDims:
    """The default ``dim`` of ``sum``/``mean``: no dim given (PyTorch's overload without dim). Prints as None."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "None"


ALL_DIMS = _AllDims()


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

    @staticmethod
    def forward(ctx, a, *, dims, keepdim, dt):
        x = a._data
        ctx.in_shape, ctx.in_dtype, ctx.dims, ctx.keepdim = x.shape, x.dtype, dims, keepdim
        ax = axes(dims, x.ndim)  # a float32 sum adds in PyTorch's order (core._cascade_sum)
        if x.dtype != dt.np and dt.is_floating_point and x.dtype.kind in "fV":
            x = x.astype(dt.np)  # sum(dtype=float32) of a half tensor: torch's cast, then its float32 sum's order
        res = ordered_sum(x, ax, keepdim) if x.dtype == dt.np and x.dtype.kind not in "biu" else \
            x.sum(axis=ax, keepdims=keepdim, dtype=dt.np)  # (NumPy widens a small integer sum unless told its dtype)
        return res if type(res) is type(x) else xp_of(x).asarray(res)

    whole = True  # no dim: the gradient expands as it is (PyTorch's SumBackward0)

    @classmethod
    def backward(cls, ctx, g):
        return _cast_back(expand_reduced(g, ctx.in_shape, ctx.dims, ctx.keepdim, whole=cls.whole), ctx)

    jvp = linear_jvp


class SumDim(Sum):
    node_name = "SumBackward1"
    whole = False


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
    return SumDim.apply(input, dims=dims, keepdim=bool(keepdim), dt=dt)


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

    @staticmethod
    def forward(ctx, a, *, dims, keepdim, dt):
        x = a._data
        ctx.in_shape, ctx.in_dtype, ctx.dims, ctx.keepdim = x.shape, x.dtype, dims, keepdim
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


def mean(input: Tensor, dim=ALL_DIMS, keepdim: bool = False, *, dtype=None, out=None):
    if isinstance(dim, (bool, float, str)):
        _refuse_bool_dim("mean", dim, _MEAN_OVERLOADS, (keepdim is not False) + (dtype is not None) + (out is not None))
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
    return MeanDim.apply(input, dims=dims, keepdim=bool(keepdim), dt=dt)


def nanmean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None):
    """``nansum / count of non-NaN``, composed like PyTorch's (its grad_fn is DivBackward0)."""
    refuse_bool_dim("nanmean", dim, "tuple of ints")
    if not input.dtype.is_floating_point:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but got "
                           f"{type_name(input.dtype)}")
    keepdim = bool(keepdim)
    dims = reduce_dims(input, dim)
    x = input._data
    count = xp_of(x).sum(~xp_of(x).isnan(x), axis=axes(dims, x.ndim), keepdims=keepdim)
    return nansum(input, dim, keepdim, dtype=dtype) / wrap(xp_of(x).asarray(count))


# ----- prod --------------------------------------------------------------------------------------


class Prod(Function):
    node_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, a, *, dim, keepdim, dt):
        x = a._data
        ctx.in_shape, ctx.in_dtype, ctx.dim, ctx.keepdim = x.shape, x.dtype, dim, keepdim
        res = wrap(Prod.products(x.astype(dt.np, copy=False), None if dim is None or x.ndim == 0 else dim, keepdim))
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
        a, res = ctx.saved_tensors
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


def prod(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None):
    if isinstance(dim, (bool, float, str)):
        _refuse_bool_dim("prod", dim, _PROD_OVERLOADS, (keepdim is not False) + (dtype is not None))
    try:
        dt = _int_promoted(input, dtype)
    except AttributeError:
        return _tensor_like(prod, input, dim is None and not keepdim and dtype is None, dim, keepdim, dtype)
    if isinstance(dim, (tuple, list)):
        raise TypeError("prod() received an invalid combination of arguments - got (tuple), but expected "
                        "(int dim, bool keepdim = False, *, torch.dtype dtype = None)")
    try:
        if dim is None:
            return Prod.apply(input, dim=None, keepdim=False, dt=dt)
        return ProdDim.apply(input, dim=normalize_dim(dim, input._data.ndim), keepdim=bool(keepdim), dt=dt)
    except AttributeError:
        return _tensor_like(prod, input, dim is None and not keepdim and dtype is None, dim, keepdim, dtype)


# ----- max, min, amax, amin, aminmax, argmax, argmin ---------------------------------------------


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

    @classmethod
    def forward(cls, ctx, a, *, dims, keepdim):
        x = a._data
        xp = xp_of(x)
        ax = axes(dims, x.ndim)
        out = xp.asarray(getattr(xp, cls.reducer)(x, axis=ax, keepdims=True))
        ctx.in_shape, ctx.dims, ctx.keepdim, ctx.kept_shape = x.shape, dims, keepdim, out.shape
        if x.dtype.kind in "fV":  # ("V": bfloat16)
            ctx.mask = x == out
            if cls.nan_aware and bool(xp.isnan(out).any()):
                ctx.mask = xp.isnan(x)  # PyTorch's evenly_distribute_backward: NaNs take the gradient
            ctx.count = ctx.mask.sum(axis=ax, keepdims=True)
        result = new_tensor(out if keepdim else out.reshape([s for i, s in enumerate(x.shape) if i not in ax]))
        ctx.save_for_backward(result)  # (PyTorch saves the result: a write to it before backward is refused)
        return result

    @staticmethod
    def backward(ctx, g):
        _ = ctx.saved_tensors  # (the version check of the saved result)
        # NOTE: PyTorch's scale_grad_by_count: the gradient viewed back to the kept dims, divided by the number
        # of ties, times the mask (DivBackward0, MulBackward0)
        if g.shape != ctx.kept_shape:
            g = reshape(g, ctx.kept_shape)
        return (g / const(ctx.count, g)) * const(ctx.mask, g)

    @staticmethod
    def jvp(ctx, t):
        with np.errstate(invalid="ignore", divide="ignore"):
            weights = ctx.mask / ctx.count
        return sum(t * const(weights, t), ctx.dims, keepdim=ctx.keepdim)  # NOTE: ties share the tangent evenly


class Amin(Amax):
    node_name = "AminBackward0"
    reducer = "min"


class MaxAll(Amax):
    node_name = "MaxBackward1"
    nan_aware = True

    @staticmethod
    def backward(ctx, g):
        # NOTE: PyTorch's evenly_distribute_backward: zeros with the ties filled with grad / count
        _ = ctx.saved_tensors  # (the version check of the saved result)
        from core.ops.comparison import masked_fill  # (core.ops.comparison builds on this module)
        zero = wrap(xp_of(g._data).zeros(ctx.in_shape, dtype=g._data.dtype))
        return masked_fill(zero, wrap(ctx.mask), g / wrap(ctx.count.reshape(())))


class MinAll(MaxAll):
    node_name = "MinBackward1"
    reducer, nan_aware = "min", True


def amax(input: Tensor, dim=(), keepdim: bool = False):
    return _extreme_values(amax, Amax, "max", input, dim, keepdim)


def amin(input: Tensor, dim=(), keepdim: bool = False):
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
    return node.apply(input, dims=dims, keepdim=bool(keepdim))


class MaxDim(Function):
    """``max(dim)``: values and indices; the gradient goes to the selected index only.

    Subclasses (min, median, mode, kthvalue) only change ``pick``: the index along ``dim``.
    """

    node_name = "MaxBackward0"

    @staticmethod
    def pick(x, dim, **kw):
        return xp_of(x).argmax(x, axis=dim)

    @classmethod
    def forward(cls, ctx, a, *, dim, keepdim, **kw):
        x = a._data
        xp = xp_of(x)
        ctx.in_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
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
    values, indices = dim_cls.apply(input, dim=d, keepdim=bool(keepdim))
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
    from core.ops.elementwise import _out

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
    if extra or bad_dim:
        given = [dim] + ([] if keepdim is False and not extra else [keepdim]) + list(extra)
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, "
                        f"{', '.join(tp_name(v) for v in given)}), but expected one of:\n"
                        + "\n".join(_EXTREME_OVERLOADS) + "\n")


def max(input: Tensor, dim=None, keepdim: bool = False, *extra, other=None, out=None):  # PyTorch's name
    """``max(x)`` (a tensor), ``max(x, dim)`` (values, indices) or ``max(x, other)`` (= maximum).

    ``out``: a tensor, or ``(values, indices)`` with ``dim``."""
    _require_tensor(input, dim, "max")
    _check_extreme_args("max", dim, keepdim, extra)
    _refuse_complex_extreme(input, dim, "max")
    return _extreme(input, dim, keepdim, other, "max", MaxAll, MaxDim, "maximum", out)


def min(input: Tensor, dim=None, keepdim: bool = False, *extra, other=None, out=None):
    """``min(x)``, ``min(x, dim)`` (values, indices) or ``min(x, other)`` (= minimum).

    ``out``: as ``max``'s."""
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
    try:
        return _arg(input, dim, keepdim, "argmax")
    except AttributeError:
        return _tensor_like(argmax, input, dim is None and not keepdim, dim, keepdim)


@recorded
def argmin(input: Tensor, dim=None, keepdim: bool = False):
    try:
        return _arg(input, dim, keepdim, "argmin")
    except AttributeError:
        return _tensor_like(argmin, input, dim is None and not keepdim, dim, keepdim)


accept_numpy_names(globals(), __all__)
