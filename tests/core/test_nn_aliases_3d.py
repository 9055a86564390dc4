"""torch.conv3d, conv_transpose3d, max_pool3d, max_pool1d_with_indices, embedding_renorm_ and the functional
recurrent cells (lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell): top-level nn ops with ATen's signatures."""

import numpy as np
import pytest

from tests.core.oracle import check, check_grads

RNG = np.random.default_rng(0)
X = RNG.standard_normal((1, 2, 3, 4, 4))
K = RNG.standard_normal((3, 2, 2, 2, 2))


@pytest.mark.parametrize("fn", [
    lambda lib, x, k: lib.conv3d(x, k, stride=2),
    lambda lib, x, k: lib.conv3d(x, k, None, 1, 1),
    lambda lib, x, k: lib.conv_transpose3d(x, k.transpose(0, 1)),
    lambda lib, x, k: lib.max_pool3d(x, 2),
    lambda lib, x, k: lib.max_pool3d(x, (1, 2, 2), (1, 1, 2)),
], ids=["conv3d-stride", "conv3d-padding", "conv-transpose3d", "max-pool3d", "max-pool3d-stride"])
def test_three_d_op_matches_torch_values_and_gradients(torch, fn):
    check_grads(fn, [X, K], torch)


def test_max_pool1d_with_indices_returns_values_and_indices_as_torch(torch):
    check(lambda lib, x: lib.max_pool1d_with_indices(x, 2), [X[0, :, 0]], torch)


def test_embedding_renorm_scales_down_the_looked_up_long_rows_in_place_as_torch(torch):
    w = RNG.standard_normal((4, 3)) * 3

    def renorm(lib, w):
        out = lib.embedding_renorm_(w, lib.tensor([0, 1, 1]), 1.0, 2.0)
        assert out is w
        return w

    check(renorm, [w], torch)


@pytest.mark.parametrize(("name", "gates"), [("lstm_cell", 4), ("gru_cell", 3), ("rnn_tanh_cell", 1),
                                             ("rnn_relu_cell", 1)])
@pytest.mark.parametrize("bias", [True, False])
def test_functional_recurrent_cell_matches_torch_values_and_gradients(torch, name, gates, bias):
    x, h, c = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 4)), RNG.standard_normal((2, 4))
    w_ih, w_hh = RNG.standard_normal((4 * gates, 3)), RNG.standard_normal((4 * gates, 4))
    b_ih, b_hh = RNG.standard_normal(4 * gates), RNG.standard_normal(4 * gates)

    def cell(lib, x, h, c, w_ih, w_hh, b_ih, b_hh):
        state = (h, c) if name == "lstm_cell" else h
        biases = (b_ih, b_hh) if bias else ()
        out = getattr(lib, name)(x, state, w_ih, w_hh, *biases)
        return out[0] * out[1] if name == "lstm_cell" else out

    check_grads(cell, [x, h, c, w_ih, w_hh, b_ih, b_hh], torch)
