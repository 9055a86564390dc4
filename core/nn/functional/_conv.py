"""Convolutions as three linear primitives that are each other's gradients.

``Conv`` (y = conv(x, w)), ``ConvInput`` (its adjoint in x: the input gradient, which is also the
transposed convolution) and ``ConvWeight`` (its adjoint in w). Each one's backward is written with
the other two, so double backward works. On arrays: im2col is an ``as_strided`` window view copied
into a reused ~64 MiB column buffer, one batch chunk at a time, with the chunk's samples side by
side so that each chunk is one wide GEMM per group (a whole-batch buffer would be hundreds of MiB
of fresh pages); col2im adds the kh*kw kernel-offset slices (no loops over pixels). 1-d convolutions run as 2-d ones with a height of 1.
"""

from __future__ import annotations

from typing import NamedTuple

from core.autograd.function import Function
from core.ops._util import xp_of

__all__ = ["Spec", "Conv", "ConvInput", "ConvWeight", "conv_out_size"]


class Spec(NamedTuple):
    """The geometry of a 2-d convolution: pads are ((top, bottom), (left, right))."""

    stride: tuple
    padding: tuple
    dilation: tuple
    groups: int
    one_d: bool = False


def conv_out_size(size: int, k: int, s: int, pads: tuple, d: int) -> int:
    return (size + pads[0] + pads[1] - d * (k - 1) - 1) // s + 1


def _to2d(arr, spec: Spec):
    return arr[:, :, None] if spec.one_d else arr


def _from2d(arr, spec: Spec):
    return arr[:, :, 0] if spec.one_d else arr


def _pad(x, pads):
    (t, b), (left, r) = pads
    if not (t or b or left or r):
        return x
    xp = xp_of(x)
    out = xp.zeros(x.shape[:2] + (x.shape[2] + t + b, x.shape[3] + left + r), dtype=x.dtype)
    out[:, :, t:t + x.shape[2], left:left + x.shape[3]] = x
    return out


_CHUNK_BYTES = 64 << 20


