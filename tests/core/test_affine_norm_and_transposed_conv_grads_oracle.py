"""Gradients the OpInfo sweep found missing: layer norm's weight and bias gradients when the normalized shape is
the whole input (nothing to sum over), and a transposed convolution whose output padding is at least its stride
(allowed below its dilation), whose input gradient had an extra row; oracle tests."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.oracle import check_grads

RNG = np.random.default_rng(3)


@pytest.mark.parametrize("shape", [(1, 2, 3), (4,), (2, 3)])
def test_layer_norm_over_the_whole_input_gives_weight_and_bias_gradients(torch, shape):
    x, w, b = (RNG.standard_normal(shape) for _ in range(3))
    check_grads(lambda lib, x, w, b: lib.nn.functional.layer_norm(x, shape, w, b, eps=0.5), [x, w, b], torch,
                rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(("nd", "x_shape", "w_shape", "kwargs"), [
    (1, (2, 2, 4), (2, 2, 4), dict(stride=2, padding=1, output_padding=2, groups=2, dilation=3)),
    (2, (2, 2, 4, 4), (2, 2, 4, 5), dict(stride=(3, 2), padding=(1, 2), output_padding=(2, 3), groups=2,
                                         dilation=(4, 4))),
    (3, (1, 2, 3, 4, 3), (2, 1, 2, 3, 2), dict(stride=(3, 2, 1), padding=(1, 0, 1), output_padding=(2, 1, 1),
                                               dilation=(4, 2, 2))),
])
def test_transposed_conv_with_output_padding_past_its_stride_backpropagates(torch, nd, x_shape, w_shape, kwargs):
    x, w = RNG.standard_normal(x_shape), RNG.standard_normal(w_shape)
    b = RNG.standard_normal(w_shape[1] * kwargs.get("groups", 1))
    fn = f"conv_transpose{nd}d"
    check_grads(lambda lib, x, w, b: getattr(lib.nn.functional, fn)(x, w, b, **kwargs), [x, w, b], torch,
                rtol=1e-10, atol=1e-10)
