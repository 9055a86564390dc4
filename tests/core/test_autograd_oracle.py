"""A PyTorch oracle for autograd: random expression graphs built from one recipe in both libraries.

``build_graph(lib, seed)`` draws the same graph in ``core`` and in ``torch``: shared
subexpressions, broadcasting, views (expand, transpose, reshape, slicing), reductions with
``keepdim``, and in-place ops on non-leaves and on views of non-leaves. The tests compare the
loss, every leaf's gradient, and second-order gradients through ``create_graph``. The chapter's
WGAN-GP penalty and a MAML-style inner step are checked number for number.
"""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

SHAPE = (3, 4)
LEAF_SHAPES = [(3, 4), (4,), (3, 1), (1, 4), ()]


def _binary(lib, rng, pool):
    a, b = (pool[i] for i in rng.integers(len(pool), size=2))
    kind = rng.integers(4)
    if kind == 0:
        return a + b
    if kind == 1:
        return a - b * 0.5
    if kind == 2:
        return a * b
    return a / (b * b + 1.0)


def _view(lib, rng, pool):
    x = pool[rng.integers(len(pool))].expand(*SHAPE)
    kind = rng.integers(3)
    if kind == 0:
        return x.t().reshape(4, 3).t() * 1.5
    if kind == 1:
        return x.unsqueeze(0).transpose(1, 2).squeeze(0).t()
    return x[1:].sum(0, keepdim=True) - x[0] + x[:, ::2].sum(1, keepdim=True)[0:1]


def _reduce(lib, rng, pool):
    x = pool[rng.integers(len(pool))].expand(*SHAPE)
    dim = int(rng.integers(-2, 2))
    return x.sum(dim, keepdim=True) * 0.25 if rng.integers(2) else x.mean(dim, keepdim=True)


def _inplace(lib, rng, pool):
    x = (pool[rng.integers(len(pool))] * 1.0).expand(*SHAPE).clone()
    other = pool[rng.integers(len(pool))]
    kind = rng.integers(4)
    if kind == 0:
        x += other
    elif kind == 1:
        x *= other * 0.5 + 1.0
    elif kind == 2:
        x[:, 1:3] *= 0.5
        x[0] = x[0] * 2.0
    else:
        x.t()[1].sub_(other.expand(*SHAPE)[:, 0])
    return x


_OPS = [_binary, _binary, _view, _reduce, _inplace]


