"""Cumulative ops along one dim (cumsum, cumprod, logcumsumexp, cummax, cummin) and ``diff``.

Integer and bool cumsum/cumprod give int64 like PyTorch. Backward formulas are written with
differentiable core ops (reversed cumulative sums through ``flip``), so double backward works.
"""

from __future__ import annotations

import ml_dtypes  # finfo that knows bfloat16 and float8 (NumPy's finfo does not before ml_dtypes 0.7)
import numpy as np

from core import _dtype
from core._arg_types import refuse_bool_dim
from core._factories import zeros
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._float32_compute import computes_in_float32, is_reduced
from core.ops._saved_attrs import DIM_AS_GIVEN
from core.ops._strided import row_major
from core.ops._util import normalize_dim, wrap, xp_of
from core.ops.comparison import logical_xor
from core.ops.elementwise import _out
from core.ops.joining import cat
from core.ops.math_unary import exp, log
from core.ops.movement import narrow
from core.ops.rearranging import flip
from core.ops.reduction import _cast_back, _int_promoted, accept_numpy_names, const, return_types, sum, type_name
from core.ops.scatter import scatter_add

__all__ = ["cumsum", "cumprod", "logcumsumexp", "cummax", "cummin", "diff"]


def running(name: str, x, axis: int):
    """``xp.<name>.accumulate`` along ``axis``; on backends other than NumPy, a doubling scan."""
    xp = xp_of(x)
    ufunc = getattr(xp, name)
    if isinstance(x, np.ndarray):
        return ufunc.accumulate(x, axis=axis)
    return scan(ufunc, x, axis)


def scan(ufunc, x, axis: int):
    """Inclusive scan of an associative, commutative ufunc in log2(n) vectorised steps (Hillis-Steele)."""
    xp = xp_of(x)
    out = xp.moveaxis(x, axis, -1).copy()
    step = 1
    while step < out.shape[-1]:
        out[..., step:] = ufunc(out[..., step:], out[..., :-step])
        step *= 2
    return xp.moveaxis(out, -1, axis)


def reverse_cumsum(g: Tensor, dim: int) -> Tensor:
    """``out[i] = sum(g[i:])`` along ``dim`` (differentiable)."""
    return flip(cumsum(flip(g, (dim,)), dim), (dim,))


def _accumulated(scan, x, dim: int, dt):
    """``scan`` (cumsum/cumprod) along ``dim`` into ``dt``. PyTorch's CPU kernels carry a float32 scan in double
    and a bfloat16 or float16 one in float32 (``acc_type``), rounding each output once, so core does too (NumPy's
    float32 scan rounds every step in float32, as the half types' accumulator does)."""
    if dt == np.float32 and x.dtype.kind == "f":
        out = (_scan_float64(scan, x, dim) if type(x) is np.ndarray
               else scan(x, axis=dim, dtype=np.float64)).astype(dt)
    elif is_reduced(np.dtype(dt)) and x.dtype == dt:
        out = scan(x.astype(np.float32), axis=dim, dtype=np.float32).astype(dt)
    else:
        out = scan(x, axis=dim, dtype=dt)
    return row_major(out)  # (torch's scans write a contiguous result whatever the input's layout)


_ROW_SCAN_MAX, _ROW_MIN = 4096, 64  # scans run as a loop over rows: at most 4096 rows of at least 64 elements


def _scan_float64(scan, x: np.ndarray, dim: int) -> np.ndarray:
    """``scan(x, axis=dim, dtype=np.float64)`` (NumPy's cumsum or cumprod), the same adds or products in the same
    order: on one float64 copy of ``x`` in place (no second float64 array), and along a dim other than
    the last as a loop over its rows, ``row[i] = row[i - 1] op row[i]``, when they are few and long (NumPy's
    accumulate walks such a dim one column at a time, ~4x slower)."""
    y = x.astype(np.float64)
    n = y.shape[dim]
    if dim != y.ndim - 1 and 1 < n <= _ROW_SCAN_MAX and y.size >= _ROW_MIN * n:
        op = np.add if scan is np.cumsum else np.multiply
        rows = np.moveaxis(y, dim, 0)
        for i in range(1, n):
            op(rows[i - 1], rows[i], out=rows[i])
        return y
    return scan(y, axis=dim, out=y)


