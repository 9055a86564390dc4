"""``adaptive_max_pool3d`` (and ``_with_indices``): the maximum over PyTorch's adaptive windows of depth, height and
width, with the flat D*H*W position of each maximum, PyTorch's checks and node name.

The windows are ``[floor(i*n/o), ceil((i+1)*n/o))`` per dim, as in the 1-D/2-D forms (``core.nn.functional.sliding``);
a NaN wins its window. The backward scatters with ``scatter_add`` (differentiable, so double backward works).
"""

from __future__ import annotations

import numpy as np

from core._tensor import Tensor
from core.autograd.function import Function
from core.nn.functional._pool import adaptive_output_size
from core.nn.functional.sliding import (
    _no_windows,
    _windows,
    adaptive_max_pool_with_indices,
    scatter_to_maxima,
    window_max,
)
from core.ops._util import xp_of

__all__ = ["adaptive_max_pool3d", "adaptive_max_pool3d_with_indices"]


class AdaptiveMaxPool3d(Function):
    node_name = "AdaptiveMaxPool3DBackward0"

    @staticmethod
    def forward(ctx, x, *, out_size, found):
        unbatched = x._data.ndim == 4
        xa = x._data[None] if unbatched else x._data
        xp = xp_of(xa)
        d, h, w = xa.shape[2:]
        if xa.size == 0 or 0 in out_size:
            return _no_windows(ctx, x, xa.shape[:2] + tuple(out_size), found, unbatched)
        (dd, dv), (rr, rv), (cc, cv) = (_windows(n, o, xp) for n, o in zip((d, h, w), out_size))
        flat = (dd[:, None, None, :, None, None] * h + rr[None, :, None, None, :, None]) * w \
            + cc[None, None, :, None, None, :]  # (OD, OH, OW, KD, KH, KW) flat positions
        valid = dv[:, None, None, :, None, None] & rv[None, :, None, None, :, None] & cv[None, None, :, None, None, :]
        flat = flat.reshape(tuple(out_size) + (-1,))
        valid = valid.reshape(flat.shape)
        win = xa.reshape(xa.shape[:2] + (-1,))[:, :, flat]  # (N, C, OD, OH, OW, K)
        out, arg = window_max(win, valid, xp)
        idx = xp.take_along_axis(xp.broadcast_to(flat, win.shape), arg[..., None], axis=-1)[..., 0].astype(np.int64)
        ctx.idx, ctx.in_shape = idx, x._data.shape
        found.append(idx[0] if unbatched else idx)  # the indices leave through ``found``: they have no gradient
        return out[0] if unbatched else out

    @staticmethod
    def backward(ctx, g):
        return scatter_to_maxima(g, ctx.idx, ctx.in_shape, 3)


def _output_size(output_size, in_size):
    size = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,) * 3
    if len(size) != 3:
        raise RuntimeError(f"adaptive_max_pool3d(): internal error: output_size.size() must be 3, got {len(size)}")
    return tuple(in_size[i] if size[i] is None else int(size[i]) for i in range(3))


def adaptive_max_pool3d_with_indices(input: Tensor, output_size, return_indices: bool = True):
    output_size = adaptive_output_size("adaptive_max_pool3d", input, output_size, 3)
    return adaptive_max_pool_with_indices(AdaptiveMaxPool3d, input, output_size, 3, _output_size)


def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False):
    """Max over PyTorch's adaptive 3-D windows; ``return_indices`` adds each maximum's flat D*H*W position."""
    out, idx = adaptive_max_pool3d_with_indices(input, output_size)
    return (out, idx) if return_indices else out