def _chunks(n: int, per_sample: int):
    """Batch slices whose column buffer stays near 64 MiB: big enough that each GEMM is wide (BLAS is
    ~3x less efficient on one sample's 12k columns than on 100k), small enough to stay reused."""
    step = max(1, min(n, _CHUNK_BYTES // max(per_sample, 1)))
    return [slice(i, min(i + step, n)) for i in range(0, n, step)], step


def _windows(xpad, kh: int, kw: int, spec: Spec, out_hw):
    """(G, Cg, kh, kw, N, OH, OW) strided view of the padded input (no copy)."""
    n, c, _, _ = xpad.shape
    (sh, sw), (dh, dw), g = spec.stride, spec.dilation, spec.groups
    s_n, s_c, s_h, s_w = xpad.strides
    cg = c // g
    return xp_of(xpad).lib.stride_tricks.as_strided(
        xpad, (g, cg, kh, kw, n) + tuple(out_hw), (cg * s_c, s_c, s_h * dh, s_w * dw, s_n, s_h * sh, s_w * sw))


def _out_hw(hw, khw, spec: Spec):
    return tuple(conv_out_size(hw[i], khw[i], spec.stride[i], spec.padding[i], spec.dilation[i]) for i in (0, 1))


def _buffer(flat, shape):
    """A contiguous array of ``shape`` at the start of the reused flat buffer."""
    size = 1
    for d in shape:
        size *= d
    return flat[:size].reshape(shape)


def _columns(xpad, sl, flat, kh, kw, spec, out_hw):
    """The columns of samples ``sl``: (G, Cg*kh*kw, m*OH*OW), samples side by side along the GEMM's N."""
    m = sl.stop - sl.start
    g = spec.groups
    cols = _buffer(flat, (g, xpad.shape[1] // g, kh, kw, m) + tuple(out_hw))
    cols[...] = _windows(xpad[sl], kh, kw, spec, out_hw)
    return cols.reshape(g, -1, m * out_hw[0] * out_hw[1])


def _group_major(arr, g: int, rows: int):
    """(m, G*rows, L) -> contiguous (G, rows, m*L): the batch side by side along the GEMM's N."""
    m, _, length = arr.shape
    xp = xp_of(arr)
    return xp.ascontiguousarray(arr.reshape(m, g, rows, length).transpose(1, 2, 0, 3)).reshape(g, rows, m * length)


def conv_forward(x, w, spec: Spec):
    """y = conv(x, w) on 4-d arrays: im2col per batch chunk, one wide GEMM per chunk and group."""
    xp = xp_of(x)
    o, cg, kh, kw = w.shape
    g, n = spec.groups, x.shape[0]
    oh, ow = _out_hw(x.shape[2:], (kh, kw), spec)
    xpad = _pad(x, spec.padding)
    kdim, length = cg * kh * kw, oh * ow
    wm = w.reshape(g, o // g, kdim)
    out = xp.empty((n, o, length), dtype=x.dtype)
    slices, step = _chunks(n, g * kdim * length * x.itemsize)
    flat = xp.empty(g * kdim * step * length, dtype=x.dtype)
    for sl in slices:
        m = sl.stop - sl.start
        cols = _columns(xpad, sl, flat, kh, kw, spec, (oh, ow))
        res = xp.concatenate([xp.matmul(wm[j], cols[j]) for j in range(g)]) if g > 1 else xp.matmul(wm[0], cols[0])
        out[sl] = res.reshape(o, m, length).transpose(1, 0, 2)
    return out.reshape(n, o, oh, ow)


def col2im(cols, out, khw, out_hw, spec: Spec) -> None:
    """Add columns (m, C, kh, kw, OH, OW) onto the padded input grid ``out`` (the adjoint of im2col)."""
    (sh, sw), (dh, dw) = spec.stride, spec.dilation
    oh, ow = out_hw
    for i in range(khw[0]):
        for j in range(khw[1]):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += cols[:, :, i, j]


def conv_input_grad(gy, w, in_hw, spec: Spec):
    """The adjoint of conv in x: W^T @ gy (one wide GEMM per batch chunk and group), then col2im."""
    xp = xp_of(gy)
    o, cg, kh, kw = w.shape
    g = spec.groups
    n, _, oh, ow = gy.shape
    (t, b), (left, r) = spec.padding
    out = xp.zeros((n, g * cg, in_hw[0] + t + b, in_hw[1] + left + r), dtype=gy.dtype)
    kdim, length = cg * kh * kw, oh * ow
    wt = xp.ascontiguousarray(xp.swapaxes(w.reshape(g, o // g, kdim), -1, -2))
    slices, _ = _chunks(n, g * kdim * length * gy.itemsize)
    for sl in slices:
        m = sl.stop - sl.start
        gm = _group_major(gy[sl].reshape(m, o, length), g, o // g)
        cols = xp.stack([xp.matmul(wt[j], gm[j]) for j in range(g)])  # (G, K, m*L)
        cols = cols.reshape(g * cg, kh, kw, m, oh, ow).transpose(3, 0, 1, 2, 4, 5)
        col2im(cols, out[sl], (kh, kw), (oh, ow), spec)
    cropped = out[:, :, t:t + in_hw[0], left:left + in_hw[1]]
    return xp.ascontiguousarray(cropped) if (t or b or left or r) else cropped


def conv_weight_grad(x, gy, wshape, spec: Spec):
    """The adjoint of conv in w: gy @ cols^T summed over chunks (one wide GEMM per chunk and group)."""
    xp = xp_of(gy)
    o, cg, kh, kw = wshape
    g = spec.groups
    n, _, oh, ow = gy.shape
    xpad = _pad(x, spec.padding)
    kdim, length = cg * kh * kw, oh * ow
    gw = xp.zeros((g, o // g, kdim), dtype=gy.dtype)
    slices, step = _chunks(n, g * kdim * length * gy.itemsize)
    flat = xp.empty(g * kdim * step * length, dtype=gy.dtype)
    for sl in slices:
        m = sl.stop - sl.start
        cols = _columns(xpad, sl, flat, kh, kw, spec, (oh, ow))
        gm = _group_major(gy[sl].reshape(m, o, length), g, o // g)
        for j in range(g):  # 2-d matmuls: NumPy's stacked path is ~2x slower with a transposed operand
            gw[j] += xp.matmul(gm[j], cols[j].T)
    return gw.reshape(wshape)


class Conv(Function):
    """y = conv(x, w) + b."""

    node_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx, x, w, b, *, spec: Spec):
        xa, wa = _to2d(x._data, spec), _to2d(w._data, spec)
        ctx.save_for_backward(x, w)
        ctx.spec = spec
        y = conv_forward(xa, wa, spec)
        if b is not None:
            y += b._data.reshape(1, -1, 1, 1)
        return _from2d(y, spec)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        spec = ctx.spec
        need = ctx.needs_input_grad
        gx = ConvInput.apply(g, w, None, spec=spec, in_hw=x.shape[2:]) if need[0] else None
        gw = ConvWeight.apply(x, g, spec=spec, wshape=tuple(w.shape)) if need[1] else None
        gb = g.sum((0, 2) if spec.one_d else (0, 2, 3)) if len(need) > 2 and need[2] else None
        return gx, gw, gb


class ConvInput(Function):
    """x = conv^T(g, w) + b: the input gradient of ``Conv`` and the transposed convolution."""

    node_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx, g, w, b, *, spec: Spec, in_hw):
        ctx.save_for_backward(g, w)
        ctx.spec = spec
        hw = (1,) + tuple(in_hw) if spec.one_d else tuple(in_hw)
        out = conv_input_grad(_to2d(g._data, spec), _to2d(w._data, spec), hw, spec)
        if b is not None:
            out = out + b._data.reshape(1, -1, 1, 1)
        return _from2d(out, spec)

    @staticmethod
    def backward(ctx, gg):
        g, w = ctx.saved_tensors
        spec = ctx.spec
        need = ctx.needs_input_grad
        dg = Conv.apply(gg, w, None, spec=spec) if need[0] else None
        dw = ConvWeight.apply(gg, g, spec=spec, wshape=tuple(w.shape)) if need[1] else None
        db = gg.sum((0, 2) if spec.one_d else (0, 2, 3)) if need[2] else None
        return dg, dw, db


class ConvWeight(Function):
    """gw = conv_w^T(x, g): the weight gradient of ``Conv``."""

    node_name = "ConvolutionBackwardBackward0"

    @staticmethod
    def forward(ctx, x, g, *, spec: Spec, wshape):
        ctx.save_for_backward(x, g)
        ctx.spec = spec
        shape2d = (wshape[0], wshape[1], 1, wshape[2]) if spec.one_d else wshape
        gw = conv_weight_grad(_to2d(x._data, spec), _to2d(g._data, spec), shape2d, spec)
        return gw.reshape(wshape)

    @staticmethod
    def backward(ctx, gw2):
        x, g = ctx.saved_tensors
        spec = ctx.spec
        need = ctx.needs_input_grad
        dx = ConvInput.apply(g, gw2, None, spec=spec, in_hw=x.shape[2:]) if need[0] else None
        dg = Conv.apply(x, gw2, None, spec=spec) if need[1] else None
        return dx, dg