class Cumsum(Function):
    node_name = "CumsumBackward0"
    _saved_dim = SavedFromCtx(lambda c: c.get("raw_dim", c["dim"]))  # (as the call gave it)

    @staticmethod
    def forward(ctx, a, *, dim, dt, raw_dim=None):
        x = a._data
        ctx.dim, ctx.in_dtype = dim, x.dtype
        if isinstance(raw_dim, int) and raw_dim != dim:
            ctx.raw_dim = raw_dim
        if x.ndim == 0:
            return x.astype(dt.np, copy=True)
        out = _accumulated(xp_of(x).cumsum, x, dim, dt.np)
        if out.dtype.kind in "fc" or is_reduced(out.dtype):  # NOTE: torch's scan adds onto a zero: a leading -0.
            out += out.dtype.type(0)  # comes out 0. (NumPy's starts from the first element)
        return out

    @staticmethod
    def backward(ctx, g):
        if g._data.ndim == 0:
            return _cast_back(g, ctx)
        return _cast_back(reverse_cumsum(g, ctx.dim), ctx)

    @staticmethod
    def jvp(ctx, t):
        return cumsum(t, ctx.dim) if t.ndim else t.clone()


def _cumulative_dtype(input: Tensor, dtype, name: str):
    """cumsum's/cumprod's result dtype (ints and bools widen to int64); PyTorch has no bool kernel for either."""
    dt = _int_promoted(input, dtype)
    if dt is _dtype.bool and input._data.ndim and input._data.size:  # (a 0-d or empty input runs no kernel)
        raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")
    return dt


def cumsum(input: Tensor, dim, *, dtype=None, out=None):
    refuse_bool_dim("cumsum", dim)
    if dtype is None and isinstance(out, Tensor):  # out's dtype is the one summed in, as torch's
        dtype = out.dtype
    result = Cumsum.apply(input, dim=normalize_dim(dim, input._data.ndim), dt=_cumulative_dtype(input, dtype, "cumsum"),
                          raw_dim=dim)
    return result if out is None else _out(result, out, input)


class Cumprod(Function):
    node_name = "CumprodBackward0"
    saved_names = ("self", "result")
    _saved_dim = SavedFromCtx(lambda c: c.get("raw_dim", c["dim"]))  # (as the call gave it)

    @staticmethod
    def forward(ctx, a, *, dim, dt, raw_dim=None):
        x = a._data
        ctx.dim, ctx.in_dtype = dim, x.dtype
        if isinstance(raw_dim, int) and raw_dim != dim:
            ctx.raw_dim = raw_dim
        out = wrap(x.astype(dt.np, copy=True) if x.ndim == 0 else _accumulated(xp_of(x).cumprod, x, dim, dt.np))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, g):
        a, out = ctx._unpacked
        if g._data.ndim == 0:
            return _cast_back(g, ctx)
        if a.is_complex():  # PyTorch's convention: the gradient times the conjugate derivative
            a, out = a.conj_physical(), out.conj_physical()
        return _cast_back(cumprod_backward(g, a, out, ctx.dim), ctx)


def cumprod_backward(g: Tensor, a: Tensor, out: Tensor, dim: int) -> Tensor:
    """``grad[i] = sum_{j>=i} g[j] * prod_{k<=j, k!=i} x[k]``, exact with zeros in the input.

    NOTE: before the first zero of a slice the division form ``revcumsum(g*out)/x`` is exact; at the
    first zero the gradient is ``sum_{j>=z} g[j] * cumprod(x with x[z]=1)[j]``; after it, 0.
    """
    z = a._data == 0
    if not bool(z.any()):
        return reverse_cumsum(g * out, dim) / a
    xp = xp_of(z)
    seen = xp.cumsum(z, axis=dim)
    first = z & (seen == 1)
    before = seen == 0
    part = reverse_cumsum(g * out, dim) / (a + const(z, a)) * const(before, a)
    cp = cumprod(a + const(first, a), dim)
    at_zero = sum(g * cp * const(~before, a), dim, keepdim=True)
    return part + const(first, a) * at_zero


def cumprod(input: Tensor, dim, *, dtype=None):
    refuse_bool_dim("cumprod", dim)
    return Cumprod.apply(input, dim=normalize_dim(dim, input._data.ndim), dt=_cumulative_dtype(input, dtype, "cumprod"),
                         raw_dim=dim)


@computes_in_float32  # (PyTorch's half kernel accumulates in float32 and rounds each output once)
class Logcumsumexp(Function):
    node_name = "LogcumsumexpBackward0"
    saved_names = ("self", "result")
    _saved_dim = DIM_AS_GIVEN

    @staticmethod
    def forward(ctx, a, *, dim, raw_dim=None):
        x = a._data
        xp = xp_of(x)
        ctx.dim = dim
        if isinstance(raw_dim, int) and raw_dim != dim:
            ctx.raw_dim = raw_dim  # (grad_fn._saved_dim: as the call gave it)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            if x.ndim == 0:
                out = x.copy()
            elif x.dtype == np.float32 and getattr(ctx, "half_dtype", None) is None:
                out = running("logaddexp", x.astype(np.float64), dim)  # (torch's acc_type of float: double)
            else:
                out = running("logaddexp", x, dim)
        res = wrap(row_major(xp.asarray(out, dtype=x.dtype)))
        ctx.save_for_backward(a, res)
        return res

    @staticmethod
    def backward(ctx, g):
        a, out = ctx._unpacked
        if g._data.ndim == 0:
            return g
        return logcumsumexp_backward(g, a, out, ctx.dim)


