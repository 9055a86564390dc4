"""``prelu`` and ``pixel_shuffle``/``pixel_unshuffle`` as one primitive each, as PyTorch runs them: a result prints
PyTorch's ``grad_fn=<PreluKernelBackward0>`` / ``<PixelShuffleBackward0>`` / ``<PixelUnshuffleBackward0>``.
Their backward passes are written with core ops (so they differentiate again).
"""

from __future__ import annotations

import core
from core._memory_format import in_suggested_format
from core.autograd.function import Function
from core.ops._saved_attrs import kept
from core.ops._util import xp_of

__all__ = ["PreluKernel", "PixelShuffle", "PixelUnshuffle", "shuffle_array", "unshuffle_array"]


class PreluKernel(Function):
    """``x > 0 ? x : w * x``, ``w`` of one element or shaped (1, C, 1, ...) to broadcast against ``x``."""

    node_name = "PreluKernelBackward0"
    saved_names = ("self", "weight")

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        a, b = x._data, w._data
        return xp_of(a).where(a > 0, a, b * a).astype(a.dtype)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx._unpacked
        positive = x > 0
        grad_x = core.where(positive, g, w * g) if ctx.needs_input_grad[0] else None
        grad_w = None
        if ctx.needs_input_grad[1]:
            per_element = core.where(positive, core.zeros_like(g), x * g)
            dims = [d for d in range(per_element.ndim) if d >= w.ndim or w.shape[d] == 1]
            grad_w = per_element.sum(dims).reshape(w.shape) if dims else per_element
        return grad_x, grad_w


def shuffle_array(a, r: int):
    """(*, C r^2, H, W) -> (*, C, H r, W r) on an array."""
    *batch, c, h, w = a.shape
    nb = len(batch)
    x = a.reshape(*batch, c // (r * r), r, r, h, w)
    x = x.transpose(*range(nb), nb, nb + 3, nb + 1, nb + 4, nb + 2)
    return x.reshape(*batch, c // (r * r), h * r, w * r)


def unshuffle_array(a, r: int):
    """(*, C, H r, W r) -> (*, C r^2, H, W) on an array."""
    *batch, c, h, w = a.shape
    nb = len(batch)
    x = a.reshape(*batch, c, h // r, r, w // r, r)
    x = x.transpose(*range(nb), nb, nb + 2, nb + 4, nb + 1, nb + 3)
    return x.reshape(*batch, c * r * r, h // r, w // r)


class PixelShuffle(Function):
    node_name = "PixelShuffleBackward0"
    _saved_upscale_factor = kept("r")

    @staticmethod
    def forward(ctx, x, *, r):
        ctx.r = r
        return in_suggested_format(shuffle_array(x._data, r), x._data)  # (torch: a channels-last image stays so)

    @staticmethod
    def backward(ctx, g):
        return PixelUnshuffle.apply(g, r=ctx.r)


class PixelUnshuffle(Function):
    node_name = "PixelUnshuffleBackward0"

    @staticmethod
    def forward(ctx, x, *, r):
        ctx.r = r
        return in_suggested_format(unshuffle_array(x._data, r), x._data)  # (torch: a channels-last image stays so)

    @staticmethod
    def backward(ctx, g):
        return PixelShuffle.apply(g, r=ctx.r)
