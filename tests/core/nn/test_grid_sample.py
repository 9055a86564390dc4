"""``F.affine_grid`` and ``F.grid_sample`` against PyTorch: values, gradients for input, grid and theta, errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import check_error, check_grads

RNG = np.random.default_rng(3)
X = RNG.standard_normal((2, 3, 5, 6)).astype(np.float32)
GRID = RNG.uniform(-1.3, 1.3, (2, 4, 7, 2)).astype(np.float32)  # some points fall outside the input
THETA = (np.eye(2, 3) + 0.3 * RNG.standard_normal((2, 2, 3))).astype(np.float32)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_grid_sample_matches_torch_with_gradients_for_input_and_grid(torch, mode, padding_mode, align_corners):
    def fn(lib, x, grid):
        return lib.nn.functional.grid_sample(x, grid, mode=mode, padding_mode=padding_mode,
                                             align_corners=align_corners)

    out, grads = check_grads(fn, [X, GRID], torch, rtol=1e-4, atol=1e-5)
    assert out.grad_fn.name() == "GridSampler2DBackward0"
    if mode == "nearest":
        assert not grads[1].any()  # PyTorch's nearest mode gives the grid a zero gradient, not None


@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_then_grid_sample_trains_theta_like_torch(torch, align_corners):
    def fn(lib, x, theta):
        grid = lib.nn.functional.affine_grid(theta, [2, 3, 4, 7], align_corners=align_corners)
        return lib.nn.functional.grid_sample(x, grid, align_corners=align_corners)

    check_grads(fn, [X, THETA], torch, rtol=1e-4, atol=1e-5)


def test_affine_grid_values_and_grad_fn_match_torch_in_2d_and_3d(torch):
    theta3 = (np.eye(3, 4) + 0.2 * RNG.standard_normal((2, 3, 4))).astype(np.float32)
    for theta, size in ((THETA, [2, 1, 3, 5]), (theta3, [2, 1, 2, 3, 4])):
        out, _ = check_grads(lambda lib, t, s=size: lib.nn.functional.affine_grid(t, s, align_corners=False),
                             [theta], torch)
        assert out.grad_fn.name() == "AffineGridGeneratorBackward0"
        assert tuple(out.shape) == (2, *size[2:], len(size) - 2)


def test_grid_sample_double_backward_passes_gradcheck():
    x = core.tensor(X[:1, :1].astype(np.float64), requires_grad=True)
    grid = core.tensor(GRID[:1, :2, :3].astype(np.float64) * 0.9, requires_grad=True)
    fn = lambda a, b: core.nn.functional.grid_sample(a, b, padding_mode="border", align_corners=True)  # noqa: E731
    assert core.autograd.gradgradcheck(fn, (x, grid))


def test_missing_align_corners_warns_like_torch(torch):
    for lib in (core, torch):
        with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
            grid = lib.nn.functional.affine_grid(lib.tensor(THETA), [2, 3, 4, 7])
        with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
            lib.nn.functional.grid_sample(lib.tensor(X), grid)


@pytest.mark.parametrize("call", [
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g, mode="linear", align_corners=False),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g, padding_mode="wrap", align_corners=False),
    lambda lib, x, g: lib.nn.functional.grid_sample(x[:1], g, align_corners=False),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g[..., :1], align_corners=False),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g.double(), align_corners=False),
    lambda lib, x, g: lib.nn.functional.affine_grid(x[:, 0, :2, :3], [2, 3, 4], align_corners=False),
    lambda lib, x, g: lib.nn.functional.affine_grid(x[:, 0, :3, :3], [2, 3, 4, 4], align_corners=False),
    lambda lib, x, g: lib.nn.functional.affine_grid(x[:, 0, :2, :3].long(), [2, 3, 4, 4], align_corners=False),
])
def test_bad_grid_arguments_raise_torchs_errors(torch, call):
    check_error(call, [X, GRID], torch)