def logcumsumexp_backward(g: Tensor, a: Tensor, out: Tensor, dim: int) -> Tensor:
    """``grad[i] = sum_{j>=i} g[j] exp(x[i] - out[j])`` in log space, positive and negative g apart."""
    xp = xp_of(g._data)

    def part(mask):
        # NOTE: a huge finite negative (not -inf, not the lowest float) so that "log 0 - out" and
        # double backward stay finite: exp of it is still exactly 0.
        neg_inf = xp.where(mask, 0.0, ml_dtypes.finfo(g._data.dtype).min / 8).astype(g._data.dtype)
        sign_g = g if mask is pos else -g
        log_g = log(sign_g * const(mask, g) + const(~mask, g)) + wrap(neg_inf)
        rev = flip(logcumsumexp(flip(log_g - out, (dim,)), dim), (dim,))
        return exp(rev + a)

    pos = g._data > 0
    neg = g._data < 0
    return part(pos) - part(neg)


def logcumsumexp(input: Tensor, dim):
    refuse_bool_dim("logcumsumexp", dim)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{type_name(input.dtype)}\'')
    return Logcumsumexp.apply(input, dim=normalize_dim(dim, input._data.ndim), raw_dim=dim)


class Cummax(Function):
    node_name = "CummaxBackward0"
    ufunc = "maximum"
    saved_names = ("self",)
    _saved_dim = DIM_AS_GIVEN
    _saved_indices = SavedFromCtx(lambda c: Tensor._wrap(c["indices"]), tensor=True)

    @classmethod
    def forward(cls, ctx, a, *, dim, raw_dim=None):
        x = a._data
        xp = xp_of(x)
        ctx.dim = dim
        if isinstance(raw_dim, int) and raw_dim != dim:
            ctx.raw_dim = raw_dim  # (grad_fn._saved_dim: as the call gave it)
        ctx.save_for_backward(a)  # (PyTorch saves the input: a write to it before backward is refused)
        if x.ndim == 0:
            ctx.indices = xp.zeros((), dtype=np.int64)
            return x.copy(), ctx.indices.copy()
        with np.errstate(invalid="ignore"):
            values = running(cls.ufunc, x, dim)
        # the latest index holding the running extreme (PyTorch's tie rule); a NaN wins from where it is
        hit = (x == values) | (xp.isnan(x) if x.dtype.kind == "f" else False)
        pos = xp.arange(x.shape[dim]).reshape([-1 if i == dim else 1 for i in range(x.ndim)])
        idx = running("maximum", xp.where(hit, pos, 0), dim).astype(np.int64)
        ctx.indices = idx
        ctx.in_shape = x.shape
        return row_major(values), row_major(idx)

    @staticmethod
    def backward(ctx, g, _gi):
        _ = ctx._unpacked  # (the version check of the saved input)
        if g._data.ndim == 0:
            return g
        base = zeros(ctx.in_shape, dtype=g.dtype, device=g.device)
        return scatter_add(base, ctx.dim, wrap(ctx.indices), g)


class Cummin(Cummax):
    node_name = "CumminBackward0"
    ufunc = "minimum"


def _refuse_complex(input: Tensor, op: str) -> None:
    if input.is_complex():
        raise NotImplementedError(f'"{op}" not implemented for \'{_dtype.SCALAR_NAMES[input.dtype.name]}\'')


def cummax(input: Tensor, dim):
    refuse_bool_dim("cummax", dim)
    _refuse_complex(input, "cummax_cpu")
    values, indices = Cummax.apply(input, dim=normalize_dim(dim, input._data.ndim), raw_dim=dim)
    return return_types.cummax(values, indices)


def cummin(input: Tensor, dim):
    refuse_bool_dim("cummin", dim)
    _refuse_complex(input, "cummin_cpu")
    values, indices = Cummin.apply(input, dim=normalize_dim(dim, input._data.ndim), raw_dim=dim)
    return return_types.cummin(values, indices)


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend=None, append=None):
    """``n``-th forward difference along ``dim`` (a composite: its grad_fn is SubBackward0)."""
    if input._data.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = normalize_dim(dim, input._data.ndim)
    parts = [t for t in (prepend, input, append) if t is not None]
    x = cat(parts, d) if len(parts) > 1 else input
    for _ in range(n):
        length = x.shape[d]
        if length == 0:
            break
        hi, lo = narrow(x, d, 1, length - 1), narrow(x, d, 0, length - 1)
        x = logical_xor(hi, lo) if x.dtype is _dtype.bool else hi - lo
    return x


accept_numpy_names(globals(), __all__)