def build_graph(lib, seed, n_ops=8, dtype=None):
    """Leaves and a scalar loss of a random graph drawn from ``seed`` (the same in any ``lib``)."""
    rng = np.random.default_rng(seed)
    dtype = lib.float64 if dtype is None else dtype
    n_leaves = int(rng.integers(2, 4))
    leaves = []
    for _ in range(n_leaves):
        shape = LEAF_SHAPES[rng.integers(len(LEAF_SHAPES))]
        leaves.append(lib.tensor(rng.uniform(-1.5, 1.5, size=shape), dtype=dtype, requires_grad=True))
    pool = list(leaves)
    for _ in range(n_ops):
        op = _OPS[rng.integers(len(_OPS))]
        pool.append(op(lib, rng, pool))
    weights = rng.uniform(0.5, 1.5, size=len(pool) - n_leaves)
    loss = pool[-1].sum()
    for w, t in zip(weights, pool[n_leaves:]):
        loss = loss + (t * t).sum() * float(w)
    return leaves, loss


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_graph_loss_and_leaf_gradients_match_torch(torch, seed):
    results = []
    for lib in (core, torch):
        leaves, loss = build_graph(lib, seed)
        loss.backward()
        results.append((loss, [t.grad for t in leaves]))
    (l1, g1), (l2, g2) = results
    assert_same(l1, l2, rtol=1e-10)
    for a, b in zip(g1, g2):
        assert (a is None) == (b is None)
        if a is not None:
            assert_same(a, b, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_graph_second_order_gradients_match_torch(torch, seed):
    results = []
    for lib in (core, torch):
        leaves, loss = build_graph(lib, seed, n_ops=6)
        grads = lib.autograd.grad(loss, leaves, create_graph=True, allow_unused=True)
        used = [(t, g) for t, g in zip(leaves, grads) if g is not None]
        second = sum((g * g * (i + 1)).sum() for i, (_, g) in enumerate(used))
        second.backward()
        results.append((list(grads), [t.grad for t in leaves]))
    (g1, h1), (g2, h2) = results
    assert_same([g for g in g1 if g is not None], [g for g in g2 if g is not None], rtol=1e-9, atol=1e-12)
    for a, b in zip(h1, h2):
        assert (a is None) == (b is None)
        if a is not None:
            assert_same(a, b, rtol=1e-8, atol=1e-10)


def test_random_graphs_in_float32_match_torch(torch):
    for seed in range(4):
        results = []
        for lib in (core, torch):
            leaves, loss = build_graph(lib, seed, dtype=lib.float32)
            loss.backward()
            results.append([t.grad for t in leaves])
        assert_same(results[0], results[1], rtol=1e-4, atol=1e-5)


def _wgan_gp(lib):
    """A WGAN-GP gradient penalty: ||d critic(x_hat) / d x_hat|| pushed towards 1, then backward."""
    rng = np.random.default_rng(3)
    w1 = lib.tensor(rng.standard_normal((4, 5)), requires_grad=True)
    w2 = lib.tensor(rng.standard_normal((5, 1)), requires_grad=True)
    real, fake = lib.tensor(rng.standard_normal((6, 4))), lib.tensor(rng.standard_normal((6, 4)))
    eps = lib.tensor(rng.uniform(size=(6, 1)))
    x_hat = (eps * real + (1 - eps) * fake).requires_grad_(True)
    h = (x_hat.unsqueeze(2) * w1.unsqueeze(0)).sum(1)  # x_hat @ w1 without matmul
    h = h * h / (h * h + 1.0)
    critic = (h.unsqueeze(2) * w2.unsqueeze(0)).sum(1)
    (g,) = lib.autograd.grad(critic.sum(), x_hat, create_graph=True)
    norm = ((g * g).sum(1) + 1e-12).sqrt()
    penalty = ((norm - 1.0) * (norm - 1.0)).mean() * 10.0
    penalty.backward()
    return penalty, w1.grad, w2.grad


def test_wgan_gp_gradient_penalty_matches_torch(torch):
    assert_same(_wgan_gp(core), _wgan_gp(torch), rtol=1e-9, atol=1e-12)


def _maml(lib):
    """A MAML-style inner step: adapt weights with one SGD step (create_graph), meta-loss, backward."""
    rng = np.random.default_rng(5)
    w = lib.tensor(rng.standard_normal((3, 1)), requires_grad=True)
    b = lib.tensor(rng.standard_normal(1), requires_grad=True)
    xs, ys = lib.tensor(rng.standard_normal((8, 3))), lib.tensor(rng.standard_normal((8, 1)))
    xq, yq = lib.tensor(rng.standard_normal((8, 3))), lib.tensor(rng.standard_normal((8, 1)))

    def predict(x, w, b):
        z = (x.unsqueeze(2) * w.unsqueeze(0)).sum(1) + b
        return z / (z * z + 1.0)

    inner = ((predict(xs, w, b) - ys) * (predict(xs, w, b) - ys)).mean()
    gw, gb = lib.autograd.grad(inner, (w, b), create_graph=True)
    w2, b2 = w - 0.1 * gw, b - 0.1 * gb
    outer = ((predict(xq, w2, b2) - yq) * (predict(xq, w2, b2) - yq)).mean()
    outer.backward()
    return inner, outer, w.grad, b.grad


def test_maml_inner_step_matches_torch(torch):
    assert_same(_maml(core), _maml(torch), rtol=1e-9, atol=1e-12)
