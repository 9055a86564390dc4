"""Convolutions as three linear primitives that are each other's gradients.

``Conv`` (y = conv(x, w)), ``ConvInput`` (its adjoint in x: the input gradient, which is also the
transposed convolution) and ``ConvWeight`` (its adjoint in w). Each one's backward is written with
the other two, so double backward works. On arrays: im2col is an ``as_strided`` window view copied
once and multiplied in one batched GEMM; col2im adds the kh*kw kernel-offset slices (no loops over
pixels). 1-d convolutions run as 2-d ones with a height of 1.
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


def im2col(x, kh: int, kw: int, spec: Spec):
    """Columns (N, G, Cg*kh*kw, OH*OW) of the padded input, and the output size (OH, OW)."""
    xp = xp_of(x)
    xpad = _pad(x, spec.padding)
    n, c, hp, wp = xpad.shape
    (sh, sw), (dh, dw), g = spec.stride, spec.dilation, spec.groups
    oh = (hp - dh * (kh - 1) - 1) // sh + 1
    ow = (wp - dw * (kw - 1) - 1) // sw + 1
    s_n, s_c, s_h, s_w = xpad.strides
    cg = c // g
    win = xp.lib.stride_tricks.as_strided(
        xpad, (n, g, cg, kh, kw, oh, ow), (s_n, cg * s_c, s_c, s_h * dh, s_w * dw, s_h * sh, s_w * sw))
    return win.reshape(n, g, cg * kh * kw, oh * ow), (oh, ow)


def conv_forward(x, w, spec: Spec, col=None):
    """y = conv(x, w) on 4-d arrays; returns (y, col) so the weight gradient can reuse the columns."""
    xp = xp_of(x)
    o, cg, kh, kw = w.shape
    g = spec.groups
    if col is None:
        col, (oh, ow) = im2col(x, kh, kw, spec)
    else:
        oh, ow = _out_hw(x.shape[2:], (kh, kw), spec)
    out = xp.matmul(w.reshape(1, g, o // g, cg * kh * kw), col)
    return out.reshape(x.shape[0], o, oh, ow), col


def _out_hw(hw, khw, spec: Spec):
    return tuple(conv_out_size(hw[i], khw[i], spec.stride[i], spec.padding[i], spec.dilation[i]) for i in (0, 1))


def col2im(cols, in_hw, khw, out_hw, spec: Spec):
    """Sum columns (N, C, kh, kw, OH, OW) back onto the input grid (the adjoint of im2col)."""
    xp = xp_of(cols)
    n, c = cols.shape[:2]
    (t, b), (left, r) = spec.padding
    (sh, sw), (dh, dw) = spec.stride, spec.dilation
    hp, wp = in_hw[0] + t + b, in_hw[1] + left + r
    out = xp.zeros((n, c, hp, wp), dtype=cols.dtype)
    oh, ow = out_hw
    for i in range(khw[0]):
        for j in range(khw[1]):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += cols[:, :, i, j]
    return out[:, :, t:t + in_hw[0], left:left + in_hw[1]]


def conv_input_grad(gy, w, in_hw, spec: Spec):
    """The adjoint of conv in x: W^T @ gy (one batched GEMM), then col2im."""
    xp = xp_of(gy)
    o, cg, kh, kw = w.shape
    g = spec.groups
    n, _, oh, ow = gy.shape
    wt = xp.swapaxes(w.reshape(1, g, o // g, cg * kh * kw), -1, -2)
    cols = xp.matmul(wt, gy.reshape(n, g, o // g, oh * ow))
    return col2im(cols.reshape(n, g * cg, kh, kw, oh, ow), in_hw, (kh, kw), (oh, ow), spec)


def conv_weight_grad(x, gy, wshape, spec: Spec, col=None):
    """The adjoint of conv in w: sum over the batch of gy @ col^T (batched GEMM, then a sum)."""
    xp = xp_of(gy)
    o, cg, kh, kw = wshape
    g = spec.groups
    if col is None:
        col, _ = im2col(x, kh, kw, spec)
    n, _, oh, ow = gy.shape
    gw = xp.matmul(gy.reshape(n, g, o // g, oh * ow), xp.swapaxes(col, -1, -2)).sum(axis=0)
    return gw.reshape(wshape)


class Conv(Function):
    """y = conv(x, w) + b."""

    node_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx, x, w, b, *, spec: Spec):
        xa, wa = _to2d(x._data, spec), _to2d(w._data, spec)
        ctx.save_for_backward(x, w)
        ctx.spec = spec
        y, col = conv_forward(xa, wa, spec)
        ctx.col = col if w._requires_grad else None
        if b is not None:
            y += b._data.reshape(1, -1, 1, 1)
        return _from2d(y, spec)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        spec = ctx.spec
        need = ctx.needs_input_grad
        gx = ConvInput.apply(g, w, None, spec=spec, in_hw=x.shape[2:]) if need[0] else None
        gw = ConvWeight.apply(x, g, spec=spec, wshape=tuple(w.shape), col=ctx.col) if need[1] else None
        ctx.col = None
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
        dw = ConvWeight.apply(gg, g, spec=spec, wshape=tuple(w.shape), col=None) if need[1] else None
        db = gg.sum((0, 2) if spec.one_d else (0, 2, 3)) if need[2] else None
        return dg, dw, db


class ConvWeight(Function):
    """gw = conv_w^T(x, g): the weight gradient of ``Conv``."""

    node_name = "ConvolutionBackwardBackward0"

    @staticmethod
    def forward(ctx, x, g, *, spec: Spec, wshape, col):
        ctx.save_for_backward(x, g)
        ctx.spec = spec
        shape2d = (wshape[0], wshape[1], 1, wshape[2]) if spec.one_d else wshape
        gw = conv_weight_grad(_to2d(x._data, spec), _to2d(g._data, spec), shape2d, spec, col)
        return gw.reshape(wshape)

    @staticmethod
    def backward(ctx, gw2):
        x, g = ctx.saved_tensors
        spec = ctx.spec
        need = ctx.needs_input_grad
        dx = ConvInput.apply(g, gw2, None, spec=spec, in_hw=x.shape[2:]) if need[0] else None
        dg = Conv.apply(x, gw2, None, spec=spec) if need[1] else None
        return dx, dg
