"""``grid_sample(mode='bicubic')`` on 4-D input: PyTorch's cubic convolution (A = -0.75) over the 4x4 pixels around
each grid point, with the padding mode applied to each tap's coordinates.

The grid is unnormalised to pixel coordinates (x, y) and left there: padding moves the 16 taps
(x0 - 1 + i, y0 - 1 + j) around (x0, y0) = floor(x, y) instead, 'border' clipping and 'reflection' mirroring each
into the image, 'zeros' reading 0 outside it. Each of the four rows is summed along x with the cubic coefficients
of x - x0, then the rows along y with those of y - y0. ``GridSampler2DCubic`` (``GridSampler2DBackward0``)
computes the forward on arrays and its backward with ``core`` ops, so double backward works: the gradient goes to
each tap with weight cx_i * cy_j, and to the grid through the coefficients' derivatives only (padding moves taps
by whole pixels), times the unnormalising scale, as in PyTorch.

NOTE: the bits. PyTorch's AVX512 kernel (the one checked) is compiled with fused multiply-adds in a few places:
unnormalising (g + 1) * size/2 - 0.5, the last step of the inner cubic, the first two products of a row's sum and
every step of the column sum. The forward fuses there too (``_fma.fma``) and equals torch's bit for bit in float32
and float64. The backward adds in another order and unfused: its gradients are a few ulps from torch's.
"""

from __future__ import annotations

import numpy as np

import core
from core._tensor import new_tensor
from core.autograd.function import Function
from core.nn.functional._fma import fma
from core.ops._util import xp_of

__all__ = ["grid_sample_bicubic"]

_A = -0.75  # the cubic convolution coefficient of PyTorch's bicubic modes (OpenCV's)


def _unnormalize(g, size: int, align_corners: bool, xp):
    """Pixel coordinates of normalised ones, rounded as PyTorch's kernel rounds them."""
    dt = g.dtype.type
    if align_corners:
        return (g + dt(1)) * dt((size - 1) / 2)
    return fma(g + dt(1), xp.full_like(g, size / 2), xp.full_like(g, -0.5), xp)


def _coefficients(t, xp):
    """The four tap weights at offset ``t`` in [0, 1): (far(t + 1), near(t), near(1 - t), far(2 - t))."""
    dt = t.dtype.type
    a, one = dt(_A), dt(1)

    def near(x):  # ((a + 2) x - (a + 3)) x^2 + 1, for |x| <= 1
        return fma(fma(xp.full_like(x, a + 2), x, xp.full_like(x, -(a + 3)), xp) * x, x, xp.ones_like(x), xp)

    def far(x):  # ((a x - 5a) x + 8a) x - 4a, for 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return [far(t + one), near(t), near(one - t), far(dt(2) - t)]


def _reflect(c, size: int, align_corners: bool, xp):
    """Mirror coordinates into [0, size - 1] (align_corners) or [-0.5, size - 0.5], as often as it takes."""
    dt = c.dtype.type
    if align_corners and size <= 1:
        return xp.zeros_like(c)
    low, twice = (dt(0), dt(2 * (size - 1))) if align_corners else (dt(-0.5), dt(2 * size))
    dist = xp.abs(c - low)
    extra = dist - xp.trunc(dist / twice) * twice
    return xp.minimum(extra, twice - extra) + low


def _taps(x0, y0, hw, padding_mode: str, align_corners: bool, xp):
    """Per tap (i over x, then j over y): the flat index (N, P) into the H*W plane and whether it reads the image
    (zeros padding reads 0 outside it)."""
    h, w = hw
    out = []
    for i in range(4):
        for j in range(4):
            xs, ys = x0 + (i - 1), y0 + (j - 1)
            if padding_mode == "reflection":
                xs, ys = _reflect(xs, w, align_corners, xp), _reflect(ys, h, align_corners, xp)
            if padding_mode != "zeros":
                xs, ys = xp.clip(xs, 0, w - 1), xp.clip(ys, 0, h - 1)
            finite = xp.isfinite(xs) & xp.isfinite(ys)  # (a nan or inf grid point gives nan anyway)
            ix = xp.clip(xp.where(finite, xs, -1), -1, w).astype(np.int64)
            iy = xp.clip(xp.where(finite, ys, -1), -1, h).astype(np.int64)
            inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
            out.append((xp.clip(iy, 0, h - 1) * w + xp.clip(ix, 0, w - 1), inside))
    return out


def _locate(grid, hw, padding_mode: str, align_corners: bool, xp):
    """(x, y) pixel coordinates (N, P), their floors and the 16 taps of a grid (N, Ho, Wo, 2) array."""
    n = grid.shape[0]
    x = _unnormalize(grid[..., 0].reshape(n, -1), hw[1], align_corners, xp)
    y = _unnormalize(grid[..., 1].reshape(n, -1), hw[0], align_corners, xp)
    x0, y0 = xp.floor(x), xp.floor(y)
    return x, y, x0, y0, _taps(x0, y0, hw, padding_mode, align_corners, xp)


