"""``affine_grid`` and ``grid_sample``: the spatial transformer's sampling grid and its bilinear/nearest lookup
(4-D bicubic sampling lives in ``_grid_bicubic``).

``affine_grid`` is one primitive (``AffineGridGeneratorBackward0``): the base grid of normalised coordinates times
each theta. ``grid_sample`` turns the grid into pixel coordinates with differentiable ``core`` ops (unnormalising,
then border clipping or reflection), and samples with one primitive (``GridSampler2DBackward0``;
``GridSampler3DBackward0`` for 5-D input, eight corners and trilinear weights) over those coordinates: four gathered
corners and their bilinear weights, or the nearest pixel. Its backward scatters the gradient onto the input and
differentiates the weights in the coordinates, with ``core`` ops, so double backward works. Like PyTorch, the
nearest mode gives the grid a zero gradient.
"""

from __future__ import annotations

import core
from core._user_warning import warn_caller
from core.autograd.function import Function
from core.nn.functional._grid_bicubic import grid_sample_bicubic

__all__ = ["affine_grid", "grid_sample"]

_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                  "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                  "grid_sample for details.")


def _linspace_from_neg_one(n: int, align_corners: bool, dtype):
    if n <= 1:
        return core.zeros(max(n, 1), dtype=dtype)
    r = core.linspace(-1, 1, n, dtype=dtype)
    return r if align_corners else r * (n - 1) / n


def _base_grid(spatial, align_corners: bool, dtype):
    """(prod(spatial), k + 1) rows of [x, y(, z), 1], x running fastest, as PyTorch builds them."""
    axes = [_linspace_from_neg_one(n, align_corners, dtype) for n in spatial]  # (D,) H, W
    grids = core.meshgrid(*axes, indexing="ij")
    cols = [g.reshape(-1) for g in reversed(grids)] + [core.ones(grids[0].numel(), dtype=dtype)]
    return core.stack(cols, 1)


class AffineGridGenerator(Function):
    """grid = base @ theta^T per batch element; theta's gradient is base^T @ grad."""

    node_name = "AffineGridGeneratorBackward0"

    @staticmethod
    def forward(ctx, theta, *, base, shape):
        ctx.base = base
        return core.matmul(base, theta.transpose(1, 2)).reshape(shape)._data  # fresh, as torch's (not a view)

    @staticmethod
    def backward(ctx, g):
        base = ctx.base
        flat = g.reshape(g.shape[0], base.shape[0], base.shape[1] - 1)
        return core.matmul(base.t(), flat).transpose(1, 2)


def affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        warn_caller(_ALIGN_WARNING)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = list(size)
    if len(size) not in (4, 5):
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {core.Size(size)}.")
    k = len(size) - 2
    if theta.ndim != 3 or tuple(theta.shape[-2:]) != (k, k + 1):
        raise ValueError(f"Expected a batch of {k}D affine matrices of shape Nx{k}x{k + 1} for size "
                         f"{core.Size(size)}. Got {theta.shape}.")
    spatial = size[2:]
    if align_corners and min(spatial) == 1:
        warn_caller("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                    "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                    "of affine_grid for details.")
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {core.Size(size)}")
    base = _base_grid(spatial, align_corners, theta.dtype).to(theta.device)
    return AffineGridGenerator.apply(theta, base=base, shape=(size[0], *spatial, k))


def _unnormalize(coord, size: int, align_corners: bool):
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord, twice_low: int, twice_high: int):
    """Reflect ``coord`` into [twice_low / 2, twice_high / 2] as often as it takes."""
    if twice_low == twice_high:
        return coord * 0
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    dist = (coord - low).abs()
    extra = core.fmod(dist, span)
    flips = core.floor(dist / span).detach()
    return core.where(core.fmod(flips, 2) == 0, extra + low, span - extra + low)


def _pixel_coords(coord, size: int, padding_mode: str, align_corners: bool):
    coord = _unnormalize(coord, size, align_corners)
    if padding_mode == "border":
        return coord.clamp(0, size - 1)
    if padding_mode == "reflection":
        coord = _reflect(coord, 0, 2 * (size - 1)) if align_corners else _reflect(coord, -1, 2 * size - 1)
        return coord.clamp(0, size - 1)
    return coord


