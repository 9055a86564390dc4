"""grid_sample over 5-D input (trilinear 'bilinear' and 'nearest'), as torch's GridSampler3D: the forward adds
the eight corners in torch's order with x * y * z weights, so it equals torch's bit for bit; gradients reach the
input and the grid (UvA's group-convolution tutorial samples its lifted kernels this way)."""

import numpy as np
import pytest

from tests.core.oracle import check, check_error, check_grads


def _data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, 3, 4, 5, 6)).astype(np.float32)
    grid = (rng.random((2, 3, 4, 5, 3)) * 2.4 - 1.2).astype(np.float32)  # some points outside [-1, 1]
    return x, grid


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [True, False])
def test_grid_sample_5d_forward_is_torchs(torch, mode, padding_mode, align_corners):
    def fn(lib, x, g):
        return lib.nn.functional.grid_sample(x, g, mode=mode, padding_mode=padding_mode, align_corners=align_corners)
    check(fn, list(_data()), torch, rtol=0, atol=0)


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_5d_gradients_match_torch(torch, padding_mode):
    def fn(lib, x, g):
        return lib.nn.functional.grid_sample(x, g, padding_mode=padding_mode, align_corners=True)
    check_grads(fn, list(_data(1)), torch, rtol=1e-4, atol=1e-5)


def test_grid_sample_5d_grad_fn_name(torch):
    def fn(lib, x, g):
        return type(lib.nn.functional.grid_sample(x.requires_grad_(), g, align_corners=False).grad_fn).__name__
    check(fn, list(_data()), torch)


def test_bicubic_refuses_5d_input_as_torch(torch):
    check_error(lambda lib, x, g: lib.nn.functional.grid_sample(x, g, mode="bicubic", align_corners=True),
                list(_data()), torch, match="bicubic interpolation only supports 4D input")
