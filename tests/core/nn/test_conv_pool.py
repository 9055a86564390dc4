"""Convolution and pooling against PyTorch in float64: values, gradients, double backward, errors."""

import numpy as np
import pytest

import core
import core.nn.functional as F
from core.autograd import gradcheck, gradgradcheck
from tests.core.oracle import check_error, check_grads
from tests.core.reference_cpu import assert_bits_on_zen4

# NOTE: on the AMD Zen 4 with AVX-512 (tests.core.reference_cpu) OpenBLAS's GEMM gives the same bits however core
# splits a convolution's product (threads, bands); on an AMD Zen 3 (AVX2) its kernels round the pieces otherwise:
# measured within 9 ulps of each array's largest magnitude
OPENBLAS_AVX2_ULP = 9

rng = np.random.default_rng(0)


def randn(*shape):
    return rng.standard_normal(shape)


def test_chapter_conv2d_shape_line():
    import core as torch

    out = torch.nn.functional.conv2d(torch.randn(32, 3, 224, 224), torch.randn(64, 3, 7, 7), stride=2, padding=3)
    assert out.shape == torch.Size([32, 64, 112, 112])


@pytest.mark.parametrize("kw, wshape", [
    ({}, (6, 4, 3, 2)),
    ({"stride": 2, "padding": 1}, (6, 4, 3, 3)),
    ({"stride": (2, 3), "padding": (1, 2), "dilation": (2, 1), "groups": 2}, (6, 2, 3, 2)),
    ({"padding": "same", "dilation": 2, "groups": 2}, (6, 2, 4, 3)),
    ({"padding": "valid"}, (6, 4, 1, 1)),
])
def test_conv2d_matches_torch_with_gradients(torch, kw, wshape):
    check_grads(lambda lib, x, w, b: lib.nn.functional.conv2d(x, w, b, **kw),
                [randn(2, 4, 9, 8), randn(*wshape), randn(6)], torch, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("kw, wshape", [
    ({"stride": 3}, (4, 4, 2, 2)),  # stride > kernel: input rows no window reads get a zero gradient
    ({"stride": (3, 2), "dilation": (2, 3), "padding": (2, 1)}, (4, 4, 3, 2)),  # offsets land on every phase
    ({"stride": 2, "padding": 3, "groups": 4}, (8, 1, 7, 7)),  # depthwise, the chapter's kernel and stride
    ({"padding": "same", "dilation": (1, 2)}, (4, 4, 2, 4)),  # asymmetric padding
])
def test_conv2d_strided_dilated_and_grouped_geometry_matches_torch(torch, kw, wshape):
    check_grads(lambda lib, x, w, b: lib.nn.functional.conv2d(x, w, b, **kw),
                [randn(3, 4, 11, 10), randn(*wshape), randn(wshape[0])], torch, rtol=1e-9, atol=1e-9)


def test_conv2d_over_many_batch_chunks_matches_torch(torch, monkeypatch):
    from core.nn.functional import _conv

    monkeypatch.setattr(_conv, "_CHUNK_BYTES", 21600)  # 3-4 samples per chunk, a shorter last chunk
    check_grads(lambda lib, x, w, b: lib.nn.functional.conv2d(x, w, b, stride=2, padding=1, groups=2),
                [randn(7, 4, 9, 9), randn(6, 2, 3, 3), randn(6)], torch, rtol=1e-9, atol=1e-9)
    check_grads(lambda lib, x, w: lib.nn.functional.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1),
                [randn(7, 4, 5, 5), randn(4, 3, 3, 3)], torch, rtol=1e-9, atol=1e-9)


def test_conv2d_split_over_threads_matches_torch(torch, monkeypatch):
    from core.nn.functional import _conv

    monkeypatch.setattr(_conv, "_CHUNK_BYTES", 21600)  # several chunks per worker
    monkeypatch.setattr(_conv, "_THREADED_BYTES", 0)  # this small conv runs on worker threads where BLAS allows
    monkeypatch.setattr(_conv, "get_num_threads", lambda: 3)
    check_grads(lambda lib, x, w, b: lib.nn.functional.conv2d(x, w, b, stride=2, padding=1, groups=2),
                [randn(9, 4, 9, 9), randn(6, 2, 3, 3), randn(6)], torch, rtol=1e-9, atol=1e-9)


