"""F.unfold/fold, adaptive max pooling, embedding_bag, pdist, channel_shuffle, feature_alpha_dropout and their
modules against torch: values, indices, dtypes, gradients, node names, reprs and errors."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error, check_grads

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 5, 7))
COLS = RNG.standard_normal((2, 12, 12))
W = RNG.standard_normal((6, 3))
BAG = np.array([1, 2, 4, 5, 4, 3, 2, 0])
OFFSETS = np.array([0, 4, 4])


@pytest.mark.parametrize("fn", [
    lambda lib, x, c: lib.nn.functional.unfold(x, (2, 3), padding=1, stride=2),
    lambda lib, x, c: lib.nn.functional.unfold(x, 3, dilation=2),
    lambda lib, x, c: lib.nn.functional.unfold(x[0], (2, 2), stride=(1, 2)),
    lambda lib, x, c: lib.nn.functional.fold(c, (4, 5), 2),
    lambda lib, x, c: lib.nn.functional.fold(c, (5, 7), (2, 2), padding=1, stride=2),
    lambda lib, x, c: lib.nn.functional.fold(c[0], (4, 6), (2, 2), dilation=(1, 2)),
    lambda lib, x, c: lib.nn.functional.adaptive_max_pool2d(x, (2, 3)),
    lambda lib, x, c: lib.nn.functional.adaptive_max_pool2d(x[0], (4, None)),
    lambda lib, x, c: lib.nn.functional.adaptive_max_pool2d(x, 1),
    lambda lib, x, c: lib.nn.functional.adaptive_max_pool1d(x[0], 3),
    lambda lib, x, c: lib.nn.functional.adaptive_max_pool1d(x[0, 0], 4),
    lambda lib, x, c: lib.nn.functional.pdist(x[0, 0]),
    lambda lib, x, c: lib.nn.functional.pdist(x[0, 0], 1.5),
    lambda lib, x, c: lib.nn.functional.pdist(x[0, 0], float("inf")),
    lambda lib, x, c: lib.nn.functional.channel_shuffle(lib.cat([x, x], 1)[:, :, :2], 3),
])
def test_sliding_window_ops_match_torch_with_gradients(torch, fn):
    check_grads(fn, [X, COLS], torch)


@pytest.mark.parametrize(("fn", "name"), [
    (lambda lib, x: lib.nn.functional.unfold(x, 2), "Im2ColBackward0"),
    (lambda lib, x: lib.nn.functional.unfold(x[0], 2), "Im2ColBackward0"),
    (lambda lib, x: lib.nn.functional.fold(lib.nn.functional.unfold(x, 2), (5, 7), 2), "Col2ImBackward0"),
    (lambda lib, x: lib.nn.functional.adaptive_max_pool2d(x, 2), "AdaptiveMaxPool2DBackward0"),
    (lambda lib, x: lib.nn.functional.adaptive_max_pool1d(x[0], 2), "SqueezeBackward1"),
])
def test_sliding_window_ops_record_torch_node_names(torch, fn, name):
    for lib in (core, torch):
        assert type(fn(lib, lib.tensor(X, requires_grad=True)).grad_fn).__name__ == name


def test_unfold_and_fold_support_double_backward_like_torch(torch):
    def fn(lib, x):
        y = lib.nn.functional.unfold(x, 2, padding=1)
        (g,) = lib.autograd.grad((y * y.flip(-1)).sum(), x, create_graph=True)
        return g
    check_grads(fn, [X[:1]], torch)


@pytest.mark.parametrize("size", [(2, 3), (3, 4), (5, 7), (4, None), 1])
def test_adaptive_max_pool_returns_torch_indices(torch, size):
    check(lambda lib, x: lib.nn.functional.adaptive_max_pool2d(x, size, return_indices=True), [X], torch)
    check(lambda lib, x: lib.nn.AdaptiveMaxPool1d(3, return_indices=True)(x[0]), [X], torch)


def test_adaptive_max_pool_lets_nan_win_like_torch(torch):
    x = X.copy()
    x[0, 0, 1, 1] = np.nan
    check(lambda lib, t: lib.nn.functional.adaptive_max_pool2d(t, 2, True), [x], torch)


@pytest.mark.parametrize(("fn", "match"), [
    (lambda lib, x, c: lib.nn.functional.unfold(x, (7, 3)), "must be at least one"),
    (lambda lib, x, c: lib.nn.functional.unfold(x[0, 0, 0], 2), r"expected to be in range of \[-1, 0\], but got 1"),
    (lambda lib, x, c: lib.nn.functional.unfold(x[0, 0], 2), r"expected to be in range of \[-2, 1\], but got 2"),
    (lambda lib, x, c: lib.nn.functional.unfold(x[None], 2), "Expected 3D or 4D"),
    (lambda lib, x, c: lib.nn.functional.fold(c, (4, 6), 2), r"sliding blocks 3 \* 5 = 15, but got input.size\(2\)=12"),
    (lambda lib, x, c: lib.nn.functional.fold(c[:, :10], (4, 5), 2), "divisible by the product of kernel_size"),
    (lambda lib, x, c: lib.nn.functional.adaptive_max_pool2d(x[0, 0], 2), "Expected 3D or 4D tensor"),
    (lambda lib, x, c: lib.nn.functional.adaptive_max_pool1d(x, 2), "Expected 2 to 3 dimensions"),
    (lambda lib, x, c: lib.nn.functional.pdist(x[0]), "pdist only supports 2D tensors, got: 3D"),
    (lambda lib, x, c: lib.nn.functional.channel_shuffle(x, 2), "Got 3 channels and 2 groups"),
    (lambda lib, x, c: lib.nn.functional.channel_shuffle(x[0, 0], 1), "expects input with > 2 dims"),
    (lambda lib, x, c: lib.nn.functional.feature_alpha_dropout(x[0, 0, 0], 0.3, True), "at least 2 dimensions"),
    (lambda lib, x, c: lib.nn.functional.feature_alpha_dropout(x, 1.3, True), "between 0 and 1"),
])
def test_sliding_window_ops_refuse_what_torch_refuses(torch, fn, match):
    check_error(fn, [X, COLS], torch, match=match)


@pytest.mark.parametrize("kwargs", [
    {"mode": "mean"}, {"mode": "sum"}, {"mode": "max"}, {"mode": "sum", "per_sample_weights": True},
    {"mode": "mean", "include_last_offset": True, "offsets": [0, 3, 8]},
    {"mode": "sum", "include_last_offset": True, "offsets": [0, 8, 8]}, {"mode": "mean", "padding_idx": 2},
    {"mode": "max", "padding_idx": -2}, {"mode": "sum", "max_norm": 1.0},
])
def test_embedding_bag_matches_torch_with_gradients(torch, kwargs):
    kwargs = dict(kwargs)
    weighted = kwargs.pop("per_sample_weights", False)
    offsets_list = kwargs.pop("offsets", OFFSETS)

    def fn(lib, w, psw):
        bags = lib.tensor(BAG)
        offsets = lib.tensor(offsets_list)
        weight = w * 1 if "max_norm" in kwargs else w
        return lib.nn.functional.embedding_bag(bags, weight, offsets, per_sample_weights=psw if weighted else None,
                                               **kwargs)
    check_grads(fn, [W, np.linspace(0.5, 2.0, 8)], torch)


def test_embedding_bag_of_a_2d_input_has_one_bag_per_row_like_torch(torch):
    check_grads(lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(BAG.reshape(2, 4)), w, mode="sum"),
                [W], torch)


@pytest.mark.parametrize(("fn", "match"), [
    (lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(BAG), w), "offsets has to be a 1D Tensor but got None"),
    (lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(BAG.reshape(2, 4)), w, lib.tensor(OFFSETS)),
     "if input is 2D, then offsets has to be None"),
    (lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(BAG), w, lib.tensor([1, 4])),
     "offsets\\[0\\] has to be 0"),
    (lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(BAG), w, lib.tensor([0, 9])),
     "can not be greater than input's length 8"),
    (lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(BAG), w, lib.tensor(OFFSETS), mode="foo"),
     "mode has to be one of sum, mean or max"),
    (lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(BAG), w, lib.tensor(OFFSETS),
                                                    per_sample_weights=lib.ones(8, dtype=lib.float64)),
     "only supported for mode='sum' \\(got mode='mean'\\)"),
    (lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(BAG).float(), w, lib.tensor(OFFSETS)),
     "'indices' to have one of the following scalar types: Long, Int"),
])
def test_embedding_bag_refuses_what_torch_refuses(torch, fn, match):
    check_error(fn, [W], torch, match=match)


def test_modules_print_and_initialise_like_torch(torch):
    core.manual_seed(5)
    torch.manual_seed(5)
    pairs = [(lib.nn.EmbeddingBag(6, 3, mode="max", padding_idx=1, max_norm=1.0), lib.nn.EmbeddingBag(5, 2),
              lib.nn.Unfold((2, 3), padding=1), lib.nn.Fold((4, 5), 2, stride=2), lib.nn.AdaptiveMaxPool2d((2, None)),
              lib.nn.AdaptiveMaxPool1d(3), lib.nn.ChannelShuffle(2), lib.nn.FeatureAlphaDropout(0.2))
             for lib in (core, torch)]
    for ours, theirs in zip(*pairs):
        assert repr(ours) == repr(theirs)
    assert_same(pairs[0][0].weight.detach(), pairs[1][0].weight.detach())
    assert_same(pairs[0][1].weight.detach(), pairs[1][1].weight.detach())
    bag = core.nn.EmbeddingBag.from_pretrained(core.tensor(W), mode="sum")
    assert not bag.weight.requires_grad
    assert_same(bag(core.tensor(BAG), core.tensor(OFFSETS)),
                torch.nn.EmbeddingBag.from_pretrained(torch.tensor(W), mode="sum")(torch.tensor(BAG),
                                                                                    torch.tensor(OFFSETS)))


def test_feature_alpha_dropout_draws_torch_channels_after_the_same_seed(torch):
    outs = []
    for lib in (core, torch):
        lib.manual_seed(3)
        x = lib.tensor(X, requires_grad=True)
        y = lib.nn.FeatureAlphaDropout(0.4)(x)
        y.sum().backward()
        outs.append((y, x.grad, lib.nn.functional.feature_alpha_dropout(x, 0.4, training=False) is x))
    assert_same(outs[0][:2], outs[1][:2])
    assert outs[0][2] and outs[1][2]


def test_top_level_aliases_of_these_ops_work_like_torch(torch):
    check(lambda lib, x: lib.pdist(x[0, 0]), [X], torch)
    check(lambda lib, x: lib.channel_shuffle(lib.cat([x, x], 1), 2), [X], torch)
    check(lambda lib, x: lib.adaptive_max_pool1d(x[0], 2), [X], torch)
    check(lambda lib, x: lib.feature_alpha_dropout(x, 0.5, False), [X], torch)