def _forward(inp, grid, padding_mode: str, align_corners: bool, xp):
    n, c, h, w = inp.shape
    x, y, x0, y0, taps = _locate(grid, (h, w), padding_mode, align_corners, xp)
    cx = [k[:, None] for k in _coefficients(x - x0, xp)]
    cy = [k[:, None] for k in _coefficients(y - y0, xp)]
    flat = inp.reshape(n, c, h * w)

    def value(i, j):
        idx, inside = taps[4 * i + j]
        v = xp.take_along_axis(flat, idx[:, None, :], axis=2)
        return xp.where(inside[:, None, :], v, inp.dtype.type(0))

    out = None
    for j in range(4):  # rows along x: the first two products fused, the rest added
        v = [value(i, j) for i in range(4)]
        row = fma(cx[0], v[0], cx[1] * v[1], xp) + cx[2] * v[2] + cx[3] * v[3]
        out = cy[0] * row if out is None else fma(cy[j], row, out, xp)  # the column: fused throughout
    return out.reshape(n, c, *grid.shape[1:3])


def _near(u):
    return ((_A + 2) * u - (_A + 3)) * u * u + 1


def _d_near(u):
    return (3 * (_A + 2) * u - 2 * (_A + 3)) * u


def _far(u):
    return ((_A * u - 5 * _A) * u + 8 * _A) * u - 4 * _A


def _d_far(u):
    return (3 * _A * u - 10 * _A) * u + 8 * _A


def _weights(t):
    """The four coefficients at offset tensor ``t`` and their derivatives in t, as ``core`` expressions."""
    return ([_far(t + 1), _near(t), _near(1 - t), _far(2 - t)],
            [_d_far(t + 1), _d_near(t), -_d_near(1 - t), -_d_far(2 - t)])


class GridSampler2DCubic(Function):
    """out[n, c, p] = sum over the 16 taps of cx_i * cy_j * input at the (padded) tap."""

    node_name = "GridSampler2DBackward0"

    @staticmethod
    def forward(ctx, input, grid, *, padding_mode, align_corners):
        ctx.save_for_backward(input, grid)
        ctx.padding_mode, ctx.align_corners = padding_mode, align_corners
        return _forward(input._data, grid._data, padding_mode, align_corners, xp_of(input._data))

    @staticmethod
    def backward(ctx, g):
        input, grid = ctx._unpacked
        n, c, h, w = input.shape
        need = ctx.needs_input_grad
        ac, xp = ctx.align_corners, xp_of(input._data)
        _, _, x0, y0, taps = _locate(grid._data, (h, w), ctx.padding_mode, ac, xp)
        scale = [(s - 1) / 2 if ac else s / 2 for s in (w, h)]
        x = (grid[..., 0].reshape(n, -1) + 1) * scale[0] - (0 if ac else 0.5)  # differentiable in the grid
        y = (grid[..., 1].reshape(n, -1) + 1) * scale[1] - (0 if ac else 0.5)
        (cx, dcx), (cy, dcy) = _weights(x - new_tensor(x0)), _weights(y - new_tensor(y0))
        flat, gf = input.reshape(n, c, h * w), g.reshape(n, c, -1)
        g_in = core.zeros_like(flat) if need[0] else None
        g_x = g_y = None
        for i in range(4):  # PyTorch's order: x taps, then y taps
            for j in range(4):
                idx, inside = taps[4 * i + j]
                idx = new_tensor(idx).unsqueeze(1).expand(n, c, idx.shape[1])
                mask = new_tensor(inside).unsqueeze(1).to(flat.dtype)
                if need[0]:
                    g_in = g_in.scatter_add(2, idx, gf * cx[i].unsqueeze(1) * cy[j].unsqueeze(1) * mask)
                if need[1]:
                    s = (gf * flat.gather(2, idx) * mask).sum(1)
                    dx, dy = s * dcx[i] * cy[j], s * dcy[j] * cx[i]
                    g_x, g_y = (dx, dy) if g_x is None else (g_x + dx, g_y + dy)
        g_in = None if g_in is None else g_in.reshape(input.shape)
        g_grid = None if g_x is None else core.stack([g_x * scale[0], g_y * scale[1]], -1).reshape(grid.shape)
        return g_in, g_grid


def grid_sample_bicubic(input, grid, padding_mode: str, align_corners: bool):
    if input.dtype.name not in ("float32", "float64"):  # (torch's half kernels round elsewhere: not followed yet)
        raise NotImplementedError(f"core's grid_sample has no bicubic mode for {input.dtype} input yet")
    return GridSampler2DCubic.apply(input, grid, padding_mode=padding_mode, align_corners=align_corners)