def _split_gemms(monkeypatch, threads, tiny=False):
    from core.nn.functional import _conv

    monkeypatch.setattr(_conv, "_SPLIT_BYTES", 0)  # this single-chunk conv splits its GEMMs where BLAS allows
    monkeypatch.setattr(_conv, "get_num_threads", lambda: threads)
    if tiny:  # cuts inside small outputs
        monkeypatch.setattr(_conv, "_SPLIT_ALIGN", 4)
        monkeypatch.setattr(_conv, "_MIN_RUN_WORK", 0)


def test_conv2d_of_one_image_with_gemms_split_over_threads_matches_torch(torch, monkeypatch):
    _split_gemms(monkeypatch, 3, tiny=True)
    check_grads(lambda lib, x, w, b: lib.nn.functional.conv2d(x, w, b, stride=2, padding=1, groups=2),
                [randn(1, 4, 13, 11), randn(6, 2, 3, 3), randn(6)], torch, rtol=1e-9, atol=1e-9)


def test_conv2d_float32_bits_do_not_depend_on_the_thread_count(monkeypatch):
    x, w = randn(1, 16, 64, 64).astype(np.float32), randn(32, 16, 3, 3).astype(np.float32)

    def run():
        xt, wt = core.tensor(x, requires_grad=True), core.tensor(w, requires_grad=True)
        out = F.conv2d(xt, wt, padding=1)
        out.backward(core.ones_like(out))
        return out.detach().numpy(), xt.grad.numpy(), wt.grad.numpy()

    _split_gemms(monkeypatch, 1)
    one = run()
    _split_gemms(monkeypatch, 3)
    for a, b in zip(one, run()):
        assert_bits_on_zen4(a, b, OPENBLAS_AVX2_ULP, of_largest=True)


def test_conv2d_forward_in_bands_of_output_rows_matches_torch(torch, monkeypatch):
    from core.nn.functional import _conv

    monkeypatch.setattr(_conv, "_CHUNK_BYTES", 2000)  # a sample's columns past the chunk: a band a row
    monkeypatch.setattr(_conv, "_MIN_RUN_WORK", 0)
    monkeypatch.setattr(_conv, "_SPLIT_BYTES", 0)
    monkeypatch.setattr(_conv, "get_num_threads", lambda: 3)
    check_grads(lambda lib, x, w, b: lib.nn.functional.conv2d(x, w, b, stride=(2, 1), padding=1, groups=2),
                [randn(2, 4, 13, 11), randn(6, 2, 3, 3), randn(6)], torch, rtol=1e-9, atol=1e-9)


def test_conv2d_float32_forward_in_bands_has_the_bits_of_one_gemm(monkeypatch):
    from core.nn.functional import _conv

    x, w = randn(2, 16, 96, 96).astype(np.float32), randn(32, 16, 3, 3).astype(np.float32)
    whole = F.conv2d(core.tensor(x), core.tensor(w), padding=1).numpy()
    monkeypatch.setattr(_conv, "_CHUNK_BYTES", 1 << 20)  # 6 bands a sample, each above _MIN_RUN_WORK
    banded = F.conv2d(core.tensor(x), core.tensor(w), padding=1).numpy()
    assert_bits_on_zen4(banded, whole, OPENBLAS_AVX2_ULP, of_largest=True)


def test_conv2d_unbatched_input_and_float32(torch):
    check_grads(lambda lib, x, w: lib.nn.functional.conv2d(x, w, padding=1),
                [randn(3, 5, 5).astype(np.float32), randn(2, 3, 3, 3).astype(np.float32)], torch, rtol=1e-4, atol=1e-5)


