"""``pad``: constant, reflect, replicate and circular padding as one gather primitive per call.

Each padded dim is described by an index map (padded position -> source position, -1 for the
constant fill). Forward takes along those maps; backward multiplies by the 0/1 matrices of the
maps (a sum of the gradients that came from each source), which is linear, so its own backward is
the padding again.
"""

from __future__ import annotations

import math

import numpy as np

from core._memory_format import in_suggested_format
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled
from core.autograd.node_api import SavedFromCtx
from core.nn.functional._bilinear_kernel import scatter_backward
from core.ops._util import xp_of

__all__ = ["pad"]


def _index_map(n: int, left: int, right: int, mode: str):
    pos = np.arange(-left, n + right)
    if mode == "constant":
        return np.where((pos >= 0) & (pos < n), pos, -1)
    if mode == "replicate":
        return np.clip(pos, 0, n - 1)
    if mode == "circular":  # NOTE: as PyTorch's: negative pads crop first, positive pads wrap the cropped part
        start, kept = max(-left, 0), n - max(-left, 0) - max(-right, 0)
        return start + np.arange(-max(left, 0), kept + max(right, 0)) % max(kept, 1)
    period = 2 * (n - 1)  # reflect
    if period == 0:
        return np.zeros_like(pos)
    r = np.abs(pos) % period
    return np.where(r < n, r, period - r)


def _runs(maps, shape):
    """(output slices, source slices) where every map takes one contiguous run of the source to one contiguous
    run of the output (constant padding, a crop by a negative pad); None for the other modes' maps."""
    out, src = [slice(None)] * len(shape), [slice(None)] * len(shape)
    for axis, m in maps:
        kept = np.flatnonzero(m >= 0)
        lo, n = (int(kept[0]), kept.size) if kept.size else (0, 0)
        first = int(m[lo]) if n else 0
        if n and not np.array_equal(m[lo:lo + n], np.arange(first, first + n)):
            return None
        out[axis], src[axis] = slice(lo, lo + n), slice(first, first + n)
    return tuple(out), tuple(src)


def _added_in_raster_order(g, maps, in_shape):
    """Reflect/replicate/circular padding's input gradient as ATen's ``cpu_padding_backward`` adds it: each plane's
    outputs in raster order, ``grad_input[source] += grad_output`` from zeros (``scatter_backward``, nearest
    upsampling's kernel); None for what it does not cover (then the 0/1-matrix product)."""
    first = min(axis for axis, _ in maps)
    k = g.ndim - first
    if type(g) is not np.ndarray or g.dtype not in (np.float32, np.float64) or not 1 <= k <= 3 or not g.size:
        return None
    index = dict(maps)
    taps = tuple((np.asarray(index.get(axis, np.arange(in_shape[axis]))).reshape(1, -1), None, in_shape[axis])
                 for axis in range(first, g.ndim))
    planes = math.prod(g.shape[:first])
    out = scatter_backward(np.ascontiguousarray(g).reshape((1, planes) + g.shape[first:]), taps)
    return out.reshape(in_shape)


