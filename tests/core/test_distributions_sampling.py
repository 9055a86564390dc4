"""Sampling in core.distributions: shapes and dtypes as torch's, the random primitive torch's sampler
calls, reparameterised gradients, and the distribution of draws (moments with a fixed seed).
"""

import math

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

_D = core.distributions
_t = core.tensor


def _cases(lib):
    t, d = lib.tensor, lib.distributions
    return {
        "Normal": d.Normal(t([0.0, 1.0]), t([1.0, 2.0])),
        "Uniform": d.Uniform(t([[0.0], [1.0]]), t([2.0, 3.0])),
        "Laplace": d.Laplace(t(0.0), t(1.0)),
        "Exponential": d.Exponential(t([1.0, 2.0, 3.0])),
        "Gamma": d.Gamma(t([0.5, 2.0]), t([1.0, 3.0])),
        "Beta": d.Beta(t([0.5, 2.0]), t([1.5, 3.0])),
        "Poisson": d.Poisson(t([0.5, 30.0])),
        "Bernoulli": d.Bernoulli(logits=t([0.0, 2.0])),
        "Categorical": d.Categorical(probs=t([[0.2, 0.8, 0.0], [0.3, 0.3, 0.4]])),
        "Multinomial": d.Multinomial(4, probs=t([0.2, 0.3, 0.5])),
        "OneHotCategorical": d.OneHotCategorical(logits=t([[0.0, 1.0], [2.0, -1.0]])),
        "Dirichlet": d.Dirichlet(t([[1.0, 2.0, 3.0]])),
        "MultivariateNormal": d.MultivariateNormal(t([0.0, 1.0]), scale_tril=t([[1.0, 0.0], [0.5, 2.0]])),
        "Independent": d.Independent(d.Normal(t([[0.0, 1.0]]), t([[1.0, 2.0]])), 2),
    }


@pytest.mark.parametrize("name", list(_cases(core)))
@pytest.mark.parametrize("sample_shape", [(), (5,), (2, 3)])
def test_sample_and_rsample_have_torch_shapes_and_dtypes(name, sample_shape, torch):
    ours, theirs = _cases(core)[name], _cases(torch)[name]
    a, b = ours.sample(sample_shape), theirs.sample(sample_shape)
    assert tuple(a.shape) == tuple(b.shape) and str(a.dtype) == str(b.dtype)
    assert not a.requires_grad
    if theirs.has_rsample:
        r = ours.rsample(core.Size(sample_shape))
        assert tuple(r.shape) == tuple(theirs.rsample(sample_shape).shape)


def test_draws_lie_in_the_support():
    core.manual_seed(0)
    for name, dist in _cases(core).items():
        assert bool(dist.support.check(dist.sample((50,))).all()), name


def _same_draws(draw, reference, seed=3):
    core.manual_seed(seed)
    ours = draw()
    core.manual_seed(seed)
    return assert_same(ours, reference())


def test_samplers_call_the_random_primitive_torch_calls():
    loc, scale = _t([0.0, 1.0]), _t([1.0, 2.0])
    _same_draws(lambda: _D.Normal(loc, scale).sample((3,)),
                lambda: core.normal(loc.expand(3, 2), scale.expand(3, 2)))
    _same_draws(lambda: _D.Normal(loc, scale).rsample((3,)), lambda: loc + core.empty(3, 2).normal_() * scale)
    low, high = _t([0.0, 1.0]), _t([2.0, 5.0])
    _same_draws(lambda: _D.Uniform(low, high).rsample((4,)), lambda: low + core.rand(4, 2) * (high - low))
    rate = _t([1.0, 4.0])
    _same_draws(lambda: _D.Exponential(rate).rsample((4,)), lambda: core.empty(4, 2).exponential_() / rate)
    probs = _t([0.3, 0.9])
    _same_draws(lambda: _D.Bernoulli(probs).sample((4,)), lambda: core.bernoulli(probs.expand(4, 2)))
    cat = _t([[0.2, 0.8], [0.6, 0.4]])
    _same_draws(lambda: _D.Categorical(cat).sample((5,)), lambda: core.multinomial(cat, 5, True).T)
    _same_draws(lambda: _D.Laplace(0.0, 1.0).rsample((3,)), _laplace_reference)


def _laplace_reference():
    u = core.empty(3).uniform_(core.finfo(core.float32).eps - 1, 1)
    return 0.0 - 1.0 * u.sign() * core.log1p(-u.abs())