def test_conv1d_matches_torch_with_gradients(torch):
    check_grads(lambda lib, x, w, b: lib.nn.functional.conv1d(x, w, b, stride=2, padding=1, dilation=2),
                [randn(2, 4, 11), randn(3, 4, 3), randn(3)], torch, rtol=1e-9, atol=1e-9)
    check_grads(lambda lib, x, w: lib.nn.functional.conv1d(x, w, padding="same", groups=2),
                [randn(4, 7), randn(4, 2, 4)], torch, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("kw, groups", [
    ({}, 1),
    ({"stride": 2, "padding": 1, "output_padding": 1}, 1),
    ({"stride": (2, 3), "padding": (0, 1), "output_padding": (1, 2), "dilation": (1, 2)}, 2),
])
def test_conv_transpose2d_matches_torch_with_gradients(torch, kw, groups):
    check_grads(lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x, w, b, groups=groups, **kw),
                [randn(2, 4, 5, 4), randn(4, 3, 3, 3), randn(3 * groups)], torch, rtol=1e-9, atol=1e-9)


def test_conv_transpose1d_matches_torch(torch):
    check_grads(lambda lib, x, w: lib.nn.functional.conv_transpose1d(x, w, stride=3, padding=1, output_padding=2),
                [randn(2, 4, 5), randn(4, 3, 3)], torch, rtol=1e-9, atol=1e-9)


def test_conv2d_passes_gradcheck_and_gradgradcheck():
    x = core.tensor(randn(1, 2, 5, 4), requires_grad=True)
    w = core.tensor(randn(4, 1, 2, 3), requires_grad=True)
    b = core.tensor(randn(4), requires_grad=True)

    def fn(x, w, b):
        return F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2)

    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))


def test_conv_transpose2d_passes_gradgradcheck():
    x = core.tensor(randn(1, 2, 3, 3), requires_grad=True)
    w = core.tensor(randn(2, 2, 2, 2), requires_grad=True)
    assert gradgradcheck(lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1), (x, w))


def test_conv2d_double_backward_matches_torch(torch):
    xs, ws = randn(2, 3, 6, 6), randn(4, 3, 3, 3)
    grads = []
    for lib in (core, torch):
        x = lib.tensor(xs, requires_grad=True)
        w = lib.tensor(ws, requires_grad=True)
        y = lib.nn.functional.conv2d(x, w, stride=2, padding=1)
        (gx,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        (gw,) = lib.autograd.grad((gx * gx).sum(), w)
        grads.append(np.asarray(gw.detach().numpy()))
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-9)


def test_conv2d_grad_fn_is_named_like_torch():
    y = F.conv2d(core.randn(1, 1, 3, 3, requires_grad=True), core.randn(1, 1, 2, 2))
    assert y.grad_fn.name() == "ConvolutionBackward0"


@pytest.mark.parametrize("fn", [
    lambda lib, x, w: lib.nn.functional.conv2d(x, w[:, :2]),
    lambda lib, x, w: lib.nn.functional.conv2d(x[0, 0], w),
    lambda lib, x, w: lib.nn.functional.conv2d(x[..., :2, :2], w),
    lambda lib, x, w: lib.nn.functional.conv2d(x, w, stride=2, padding="same"),
    lambda lib, x, w: lib.nn.functional.conv2d(x, w, padding="full"),
    lambda lib, x, w: lib.nn.functional.conv2d(x.float(), w),
    lambda lib, x, w: lib.nn.functional.conv2d(x, w, groups=2),
    lambda lib, x, w: lib.nn.functional.conv2d(x, w, w[0, 0, 0]),
])
def test_conv2d_errors_match_torch(torch, fn):
    check_error(fn, [randn(2, 3, 5, 5), randn(4, 3, 3, 3)], torch)