def _corners(ix, iy, hw, mode: str):
    """Per corner: flat index (N, P) into the H*W plane, in-bounds mask, and the weight's x and y factors
    (bilinear: w = fx * fy, dw/dix = dfx * fy, dw/diy = fx * dfy) or None for nearest."""
    h, w = hw
    if mode == "nearest":
        x0, y0 = core.round(ix).detach(), core.round(iy).detach()
        return [(x0, y0, None)]
    x0, y0 = core.floor(ix).detach(), core.floor(iy).detach()
    x1, y1 = x0 + 1, y0 + 1
    wx0, wx1, wy0, wy1 = (x1 - ix, -1.0), (ix - x0, 1.0), (y1 - iy, -1.0), (iy - y0, 1.0)
    return [(x0, y0, (wx0, wy0)), (x1, y0, (wx1, wy0)), (x0, y1, (wx0, wy1)), (x1, y1, (wx1, wy1))]


def _gather(flat, x, y, hw):
    """Values of ``flat`` (N, C, H*W) at integer coordinates (N, P); zero outside the plane; and the index/mask."""
    h, w = hw
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    idx = (y.clamp(0, h - 1) * w + x.clamp(0, w - 1)).long()
    n, c, _ = flat.shape
    idx = idx.unsqueeze(1).expand(n, c, idx.shape[1])
    mask = inside.unsqueeze(1).to(flat.dtype)
    return flat.gather(2, idx) * mask, idx, mask


class GridSampler2D(Function):
    """out[n, c, p] = sum over corners of weight * input at the corner, for pixel coordinates (ix, iy)."""

    node_name = "GridSampler2DBackward0"

    @staticmethod
    def forward(ctx, input, ix, iy, *, mode):
        n, c, h, w = input.shape
        ctx.save_for_backward(input, ix, iy)
        ctx.mode = mode
        flat = input.reshape(n, c, h * w)
        out = None
        for x, y, f in _corners(ix.reshape(n, -1), iy.reshape(n, -1), (h, w), mode):
            v, _, _ = _gather(flat, x, y, (h, w))
            term = v if f is None else v * (f[0][0] * f[1][0]).unsqueeze(1)
            out = term if out is None else out + term
        return out.reshape(n, c, *ix.shape[1:])._data  # a fresh output, as torch's kernel gives: not a view

    @staticmethod
    def backward(ctx, g):
        input, ix, iy = ctx._unpacked
        n, c, h, w = input.shape
        need = ctx.needs_input_grad
        flat, gf = input.reshape(n, c, h * w), g.reshape(n, c, -1)
        g_in = core.zeros_like(flat) if need[0] else None
        g_ix = g_iy = core.zeros_like(ix) if ctx.mode == "nearest" else None
        for x, y, f in _corners(ix.reshape(n, -1), iy.reshape(n, -1), (h, w), ctx.mode):
            v, idx, mask = _gather(flat, x, y, (h, w))
            weight = mask if f is None else mask * (f[0][0] * f[1][0]).unsqueeze(1)
            if need[0]:
                g_in = g_in.scatter_add(2, idx, gf * weight)
            if f is not None and (need[1] or need[2]):
                s = (gf * v).sum(1)
                dx, dy = s * f[1][0] * f[0][1], s * f[0][0] * f[1][1]
                g_ix, g_iy = (dx, dy) if g_ix is None else (g_ix + dx, g_iy + dy)
        g_in = None if g_in is None else g_in.reshape(input.shape)
        return g_in, None if g_ix is None else g_ix.reshape(ix.shape), None if g_iy is None else g_iy.reshape(iy.shape)


def _corners_3d(ix, iy, iz, mode: str):
    """As ``_corners`` over a volume, in PyTorch's order (tnw, tne, tsw, tse, bnw, bne, bsw, bse: x fastest, then
    y, then z), each weight the product x * y * z of its factors."""
    if mode == "nearest":
        return [((core.round(ix).detach(), core.round(iy).detach(), core.round(iz).detach()), None)]
    low = [core.floor(c).detach() for c in (ix, iy, iz)]
    factors = [((lo + 1 - c, -1.0), (c - lo, 1.0)) for lo, c in zip(low, (ix, iy, iz))]
    return [((low[0] + dx, low[1] + dy, low[2] + dz), (factors[0][dx], factors[1][dy], factors[2][dz]))
            for dz in (0, 1) for dy in (0, 1) for dx in (0, 1)]