def test_rsample_of_normal_is_loc_plus_eps_times_scale_with_its_gradients():
    loc, scale = _t([0.5, -1.0], requires_grad=True), _t([2.0, 0.5], requires_grad=True)
    x = _D.Normal(loc, scale).rsample((4,))
    assert x.requires_grad
    x.sum().backward()
    eps = (x.detach() - loc.detach()) / scale.detach()
    assert core.allclose(loc.grad, core.full((2,), 4.0))
    assert core.allclose(scale.grad, eps.sum(0), atol=1e-6)


def test_rsample_of_uniform_and_exponential_differentiate_through_the_transform():
    low, high = _t([0.0], requires_grad=True), _t([2.0], requires_grad=True)
    x = _D.Uniform(low, high).rsample((3,))
    x.sum().backward()
    u = x.detach() / 2.0
    assert core.allclose(high.grad, u.sum(0)) and core.allclose(low.grad, (1 - u).sum(0))
    rate = _t([2.0], requires_grad=True)
    x = _D.Exponential(rate).rsample((3,))
    x.sum().backward()
    assert core.allclose(rate.grad, (-x.detach() / 2.0).sum(0))


def test_rsample_of_multivariate_normal_is_loc_plus_scale_tril_times_eps():
    loc = _t([1.0, -1.0], requires_grad=True)
    tril = _t([[1.0, 0.0], [0.5, 2.0]], requires_grad=True)
    x = _D.MultivariateNormal(loc, scale_tril=tril).rsample((6,))
    x.sum().backward()
    eps = core.linalg.solve_triangular(tril.detach(), (x.detach() - loc.detach()).T, upper=False).T
    assert core.allclose(loc.grad, core.full((2,), 6.0))
    assert core.allclose(tril.grad, core.ones(2, 1) * eps.sum(0), atol=1e-5)


def test_standard_gamma_gradient_matches_torchs_at_the_same_draws(torch):
    alpha = np.array([0.05, 0.3, 1.0, 2.5, 7.0, 30.0, 200.0, 0.5, 3.0])
    x = np.array([1e-6, 0.2, 1.3, 2.0, 12.0, 25.0, 210.0, 4.0, 0.01])
    theirs = torch._standard_gamma_grad(torch.tensor(alpha), torch.tensor(x)).numpy()
    np.testing.assert_array_equal(core._standard_gamma_grad(core.tensor(alpha), core.tensor(x)).numpy(), theirs)


def test_gamma_rsample_gradients_are_the_implicit_reparameterisation():
    conc, rate = _t([0.7, 4.0], requires_grad=True), _t([2.0, 0.5], requires_grad=True)
    core.manual_seed(0)
    x = _D.Gamma(conc, rate).rsample((3,))
    x.sum().backward()
    xn, a, r = x.detach().numpy(), np.array([0.7, 4.0]), np.array([2.0, 0.5])
    expected = (core._standard_gamma_grad(core.tensor(a), core.tensor(xn * r)).numpy() / r).sum(0)
    np.testing.assert_allclose(conc.grad.numpy(), expected, rtol=1e-4)
    np.testing.assert_allclose(rate.grad.numpy(), (-xn / r).sum(0), rtol=1e-5)


def test_mean_reparameterised_gradients_are_the_gradients_of_the_mean():
    core.manual_seed(1)
    n = 20000
    conc = _t([0.5, 3.0], requires_grad=True)
    _D.Gamma(conc, _t([2.0, 2.0])).rsample((n,)).sum().backward()
    np.testing.assert_allclose(conc.grad.numpy() / n, [0.5, 0.5], rtol=0.04)  # d(a / rate)/da
    a, b = _t([2.0], requires_grad=True), _t([3.0], requires_grad=True)
    _D.Beta(a, b).rsample((n,)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy() / n, [3.0 / 25.0], rtol=0.04)  # d(a / (a + b))/da
    np.testing.assert_allclose(b.grad.numpy() / n, [-2.0 / 25.0], rtol=0.04)