@pytest.mark.parametrize("kw", [
    {"kernel_size": 2},
    {"kernel_size": 3, "stride": 2, "padding": 1},
    {"kernel_size": (3, 2), "stride": (2, 1), "padding": (1, 1), "dilation": (2, 1), "ceil_mode": True},
    {"kernel_size": 3, "stride": 2, "ceil_mode": True},
])
def test_max_pool2d_matches_torch_with_gradients_and_indices(torch, kw):
    x = randn(2, 3, 9, 8)
    check_grads(lambda lib, a: lib.nn.functional.max_pool2d(a, **kw), [x], torch, rtol=1e-12, atol=1e-12)
    ours = F.max_pool2d(core.tensor(x), return_indices=True, **kw)[1]
    theirs = torch.nn.functional.max_pool2d(torch.tensor(x), return_indices=True, **kw)[1]
    assert ours.dtype is core.int64 and np.array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("kw", [
    {"kernel_size": 2},
    {"kernel_size": 3, "stride": 2, "padding": 1},
    {"kernel_size": 3, "stride": 2, "padding": 1, "count_include_pad": False, "ceil_mode": True},
    {"kernel_size": (3, 2), "divisor_override": 4},
])
def test_avg_pool2d_matches_torch_with_gradients(torch, kw):
    check_grads(lambda lib, a: lib.nn.functional.avg_pool2d(a, **kw), [randn(2, 3, 9, 8)], torch, rtol=1e-12,
                atol=1e-12)


@pytest.mark.parametrize("size", [1, (3, 5), 4, (9, 8), (2, None)])
def test_adaptive_avg_pool2d_matches_torch_with_gradients(torch, size):
    check_grads(lambda lib, a: lib.nn.functional.adaptive_avg_pool2d(a, size), [randn(2, 3, 9, 8)], torch,
                rtol=1e-12, atol=1e-12)


def test_one_d_pools_match_torch(torch):
    x = randn(2, 3, 9)
    check_grads(lambda lib, a: lib.nn.functional.max_pool1d(a, 3, 2, 1), [x], torch, rtol=1e-12)
    check_grads(lambda lib, a: lib.nn.functional.avg_pool1d(a, 3, 2, 1), [x], torch, rtol=1e-12)
    check_grads(lambda lib, a: lib.nn.functional.adaptive_avg_pool1d(a, 4), [x], torch, rtol=1e-12)


def test_pools_pass_gradgradcheck():
    x = core.tensor(randn(1, 2, 5, 5), requires_grad=True)
    assert gradgradcheck(lambda a: F.max_pool2d(a, 2, 1), (x,))
    assert gradgradcheck(lambda a: F.avg_pool2d(a, 3, 2, 1), (x,))
    assert gradgradcheck(lambda a: F.adaptive_avg_pool2d(a, 3), (x,))


@pytest.mark.parametrize("fn", [
    lambda lib, x: lib.nn.functional.max_pool2d(x, 3, padding=2),
    lambda lib, x: lib.nn.functional.max_pool2d(x[0, 0, 0], 2),
    lambda lib, x: lib.nn.functional.avg_pool2d(x, 9),
])
def test_pool_errors_match_torch(torch, fn):
    check_error(fn, [randn(2, 3, 5, 5)], torch)


def test_conv_and_pool_modules_match_torch_with_copied_weights(torch):
    core.manual_seed(0)
    torch.manual_seed(0)

    def build(lib):
        return lib.nn.Sequential(lib.nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect"), lib.nn.MaxPool2d(2),
                                 lib.nn.Conv2d(4, 4, 3, padding="same", groups=2, bias=False),
                                 lib.nn.ConvTranspose2d(4, 2, 2, stride=2), lib.nn.AvgPool2d(2),
                                 lib.nn.AdaptiveAvgPool2d((2, 1)), lib.nn.Flatten())
    theirs = build(torch).double()
    ours = build(core).double()
    ours.load_state_dict({k: core.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    x = randn(2, 3, 8, 8)
    check_grads(lambda lib, a: (ours if lib is core else theirs)(a), [x], torch, rtol=1e-9, atol=1e-9)
    assert repr(ours) == repr(theirs)


def test_conv_module_default_init_has_torch_bounds():
    core.manual_seed(0)
    conv = core.nn.Conv2d(16, 32, 3)
    bound = 1 / np.sqrt(16 * 9)
    w = conv.weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.95 * bound
    assert abs(w.std() - bound / np.sqrt(3)) < 0.05 * bound
    assert np.abs(conv.bias.detach().numpy()).max() <= bound
