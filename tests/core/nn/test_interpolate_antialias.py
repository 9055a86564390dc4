"""F.interpolate(..., antialias=True) against torch ('bilinear', 'bicubic', 'lanczos'): values and gradients (float32
and float64), uint8 images, node names, gradcheck, NaN, and the errors torch gives for other modes, ranks and
dtypes."""

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_error, check_grads

SPECS = [dict(size=(4, 5)), dict(size=(3, 2)), dict(size=(15, 20)), dict(size=(3, 30)), dict(scale_factor=0.37),
         dict(scale_factor=2.3), dict(scale_factor=(0.5, 1.7)),
         dict(scale_factor=(0.45, 3), recompute_scale_factor=True),
         dict(size=(9, 13)), dict(scale_factor=1.1)]  # the last two keep a size: torch copies it forward only


def _input(dtype=np.float64, shape=(2, 3, 9, 13)):
    return np.random.default_rng(5).standard_normal(shape).astype(dtype)


def _tolerance(torch, dtype):
    """Bit for bit where torch's CPU kernels run their AVX512 build, whose fused multiply-adds core follows (see
    core/nn/functional/_antialias.py); another build fuses elsewhere (DEFAULT: nowhere), a few last bits apart."""
    if torch.backends.cpu.get_cpu_capability() == "AVX512":
        return dict(rtol=0, atol=0)
    return dict(rtol=1e-6, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-13, atol=1e-13)


MODES = ["bilinear", "bicubic", "lanczos"]


def _corners(mode):
    return (False,) if mode == "lanczos" else (False, True)  # (lanczos refuses align_corners=True)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("spec", SPECS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_antialias_matches_torch_in_values_and_gradients(torch, mode, spec, dtype):
    for align_corners in _corners(mode):
        out, _ = check_grads(lambda lib, x, ac=align_corners: lib.nn.functional.interpolate(
            x, mode=mode, align_corners=ac, antialias=True, **spec), [_input(dtype)], torch, **_tolerance(torch, dtype))
        assert out.dtype == (core.float32 if dtype == np.float32 else core.float64)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape,size", [((1, 2, 64, 48), (7, 9)), ((1, 1, 5, 4), (31, 17)), ((2, 1, 20, 3), (6, 2))])
def test_antialias_matches_torch_on_strong_down_and_upsampling(torch, mode, shape, size):
    for dtype in (np.float32, np.float64):
        check_grads(lambda lib, x: lib.nn.functional.interpolate(x, size=size, mode=mode, antialias=True),
                    [_input(dtype, shape)], torch, **_tolerance(torch, dtype))


@pytest.mark.parametrize("mode", MODES)
def test_antialias_names_its_nodes_as_torch(torch, mode):
    names = []
    for lib in (core, torch):
        x = lib.tensor(_input(), requires_grad=True)
        y = lib.nn.functional.interpolate(x, size=(4, 6), mode=mode, antialias=True)
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        names.append((y.grad_fn.name(), g.grad_fn.name()))
    assert names[0] == names[1]


@pytest.mark.parametrize("mode", MODES)
def test_antialias_gives_torchs_second_derivatives(torch, mode):
    def fn(lib, x):
        y = lib.nn.functional.interpolate(x, size=(5, 17), mode=mode, antialias=True)
        (g,) = lib.autograd.grad((y ** 3).sum(), x, create_graph=True)
        return g

    check_grads(fn, [_input()], torch, **_tolerance(torch, np.float64))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("spec", [dict(size=(3, 4)), dict(size=(11, 7)), dict(scale_factor=(0.6, 1.6))])
def test_antialias_passes_gradcheck_and_gradgradcheck(mode, spec):
    x = core.tensor(_input(shape=(1, 2, 6, 5)), requires_grad=True)
    fn = lambda t: core.nn.functional.interpolate(t, mode=mode, antialias=True, **spec)  # noqa: E731
    assert core.autograd.gradcheck(fn, (x,))
    assert core.autograd.gradgradcheck(fn, (x,))


@pytest.mark.parametrize("mode", MODES)
def test_antialias_spreads_nan_and_inf_as_torch(torch, mode):
    x = _input()
    x[0, 0, 4, 6], x[1, 2, 0, 0] = np.nan, np.inf
    check_grads(lambda lib, t: lib.nn.functional.interpolate(t, size=(4, 5), mode=mode, antialias=True), [x],
                torch, **_tolerance(torch, np.float64))


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=2, mode="nearest", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=2, mode="nearest-exact", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x, size=3, mode="area", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x, size=3, mode="linear", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x[0], size=3, mode="bilinear", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x[..., None], size=3, mode="bicubic", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x[..., None], size=3, mode="trilinear", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x, size=3, mode="bilinear", align_corners=True, antialias=True,
                                                 scale_factor=2),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=0.05, mode="bilinear", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x.half(), size=3, mode="bilinear", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x.bfloat16(), size=3, mode="bicubic", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x.long(), size=3, mode="bicubic", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x, size=3, mode="lanczos"),
    lambda lib, x: lib.nn.functional.interpolate(x, size=3, mode="lanczos", antialias=True, align_corners=True),
    lambda lib, x: lib.nn.functional.interpolate(x, size=3, mode="lanczos", align_corners=True),
    lambda lib, x: lib.nn.functional.interpolate(x[0], size=3, mode="lanczos"),
    lambda lib, x: lib.nn.functional.interpolate(x[0], size=3, mode="lanczos", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x[..., None], size=3, mode="lanczos", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=0.05, mode="lanczos", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x.half(), size=3, mode="lanczos", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x.bfloat16(), size=3, mode="lanczos", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x.long(), size=3, mode="lanczos", antialias=True),
    lambda lib, x: lib.nn.functional.interpolate(x.to(lib.int8), size=3, mode="lanczos", antialias=True),
])
def test_antialias_rejects_what_torch_rejects(torch, call):
    ours = check_error(call, [_input()], torch)
    assert "core's" not in str(ours)


@pytest.mark.parametrize("channels", [3, 5])  # (torch's AVX kernel takes up to 4 channels, its generic one more)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("spec", [dict(size=(9, 13)), dict(size=(40, 31)), dict(scale_factor=(1.5, 0.6)),
                                  dict(scale_factor=0.5, recompute_scale_factor=True)],
                         ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_antialias_on_uint8_images_matches_torch_exactly(torch, mode, spec, channels):
    image = np.random.default_rng(6).integers(0, 256, (2, channels, 17, 23)).astype(np.uint8)
    for align_corners in _corners(mode):
        out = check(lambda lib, x, ac=align_corners: lib.nn.functional.interpolate(
            x, mode=mode, align_corners=ac, antialias=True, **spec), [image], torch)
        assert out.dtype == core.uint8