class Pad(Function):
    node_name = "ConstantPadNdBackward0"
    keeps_format = True  # NOTE: PyTorch's kernel allocates its output in the input's suggested memory format
    _saved_pad = SavedFromCtx(lambda c: c["pad"])  # (the pads as the call gave them)

    @classmethod
    def forward(cls, ctx, x, *, maps, value, wraps=None, pad=None):
        a = source = x._data
        xp = xp_of(a)
        ctx.maps, ctx.in_shape, ctx.wraps = maps, a.shape, wraps
        if pad is not None:
            ctx.pad = pad
        if getattr(cls, "saved_names", ()):  # (reflection/replication save their input: a write before backward fails)
            ctx.save_for_backward(x)
        runs = _runs(maps, a.shape) if a.size else None
        if runs is not None:  # the fill, then the source's run copied in (one pass each, no gather)
            shape = list(a.shape)
            for axis, m in maps:
                shape[axis] = m.size
            out = xp.empty(shape, a.dtype)
            out[...] = xp.asarray(value, dtype=a.dtype)
            out[runs[0]] = a[runs[1]]
            return in_suggested_format(out, source) if cls.keeps_format else out
        for axis, m in maps:
            valid = m >= 0
            if not a.shape[axis]:  # (an empty dim padded with constants: nothing to take)
                a = xp.full(a.shape[:axis] + (m.size,) + a.shape[axis + 1:], value, dtype=a.dtype)
                continue
            a = xp.take(a, xp.asarray(np.where(valid, m, 0)), axis=axis)
            if not valid.all():
                shape = [1] * a.ndim
                shape[axis] = m.size
                a = xp.where(xp.asarray(valid.reshape(shape)), a, xp.asarray(value, dtype=a.dtype))
        return in_suggested_format(a, source) if cls.keeps_format else a  # (a channels-last image stays so)

    @staticmethod
    def backward(ctx, g):  # (circular padding is a composite in PyTorch: its gradient adds in another order)
        _ = ctx._unpacked  # (the version check of a saved input)
        raster = ctx._forward_cls.node_name.startswith(("Reflection", "Replication"))
        return PadBackward.apply(g, maps=ctx.maps, in_shape=ctx.in_shape, raster=raster, wraps=ctx.wraps)


class PadBackward(Function):
    node_name = "PadBackwardBackward0"

    @staticmethod
    def forward(ctx, g, *, maps, in_shape, raster=False, wraps=None):
        a = g._data
        xp = xp_of(a)
        ctx.maps = maps
        if wraps is not None:
            return _wrapped_back(a, wraps, in_shape)
        runs = _runs(maps, in_shape)
        if runs is not None:  # NOTE: PyTorch's constant_pad_nd backward is a slice: the padding's gradients (an
            out = xp.zeros(in_shape, a.dtype)  # inf, a NaN) are dropped, not multiplied by 0 into the rest
            out[runs[1]] = a[runs[0]]
            return out
        added = _added_in_raster_order(a, maps, in_shape) if raster else None
        if added is not None:
            return added
        for axis, m in reversed(maps):
            n = in_shape[axis]
            onehot = xp.asarray((m[:, None] == np.arange(n)[None, :]).astype(a.dtype))  # (padded, n)
            a = xp.moveaxis(xp.tensordot(a, onehot, axes=([axis], [0])), -1, axis)
        return a

    @staticmethod
    def backward(ctx, gg):
        return Pad.apply(gg, maps=ctx.maps, value=0)


def _wrapped_back(g, wraps, in_shape):
    """Circular padding's input gradient as PyTorch's autograd adds it: ATen's ``_pad_circular`` copies the input
    into the middle of an empty output, then, the last dim first, its wrapped parts from the output itself (the left
    pad, then the right), so the gradient runs those copies backwards: each adds the gradient of the part it wrote
    to the part it read (``CopySlices``: ``g[read] + g[written]``, then ``g[written] = 0``), and the input's gradient
    is the middle. ``wraps``: (axis, left, right) per padded dim, the last dim first."""
    g = g.copy()
    copies = []
    for axis, left, right in wraps:
        size = g.shape[axis]
        if left > 0:
            copies.append((axis, slice(0, left), slice(size - left - max(right, 0), size - max(right, 0))))
        if right > 0:
            copies.append((axis, slice(size - right, size), slice(max(left, 0), max(left, 0) + right)))
    for axis, written, read in reversed(copies):
        at = (slice(None),) * axis
        g[at + (read,)] += g[at + (written,)]
        g[at + (written,)] = 0
    out = xp_of(g).zeros(in_shape, g.dtype)
    middle, source = [slice(None)] * g.ndim, [slice(None)] * g.ndim
    for axis, left, right in wraps:
        middle[axis] = slice(max(left, 0), g.shape[axis] - max(right, 0))
        source[axis] = slice(max(-left, 0), in_shape[axis] - max(-right, 0))
    out[tuple(source)] = g[tuple(middle)]
    return out


