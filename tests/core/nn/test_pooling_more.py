"""MaxUnpool, LPPool, LocalResponseNorm, Softmax2d and TripletMarginWithDistanceLoss against PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_error, check_grads

RNG = np.random.default_rng(21)
X = RNG.standard_normal((2, 3, 6, 7)).astype(np.float32)
X5 = RNG.standard_normal((1, 2, 4, 5, 6)).astype(np.float32)


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_max_unpool_inverts_max_pool_like_torch_with_gradients(torch, nd):
    data = {1: X[:, :, 0], 2: X, 3: X5}[nd]

    def fn(lib, x):
        f = lib.nn.functional
        pool, unpool = getattr(f, f"max_pool{nd}d"), getattr(f, f"max_unpool{nd}d")
        out, idx = pool(x, 2, stride=2, return_indices=True)
        return unpool(out, idx, 2, stride=2, output_size=x.shape[2:])

    check_grads(fn, [data], torch)


def test_max_unpool_modules_take_output_size_and_reject_bad_sizes_like_torch(torch):
    outs = []
    for lib in (core, torch):
        x = lib.tensor(X)
        out, idx = lib.nn.functional.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
        unpool = lib.nn.MaxUnpool2d(3, stride=2, padding=1)
        outs.append([unpool(out, idx, output_size=x.size()), repr(unpool)])
    assert_same(outs[0], outs[1])

    def default_size_too_small(lib, x):
        out, idx = lib.nn.functional.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
        return lib.nn.MaxUnpool2d(3, stride=2, padding=1)(out, idx)

    check_error(default_size_too_small, [X], torch, match=r"^Found an invalid max index: \d+ \(output volumes are of "
                                                          r"size 5x7\)$")

    def bad(lib, x):
        out, idx = lib.nn.functional.max_pool2d(x, 2, return_indices=True)
        return lib.nn.functional.max_unpool2d(out, idx, 2, output_size=(20, 20))

    check_error(bad, [X], torch, match="invalid output_size")


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.nn.functional.lp_pool2d(x, 2, 3, stride=2),
    lambda lib, x: lib.nn.functional.lp_pool2d(x.abs(), 1.5, (2, 3), ceil_mode=True),
    lambda lib, x: lib.nn.functional.lp_pool1d(x[:, :, 0], 3, 2),
    lambda lib, x: lib.nn.LPPool2d(2, 2)(x),
    lambda lib, x: lib.nn.LocalResponseNorm(2)(x),
    lambda lib, x: lib.nn.Softmax2d()(x),
    lambda lib, x: lib.nn.Softmax2d()(x[0]),
])
def test_lp_pool_lrn_and_softmax2d_match_torch_with_gradients(torch, call):
    check_grads(call, [X], torch, rtol=1e-4, atol=1e-5)


def test_softmax2d_rejects_other_ranks_like_torch(torch):
    check_error(lambda lib, x: lib.nn.Softmax2d()(x[0, 0]), [X], torch, match="expected input to be 3D or 4D")


@pytest.mark.parametrize("options", [{}, {"swap": True, "margin": 0.5, "reduction": "sum"}, {"reduction": "none"}])
def test_triplet_margin_with_distance_loss_matches_torch(torch, options):
    a, p, n = (RNG.standard_normal((4, 5)).astype(np.float32) for _ in range(3))

    def fn(lib, a, p, n):
        cosine = lambda u, v: 1 - lib.nn.functional.cosine_similarity(u, v)  # noqa: E731
        plain = lib.nn.TripletMarginWithDistanceLoss(**options)(a, p, n)
        custom = lib.nn.functional.triplet_margin_with_distance_loss(a, p, n, distance_function=cosine, **options)
        return lib.stack([plain, custom])

    check_grads(fn, [a, p, n], torch)


def test_triplet_margin_with_distance_loss_errors_match_torch(torch):
    v = np.ones((2, 3), dtype=np.float32)
    check_error(lambda lib, x: lib.nn.functional.triplet_margin_with_distance_loss(x, x, x[0]), [v], torch)
    check_error(lambda lib, x: lib.nn.functional.triplet_margin_with_distance_loss(x, x, x, margin=0), [v], torch)
    check_error(lambda lib, x: lib.nn.TripletMarginWithDistanceLoss(margin=-1), [v], torch)
    assert repr(core.nn.TripletMarginWithDistanceLoss()) == repr(torch.nn.TripletMarginWithDistanceLoss())


@pytest.mark.parametrize("upstream", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("kernel, stride", [(2, 2), (3, 2)])
def test_max_pool_sends_an_inf_or_nan_gradient_to_the_argmax_only_like_torch(torch, upstream, kernel, stride):
    grads = []
    for lib in (core, torch):
        x = lib.tensor(X, requires_grad=True)
        out = lib.nn.functional.max_pool2d(x, kernel, stride)
        g = lib.ones(out.shape)
        g[0, 0, 0, 0] = float(upstream)
        out.backward(g)
        grads.append(x.grad)
    assert_same(grads[0], grads[1])
