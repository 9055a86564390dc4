"""F.interpolate against torch on what the float tests leave out: uint8 images without antialias ('bilinear' and
'bicubic' on torch's integer route, 'nearest' and 'nearest-exact'), the dtypes each mode refuses, every mode's
first- and second-order node names, and the memory format of outputs and gradients (channels-last stays
channels-last where torch's kernels keep it)."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error

F_SPECS = [dict(size=(9, 13)), dict(size=(40, 31)), dict(size=(5, 4)), dict(size=(17, 23)), dict(size=(1, 6)),
           dict(scale_factor=(1.5, 0.6)), dict(scale_factor=2), dict(scale_factor=0.37),
           dict(scale_factor=(2.3, 1.1)), dict(scale_factor=0.5, recompute_scale_factor=True)]
# NOTE: no output width of 1 below with more than 4 channels: torch's generic separable kernel (uint8's for 5+
# channels, and every antialiased float one) then gives every output row the first row's value (its vertical
# pass reads one row's taps for the whole column), a torch bug core does not copy.


def _image(channels, shape=(17, 23), seed=6):
    return np.random.default_rng(seed).integers(0, 256, (2, channels) + shape).astype(np.uint8)


def _ids(spec):
    return ",".join(f"{k}={v}" for k, v in spec.items())


@pytest.mark.parametrize("channels", [1, 3, 4, 5])  # (torch's AVX kernel takes up to 4 channels, its generic one more)
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("spec", F_SPECS, ids=_ids)
def test_plain_interpolate_of_uint8_images_matches_torch_exactly(torch, mode, spec, channels):
    for align_corners in (False, True):
        out = check(lambda lib, x, ac=align_corners: lib.nn.functional.interpolate(
            x, mode=mode, align_corners=ac, **spec), [_image(channels)], torch)
        assert out.dtype == core.uint8


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_plain_interpolate_of_uint8_saturates_and_handles_tiny_inputs_as_torch(torch, mode):
    stripes = np.zeros((1, 3, 6, 8), np.uint8)
    stripes[..., ::2] = 255  # bicubic's overshoot past 0 and 255 is clamped
    check(lambda lib, x: lib.nn.functional.interpolate(x, size=(11, 21), mode=mode), [stripes], torch)
    for shape, size in [((1, 1), (4, 3)), ((2, 1), (5, 2)), ((1, 3), (1, 7)), ((3, 2), (1, 2))]:
        # (not a 1x1 output of 3 channels: torch's AVX kernel fails an internal assert there; nor a column resized
        # along its height: see the NOTE above, torch's generic kernel runs there on CPUs without AVX2)
        check(lambda lib, x, s=size: lib.nn.functional.interpolate(x, size=s, mode=mode), [_image(3, shape)], torch)


@pytest.mark.parametrize("mode,ndim", [("nearest", 3), ("nearest", 4), ("nearest", 5), ("nearest-exact", 3),
                                       ("nearest-exact", 4), ("nearest-exact", 5)])
@pytest.mark.parametrize("scale", [2, 1.7, 0.6])
def test_nearest_of_uint8_matches_torch(torch, mode, ndim, scale):
    image = _image(3, (5, 4, 6)[:ndim - 2])
    out = check(lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=scale, mode=mode), [image], torch)
    assert out.dtype == core.uint8


def _call(mode, ndim, dtype, size=3, fmt=None):
    def call(lib, x):
        x = x[(slice(None),) * ndim + (0,) * (5 - ndim)].to(getattr(lib, dtype))
        if fmt is not None:
            x = x.contiguous(memory_format=getattr(lib, fmt))
        return lib.nn.functional.interpolate(x, size=size, mode=mode)
    return call


REFUSED = [("nearest", n, d) for n in (3, 4, 5) for d in ("int8", "int32", "int64", "bool")] + \
          [("nearest-exact", 4, "int16"), ("linear", 3, "uint8"), ("linear", 3, "int64"), ("bilinear", 4, "int8"),
           ("bilinear", 4, "int64"), ("bilinear", 4, "bool"), ("bicubic", 4, "int32"), ("trilinear", 5, "uint8"),
           ("trilinear", 5, "int64"), ("area", 3, "uint8"), ("area", 4, "int64"), ("area", 4, "bool"),
           ("bicubic", 4, "complex64"), ("nearest", 4, "complex64")]


@pytest.mark.parametrize("mode,ndim,dtype", REFUSED)
def test_interpolate_refuses_the_dtypes_torch_refuses(torch, mode, ndim, dtype):
    image = np.random.default_rng(1).integers(0, 256, (2, 5, 6, 7, 8)).astype(np.uint8)
    for size in (3, 100):  # (a small 2-D output takes torch's channels-last kernel, whose name the message gives)
        ours = check_error(_call(mode, ndim, dtype, size), [image], torch)
        assert "core's" not in str(ours)
    check_error(_call(mode, ndim, dtype, 100, {4: "channels_last", 5: "channels_last_3d"}.get(ndim)), [image], torch)


@pytest.mark.parametrize("mode,ndim", [("nearest", 4), ("bilinear", 4), ("bicubic", 4), ("nearest", 3)])
def test_interpolate_names_the_kernel_that_refuses_a_dtype_as_torch(torch, mode, ndim):
    image = np.random.default_rng(1).integers(0, 256, (2, 5, 6, 7, 8)).astype(np.uint8)
    for size in (3, 100):
        messages = []
        for lib in (torch, core):
            with pytest.raises(NotImplementedError) as info:
                _call(mode, ndim, "int64", size)(lib, lib.tensor(image))
            messages.append(str(info.value))
        assert messages[0] == messages[1]


NAMED = [("nearest", 3), ("nearest", 4), ("nearest", 5), ("nearest-exact", 3), ("nearest-exact", 4),
         ("nearest-exact", 5), ("linear", 3), ("bilinear", 4), ("bicubic", 4), ("trilinear", 5), ("area", 3),
         ("area", 4)]


@pytest.mark.parametrize("mode,ndim", NAMED)
def test_every_mode_names_its_first_and_second_order_nodes_as_torch(torch, mode, ndim):
    names = []
    for lib in (core, torch):
        x = lib.tensor(np.random.default_rng(2).standard_normal((1, 2, 6, 5, 7)[:ndim]), requires_grad=True)
        y = lib.nn.functional.interpolate(x, size=(4, 3, 9)[:ndim - 2], mode=mode)
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        names.append((y.grad_fn.name(), g.grad_fn.name()))
    assert names[0] == names[1]


def _layout_case(lib, x, mode, antialias, size, grad_format):
    """The output and the input's gradient for a grad_output laid out in ``grad_format``."""
    y = lib.nn.functional.interpolate(x, size=size, mode=mode, antialias=antialias)
    if not x.requires_grad:
        return y
    gy = lib.tensor(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)), dtype=y.dtype)
    if grad_format is not None:
        gy = gy.contiguous(memory_format=getattr(lib, grad_format))
    (g,) = lib.autograd.grad(y, x, gy)
    return y, g