# (padding length, input dims) that reflect/replicate/circular accept: a batch dim is optional.
_NON_CONSTANT_SUPPORTED = {(2, 2), (2, 3), (4, 3), (4, 4), (6, 4), (6, 5)}

_NAMES = {"reflect": "ReflectionPad", "replicate": "ReplicationPad", "circular": "CircularPad"}


def pad(input: Tensor, pad, mode: str = "constant", value=None) -> Tensor:
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.ndim}")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant" and value not in (None, 0):
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    if mode != "constant" and (len(pad), input.ndim) not in _NON_CONSTANT_SUPPORTED:
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    maps = []
    for i in range(len(pad) // 2):
        axis = input.ndim - 1 - i
        left, right = int(pad[2 * i]), int(pad[2 * i + 1])
        n = input.shape[axis]
        if mode == "reflect" and (left >= n or right >= n):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, but "
                               f"got: padding ({left}, {right}) at dimension {axis} of input {list(input.shape)}")
        if mode == "circular" and (left > n or right > n):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if mode == "constant" and (n + min(left, 0) < 0 or n + min(left, 0) + min(right, 0) < 0):
            raise RuntimeError("narrow(): length must be non-negative.")  # (ATen crops negative pads by narrow)
        if left or right:
            maps.append((axis, _index_map(n, left, right, mode)))
    if not maps:
        return input.clone() if hasattr(input, "clone") else input
    if mode == "circular" and input.requires_grad and is_grad_enabled():
        return _pad_circular(input, [int(p) for p in pad])
    cls = Pad if mode == "constant" else _mode_class(mode, len(pad) // 2)
    wraps = tuple((input.ndim - 1 - i, int(pad[2 * i]), int(pad[2 * i + 1])) for i in range(len(pad) // 2)) \
        if mode == "circular" else None
    return cls.apply(input, maps=tuple(maps), value=0 if value is None else value, wraps=wraps,
                     pad=tuple(int(p) for p in pad))


def _pad_circular(input: Tensor, pad) -> Tensor:
    """Circular padding recorded as PyTorch records it: ATen's ``_pad_circular`` is a composite that copies the
    input (sliced: a negative pad crops) into the middle of an empty output, then, the last dim first, fills each
    left pad from the output's right end and each right pad from its left end (so corners are written twice), each
    copy a ``CopySlices`` node over slices. Only where a graph is recorded: otherwise the values are the same
    single gather's (``CircularPad``)."""
    k = len(pad) // 2
    shape = list(input.shape)
    for i in range(k):  # (the pads of the last dim first)
        shape[-1 - i] += pad[2 * i] + pad[2 * i + 1]
    out = input.new_empty(shape)
    out_slice, in_slice = out, input
    for i in range(k):
        dim, left, right = input.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        start, stop = max(left, 0), shape[dim] - max(right, 0)
        out_slice = out_slice.narrow(dim, start, stop - start)
        start, stop = max(-left, 0), input.shape[dim] - max(-right, 0)
        in_slice = in_slice.narrow(dim, start, stop - start)
    out_slice.copy_(in_slice)
    for i in range(k):
        dim, left, right = input.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        size = shape[dim]
        if left > 0:
            out.narrow(dim, 0, left).copy_(out.narrow(dim, size - left - max(right, 0), left))
        if right > 0:
            out.narrow(dim, size - right, right).copy_(out.narrow(dim, max(left, 0), right))
    return out


_MODES = {}


def _mode_class(mode: str, nd: int):
    """A Pad subclass named like PyTorch's grad_fn (``ReflectionPad2DBackward0``)."""
    key = (mode, nd)
    if key not in _MODES:
        name = f"{_NAMES[mode]}{nd}D"
        shown = {"saved_names": ("self",), "_saved_pad": None, "_saved_padding": SavedFromCtx(lambda c: c["pad"])} \
            if mode != "circular" else {}  # (PyTorch's reflection/replication nodes: the pads and the input)
        _MODES[key] = type(name, (Pad,), {"node_name": f"{name}Backward0", "keeps_format": mode != "circular",
                                          **shown})
    return _MODES[key]