_MOMENTS = {  # a distribution, the draws to take, relative tolerance on mean and variance
    "Gamma(0.5, 2)": (lambda: _D.Gamma(_t([0.5]), _t([2.0])), 20000, 0.05),
    "Gamma(5, 1)": (lambda: _D.Gamma(_t([5.0]), _t([1.0])), 20000, 0.05),
    "Beta(2, 3)": (lambda: _D.Beta(_t([2.0]), _t([3.0])), 20000, 0.05),
    "Poisson(3)": (lambda: _D.Poisson(_t([3.0])), 20000, 0.05),
    "Poisson(40)": (lambda: _D.Poisson(_t([40.0])), 20000, 0.05),
    "Exponential(2)": (lambda: _D.Exponential(_t([2.0])), 20000, 0.05),
    "Laplace(1, 2)": (lambda: _D.Laplace(_t([1.0]), _t([2.0])), 20000, 0.06),
    "Dirichlet(1, 2, 3)": (lambda: _D.Dirichlet(_t([1.0, 2.0, 3.0])), 20000, 0.05),
    "Bernoulli(0.3)": (lambda: _D.Bernoulli(_t([0.3])), 20000, 0.05),
    "Multinomial(6; .2 .3 .5)": (lambda: _D.Multinomial(6, _t([0.2, 0.3, 0.5])), 5000, 0.06),
}


@pytest.mark.parametrize("name", _MOMENTS)
def test_draws_have_the_distributions_mean_and_variance(name):
    make, n, tol = _MOMENTS[name]
    core.manual_seed(2)
    dist = make()
    x = dist.sample((n,)).double().numpy()
    np.testing.assert_allclose(x.mean(0), dist.mean.double().numpy(), rtol=tol, atol=0.01)
    np.testing.assert_allclose(x.var(0), dist.variance.double().numpy(), rtol=2 * tol, atol=0.002)


def test_poisson_draws_are_whole_numbers_and_zero_for_rate_zero():
    core.manual_seed(4)
    x = _D.Poisson(_t([0.0, 2.0, 15.0])).sample((100,))
    assert bool((x == x.round()).all()) and x[:, 0].abs().sum().item() == 0


def test_categorical_draws_follow_the_probabilities():
    core.manual_seed(5)
    x = _D.Categorical(probs=_t([0.1, 0.6, 0.3])).sample((20000,))
    freq = np.bincount(x.numpy(), minlength=3) / 20000
    np.testing.assert_allclose(freq, [0.1, 0.6, 0.3], atol=0.015)


def test_multivariate_normal_draws_have_the_covariance():
    core.manual_seed(6)
    cov = _t([[2.0, 0.6], [0.6, 1.0]])
    x = _D.MultivariateNormal(_t([1.0, -2.0]), covariance_matrix=cov).sample((20000,)).double().numpy()
    np.testing.assert_allclose(np.cov(x.T), cov.double().numpy(), atol=0.06)
    np.testing.assert_allclose(x.mean(0), [1.0, -2.0], atol=0.03)


def test_multinomial_counts_sum_to_the_total_count():
    core.manual_seed(7)
    x = _D.Multinomial(7, probs=_t([[0.2, 0.8], [0.5, 0.5]])).sample((10,))
    assert x.sum(-1).tolist() == [[7.0, 7.0]] * 10


def test_the_same_seed_gives_the_same_gamma_and_poisson_draws():
    for dist in (_D.Gamma(_t([0.4, 3.0]), _t([1.0, 1.0])), _D.Poisson(_t([2.0, 25.0])),
                 _D.Dirichlet(_t([0.5, 0.5, 2.0]))):
        _same_draws(lambda d=dist: d.sample((20,)), lambda d=dist: d.sample((20,)), seed=11)


def test_gamma_draws_of_a_tiny_concentration_stay_positive():
    core.manual_seed(8)
    x = _D.Gamma(_t([1e-3]), _t([1.0])).sample((1000,))
    assert bool((x > 0).all()) and math.isfinite(x.sum().item())


_TORCH_SAMPLERS = ["Normal", "Uniform", "Laplace", "Exponential", "Bernoulli", "Categorical", "Multinomial",
                   "OneHotCategorical", "MultivariateNormal", "Independent"]


@pytest.mark.parametrize("name", _TORCH_SAMPLERS)
def test_draws_equal_torchs_for_the_same_seed(name, torch):
    draws = []
    for lib in (core, torch):
        lib.manual_seed(12)
        dist = _cases(lib)[name]
        draws.append((dist.sample((3,)), dist.rsample((2,)) if dist.has_rsample else dist.sample()))
    assert_same(draws[0], draws[1], rtol=1e-6)
