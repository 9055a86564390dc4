"""kl_divergence and register_kl against torch.distributions: values, gradients and dispatch."""

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_grads

_rng = np.random.default_rng(1)


def _pos(*shape):
    return _rng.uniform(0.5, 2.5, shape).astype(np.float32)


def _real(*shape):
    return _rng.standard_normal(shape).astype(np.float32)


def _simplex(*shape):
    p = _rng.uniform(0.1, 1.0, shape)
    return (p / p.sum(-1, keepdims=True)).astype(np.float32)


def _spd(n, batch=()):
    a = _rng.standard_normal(batch + (n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(np.float32)


# name -> (p(d, *params), q(d, *params), p's parameter arrays, q's parameter arrays)
PAIRS = {
    "Normal": (lambda d, a, b: d.Normal(a, b), lambda d, a, b: d.Normal(a, b), [_real(3), _pos(3)], [_real(2, 3),
                                                                                                    _pos(3)]),
    "Bernoulli": (lambda d, p: d.Bernoulli(probs=p), lambda d, lg: d.Bernoulli(logits=lg),
                  [_rng.uniform(0.1, 0.9, 4).astype(np.float32)], [_real(4)]),
    "Categorical": (lambda d, p: d.Categorical(probs=p), lambda d, lg: d.Categorical(logits=lg), [_simplex(2, 4)],
                    [_real(2, 4)]),
    "OneHotCategorical": (lambda d, p: d.OneHotCategorical(probs=p), lambda d, lg: d.OneHotCategorical(logits=lg),
                          [_simplex(3)], [_real(2, 3)]),
    "Uniform": (lambda d, lo, w: d.Uniform(lo, lo + w), lambda d, lo, w: d.Uniform(lo - 1, lo + w + 1),
                [_real(3), _pos(3)], [_real(3) * 0.1, _pos(3) + 2]),
    "Beta": (lambda d, a, b: d.Beta(a, b), lambda d, a, b: d.Beta(a, b), [_pos(3), _pos(3)], [_pos(3), _pos(3)]),
    "Gamma": (lambda d, a, b: d.Gamma(a, b), lambda d, a, b: d.Gamma(a, b), [_pos(3), _pos(3)], [_pos(3), _pos(3)]),
    "Exponential": (lambda d, r: d.Exponential(r), lambda d, r: d.Exponential(r), [_pos(3)], [_pos(3)]),
    "Laplace": (lambda d, a, b: d.Laplace(a, b), lambda d, a, b: d.Laplace(a, b), [_real(3), _pos(3)],
                [_real(3), _pos(3)]),
    "Poisson": (lambda d, r: d.Poisson(r), lambda d, r: d.Poisson(r), [_pos(3)], [_pos(3)]),
    "Dirichlet": (lambda d, c: d.Dirichlet(c), lambda d, c: d.Dirichlet(c), [_pos(2, 3)], [_pos(3)]),
    "MultivariateNormal": (lambda d, m, c: d.MultivariateNormal(m, covariance_matrix=c),
                           lambda d, m, c: d.MultivariateNormal(m, covariance_matrix=c),
                           [_real(2, 3), _spd(3)], [_real(3), _spd(3, (2,))]),
    "Independent(Normal)": (lambda d, a, b: d.Independent(d.Normal(a, b), 1),
                            lambda d, a, b: d.Independent(d.Normal(a, b), 1), [_real(2, 3), _pos(2, 3)],
                            [_real(2, 3), _pos(2, 3)]),
}


@pytest.mark.parametrize("name", PAIRS)
def test_kl_divergence_and_its_gradients_match_torch(name, torch):
    make_p, make_q, p_params, q_params = PAIRS[name]
    n = len(p_params)

    def kl(lib, *ts):
        d = lib.distributions
        return d.kl_divergence(make_p(d, *ts[:n]), make_q(d, *ts[n:]))

    check_grads(kl, [*p_params, *q_params], torch, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("make", [
    lambda d, t: (d.Uniform(t([0.0, 0.0]), t([1.0, 1.0])), d.Uniform(t([0.5, -1.0]), t([2.0, 2.0]))),
    lambda d, t: (d.Bernoulli(probs=t([0.0, 0.5, 1.0])), d.Bernoulli(probs=t([0.5, 0.0, 1.0]))),
    lambda d, t: (d.Categorical(probs=t([0.5, 0.5, 0.0])), d.Categorical(probs=t([0.0, 0.5, 0.5]))),
], ids=["Uniform", "Bernoulli", "Categorical"])
def test_kl_divergence_is_infinite_or_zero_at_disjoint_support_like_torch(make, torch):
    ours = core.distributions.kl_divergence(*make(core.distributions, core.tensor))
    theirs = torch.distributions.kl_divergence(*make(torch.distributions, torch.tensor))
    assert_same(ours, theirs)


@pytest.mark.parametrize("make", [
    lambda d, t: (d.Categorical(probs=t([0.5, 0.5])), d.Normal(t(0.0), t(1.0))),
    lambda d, t: (d.Independent(d.Normal(t([0.0]), t([1.0])), 1), d.Normal(t([0.0]), t([1.0]))),
    lambda d, t: (d.MultivariateNormal(t([0.0]), t([[1.0]])), d.Dirichlet(t([1.0, 2.0]))),
], ids=["Categorical-Normal", "Independent-Normal", "MultivariateNormal-Dirichlet"])
def test_kl_divergence_of_an_unregistered_pair_raises_not_implemented_error_like_torch(make, torch):
    for lib in (core, torch):
        p, q = make(lib.distributions, lib.tensor)
        with pytest.raises(NotImplementedError, match="No KL\\(p \\|\\| q\\) is implemented for p type"):
            lib.distributions.kl_divergence(p, q)


def test_kl_divergence_between_exponential_families_of_two_types_raises_not_implemented_error(torch):
    p, q = core.distributions.Poisson(core.tensor([1.0])), core.distributions.Exponential(core.tensor([1.0]))
    with pytest.raises(NotImplementedError, match="different exponential families"):
        core.distributions.kl_divergence(p, q)


class _MyNormal(core.distributions.Normal):
    pass


def test_register_kl_adds_a_pair_and_subclasses_use_the_most_specific_one():
    d = core.distributions
    p = _MyNormal(core.tensor([0.0]), core.tensor([1.0]))
    q = d.Normal(core.tensor([1.0]), core.tensor([2.0]))
    expected = d.kl_divergence(d.Normal(p.loc, p.scale), q)
    assert core.allclose(d.kl_divergence(p, q), expected)  # inherited from (Normal, Normal)

    @d.register_kl(_MyNormal, d.Normal)
    def _kl_mine(p, q):
        return core.full_like(p.loc, 42.0)

    try:
        assert d.kl_divergence(p, q).tolist() == [42.0]
        assert core.allclose(d.kl_divergence(q, q), core.zeros(1))
    finally:
        del d.kl._KL_REGISTRY[_MyNormal, d.Normal]
        d.kl._KL_MEMOIZE.clear()


def test_register_kl_warns_on_an_ambiguous_pair_like_torch():
    d = core.distributions

    class P(d.Normal):
        pass

    class Q(d.Normal):
        pass

    d.register_kl(P, d.Normal)(lambda p, q: core.zeros(1))
    d.register_kl(d.Normal, Q)(lambda p, q: core.ones(1))
    try:
        p, q = P(core.zeros(1), core.ones(1)), Q(core.zeros(1), core.ones(1))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            d.kl_divergence(p, q)
        assert any("Ambiguous kl_divergence(P, Q)" in str(w.message) for w in caught)
    finally:
        del d.kl._KL_REGISTRY[P, d.Normal], d.kl._KL_REGISTRY[d.Normal, Q]
        d.kl._KL_MEMOIZE.clear()


def test_register_kl_refuses_what_is_not_a_class_and_takes_any_class():
    # torch's check only catches non-classes (its message is issubclass's); Pyro registers KLs for its mixin
    # pyro.distributions.Distribution, a class that does not derive from torch's Distribution
    import torch

    for lib in (torch, core):
        with pytest.raises(TypeError, match="issubclass"):
            lib.distributions.register_kl("Normal", lib.distributions.Normal)
        with pytest.raises(TypeError, match="issubclass"):
            lib.distributions.register_kl(lib.distributions.Normal, None)

    class Mixin:  # what pyro.distributions.Distribution is
        pass

    class Mine(Mixin):
        pass

    kl = core.distributions.kl
    try:
        kl.register_kl(Mixin, Mixin)(lambda p, q: core.tensor(7.0))
        assert kl.kl_divergence(Mine(), Mine()).item() == 7.0
    finally:
        del kl._KL_REGISTRY[Mixin, Mixin]
        kl._KL_MEMOIZE.clear()


def test_kl_divergence_between_a_distribution_and_itself_is_zero():
    d = core.distributions
    for dist in (d.Normal(core.tensor([0.3]), core.tensor([2.0])), d.Gamma(core.tensor([2.0]), core.tensor([3.0])),
                 d.Categorical(probs=core.tensor([0.2, 0.8])), d.Beta(core.tensor([2.0]), core.tensor([0.5]))):
        assert abs(d.kl_divergence(dist, dist).sum().item()) < 1e-6
