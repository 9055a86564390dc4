"""nll_loss and cross_entropy as PyTorch's CPU kernels compute them, bit for bit: a 4-D input goes through
``nll_loss2d`` (``grad_fn=<NllLoss2DBackward0>``), 3-D and 5-D inputs through it viewed as (N, C, 1, -1), and both
kernels add the batch in their 8-level cascade, in which an ignored sample (``ignore_index``) skips its carry to
the next level, so the sums group differently (a weighted mean over a batch with ignored targets differed in
the last bit and so did a fifth of its gradients)."""

from __future__ import annotations

import numpy as np
import pytest

import core

SHAPES = [(1, 5), (16, 3), (17, 3), (64, 10), (100, 4), (257, 3), (4097, 2), (5000, 4), (70000, 3), (2, 3, 6, 6),
          (4, 5, 7), (3, 4, 2, 3, 5), (8, 10, 17, 13)]
OPTIONS = [{}, {"reduction": "sum"}, {"reduction": "none"}, {"ignore_index": 1}, {"weight": True},
           {"weight": True, "ignore_index": 0}, {"weight": True, "ignore_index": 1, "reduction": "sum"}]


def _run(T, shape, options, name):
    T.manual_seed(0)
    x = T.randn(*shape, requires_grad=True)
    target = T.randint(0, shape[1], (shape[0],) + shape[2:])
    kw = dict(options)
    if kw.pop("weight", None):
        kw["weight"] = T.rand(shape[1])
    y = getattr(T.nn.functional, name)(x if name == "cross_entropy" else x.log_softmax(1), target, **kw)
    (y.sum() if y.ndim else y).backward()
    return y.detach().numpy(), x.grad.numpy(), y.grad_fn.name()


@pytest.mark.parametrize("name", ["cross_entropy", "nll_loss"])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "mean")
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_loss_value_gradient_and_node_equal_torchs(torch, shape, options, name):
    ours, theirs = _run(core, shape, options, name), _run(torch, shape, options, name)
    assert ours[2] == theirs[2]
    assert np.array_equal(ours[0], theirs[0], equal_nan=True)  # (a batch of one ignored sample: nan in both)
    assert np.array_equal(ours[1], theirs[1], equal_nan=True)


def test_small_float32_batches_add_in_the_general_cascades_order(monkeypatch):
    """``nll_total``'s small-batch route (``_small_total``: cumsums and float32 scalars) gives the general level
    loop's bits for every batch size up to past two levels and at the route's edge, on values whose order of adds
    matters (wide magnitudes, cancellations), signed zeros, infs and nans."""
    from core import _nll_sum

    rng = np.random.default_rng(3)
    sizes = list(range(1, 300)) + [4095, 4096]
    batches = []
    for n in sizes:
        x = (rng.standard_normal(n) * np.exp2(rng.integers(-30, 30, n))).astype(np.float32)
        batches.append(x)
        batches.append(np.where(rng.random(n) < 0.5, np.float32(-0.0), np.float32(0.0)))  # only signed zeros
        special = x.copy()
        special[rng.integers(0, n, 2)] = rng.choice(np.array([np.inf, -np.inf, np.nan, -0.0], np.float32), 2)
        batches.append(special)
    fast = [_nll_sum.nll_total(b) for b in batches]
    monkeypatch.setattr(_nll_sum, "_SMALL_NLL", 0)  # every batch through the general loop
    for b, got in zip(batches, fast):
        want = _nll_sum.nll_total(b)
        assert np.asarray(got).dtype == np.float32
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), b.size


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_a_batch_with_every_sample_kept_gives_the_general_forwards_values_and_gradients(monkeypatch, reduction):
    """``NllLoss``'s route for float32 batches without weights or ignored targets (``_every_sample_kept``) leaves
    the loss, the gradient and a recorded backward's values the general forward gives, on values with signed
    zeros, infs and nans, for targets that touch ``ignore_index``'s range and for one that is out of range."""
    from core.nn.functional import _loss_primitives

    rng = np.random.default_rng(7)

    def run():
        results = []
        for n, c, ignore in [(1, 3, -100), (64, 10, -100), (300, 7, 50), (33, 5, 2), (4097, 3, -1)]:
            x = (rng.standard_normal((n, c)) * np.exp2(rng.integers(-20, 20, (n, c)))).astype(np.float32)
            x.reshape(-1)[rng.integers(0, n * c, 3)] = [-0.0, np.inf, np.nan]
            target = rng.integers(0, c, n)
            t = core.tensor(x, requires_grad=True)
            loss = core.nn.functional.nll_loss(t, core.tensor(target), ignore_index=ignore, reduction=reduction)
            (g,) = core.autograd.grad(loss, t, retain_graph=True)
            v = core.tensor(1.5, requires_grad=True)  # a recorded backward (create_graph) takes the coefficients
            (gr,) = core.autograd.grad(loss, t, v, create_graph=True)
            (gv,) = core.autograd.grad((gr * gr).sum(), v)
            results.append([loss.detach().numpy(), g.numpy(), gr.detach().numpy(), gv.numpy()])
        with pytest.raises(IndexError, match="Target 5 is out of bounds"):
            core.nn.functional.nll_loss(core.zeros(2, 5), core.tensor([0, 5]))
        return results

    rng = np.random.default_rng(7)
    fast = run()
    monkeypatch.setattr(_loss_primitives, "_every_sample_kept", lambda *args: None)
    rng = np.random.default_rng(7)
    general = run()
    for mine, want in zip(fast, general):
        for a, b in zip(mine, want):
            assert a.tobytes() == b.tobytes()
