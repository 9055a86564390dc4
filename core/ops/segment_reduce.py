"""``torch.segment_reduce``: sum, mean, max, min or prod over consecutive segments of one axis.

Segments are given by ``lengths`` (or ``offsets``), whose last dim is the segment list and whose leading dims are
``data``'s dims before ``axis``. ``initial`` joins every segment's reduction (an empty segment gives it, or the
reduction's identity: 0, 1, -inf, +inf; NaN for mean). The gradient is PyTorch's ``_segment_reduce_backward``:
spread evenly (sum), over the length (mean), to the elements equal to the result (max, min; ties split a
positive gradient among them and each take a negative one whole, as PyTorch's kernel does),
and the product of the others (prod).
"""

from __future__ import annotations

import math

import numpy as np

from core import _dtype
from core._backend import to_numpy_array
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function

__all__ = ["segment_reduce"]

_IDENTITY = {"sum": 0.0, "prod": 1.0, "mean": math.nan, "max": -math.inf, "min": math.inf}  # of an empty segment
_REDUCES = tuple(_IDENTITY)
_REDUCE_FN = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min, "mean": np.sum}  # (mean: then divided)
_COMBINE_FN = {"sum": np.add, "mean": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}  # initial


def _bounds(lengths):
    """Per leading index, the (start, stop) of each segment."""
    ends = np.cumsum(lengths, axis=-1)
    return ends - lengths, ends


class SegmentReduce(Function):
    node_name = "SegmentReduceBackward0"

    @staticmethod
    def forward(ctx, data, *, reduce, lengths, axis, initial):
        x = to_numpy_array(data._data)
        lead, length, rest = x.shape[:axis], x.shape[axis], x.shape[axis + 1:]
        flat = x.reshape(int(np.prod(lead, dtype=np.int64)), length, -1)
        lens = lengths.reshape(flat.shape[0], -1)
        starts, stops = _bounds(lens)
        out = np.empty((flat.shape[0], lens.shape[1], flat.shape[2]), dtype=x.dtype)
        for b in range(flat.shape[0]):
            for s in range(lens.shape[1]):
                seg = flat[b, starts[b, s]:stops[b, s]]
                if seg.shape[0] == 0:
                    out[b, s] = _IDENTITY[reduce] if initial is None else initial
                    continue
                value = _REDUCE_FN[reduce](seg, 0)
                if initial is not None:
                    value = _COMBINE_FN[reduce](value, x.dtype.type(initial))
                out[b, s] = value / seg.shape[0] if reduce == "mean" else value
        ctx.reduce, ctx.lens, ctx.axis_len, ctx.initial = reduce, lens, length, initial
        ctx.save_for_backward(data)
        ctx.out = out
        return new_tensor(out.reshape(lead + (lens.shape[1],) + rest)).to(data.device)

    @staticmethod
    def backward(ctx, g):
        (data,) = ctx._unpacked
        x = to_numpy_array(data._data)
        flat = x.reshape(ctx.lens.shape[0], ctx.axis_len, -1)
        go = to_numpy_array(g._data).reshape(ctx.out.shape)
        gx = np.zeros_like(flat)
        starts, stops = _bounds(ctx.lens)
        for b in range(flat.shape[0]):
            for s in range(ctx.lens.shape[1]):
                st, sp = starts[b, s], stops[b, s]
                if sp == st:
                    continue
                seg, gs, out = flat[b, st:sp], go[b, s], ctx.out[b, s]
                if ctx.reduce == "sum":
                    gx[b, st:sp] = gs
                elif ctx.reduce == "mean":
                    gx[b, st:sp] = gs / (sp - st)
                elif ctx.reduce in ("max", "min"):
                    # NOTE: PyTorch's kernel divides among ties (NaN counting as one) only a gradient above 0
                    hit = np.isnan(seg) | (seg == out)
                    count = hit.sum(0)
                    chosen = np.where(hit, gs, 0).astype(seg.dtype)
                    gx[b, st:sp] = np.where((count >= 2) & (chosen > 0), chosen / np.maximum(count, 1), chosen)
                else:  # prod: out / x, or the product of the others where x is 0
                    with np.errstate(divide="ignore", invalid="ignore"):
                        others = np.where(seg != 0, out / seg, _exclusive_prod(seg, ctx.initial))
                    gx[b, st:sp] = gs * others
        return new_tensor(gx.reshape(x.shape)).to(data.device)


def _exclusive_prod(seg, initial):
    ones = np.ones((1,) + seg.shape[1:], dtype=seg.dtype)
    before = np.cumprod(np.concatenate([ones, seg[:-1]]), 0)
    after = np.cumprod(np.concatenate([ones, seg[:0:-1]]), 0)[::-1]
    out = before * after
    return out if initial is None else out * seg.dtype.type(initial)


def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None):
    reduce = {"amax": "max", "amin": "min"}.get(reduce, reduce)  # (PyTorch's reduction names take both spellings)
    if reduce not in _REDUCES:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    if indices is not None:
        raise NotImplementedError("segment_reduce(): indices are not supported (as in PyTorch)")
    if not isinstance(data, Tensor) or not (data.is_floating_point()):
        kind = _dtype.SCALAR_NAMES[data.dtype.name] if isinstance(data, Tensor) else type(data).__name__
        raise NotImplementedError(f"\"_segment_reduce_cpu\" not implemented for '{kind}'")
    if lengths is not None:
        lens = np.asarray(to_numpy_array(lengths._data), dtype=np.int64)
    else:
        off = np.asarray(to_numpy_array(offsets._data), dtype=np.int64)
        lens = np.diff(off, axis=-1)
    axis = axis % data.ndim
    if axis != lens.ndim - 1:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of lengths but got {axis}.")
    if not unsafe and lengths is not None and bool((lens.sum(-1) != data.shape[axis]).any()):
        raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum to "
                           "data.size(lengths.dim()-1) when !unsafe.")
    return SegmentReduce.apply(data, reduce=reduce, lengths=lens, axis=axis, initial=initial)
