"""3-D layers against PyTorch: conv3d/conv_transpose3d, 3-d pools, BatchNorm3d, InstanceNorm3d, Dropout3d."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_error, check_grads

RNG = np.random.default_rng(5)
X = RNG.standard_normal((2, 4, 5, 6, 7)).astype(np.float32)
W = RNG.standard_normal((6, 2, 2, 3, 2)).astype(np.float32)
B = RNG.standard_normal(6).astype(np.float32)
WT = W.reshape(4, 3, 2, 3, 2)

FUNCTIONAL = {
    "conv3d strided, padded, dilated, grouped": (
        lambda lib, x, w, b: lib.nn.functional.conv3d(x, w, b, (2, 1, 2), (1, 0, 1), (1, 2, 1), 2), [X, W, B]),
    "conv3d with padding='same'": (lambda lib, x, w: lib.nn.functional.conv3d(x, w, padding="same", groups=2), [X, W]),
    "conv3d unbatched": (lambda lib, x, w: lib.nn.functional.conv3d(x[0], w, groups=2), [X, W]),
    "conv_transpose3d strided with output padding": (
        lambda lib, x, w, b: lib.nn.functional.conv_transpose3d(x, w, b, (2, 2, 1), (1, 1, 0), (1, 0, 0), 2,
                                                                (2, 1, 1)), [X, WT, B]),
    "conv_transpose3d plain": (lambda lib, x, w: lib.nn.functional.conv_transpose3d(x, w[:, :, :, :2]), [X, WT]),
    "max_pool3d with ceil mode and dilation": (
        lambda lib, x: lib.nn.functional.max_pool3d(x, (2, 3, 2), (1, 2, 2), (1, 1, 0), (1, 1, 2), True), [X]),
    "max_pool3d unbatched": (lambda lib, x: lib.nn.functional.max_pool3d(x[0], 2), [X]),
    "avg_pool3d with ceil mode": (
        lambda lib, x: lib.nn.functional.avg_pool3d(x, (2, 3, 2), (1, 2, 2), (1, 1, 0), ceil_mode=True), [X]),
    "avg_pool3d without counting padding": (
        lambda lib, x: lib.nn.functional.avg_pool3d(x, 3, 2, 1, count_include_pad=False), [X]),
    "avg_pool3d with a divisor override": (
        lambda lib, x: lib.nn.functional.avg_pool3d(x[0], 2, divisor_override=3), [X]),
    "adaptive_avg_pool3d with a None size": (
        lambda lib, x: lib.nn.functional.adaptive_avg_pool3d(x, (3, None, 4)), [X]),
}


@pytest.mark.filterwarnings("ignore:Using padding='same' with even kernel lengths")  # torch's own note
@pytest.mark.parametrize("case", list(FUNCTIONAL))
def test_3d_functional_ops_match_torch_with_gradients(torch, case):
    fn, arrays = FUNCTIONAL[case]
    check_grads(fn, arrays, torch, rtol=1e-4, atol=1e-4)


def test_max_pool3d_returns_torchs_flat_indices(torch):
    def fn(lib, x):
        return lib.nn.functional.max_pool3d(x, (2, 3, 2), (1, 2, 2), (1, 1, 0), (1, 1, 2), True, True)[1]

    ours, theirs = fn(core, core.tensor(X)), fn(torch, torch.tensor(X))
    assert_same(ours, theirs)


def test_3d_modules_init_like_torch_and_print_the_same(torch):
    outs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        conv, convt = lib.nn.Conv3d(4, 6, (2, 3, 2), padding=1, groups=2), lib.nn.ConvTranspose3d(4, 6, 2, stride=2)
        x = lib.tensor(X)
        outs.append([conv(x), convt(x), lib.nn.MaxPool3d(2)(x), lib.nn.AvgPool3d(2, stride=1)(x),
                     lib.nn.AdaptiveAvgPool3d(2)(x), repr(conv), repr(convt), repr(lib.nn.MaxPool3d(2))])
    assert_same(outs[0], outs[1], rtol=1e-4, atol=1e-5)


def test_batch_and_instance_norm_3d_match_torch_in_training_and_eval(torch):
    outs = []
    for lib in (core, torch):
        bn, inorm = lib.nn.BatchNorm3d(4), lib.nn.InstanceNorm3d(4, affine=True, track_running_stats=True)
        x = lib.tensor(X)
        train = [bn(x), inorm(x), inorm(x[0])]
        bn.eval()
        inorm.eval()
        outs.append(train + [bn(x), inorm(x), bn.running_mean, bn.running_var, inorm.running_var])
    assert_same(outs[0], outs[1], rtol=1e-4, atol=1e-5)
    check_error(lambda lib, x: lib.nn.BatchNorm3d(4)(x[0]), [X], torch)


def test_dropout3d_zeroes_the_same_seeded_channels_as_torch(torch):
    outs = []
    for lib in (core, torch):
        lib.manual_seed(3)
        drop = lib.nn.Dropout3d(0.5)
        outs.append([drop(lib.tensor(X)), drop(lib.tensor(X[0]))])
    assert_same(outs[0], outs[1])


@pytest.mark.parametrize("call", [
    lambda lib, x, w: lib.nn.functional.conv3d(x[0, 0, 0], w),
    lambda lib, x, w: lib.nn.functional.conv3d(x, w),
    lambda lib, x, w: lib.nn.functional.max_pool3d(x[0, 0, 0], 2),
    lambda lib, x, w: lib.nn.functional.max_pool3d(x, 3, padding=2),
    lambda lib, x, w: lib.nn.functional.avg_pool3d(x, 8),
    lambda lib, x, w: lib.nn.functional.adaptive_avg_pool3d(x[0, 0, 0], 2),
])
def test_bad_3d_arguments_raise_torchs_errors(torch, call):
    check_error(call, [X, W], torch)
