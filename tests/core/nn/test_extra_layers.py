"""PReLU, CosineSimilarity, PairwiseDistance, PixelShuffle/Unshuffle and the margin losses against torch."""

import numpy as np
import pytest

from tests.core.oracle import check, check_error, check_grads


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def test_prelu_modules_match_torch_in_repr_values_and_gradients(torch):
    import core

    for n in (1, 3):
        assert repr(core.nn.PReLU(n)) == repr(torch.nn.PReLU(n))
    check_grads(lambda lib, x, w: lib.nn.functional.prelu(x, w), [_rand(2, 3, 4), np.array([0.1, -0.2, 0.3])], torch)
    check_grads(lambda lib, x, w: lib.nn.functional.prelu(x, w), [_rand(5), np.array([0.25])], torch)
    check(lambda lib, x: lib.nn.PReLU(3)(x), [_rand(2, 3).astype(np.float32)], torch)
    check_error(lambda lib, x, w: lib.nn.functional.prelu(x, w), [_rand(2, 3), np.array([0.1, 0.2])], torch)


def test_similarity_and_distance_modules_match_torch(torch):
    a, b = _rand(4, 5, seed=1), _rand(4, 5, seed=2)
    check_grads(lambda lib, x, y: lib.nn.CosineSimilarity(dim=1)(x, y), [a, b], torch)
    check_grads(lambda lib, x, y: lib.nn.PairwiseDistance(p=3.0, keepdim=True)(x, y), [a, b], torch)
    import core
    assert repr(core.nn.CosineSimilarity()) == repr(torch.nn.CosineSimilarity())


@pytest.mark.parametrize("shape", [(1, 8, 2, 3), (2, 1, 4, 2, 3), (4, 3, 3)])
def test_pixel_shuffle_and_unshuffle_match_torch_and_invert_each_other(torch, shape):
    x = _rand(*shape)
    check_grads(lambda lib, t: lib.nn.PixelShuffle(2)(t), [x], torch)
    up = np.ascontiguousarray(torch.nn.functional.pixel_shuffle(torch.tensor(x), 2).numpy())
    check_grads(lambda lib, t: lib.nn.PixelUnshuffle(2)(t), [up], torch)
    check_error(lambda lib, t: lib.nn.functional.pixel_shuffle(t, 3), [x], torch)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_margin_losses_match_torch(torch, reduction):
    x1, x2, x3 = _rand(6, 4, seed=1), _rand(6, 4, seed=2), _rand(6, 4, seed=3)
    target = np.array([1.0, -1.0, 1.0, 1.0, -1.0, -1.0])
    check_grads(lambda lib, a, b: lib.nn.MarginRankingLoss(margin=0.3, reduction=reduction)(
        a[:, 0], b[:, 0], lib.tensor(target)), [x1, x2], torch)
    for swap in (False, True):
        check_grads(lambda lib, a, p, n, s=swap: lib.nn.TripletMarginLoss(margin=0.5, p=1.5, swap=s,
                                                                          reduction=reduction)(a, p, n),
                    [x1, x2, x3], torch)
    check_grads(lambda lib, a: lib.nn.HingeEmbeddingLoss(margin=0.7, reduction=reduction)(a[:, 0],
                                                                                          lib.tensor(target)),
                [x1], torch)
    check_grads(lambda lib, a, b: lib.nn.CosineEmbeddingLoss(margin=0.1, reduction=reduction)(
        a, b, lib.tensor(target)), [x1, x2], torch)


def test_triplet_margin_loss_rejects_a_non_positive_margin_and_mismatched_ranks(torch):
    import core

    for lib in (torch, core):
        with pytest.raises(ValueError, match="greater than 0"):
            lib.nn.TripletMarginLoss(margin=0.0)
    check_error(lambda lib, a, p, n: lib.nn.functional.triplet_margin_loss(a, p, n),
                [_rand(3, 2), _rand(3, 2), _rand(3)], torch)
