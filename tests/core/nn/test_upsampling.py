"""F.interpolate and the Upsample modules against torch: values, gradients, node names, reprs and errors."""

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_error, check_grads

MODES = [("nearest", 3), ("nearest", 4), ("nearest", 5), ("nearest-exact", 4), ("linear", 3), ("bilinear", 4),
         ("bicubic", 4), ("trilinear", 5), ("area", 3), ("area", 4)]
SPECS = [dict(scale_factor=2), dict(scale_factor=1.7), dict(scale_factor=0.6), dict(size=7), dict(size=1),
         dict(scale_factor=3, recompute_scale_factor=True)]


def _input(ndim, dtype=np.float64):
    return np.random.default_rng(ndim).standard_normal((2, 3, 5, 4, 6)[:ndim]).astype(dtype)


@pytest.mark.parametrize("mode,ndim", MODES)
@pytest.mark.parametrize("spec", SPECS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_interpolate_matches_torch_in_values_and_gradients(torch, mode, ndim, spec):
    corners = [None] if mode in ("nearest", "nearest-exact", "area") else [False, True]
    for align_corners in corners:
        check_grads(lambda lib, x, ac=align_corners: lib.nn.functional.interpolate(x, mode=mode,
                                                                                   align_corners=ac, **spec),
                    [_input(ndim)], torch)


@pytest.mark.parametrize("mode,ndim", [m for m in MODES if m[0] != "area"])
def test_interpolate_in_float32_matches_torch_and_names_its_node_as_torch(torch, mode, ndim):
    out = check(lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=1.5, mode=mode),
                [_input(ndim, np.float32)], torch)
    x = torch.tensor(_input(ndim, np.float32), requires_grad=True)
    theirs = torch.nn.functional.interpolate(x, scale_factor=1.5, mode=mode)
    ours = core.nn.functional.interpolate(core.tensor(_input(ndim, np.float32), requires_grad=True), scale_factor=1.5,
                                          mode=mode)
    assert ours.grad_fn.name() == theirs.grad_fn.name() and out.dtype == core.float32


def test_interpolate_keeps_nan_where_torch_keeps_it(torch):
    x = _input(4)
    x[0, 0, 1, 1] = np.nan
    check(lambda lib, t: lib.nn.functional.interpolate(t, scale_factor=2, mode="bilinear"), [x], torch)


def test_interpolate_gives_second_derivatives(torch):
    def fn(lib, x):
        y = lib.nn.functional.interpolate(x, size=(6, 5), mode="bicubic")
        (g,) = lib.autograd.grad((y ** 3).sum(), x, create_graph=True)
        return g

    check_grads(fn, [_input(4)], torch)


@pytest.mark.parametrize("build", [
    lambda lib: lib.nn.Upsample(scale_factor=2, mode="bilinear"),
    lambda lib: lib.nn.Upsample(size=(3, 4)),
    lambda lib: lib.nn.Upsample(scale_factor=(2, 3), mode="bicubic", align_corners=True),
    lambda lib: lib.nn.UpsamplingNearest2d(scale_factor=2),
    lambda lib: lib.nn.UpsamplingBilinear2d(size=5),
])
def test_upsample_modules_match_torch_in_repr_and_output(torch, build):
    assert repr(build(core)) == repr(build(torch))
    check_grads(lambda lib, x: build(lib)(x), [_input(4)], torch)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.nn.functional.interpolate(x, size=3, scale_factor=2),
    lambda lib, x: lib.nn.functional.interpolate(x),
    lambda lib, x: lib.nn.functional.interpolate(x, size=(3,)),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=(2, 2, 2)),
    lambda lib, x: lib.nn.functional.interpolate(x, size=(3, 2.5)),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=2, align_corners=True),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=2, mode="linear"),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=2, mode="trilinear"),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=2, mode="cubic"),
    lambda lib, x: lib.nn.functional.interpolate(x, size=4, recompute_scale_factor=True),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=0.1),
    lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=2, mode="nearest", antialias=True),
])
def test_interpolate_rejects_what_torch_rejects(torch, call):
    check_error(call, [_input(4)], torch)


