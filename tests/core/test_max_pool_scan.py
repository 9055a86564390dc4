"""Max pools pick each window's maximum as PyTorch's CPU kernels scan it (``val > max || isnan(val)``): of equal
maxima the first, of several NaNs the last. MaxPool2d scans kernel offsets over the whole grid (UvA's GoogLeNet
spent most of its max-pool time copying 3x3 windows out for ``argmax``)."""

import numpy as np
import pytest

from tests.core.oracle import check, check_grads

NAN = np.nan


def _with_nans_and_ties():
    rng = np.random.default_rng(0)
    x = rng.integers(-3, 4, size=(2, 3, 9, 10)).astype(np.float32)  # many ties
    x[0, 0, 1, 1] = x[0, 0, 1, 2] = x[0, 0, 2, 1] = NAN  # several NaNs in one window
    x[1, 2, 5, 5:9] = NAN
    return x


@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=3, stride=1, padding=1),
                                dict(kernel_size=(2, 3), stride=(1, 2), dilation=(2, 1)),
                                dict(kernel_size=3, stride=2, ceil_mode=True)])
def test_max_pool2d_values_and_indices_match_torch(torch, kw):
    check(lambda lib, t: lib.nn.functional.max_pool2d(t, return_indices=True, **kw), [_with_nans_and_ties()], torch)


def test_max_pool2d_gradient_goes_to_the_first_of_equal_maxima(torch):
    x = np.random.default_rng(1).integers(0, 3, size=(2, 2, 8, 8)).astype(np.float32)
    check_grads(lambda lib, t: lib.nn.functional.max_pool2d(t, 3, stride=1, padding=1), [x], torch)


def test_max_pool1d_and_adaptive_max_pools_take_the_last_nan(torch):
    x = np.array([[[[1.0, NAN, 3.0, NAN], [5.0, 2.0, 0.0, 1.0]]]], dtype=np.float32)
    check(lambda lib, t: lib.nn.functional.max_pool1d(t[0], 4, return_indices=True), [x], torch)
    check(lambda lib, t: lib.nn.functional.adaptive_max_pool1d(t[0], 1, return_indices=True), [x], torch)
    check(lambda lib, t: lib.nn.functional.adaptive_max_pool2d(t, 1, return_indices=True), [x], torch)


def test_integer_max_pool2d_matches_torch(torch):
    x = np.random.default_rng(2).integers(-5, 5, size=(1, 2, 6, 6)).astype(np.int64)
    check(lambda lib, t: lib.nn.functional.max_pool2d(t, 2, return_indices=True), [x], torch)


def test_max_pool2d_keeps_the_first_of_signed_zeros(torch):
    x = np.array([[[[-0.0, 0.0, 0.0, -0.0]] * 2]], dtype=np.float32)

    def signs(lib, t):
        return lib.signbit(lib.nn.functional.max_pool2d(t, (1, 2)))
    check(signs, [x], torch)


@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=3, stride=1, padding=1),
                                dict(kernel_size=(1, 2, 3), stride=(1, 1, 2), dilation=(1, 2, 1), ceil_mode=True)])
def test_max_pool3d_values_indices_and_gradients_match_torch(torch, kw):
    rng = np.random.default_rng(3)
    x = rng.integers(-2, 3, size=(2, 2, 4, 6, 7)).astype(np.float32)  # ties
    x[0, 1, 1, 2, 2:5] = NAN
    check(lambda lib, t: lib.nn.functional.max_pool3d(t, return_indices=True, **kw), [x], torch)
    finite = np.nan_to_num(x)
    check_grads(lambda lib, t: lib.nn.functional.max_pool3d(t, **kw), [finite], torch)


def test_max_pool3d_node_name(torch):
    x = np.zeros((1, 1, 2, 2, 2), dtype=np.float32)

    def name(lib, t):
        return type(lib.nn.functional.max_pool3d(t.requires_grad_(), 2).grad_fn).__name__
    check(name, [x], torch)


@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=(2, 3), stride=(3, 3)),
                                dict(kernel_size=2, stride=3, dilation=2), dict(kernel_size=3),
                                dict(kernel_size=3, stride=2), dict(kernel_size=3, stride=1),
                                dict(kernel_size=(2, 3), stride=(1, 2), dilation=(2, 1))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_pool2d_gradient_at_the_argmax_is_torchs_bit_for_bit(torch, kw, dtype):
    """Windows inside the input send each gradient to their argmax's flat position (a fast path: stored where
    windows don't overlap, added in the outputs' order where they do): signed zeros, inf and NaN gradients, a cell
    that many windows chose (ties: the first of equal maxima) summing gradients of very different sizes, and the
    rows and columns a floor-mode pool leaves out come out as torch's."""
    import core

    rng = np.random.default_rng(4)
    x = rng.integers(-2, 3, size=(2, 3, 11, 13)).astype(dtype)  # ties; 11 and 13 leave rows and columns out
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.max_pool2d(t, **kw)
        g = (rng.standard_normal(tuple(y.shape)) * 10.0 ** rng.uniform(-4, 4, tuple(y.shape))).astype(dtype)
        g.reshape(-1)[:4] = [-0.0, np.inf, -np.inf, np.nan]
        g.reshape(-1)[-3:] = -0.0
        rng = np.random.default_rng(4)  # the same draws for torch
        rng.integers(-2, 3, size=x.shape)
        gt = lib.tensor(g, requires_grad=True)
        (grad,) = lib.autograd.grad(y, t, gt, create_graph=True)
        (again,) = lib.autograd.grad(grad, gt, lib.ones_like(grad))  # double backward: the argmax selection
        results.append((grad.detach().numpy(), again.detach().numpy()))
    for ours, theirs in zip(*results):
        assert ours.dtype == theirs.dtype
        assert np.array_equal(ours.view(f"u{ours.itemsize}"), theirs.view(f"u{theirs.itemsize}"))
