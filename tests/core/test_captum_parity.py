"""Parity with torch found by running Captum's package on core (#19, session 21, ``recipes_captum``).

Captum's robustness tutorial hands ``transforms.RandomRotation`` an image that requires grad; torchvision's rotate
samples it with ``grid_sample(mode="nearest")`` and then fills the corners in place through a view of the result
(``img[mask] = fill_img[mask]``). torch's grid sampler returns a fresh tensor; core's returned a view of a tensor made
inside its forward, so the in-place write was refused as "a view of a leaf Variable" (affine_grid's too)."""

from __future__ import annotations

import pytest

import core


def _rounded(t):
    """Values to 5 decimals (the bilinear weights round their last float32 bit in another order than torch's)."""
    return [round(v, 5) for v in t.detach().flatten().tolist()]


def _sampled(lib, dims, mode):
    lib.manual_seed(0)
    shape = (1, 3, 4, 4) if dims == 2 else (1, 2, 3, 4, 4)
    x = lib.rand(*shape, requires_grad=True)
    theta = (lib.tensor([[[0.8, -0.6, 0.1], [0.6, 0.8, 0.0]]]) if dims == 2
             else lib.tensor([[[0.8, -0.6, 0.0, 0.1], [0.6, 0.8, 0.0, 0.0], [0.0, 0.0, 1.0, 0.2]]]))
    grid = lib.nn.functional.affine_grid(theta, shape, align_corners=False)
    return x, lib.nn.functional.grid_sample(x, grid, mode=mode, padding_mode="zeros", align_corners=False)


@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("mode", ["nearest", "bilinear"])
def test_grid_sample_output_is_written_in_place_through_a_view(torch, dims, mode):
    """torchvision's fill: a masked write into a channel slice of the sampled image, then backward."""
    def run(lib):
        x, y = _sampled(lib, dims, mode)
        view = y[:, :-1]
        view[view < 0.5] = 0.0
        y.sum().backward()
        return _rounded(y), _rounded(x.grad), type(y.grad_fn).__name__

    assert run(core) == run(torch)


@pytest.mark.parametrize("dims", [2, 3])
def test_grid_sample_output_is_not_a_view(torch, dims):
    """A direct in-place op on the result records on top of the sampler's node, as in torch."""
    def run(lib):
        x, y = _sampled(lib, dims, "bilinear")
        y.mul_(2)
        y.sum().backward()
        return y._base is None, y.is_leaf, type(y.grad_fn).__name__, _rounded(x.grad)

    assert run(core) == run(torch)


def test_grid_sample_bicubic_output_is_written_in_place(torch):
    def run(lib):
        x, y = _sampled(lib, 2, "bicubic")
        y[:, 1:].clamp_(max=0.5)
        y.sum().backward()
        return y._base is None, _rounded(x.grad)

    assert run(core) == run(torch)


@pytest.mark.parametrize("dims", [2, 3])
def test_affine_grid_output_is_written_in_place(torch, dims):
    """affine_grid's result is fresh too: a spatial transformer shifting its grid in place (``grid[..., 0] += dx``)
    backpropagates into theta, as in torch (core's was a view of its forward's matmul and the write was refused)."""
    def run(lib):
        theta = (lib.tensor([[[0.8, -0.6, 0.1], [0.6, 0.8, 0.0]]]) if dims == 2
                 else lib.tensor([[[0.8, -0.6, 0.0, 0.1], [0.6, 0.8, 0.0, 0.0], [0.0, 0.0, 1.0, 0.2]]]))
        theta.requires_grad_()
        size = (1, 3, 4, 4) if dims == 2 else (1, 2, 3, 4, 4)
        grid = lib.nn.functional.affine_grid(theta, size, align_corners=False)
        grid[..., 0] += 0.1
        (grid * grid).sum().backward()
        return grid._base is None, type(grid.grad_fn).__name__, _rounded(grid), _rounded(theta.grad)

    assert run(core) == run(torch)