def test_deprecated_upsample_functions_warn_and_interpolate(torch):
    x = core.tensor(_input(4))
    with pytest.warns(UserWarning, match="upsample_bilinear"):
        ours = core.nn.functional.upsample_bilinear(x, scale_factor=2)
    expected = torch.nn.functional.interpolate(torch.tensor(_input(4)), scale_factor=2, mode="bilinear",
                                               align_corners=True)
    np.testing.assert_allclose(ours.numpy(), expected.numpy(), rtol=1e-12)
    with pytest.warns(UserWarning, match="upsample_nearest"):
        core.nn.functional.upsample_nearest(x, size=3)


@pytest.mark.parametrize("shape, spec, layout", [
    ((2, 16, 8, 8), dict(scale_factor=2), "contiguous"), ((2, 16, 8, 8), dict(size=(13, 11)), "contiguous"),
    ((2, 5, 8, 8), dict(size=(5, 3)), "contiguous"), ((2, 12, 8, 8), dict(scale_factor=2), "channels_last"),
    ((2, 16, 40, 40), dict(scale_factor=2), "contiguous"), ((2, 6, 40, 40), dict(size=(77, 83)), "contiguous"),
    ((1, 3, 70, 70), dict(scale_factor=2), "contiguous"), ((2, 12, 48, 48), dict(scale_factor=2), "channels_last"),
    ((2, 8, 32, 32), dict(scale_factor=0.5), "contiguous"), ((2, 8, 9, 7), dict(scale_factor=1.7), "contiguous")])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("threads", [1, 2])
def test_bilinear_float32_values_and_gradients_match_torch_bit_for_bit(torch, shape, spec, layout, align_corners,
                                                                     threads):
    """A U-Net decoder's nn.Upsample(mode='bilinear') trains with torch's numbers: the four taps summed in one
    fused expression in the order of the kernel ATen picks (channels-last for small outputs, generic for large;
    3 channels on one thread take the channels-last one, so both libraries run on ``threads`` here), and the
    backward's raster-order fused accumulation (core.nn.functional._bilinear_kernel)."""
    before = torch.get_num_threads(), core.get_num_threads()
    torch.set_num_threads(threads)
    core.set_num_threads(threads)
    try:
        _bilinear_matches(torch, shape, spec, layout, align_corners)
    finally:
        torch.set_num_threads(before[0])
        core.set_num_threads(before[1])


def _bilinear_matches(torch, shape, spec, layout, align_corners):
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape).astype(np.float32)
    out = torch.nn.functional.interpolate(torch.tensor(x), mode="bilinear", align_corners=align_corners, **spec)
    dy = rng.standard_normal(tuple(out.shape)).astype(np.float32)

    def run(lib):
        t = lib.tensor(x)
        if layout == "channels_last":
            t = t.to(memory_format=lib.channels_last)
        t.requires_grad_()
        y = lib.nn.Upsample(mode="bilinear", align_corners=align_corners, **spec)(t)
        y.backward(lib.tensor(dy))
        return y.detach().numpy(), t.grad.numpy()

    for ours, theirs in zip(run(core), run(torch), strict=True):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("shape, spec", [
    ((2, 4, 9), dict(scale_factor=2)), ((2, 4, 9), dict(size=20)), ((2, 8, 8, 8), dict(scale_factor=2)),
    ((2, 8, 16, 16), dict(scale_factor=0.5)), ((2, 8, 7, 9), dict(scale_factor=2.5)),
    ((2, 3, 4, 5, 6), dict(scale_factor=2)), ((2, 3, 4, 5, 6), dict(size=(7, 9, 11)))])
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nearest_gradients_match_torch_bit_for_bit(torch, shape, spec, mode, dtype):
    """Nearest upsampling's input gradient adds each input's output gradients in the kernel's raster order."""
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape).astype(dtype)
    dy = rng.standard_normal(tuple(torch.nn.functional.interpolate(torch.tensor(x), mode=mode, **spec).shape))

    def grad(lib):
        t = lib.tensor(x, requires_grad=True)
        lib.nn.functional.interpolate(t, mode=mode, **spec).backward(lib.tensor(dy.astype(dtype)))
        return t.grad.numpy()

    np.testing.assert_array_equal(grad(core), grad(torch))
