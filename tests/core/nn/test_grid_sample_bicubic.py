"""``F.grid_sample(mode='bicubic')`` on 4-D input against torch: values, gradients for input and grid, double
backward, gradcheck, points far outside or not finite, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_error, check_grads

PADDINGS = ["zeros", "border", "reflection"]


def _data(dtype=np.float64, seed=3):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, 3, 5, 7)).astype(dtype)
    grid = rng.uniform(-1.4, 1.4, (2, 6, 9, 2)).astype(dtype)  # some taps and points fall outside the input
    return x, grid


def _sample(padding_mode, align_corners):
    return lambda lib, x, grid: lib.nn.functional.grid_sample(x, grid, mode="bicubic", padding_mode=padding_mode,
                                                              align_corners=align_corners)


def _forward_tolerance(torch):
    """Bit for bit where torch runs its AVX512 kernel, whose fused multiply-adds core's forward follows (see
    core/nn/functional/_grid_bicubic.py); another build fuses elsewhere, a few last bits apart."""
    return dict(rtol=0, atol=0) if torch.backends.cpu.get_cpu_capability() == "AVX512" else dict(rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("padding_mode", PADDINGS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_bicubic_forward_matches_torch(torch, dtype, padding_mode, align_corners):
    out = check(_sample(padding_mode, align_corners), list(_data(dtype)), torch, **_forward_tolerance(torch))
    assert tuple(out.shape) == (2, 3, 6, 9)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("padding_mode", PADDINGS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_bicubic_gradients_for_input_and_grid_match_torch(torch, dtype, padding_mode, align_corners):
    # NOTE: core's backward is written in core ops (so it has a double backward) and adds the 16 taps' and the
    # channels' terms in another order than torch's fused loop: equal up to the rounding of those sums, whose
    # terms cancel (border and reflection fold taps onto one pixel), hence an absolute tolerance at their scale.
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == np.float64 else dict(rtol=1e-5, atol=5e-5)
    out, grads = check_grads(_sample(padding_mode, align_corners), list(_data(dtype)), torch, **tol)
    assert out.grad_fn.name() == "GridSampler2DBackward0"
    assert grads[0].dtype == grads[1].dtype == out.dtype


@pytest.mark.parametrize("padding_mode", PADDINGS)
def test_bicubic_double_backward_matches_torch(torch, padding_mode):
    def fn(lib, x, grid):
        y = _sample(padding_mode, False)(lib, x, grid)
        gx, gg = lib.autograd.grad((y ** 2).sum(), (x, grid), create_graph=True)
        return (gx ** 2).sum() + (gg ** 3).sum()

    check_grads(fn, list(_data()), torch, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("padding_mode", PADDINGS)
def test_bicubic_passes_gradcheck_and_gradgradcheck(padding_mode, align_corners):
    rng = np.random.default_rng(4)
    x = core.tensor(rng.standard_normal((1, 2, 4, 5)), requires_grad=True)
    grid = core.tensor(rng.uniform(-1.2, 1.2, (1, 3, 2, 2)), requires_grad=True)
    fn = lambda a, b: _sample(padding_mode, align_corners)(core, a, b)  # noqa: E731
    assert core.autograd.gradcheck(fn, (x, grid))
    assert core.autograd.gradgradcheck(fn, (x, grid))


@pytest.mark.parametrize("padding_mode", PADDINGS)
def test_bicubic_handles_far_and_non_finite_points_as_torch(torch, padding_mode):
    x, grid = _data(np.float32)
    grid[0, 0, 0, 0], grid[0, 1, 1, 1], grid[1, 2, 2, 0], grid[1, 3, 3, 1] = np.nan, np.inf, 1e6, -3e4
    for align_corners in (False, True):
        check(_sample(padding_mode, align_corners), [x, grid], torch, **_forward_tolerance(torch))


def test_bicubic_samples_a_single_pixel_image_as_torch(torch):
    x, grid = _data()
    for padding_mode in PADDINGS:
        for align_corners in (False, True):
            check_grads(_sample(padding_mode, align_corners), [x[:, :, :1, :1].copy(), grid], torch,
                        rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda lib, x, g: lib.nn.functional.grid_sample(x[..., None], g[:, :, :, None, :].expand(2, 6, 9, 1, 3)
                                                    .contiguous(), mode="bicubic", align_corners=True),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g, mode="bicubic", padding_mode="circular",
                                                    align_corners=True),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g.float(), mode="bicubic", align_corners=True),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g[..., :1], mode="bicubic", align_corners=True),
])
def test_bicubic_rejects_what_torch_rejects(torch, call):
    check_error(call, list(_data()), torch)


def test_bicubic_warns_without_align_corners_like_torch(torch):
    for lib in (core, torch):
        x, grid = (lib.tensor(a) for a in _data())
        with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
            lib.nn.functional.grid_sample(x, grid, mode="bicubic")


@pytest.mark.parametrize("dtype", [core.float16, core.bfloat16])
def test_bicubic_refuses_half_input_until_torchs_rounding_is_followed(dtype):
    x, grid = (core.tensor(a, dtype=dtype) for a in _data())
    with pytest.raises(NotImplementedError, match="no bicubic mode"):
        core.nn.functional.grid_sample(x, grid, mode="bicubic", align_corners=False)