def _gather_3d(flat, xyz, dhw):
    """``_gather`` over a D*H*W volume."""
    (x, y, z), (d, h, w) = xyz, dhw
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h) & (z >= 0) & (z < d)
    idx = ((z.clamp(0, d - 1) * h + y.clamp(0, h - 1)) * w + x.clamp(0, w - 1)).long()
    n, c, _ = flat.shape
    idx = idx.unsqueeze(1).expand(n, c, idx.shape[1])
    mask = inside.unsqueeze(1).to(flat.dtype)
    return flat.gather(2, idx) * mask, idx, mask


class GridSampler3D(Function):
    """``GridSampler2D`` for 5-D input: trilinear ('bilinear') or nearest lookups at (ix, iy, iz)."""

    node_name = "GridSampler3DBackward0"

    @staticmethod
    def forward(ctx, input, ix, iy, iz, *, mode):
        n, c, d, h, w = input.shape
        ctx.save_for_backward(input, ix, iy, iz)
        ctx.mode = mode
        flat = input.reshape(n, c, d * h * w)
        out = None
        for xyz, f in _corners_3d(ix.reshape(n, -1), iy.reshape(n, -1), iz.reshape(n, -1), mode):
            v, _, _ = _gather_3d(flat, xyz, (d, h, w))
            term = v if f is None else v * (f[0][0] * f[1][0] * f[2][0]).unsqueeze(1)
            out = term if out is None else out + term
        return out.reshape(n, c, *ix.shape[1:])._data  # (a fresh output, as GridSampler2D's)

    @staticmethod
    def backward(ctx, g):
        input, ix, iy, iz = ctx._unpacked
        n, c, d, h, w = input.shape
        need = ctx.needs_input_grad
        flat, gf = input.reshape(n, c, d * h * w), g.reshape(n, c, -1)
        g_in = core.zeros_like(flat) if need[0] else None
        grads = [core.zeros_like(t) for t in (ix, iy, iz)] if ctx.mode == "nearest" else None
        for xyz, f in _corners_3d(ix.reshape(n, -1), iy.reshape(n, -1), iz.reshape(n, -1), ctx.mode):
            v, idx, mask = _gather_3d(flat, xyz, (d, h, w))
            weight = mask if f is None else mask * (f[0][0] * f[1][0] * f[2][0]).unsqueeze(1)
            if need[0]:
                g_in = g_in.scatter_add(2, idx, gf * weight)
            if f is not None and any(need[1:]):
                s = (gf * v).sum(1)
                parts = [s * f[1][0] * f[2][0] * f[0][1], s * f[0][0] * f[2][0] * f[1][1],
                         s * f[0][0] * f[1][0] * f[2][1]]
                grads = parts if grads is None else [a + b for a, b in zip(grads, parts)]
        g_in = None if g_in is None else g_in.reshape(input.shape)
        if grads is None:
            return g_in, None, None, None
        return (g_in, *(gr.reshape(t.shape) for gr, t in zip(grads, (ix, iy, iz))))


def _check_grid_args(input, grid, mode: str, padding_mode: str) -> None:
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    sizes = f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
    if input.ndim not in (4, 5) or grid.ndim != input.ndim:
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but "
                           f"got {sizes}")
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got {sizes}")
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.ndim - 2} in last dimension, but got "
                           f"grid with sizes {list(grid.shape)}")
    if input.dtype is not grid.dtype:
        raise RuntimeError(f"grid_sampler(): expected input and grid to have same dtype, but input has "
                           f"{input.dtype} and grid has {grid.dtype}")
    if input.ndim == 5 and mode == "bicubic":
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    _check_grid_args(input, grid, mode, padding_mode)
    if align_corners is None:
        warn_caller(_ALIGN_WARNING)
        align_corners = False
    if input.ndim == 5:
        d, h, w = input.shape[2:]
        ix = _pixel_coords(grid[..., 0], w, padding_mode, align_corners)
        iy = _pixel_coords(grid[..., 1], h, padding_mode, align_corners)
        iz = _pixel_coords(grid[..., 2], d, padding_mode, align_corners)
        return GridSampler3D.apply(input, ix, iy, iz, mode=mode)
    if mode == "bicubic":
        return grid_sample_bicubic(input, grid, padding_mode, align_corners)
    h, w = input.shape[2:]
    ix = _pixel_coords(grid[..., 0], w, padding_mode, align_corners)
    iy = _pixel_coords(grid[..., 1], h, padding_mode, align_corners)
    return GridSampler2D.apply(input, ix, iy, mode=mode)
