"""torch.conv2d, torch.dropout, torch.batch_norm... : the top-level nn ops with ATen's signatures, against torch."""

import numpy as np
import pytest

from tests.core.oracle import check, check_grads

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 8))
W = RNG.standard_normal((4, 3, 3))


@pytest.mark.parametrize("fn", [
    lambda lib, x, w: lib.conv1d(x, w, padding=1),
    lambda lib, x, w: lib.conv2d(x.unsqueeze(1), w.unsqueeze(1)),
    lambda lib, x, w: lib.conv_transpose1d(x, w.transpose(0, 1), stride=2),
    lambda lib, x, w: lib.layer_norm(x, (8,)),
    lambda lib, x, w: lib.layer_norm(x, (8,), w[0, 0].repeat(3)[:8], None, 1e-3),
    lambda lib, x, w: lib.group_norm(x, 1),
    lambda lib, x, w: lib.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, False),
    lambda lib, x, w: lib.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False),
    lambda lib, x, w: lib.dropout(x, 0.5, False),
    lambda lib, x, w: lib.embedding(x[0], lib.tensor([[0, 2], [1, 1]])),
    lambda lib, x, w: lib.max_pool1d(x, 2),
    lambda lib, x, w: lib.max_pool2d(x, 2, 1),
    lambda lib, x, w: lib.avg_pool1d(x, 3, 1),
    lambda lib, x, w: lib.adaptive_avg_pool1d(x, 3),
    lambda lib, x, w: lib.selu(x),
    lambda lib, x, w: lib.celu(x, 0.7),
    lambda lib, x, w: lib.threshold(x, 0.1, 20.0),
    lambda lib, x, w: lib.hardshrink(x, 0.3),
    lambda lib, x, w: lib.rrelu(x),
    lambda lib, x, w: lib.prelu(x, lib.tensor([0.1, 0.2, 0.3], dtype=lib.float64)),
    lambda lib, x, w: lib.cosine_similarity(x, x.flip(0)),
    lambda lib, x, w: lib.pairwise_distance(x[0], x[1]),
    lambda lib, x, w: lib.pixel_shuffle(x.reshape(1, 4, 3, 4), 2),
    lambda lib, x, w: lib.bilinear(x[0], x[1], x.reshape(6, 8)[:2].unsqueeze(-1) * x.reshape(6, 8)[2:4].unsqueeze(1)),
])
def test_top_level_nn_ops_match_torch(torch, fn):
    check_grads(fn, [X, W], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, x: lib.kl_div(x.log_softmax(-1), x.softmax(-1)),
    lambda lib, x: lib.kl_div(x.log_softmax(-1), x.softmax(-1), 2),
    lambda lib, x: lib.binary_cross_entropy_with_logits(x, (x > 0).double()),
    lambda lib, x: lib.binary_cross_entropy_with_logits(x, (x > 0).double(), None, None, 1),
    lambda lib, x: lib.hinge_embedding_loss(x, x.sign()),
    lambda lib, x: lib.margin_ranking_loss(x[0], x[1], x[0].sign(), 0.1, 2),
    lambda lib, x: lib.cosine_embedding_loss(x[0], x[1], lib.ones(3, dtype=lib.float64)),
    lambda lib, x: lib.triplet_margin_loss(x[0], x[1], x[0] * 2),
    lambda lib, x: lib.poisson_nll_loss(x, x.abs(), True, False, 1e-8, 1),
])
def test_top_level_losses_take_an_integer_reduction_that_defaults_to_none(torch, fn):
    check_grads(fn, [X], torch)


def test_training_dropout_keeps_or_zeroes_and_rescales(torch):
    import core

    out = core.dropout(core.ones(1000), 0.25, True)
    kept = out[out != 0]
    assert bool((kept == 1 / 0.75).all()) and 650 < kept.numel() < 850
    check(lambda lib, x: lib.feature_dropout(x, 0.5, False), [X], torch)
