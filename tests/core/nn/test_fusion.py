"""nn.utils.fuse_conv_bn_eval / fuse_linear_bn_eval fold an eval-mode BatchNorm into the layer as PyTorch's do."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same


def trained_bn(lib, bn):
    """A BatchNorm whose running statistics moved away from 0 and 1, then put in eval mode."""
    bn(lib.tensor(np.random.default_rng(1).standard_normal((8, bn.num_features, 3, 3)).astype(np.float32) * 2 + 1)
       if isinstance(bn, lib.nn.BatchNorm2d) else
       lib.tensor(np.random.default_rng(1).standard_normal((8, bn.num_features)).astype(np.float32) * 2 + 1))
    return bn.eval()


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("bias", [True, False])
def test_fused_convolution_gives_torchs_weights_and_the_pair_s_output(torch, transposed, bias):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        conv = (lib.nn.ConvTranspose2d if transposed else lib.nn.Conv2d)(3, 4, 3, bias=bias).eval()
        bn = trained_bn(lib, lib.nn.BatchNorm2d(4))
        fused = lib.nn.utils.fuse_conv_bn_eval(conv, bn, transpose=transposed)
        x = lib.tensor(np.random.default_rng(2).standard_normal((2, 3, 5, 5)).astype(np.float32))
        results.append((type(fused.weight).__name__, fused.weight, fused.bias, fused(x), bn(conv(x))))
    assert results[0][0] == results[1][0] == "Parameter"
    assert_same(results[0][1:], results[1][1:], rtol=1e-5, atol=1e-5)
    assert_same(results[0][3], results[0][4], rtol=1e-4, atol=1e-5)


def test_fused_linear_gives_torchs_weights_and_refuses_training_mode_and_mismatched_features(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        linear, bn = lib.nn.Linear(5, 4).eval(), trained_bn(lib, lib.nn.BatchNorm1d(4))
        fused = lib.nn.utils.fuse_linear_bn_eval(linear, bn)
        results.append((fused.weight, fused.bias))
        with pytest.raises(AssertionError, match="Fusion only for eval!"):
            lib.nn.utils.fuse_linear_bn_eval(lib.nn.Linear(5, 4), bn)
        with pytest.raises(AssertionError, match="linear.out_features == bn.num_features"):
            lib.nn.utils.fuse_linear_bn_eval(lib.nn.Linear(5, 3).eval(), bn)
    assert_same(results[0], results[1])
