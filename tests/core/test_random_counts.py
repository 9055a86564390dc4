"""core.poisson, core.binomial and core._standard_gamma: the distributions torch's samplers draw from
(moments with a fixed seed), torch's dtypes, gradients, node names and errors."""

import numpy as np
import pytest

import core
from tests.core.oracle import check_error


@pytest.mark.parametrize("count,prob", [(30.0, 0.4), (5.0, 0.9), (1000.0, 0.01), (200.0, 0.5), (3.0, 0.02)])
def test_binomial_draws_have_the_binomial_mean_and_variance(count, prob):
    draws = core.binomial(core.full((20000,), count), core.full((20000,), prob))
    assert draws.dtype == core.float32 and bool((draws >= 0).all()) and bool((draws <= count).all())
    mean, var = count * prob, count * prob * (1 - prob)
    assert abs(draws.mean().item() - mean) < 4 * np.sqrt(var / 20000) + 1e-9
    assert abs(draws.var().item() - var) < 0.06 * var + 1e-3


def test_binomial_edges_and_broadcasting_match_torch(torch):
    counts, probs = [10.0, 5.0, 0.0, 7.0], [1.0, 0.0, 0.5, 1.0]
    ours = core.binomial(core.tensor(counts), core.tensor(probs))
    assert ours.tolist() == torch.binomial(torch.tensor(counts), torch.tensor(probs)).tolist()
    assert core.binomial(core.tensor([4.0, 6.0]), core.tensor([1.0])).tolist() == [4.0, 6.0]
    double = core.binomial(core.tensor([4.0], dtype=core.float64), core.tensor([0.5], dtype=core.float64))
    assert double.dtype == core.float64


def test_binomial_rejects_what_torch_rejects(torch):
    check_error(lambda lib: lib.binomial(lib.tensor([10]), lib.tensor([0.5])), [], torch, match="floating-point")
    check_error(lambda lib: lib.binomial(lib.tensor([10.0]), lib.tensor([0.5], dtype=lib.float64)), [], torch)


@pytest.mark.parametrize("rate", [0.5, 3.0, 40.0])
def test_poisson_draws_have_the_poisson_moments(rate):
    draws = core.poisson(core.full((20000,), rate, dtype=core.float64))
    assert draws.dtype == core.float64 and bool((draws == draws.round()).all())
    assert abs(draws.mean().item() - rate) < 4 * np.sqrt(rate / 20000)
    assert abs(draws.var().item() - rate) < 0.06 * rate


def test_poisson_has_a_zero_gradient_and_torchs_errors(torch):
    rate = core.tensor([1.0, 2.0], requires_grad=True)
    out = core.poisson(rate)
    assert out.grad_fn.name() == torch.poisson(torch.tensor([1.0], requires_grad=True)).grad_fn.name()
    out.sum().backward()
    assert rate.grad.tolist() == [0.0, 0.0]
    assert core.poisson(core.zeros(3)).tolist() == [0.0, 0.0, 0.0]
    check_error(lambda lib: lib.poisson(lib.tensor([-1.0])), [], torch, match="non-negative")
    check_error(lambda lib: lib.poisson(lib.tensor([1, 2])), [], torch)


def test_standard_gamma_is_reparameterised_under_torchs_node_name(torch):
    alpha = core.full((20000,), 2.5, requires_grad=True)
    draws = core._standard_gamma(alpha)
    assert draws.grad_fn.name() == torch._standard_gamma(torch.ones(1, requires_grad=True)).grad_fn.name()
    assert abs(draws.mean().item() - 2.5) < 0.05 and abs(draws.var().item() - 2.5) < 0.15
    draws.mean().backward()
    assert abs(alpha.grad.sum().item() - 1.0) < 0.05  # d E[x] / d alpha = 1
    check_error(lambda lib: lib._standard_gamma(lib.tensor([1, 2])), [], torch)


def test_seeded_draws_repeat():
    core.manual_seed(5)
    first = (core.poisson(core.full((8,), 4.0)), core.binomial(core.full((8,), 20.0), core.full((8,), 0.3)))
    core.manual_seed(5)
    second = (core.poisson(core.full((8,), 4.0)), core.binomial(core.full((8,), 20.0), core.full((8,), 0.3)))
    assert all(a.tolist() == b.tolist() for a, b in zip(first, second))
