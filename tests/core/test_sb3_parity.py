"""What Stable-Baselines3's policies compute, bit for bit as PyTorch 2.13 does (tests/external's ``sb3_*`` scripts).

``binary_cross_entropy_with_logits`` is PyTorch's ``(1 - target).mul_(input).sub_(log_sigmoid(input))`` (with
``pos_weight``: ``log_sigmoid(input).mul_((pos_weight - 1).mul(target).add_(1))`` subtracted), each step rounded in
the dtype. ``Bernoulli``'s entropy and log-probability are that loss: SB3's ``BernoulliDistribution`` (MultiBinary
action spaces) reads them for confident logits, where the loss rounds to exactly 0 in torch.
"""

import numpy as np
import pytest

import core

RNG = np.random.default_rng(20)
LOGITS = np.concatenate([RNG.normal(0, 5, 4000), [-100.0, -20.0, -1e-3, 0.0, 1e-3, 20.0, 100.0]]).astype(np.float32)
SOFT = np.concatenate([RNG.uniform(size=4000), 1 / (1 + np.exp(-np.array([-100.0, -20.0, -1e-3, 0.0, 1e-3, 20.0,
                                                                             100.0])))]).astype(np.float32)
POS = np.full(LOGITS.shape, 2.5, np.float32)
WEIGHT = RNG.uniform(size=LOGITS.shape).astype(np.float32)


def _both(torch, fn, *arrays, dtype="float32"):
    ours = fn(core, *(core.tensor(a).to(getattr(core, dtype)) for a in arrays))
    theirs = fn(torch, *(torch.tensor(a).to(getattr(torch, dtype)) for a in arrays))
    return ours, theirs


def _assert_bitwise(ours, theirs):
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(ours.detach().float().numpy(), theirs.detach().float().numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("extra", ["none", "pos_weight", "weight"])
def test_bce_with_logits_rounds_as_torch(torch, dtype, extra):
    def loss(lib, x, t, pw, w):
        kw = {"pos_weight": pw} if extra == "pos_weight" else {"weight": w} if extra == "weight" else {}
        return lib.nn.functional.binary_cross_entropy_with_logits(x, t, reduction="none", **kw)

    _assert_bitwise(*_both(torch, loss, LOGITS, SOFT, POS, WEIGHT, dtype=dtype))


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_bce_with_logits_reduced_and_its_gradient(torch, reduction):
    ours, theirs = [], []
    for lib, out in ((core, ours), (torch, theirs)):
        x = lib.tensor(LOGITS, requires_grad=True)
        loss = lib.nn.functional.binary_cross_entropy_with_logits(x, lib.tensor(SOFT), reduction=reduction)
        loss.backward()
        out += [loss.detach(), x.grad]
    np.testing.assert_allclose(ours[0].numpy(), theirs[0].numpy(), rtol=1e-6)
    _assert_bitwise(ours[1], theirs[1])


def test_confident_logits_lose_nothing(torch):
    """x = -20 with t = sigmoid(x): (1 - t) * x and log_sigmoid(x) both round to -20, so the loss is 0 in torch."""
    logits = np.array([-100.0, -20.0, 0.0, 20.0, 100.0], np.float32)

    def loss(lib, x):
        return lib.nn.functional.binary_cross_entropy_with_logits(x, lib.sigmoid(x), reduction="none")

    ours, theirs = _both(torch, loss, logits)
    _assert_bitwise(ours, theirs)
    assert ours[1].item() == 0.0


def test_bernoulli_entropy_and_log_prob_as_sb3_reads_them(torch):
    """SB3's BernoulliDistribution: ``Bernoulli(logits=...)`` entropy, log-probability of sampled actions."""
    logits = np.array([[-100.0, -20.0, -2.0, 0.0, 3.0, 20.0, 100.0]], np.float32)
    ours, theirs = [], []
    for lib, out in ((core, ours), (torch, theirs)):
        lib.manual_seed(0)
        dist = lib.distributions.Bernoulli(logits=lib.tensor(logits))
        actions = dist.sample()
        out += [dist.entropy(), dist.log_prob(actions), actions, dist.entropy().sum(dim=1)]
    for a, b in zip(ours, theirs):
        _assert_bitwise(a, b)
