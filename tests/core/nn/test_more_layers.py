"""Hardshrink, Softshrink, RReLU, InstanceNorm1d/2d, GaussianNLLLoss, MultiLabelSoftMarginLoss, MultiMarginLoss
and gumbel_softmax against torch: values, gradients, reprs and errors."""

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_error, check_grads


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("build", [lambda lib: lib.nn.Hardshrink(), lambda lib: lib.nn.Softshrink(0.3),
                                   lambda lib: lib.nn.RReLU(), lambda lib: lib.nn.RReLU(0.1, 0.2).eval()])
def test_shrink_and_rrelu_modules_match_torch(torch, build):
    assert repr(build(core)) == repr(build(torch))
    check_grads(lambda lib, x: build(lib).eval()(x), [_rand(4, 5)], torch)
    check_grads(lambda lib, x: lib.nn.functional.softshrink(x, 0.0), [_rand(7)], torch)
    check_error(lambda lib, x: lib.nn.functional.softshrink(x, -1.0), [_rand(3)], torch, match="lambda")


def test_rrelu_in_training_draws_slopes_between_its_bounds():
    x = -core.ones(1000)
    slope = -core.nn.RReLU(0.1, 0.3)(x)
    assert bool(((slope >= 0.1) & (slope <= 0.3)).all()) and abs(slope.mean().item() - 0.2) < 0.01


@pytest.mark.parametrize("cls,shape", [("InstanceNorm1d", (2, 3, 6)), ("InstanceNorm1d", (3, 6)),
                                       ("InstanceNorm2d", (2, 3, 4, 5)), ("InstanceNorm2d", (3, 4, 5))])
@pytest.mark.parametrize("kwargs", [{}, {"affine": True}, {"track_running_stats": True, "momentum": 0.3}])
def test_instance_norm_modules_match_torch_in_training_and_eval(torch, cls, shape, kwargs):
    assert repr(getattr(core.nn, cls)(3, **kwargs)) == repr(getattr(torch.nn, cls)(3, **kwargs))

    def run(lib, x):
        m = getattr(lib.nn, cls)(3, **kwargs)
        y = m(x)
        m.eval()
        return y + m(x * 2) + (m.running_mean.sum() if m.running_mean is not None else 0)

    check_grads(run, [_rand(*shape).astype(np.float32)], torch, rtol=1e-4, atol=1e-5)
    check_error(lambda lib, x: getattr(lib.nn, cls)(3)(x.reshape(-1)), [_rand(*shape)], torch)


def test_instance_norm_checks_channels_as_torch(torch):
    x = _rand(2, 3, 5).astype(np.float32)
    check_error(lambda lib, t: lib.nn.InstanceNorm1d(4, affine=True)(t), [x], torch, match="num_features")
    with pytest.warns(UserWarning, match="does not match num_features"):
        core.nn.InstanceNorm1d(4)(core.tensor(x))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("var_shape", [(4, 3), (4,), (4, 1)])
def test_gaussian_nll_loss_matches_torch(torch, reduction, var_shape):
    var = np.abs(_rand(*var_shape, seed=2)) + 1e-7
    for full in (False, True):
        check_grads(lambda lib, x, t, v, f=full: lib.nn.GaussianNLLLoss(full=f, reduction=reduction)(x, t, v),
                    [_rand(4, 3), _rand(4, 3, seed=1), var], torch)
    check_error(lambda lib, x, v: lib.nn.functional.gaussian_nll_loss(x, x, v), [_rand(4, 3), np.ones((2, 3))],
                torch)
    check_error(lambda lib, x, v: lib.nn.functional.gaussian_nll_loss(x, x, -v), [_rand(4, 3), np.ones((4, 3))],
                torch)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_margin_classification_losses_match_torch(torch, reduction):
    target = np.array([0, 2, 1, 2])
    labels = (np.random.default_rng(3).random((4, 3)) > 0.5).astype(np.float64)
    weight = np.array([0.5, 1.0, 2.0])
    check_grads(lambda lib, x: lib.nn.MultiLabelSoftMarginLoss(reduction=reduction)(x, lib.tensor(labels)),
                [_rand(4, 3)], torch)
    check_grads(lambda lib, x: lib.nn.MultiLabelSoftMarginLoss(lib.tensor(weight), reduction=reduction)(
        x, lib.tensor(labels)), [_rand(4, 3)], torch)
    for p in (1, 2):
        check_grads(lambda lib, x, p=p: lib.nn.MultiMarginLoss(p=p, margin=0.7, reduction=reduction)(
            x, lib.tensor(target)), [_rand(4, 3)], torch)
        check_grads(lambda lib, x, p=p: lib.nn.MultiMarginLoss(p=p, weight=lib.tensor(weight), reduction=reduction)(
            x, lib.tensor(target)), [_rand(4, 3)], torch)
    check_grads(lambda lib, x: lib.nn.functional.multi_margin_loss(x, lib.tensor(1), reduction=reduction),
                [_rand(3)], torch)
    check_error(lambda lib: lib.nn.MultiMarginLoss(p=3), [], torch)


def test_gumbel_softmax_is_a_distribution_and_hard_samples_are_one_hot(torch):
    logits = core.tensor(_rand(6, 4), requires_grad=True)
    soft = core.nn.functional.gumbel_softmax(logits, tau=0.5)
    np.testing.assert_allclose(soft.sum(-1).detach().numpy(), np.ones(6), rtol=1e-12)
    hard = core.nn.functional.gumbel_softmax(logits, hard=True)
    assert bool(((hard == 0) | (hard == 1)).all()) and hard.sum().item() == 6
    (hard * core.arange(4.0)).sum().backward()
    assert logits.grad is not None and logits.grad.abs().sum().item() > 0
    check(lambda lib, x: lib.nn.functional.gumbel_softmax(x, tau=1e-3).shape, [_rand(2, 3)], torch)
