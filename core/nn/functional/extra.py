"""More of ``torch.nn.functional``: ``prelu``, ``pixel_shuffle``/``pixel_unshuffle`` and the margin losses
(``margin_ranking_loss``, ``triplet_margin_loss``, ``hinge_embedding_loss``, ``cosine_embedding_loss``).

The losses are compositions of ``core`` ops; prelu and the pixel shuffles are PyTorch's one-kernel
primitives (``extra_kernels``).
"""

from __future__ import annotations

import core
from core._arg_types import is_index, tp_name
from core._dtype import SCALAR_NAMES
from core.amp import _casting as _autocast
from core.nn.functional import extra_kernels as kernels
from core.nn.functional.loss import _check_reduction, _reduce, legacy_reduction
from core.nn.functional.misc import pairwise_distance

__all__ = ["prelu", "pixel_shuffle", "pixel_unshuffle", "margin_ranking_loss", "triplet_margin_loss",
           "hinge_embedding_loss", "cosine_embedding_loss"]


def prelu(input, weight):
    """``max(0, x) + weight * min(0, x)``, ``weight`` one value or one per channel (dim 1)."""
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, weight = _autocast.lower(input, weight)
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {SCALAR_NAMES[input.dtype.name]} and "
                           f"{SCALAR_NAMES[weight.dtype.name]}")
    if weight.numel() != 1:
        if input.dim() == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.dim() >= 2 else 1  # PyTorch: a 1-d input is one channel
        if weight.numel() != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    if input.dim() != weight.dim():  # ATen's prelu: the weight viewed as (1, C, 1, ...) whenever the ranks differ,
        shape = [1] * input.dim()  # a one-element weight too (the ViewBackward0 node Torch-Pruning's graph walks)
        if input.dim() > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return kernels.PreluKernel.apply(input, weight)


def pixel_shuffle(input, upscale_factor: int):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    if not is_index(upscale_factor):
        raise TypeError("pixel_shuffle(): argument 'upscale_factor' (position 2) must be int, not "
                        f"{tp_name(upscale_factor)}")
    r = int(upscale_factor)
    if input.dim() < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    *batch, c, h, w = input.shape
    if c % (r * r) != 0:
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    return kernels.PixelShuffle.apply(input, r=r)


def pixel_unshuffle(input, downscale_factor: int):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    if not is_index(downscale_factor):
        raise TypeError("pixel_unshuffle(): argument 'downscale_factor' (position 2) must be int, not "
                        f"{tp_name(downscale_factor)}")
    r = int(downscale_factor)
    if input.dim() < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    *batch, c, h, w = input.shape
    if h % r != 0 or w % r != 0:
        raise RuntimeError(f"pixel_unshuffle expects height and width to be divisible by downscale_factor, but got "
                           f"height={h}, width={w} and downscale_factor={r}")
    return kernels.PixelUnshuffle.apply(input, r=r)


def _reduction(size_average, reduce, reduction):
    return legacy_reduction(size_average, reduce, reduction) if size_average is not None or reduce is not None \
        else _check_reduction(reduction)


def margin_ranking_loss(input1, input2, target, margin: float = 0.0, size_average=None, reduce=None,
                        reduction: str = "mean"):
    """``max(0, -target * (x1 - x2) + margin)``."""
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    loss = core.clamp(-target * (input1 - input2) + margin, min=0)
    return _reduce(loss, _reduction(size_average, reduce, reduction))


def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average=None, reduce=None, reduction: str = "mean"):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with the p-norm distance (``swap``: the closer of d(a, n), d(p, n))."""
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = core.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    loss = core.clamp(margin + d_pos - d_neg, min=0)
    return _reduce(loss, _reduction(size_average, reduce, reduction))


def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean"):
    """``x`` where target is 1, ``max(0, margin - x)`` where target is -1."""
    zeros = core.zeros_like(input)
    margin_part = core.where(target != 1, core.clamp(margin - input, min=0), zeros)
    self_part = core.where(target != -1, input, zeros)
    return _reduce(margin_part + self_part, _reduction(size_average, reduce, reduction))


def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, size_average=None, reduce=None,
                          reduction: str = "mean"):
    """``1 - cos(x1, x2)`` where target is 1, ``max(0, cos(x1, x2) - margin)`` where target is -1."""
    dim = input1.dim() - 1
    eps = 1e-12  # PyTorch's EPSILON in this loss, added to each squared norm
    denom = (((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps)).sqrt()
    cos = (input1 * input2).sum(dim) / denom
    zeros = core.zeros_like(cos)
    pos = core.where(target == 1, 1 - cos, zeros)
    neg = core.where(target == -1, core.clamp(cos - margin, min=0), zeros)
    return _reduce(pos + neg, _reduction(size_average, reduce, reduction))
