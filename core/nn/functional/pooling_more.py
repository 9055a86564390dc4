"""``max_unpool1d/2d/3d``, ``lp_pool1d/2d/3d`` and ``triplet_margin_with_distance_loss``, composed from
core ops with PyTorch's size rules and errors.

Unpooling scatters each value to the flat position its max-pool index names (a zero elsewhere), so
its gradient is the gather at those indices. Power-average pooling is an average pool of x**p,
scaled back to a sum and taken to the 1/p.
"""

from __future__ import annotations

import collections.abc

import core
from core._arg_types import require_int_list
from core._threads import alert_not_deterministic
from core.nn.functional.pooling import avg_pool1d, avg_pool2d
from core.nn.functional.volumetric import avg_pool3d

__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d", "lp_pool1d", "lp_pool2d", "lp_pool3d",
           "triplet_margin_with_distance_loss"]


def _unpool_output_size(input, kernel, stride, padding, output_size):
    nd = len(kernel)  # (torch's loop: over the kernel's length, whatever the op's)
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


def _ntuple(value, n: int) -> tuple:
    """torch's ``_single``/``_pair``/``_triple``: an iterable as a tuple (of any length), anything else n times."""
    return tuple(value) if isinstance(value, collections.abc.Iterable) else (value,) * n


_UNPOOL_AXES = {2: "two elements (height, width)", 3: "three elements (depth, height, width)"}


def _unpool_op_sizes(op: str, size, stride, padding, n: int) -> list:
    """The sizes as torch's ``max_unpool2d``/``max_unpool3d`` op parses and checks them (1-d unpooling is the 2-d
    op over a width of 1); 3-d also takes stride and padding."""
    size = require_int_list(op, "output_size", 3, list(size))
    if len(size) != n:
        raise RuntimeError(f"There should be exactly {_UNPOOL_AXES[n]} in output_size, but got {len(size)} elements.")
    if n == 3:
        for position, (name, value) in enumerate((("stride", stride), ("padding", padding)), 4):
            value = require_int_list(op, name, position, list(value))
            if len(value) != 3:
                raise RuntimeError(f"There should be exactly {_UNPOOL_AXES[3]} in {name}, but got: {len(value)} "
                                   "elements.")
    return size


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, nd: int):
    # as torch's Python wrappers: sizes through _pair & co, the output size from them (an index past a short
    # stride or padding is Python's IndexError), then the op's parser and checks
    kernel = _ntuple(kernel_size, nd)
    stride = kernel if stride is None else _ntuple(stride, nd)
    padding = _ntuple(padding, nd)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    if nd == 1:
        size = _unpool_op_sizes("max_unpool2d", list(size) + [1], stride, padding, 2)[:1]
    else:
        size = _unpool_op_sizes(f"max_unpool{nd}d", size, stride, padding, nd)
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


def _lp_finish(out, norm_type, window):
    return (core.sign(out) * core.relu(core.abs(out))).mul(window).pow(1.0 / norm_type)


def _unpacked(kernel_size, n: int) -> tuple:
    """``kw, kh = _pair(kernel_size)`` as torch's lp_pool2d/3d unpack it (an iterable of another length is
    Python's ValueError, a 0-d tensor its TypeError)."""
    values = tuple(kernel_size) if isinstance(kernel_size, collections.abc.Iterable) else (kernel_size,) * n
    if len(values) < n:
        raise ValueError(f"not enough values to unpack (expected {n}, got {len(values)})")
    if len(values) > n:
        raise ValueError(f"too many values to unpack (expected {n})")
    return values


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, nd: int, window):
    """torch's lp_pool: a max pool of |x| for an infinite norm, else the average pool of x**p scaled by the window
    and taken to the 1/p."""
    avg = (avg_pool1d, avg_pool2d, avg_pool3d)[nd - 1]
    if isinstance(norm_type, (int, float)) and abs(norm_type) == float("inf"):
        from core.nn import functional as F

        pool = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[nd - 1]
        if norm_type > 0:
            return pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        return -pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = avg(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_finish(out, norm_type, window)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1, kernel_size)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = _unpacked(kernel_size, 2)
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2, kw * kh)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kd, kw, kh = _unpacked(kernel_size, 3)
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3, kd * kw * kh)


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
