"""``max_unpool1d/2d/3d``, ``lp_pool1d/2d/3d`` and ``triplet_margin_with_distance_loss``, composed from
core ops with PyTorch's size rules and errors.

Unpooling scatters each value to the flat position its max-pool index names (a zero elsewhere), so
its gradient is the gather at those indices. Power-average pooling is an average pool of x**p,
scaled back to a sum and taken to the 1/p.
"""

from __future__ import annotations

import core
from core._threads import alert_not_deterministic
from core.nn.functional.conv import pair
from core.nn.functional.pooling import avg_pool1d, avg_pool2d
from core.nn.functional.volumetric import avg_pool3d

__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d", "lp_pool1d", "lp_pool2d", "lp_pool3d",
           "triplet_margin_with_distance_loss"]


def _unpool_output_size(input, kernel, stride, padding, output_size):
    nd = len(kernel)
    default = [(input.shape[input.ndim - nd + d] - 1) * stride[d] + kernel[d] - 2 * padding[d] for d in range(nd)]
    if output_size is None:
        return default
    output_size = list(output_size)
    if len(output_size) == nd + 2:
        output_size = output_size[2:]
    if len(output_size) != nd:
        raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} elements, but it has a "
                         f"length of '{len(output_size)}'")
    for d in range(nd):
        lo, hi = default[d] - stride[d], default[d] + stride[d]
        if not lo < output_size[d] < hi:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {lo} and {hi})')
    return output_size


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, nd: int):
    kernel = pair(kernel_size, nd, "kernel_size")
    stride = kernel if stride is None else pair(stride, nd, "stride")
    size = _unpool_output_size(input, kernel, stride, pair(padding, nd, "padding"), output_size)
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: {list(indices.shape)}")
    lead = tuple(input.shape[:input.ndim - nd])
    flat_in = input.reshape(lead + (-1,))
    plane = 1
    for s in size:
        plane *= s
    flat_idx = indices.reshape(-1)
    invalid = (flat_idx < 0) | (flat_idx >= plane)
    if bool(invalid.any()):
        raise RuntimeError(f"Found an invalid max index: {int(flat_idx[invalid.int().argmax()])} (output volumes are "
                           f"of size {'x'.join(map(str, size))})")
    alert_not_deterministic("max_unpooling3d_forward_out" if nd == 3 else "max_unpooling2d_forward_out")
    out = core.zeros(lead + (plane,), dtype=input.dtype, device=input.device)
    out = out.scatter(-1, indices.reshape(lead + (-1,)), flat_in)
    return out.reshape(lead + tuple(size))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


def _lp_finish(out, norm_type, window: int):
    return (core.sign(out) * core.relu(core.abs(out))).mul(window).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    out = avg_pool1d(input.pow(norm_type), kernel_size, stride if stride is not None else kernel_size, 0, ceil_mode)
    return _lp_finish(out, norm_type, pair(kernel_size, 1)[0])


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kh, kw = pair(kernel_size, 2, "kernel_size")
    out = avg_pool2d(input.pow(norm_type), kernel_size, stride if stride is not None else kernel_size, 0, ceil_mode)
    return _lp_finish(out, norm_type, kh * kw)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kd, kh, kw = pair(kernel_size, 3, "kernel_size")
    out = avg_pool3d(input.pow(norm_type), kernel_size, stride if stride is not None else kernel_size, 0, ceil_mode)
    return _lp_finish(out, norm_type, kd * kh * kw)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {anchor.ndim}D, positive {positive.ndim}D, and negative "
                           f"{negative.ndim}D inputs")
    distance = distance_function if distance_function is not None else core.pairwise_distance
    dist_pos, dist_neg = distance(anchor, positive), distance(anchor, negative)
    if swap:
        dist_neg = core.minimum(dist_neg, distance(positive, negative))
    loss = core.clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == "sum":
        return loss.sum()
    return loss.mean() if reduction == "mean" else loss
