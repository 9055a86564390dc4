"""A float32 convolution that PyTorch runs through ATen's slow_conv2d on one thread (a 1x1 kernel on a batch under
16, or one small sample) gives torch's bits: its output starts from the bias before MKL's GEMM adds the products, and
its weight and input gradients follow the same GEMMs (core.nn.functional._conv_thnn)."""

import numpy as np
import pytest

import core
from tests.core.oracle import check


@pytest.fixture
def one_thread(torch):
    if not core._small_gemm.FMA_BLOCKS:
        pytest.skip("MKL's GEMM order is followed only on the CPU it was measured on (core._small_gemm.FMA_BLOCKS)")
    before = torch.get_num_threads(), core.get_num_threads()
    torch.set_num_threads(1)
    core.set_num_threads(1)
    yield torch
    torch.set_num_threads(before[0])
    core.set_num_threads(before[1])


CASES = [  # input shape, weight shape, keyword arguments
    ((2, 8, 6, 6), (3, 8, 1, 1), {}),  # a lambda layer's head
    ((2, 8, 6, 6), (8, 8, 1, 1), {}),
    ((4, 16, 5, 5), (32, 16, 1, 1), {}),
    ((15, 3, 4, 4), (7, 3, 1, 1), {}),
    ((3, 4, 10, 3), (1, 4, 1, 1), {}),
    ((2, 16, 16, 16), (16, 16, 1, 1), {}),  # 256 pixels: the weight gradient's FMA blocks in two halves
    ((1, 3, 8, 8), (4, 3, 3, 3), {"padding": 1}),  # one small image
    ((1, 3, 9, 9), (6, 3, 3, 3), {"stride": 2}),
    ((1, 2, 12, 12), (16, 2, 3, 3), {"padding": 1}),
    ((1, 8, 10, 10), (5, 8, 2, 2), {}),
    ((1, 6, 30, 30), (12, 6, 3, 3), {}),
    ((2, 64, 1, 1), (16, 64, 1, 1), {}),  # a squeeze-and-excitation block's 1x1 convolutions on one pixel
    ((2, 16, 1, 1), (64, 16, 1, 1), {}),
    ((3, 1, 6, 6), (8, 1, 1, 1), {}),  # one input channel: one product per output
    ((1, 1, 8, 8), (16, 1, 3, 3), {"padding": 1}),
]


def _arrays(x_shape, w_shape, seed):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in (x_shape, w_shape, (w_shape[0],))]


@pytest.mark.parametrize("x_shape, w_shape, kwargs", CASES)
@pytest.mark.parametrize("bias", [True, False])
def test_slow_conv2d_output_and_gradients_are_torchs_bit_for_bit(one_thread, x_shape, w_shape, kwargs, bias):
    x, w, b = _arrays(x_shape, w_shape, 0)

    def conv(lib, tx, tw, tb):
        for t in (tx, tw, tb):
            t.requires_grad_(True)
        y = lib.nn.functional.conv2d(tx, tw, tb if bias else None, **kwargs)
        (y * y.detach().sin()).sum().backward()
        return y, tx.grad, tw.grad, tb.grad if bias else tw.grad
    check(conv, [x, w, b], one_thread, rtol=0, atol=0)


@pytest.mark.parametrize("x_shape, w_shape, kwargs",
                         [((3, 5, 4), (6, 5, 1), {}), ((1, 4, 50), (8, 4, 3), {"padding": 1})])
def test_slow_conv1d_output_and_gradients_are_torchs_bit_for_bit(one_thread, x_shape, w_shape, kwargs):
    x, w, b = _arrays(x_shape, w_shape, 1)

    def conv(lib, tx, tw, tb):
        for t in (tx, tw, tb):
            t.requires_grad_(True)
        y = lib.nn.functional.conv1d(tx, tw, tb, **kwargs)
        (y * y.detach().cos()).sum().backward()
        return y, tx.grad, tw.grad, tb.grad
    check(conv, [x, w, b], one_thread, rtol=0, atol=0)


def test_a_pointwise_conv_head_trains_as_torchs_does(one_thread):
    x, _, _ = _arrays((2, 8, 6, 6), (3, 8, 1, 1), 2)

    def train(lib, tx):
        lib.manual_seed(0)
        head = lib.nn.Conv2d(8, 3, 1)
        opt = lib.optim.SGD(head.parameters(), lr=0.1, momentum=0.9)
        for _ in range(3):
            loss = head(tx).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        return head.weight, head.bias, loss
    check(train, [x], one_thread, rtol=0, atol=0)


def test_double_backward_through_a_slow_conv_still_matches_torch(one_thread):
    x, w, b = _arrays((2, 4, 5, 5), (3, 4, 1, 1), 3)

    def second(lib, tx, tw, tb):
        tx.requires_grad_(True)
        tw.requires_grad_(True)
        y = lib.nn.functional.conv2d(tx, tw, tb)
        (gx,) = lib.autograd.grad(y.pow(2).sum(), tx, create_graph=True)
        return lib.autograd.grad(gx.sum(), tw)[0]
    check(second, [x, w, b], one_thread, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("x_shape, w_shape", [((0, 3, 5, 5), (4, 3, 1, 1)), ((0, 2, 4, 4), (5, 2, 3, 3))])
def test_empty_slow_convolutions_match_torch(one_thread, x_shape, w_shape):
    x, w, b = _arrays(x_shape, w_shape, 4)

    def conv(lib, tx, tw, tb):
        tx.requires_grad_(True)
        tw.requires_grad_(True)
        y = lib.nn.functional.conv2d(tx, tw, tb)
        y.sum().backward()
        return y, tx.grad, tw.grad
    check(conv, [x, w, b], one_thread, rtol=0, atol=0)