LAYOUTS = [(mode, False, 4) for mode in ("nearest", "nearest-exact", "bilinear", "bicubic")] + \
          [(mode, True, 4) for mode in ("bilinear", "bicubic", "lanczos")] + \
          [(mode, False, 5) for mode in ("nearest", "nearest-exact", "trilinear")] + \
          [(mode, False, 3) for mode in ("nearest", "linear", "area")] + [("area", False, 4)]


@pytest.mark.parametrize("mode,antialias,ndim", LAYOUTS)
@pytest.mark.parametrize("channels", [1, 3, 5])
def test_interpolate_keeps_channels_last_where_torch_does(torch, mode, antialias, ndim, channels):
    fmt = {4: "channels_last", 5: "channels_last_3d", 3: None}[ndim]
    data = np.random.default_rng(3).standard_normal((2, channels, 9, 13, 7)[:ndim])
    for size in [(4, 6, 5)[:ndim - 2], (9, 13, 7)[:ndim - 2]]:
        for grad_format in (None, fmt):
            def fn(lib, x, s=size, gf=grad_format):
                x = x if fmt is None else x.contiguous(memory_format=getattr(lib, fmt))
                return _layout_case(lib, x.detach().requires_grad_(True), mode, antialias, s, gf)
            check(fn, [data], torch, check_stride=True)


@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic"])
def test_uint8_images_stay_channels_last_as_torch(torch, mode):
    def fn(lib, x):
        x = x.contiguous(memory_format=lib.channels_last)
        return [lib.nn.functional.interpolate(x, size=(5, 31), mode=mode),
                lib.nn.functional.interpolate(x, size=(5, 31), mode=mode if mode != "nearest" else "bilinear",
                                              antialias=mode != "nearest")]
    for channels in (3, 5):
        check(fn, [_image(channels)], torch, check_stride=True)


def test_a_channels_last_double_backward_stays_channels_last_as_torch(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor(np.random.default_rng(4).standard_normal((2, 3, 9, 13))).contiguous(
            memory_format=lib.channels_last).requires_grad_(True)
        y = lib.nn.functional.interpolate(x, size=(4, 6), mode="bicubic")
        gy = lib.ones_like(y).requires_grad_(True)
        (g,) = lib.autograd.grad(y, x, gy, create_graph=True)
        v = lib.tensor(np.random.default_rng(5).standard_normal((2, 3, 9, 13))).contiguous(
            memory_format=lib.channels_last)
        results.append(lib.autograd.grad(g, gy, v))
    assert_same(results[0], results[1], check_stride=True)
