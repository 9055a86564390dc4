"""MixtureSameFamily, LowRankMultivariateNormal, RelaxedBernoulli, RelaxedOneHotCategorical and the
mixed-family KL pairs against torch.distributions: values, seeded samples, gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
from core.distributions import kl_mixed, kl_pareto
from core.distributions.kl import _KL_REGISTRY
from tests.core.oracle import assert_same, check, check_grads

RNG = np.random.default_rng(8)
LOW = np.array([-0.2, 0.1, 0.3], dtype=np.float32)
WIDTH = np.array([0.5, 0.6, 1.2], dtype=np.float32)
POS = np.array([0.7, 1.3, 2.1], dtype=np.float32)
POS2 = np.array([1.6, 0.9, 0.6], dtype=np.float32)
REAL = np.array([-0.4, 0.2, 1.1], dtype=np.float32)
PROBS = np.array([0.2, 0.5, 0.7], dtype=np.float32)

# family name -> (factory(lib, *tensors), parameter arrays)
FAMILIES = {
    "Normal": (lambda d, a, b: d.Normal(a, b), [REAL, POS]),
    "Beta": (lambda d, a, b: d.Beta(a, b), [POS, POS2]),
    "Uniform": (lambda d, lo, w: d.Uniform(lo, lo + w), [LOW, WIDTH]),
    "Exponential": (lambda d, r: d.Exponential(r), [POS2]),
    "Gamma": (lambda d, a, b: d.Gamma(a, b), [POS2, POS]),
    "Gumbel": (lambda d, a, b: d.Gumbel(a, b), [REAL, POS2]),
    "Laplace": (lambda d, a, b: d.Laplace(a, b), [REAL, POS]),
    "Poisson": (lambda d, r: d.Poisson(r), [POS]),
    "Bernoulli": (lambda d, p: d.Bernoulli(probs=p), [PROBS]),
    "Binomial": (lambda d, p: d.Binomial(5, probs=p), [PROBS]),
    "Pareto": (lambda d, s, a: d.Pareto(s, a), [POS2 * 0.5, np.array([0.8, 1.7, 2.6], dtype=np.float32)]),
}
MIXED = sorted((p.__name__, q.__name__) for p, q in _KL_REGISTRY
               if _KL_REGISTRY[p, q].__module__ in (kl_mixed.__name__, kl_pareto.__name__) and p.__name__ in FAMILIES
               and q.__name__ in FAMILIES)


def test_every_mixed_family_pair_torch_registers_between_core_families_is_registered(torch):
    from torch.distributions.kl import _KL_REGISTRY as theirs

    ours = {(p.__name__, q.__name__) for p, q in _KL_REGISTRY}
    missing = [(p.__name__, q.__name__) for p, q in theirs
               if hasattr(core.distributions, p.__name__) and hasattr(core.distributions, q.__name__)
               and (p.__name__, q.__name__) not in ours]
    assert not missing


@pytest.mark.parametrize("pair", MIXED, ids=["-".join(p) for p in MIXED])
def test_mixed_family_kl_matches_torch_with_gradients(torch, pair):
    (make_p, p_args), (make_q, q_args) = FAMILIES[pair[0]], FAMILIES[pair[1]]
    n = len(p_args)

    def fn(lib, *params):
        d = lib.distributions
        return d.kl_divergence(make_p(d, *params[:n]), make_q(d, *params[n:]))

    ours = check(fn, p_args + q_args, torch, rtol=1e-4, atol=1e-5)
    if not bool(ours.isinf().all()):  # the pairs with disjoint supports are constant infinities
        check_grads(fn, p_args + q_args, torch, rtol=1e-4, atol=1e-5)


def _lowrank(d, loc, w, diag):
    return d.LowRankMultivariateNormal(loc, w, diag)


LOC = RNG.standard_normal((2, 4)).astype(np.float32)
FACTOR = RNG.standard_normal((2, 4, 2)).astype(np.float32)
DIAG = RNG.uniform(0.5, 1.5, (4,)).astype(np.float32)


@pytest.mark.parametrize("what", ["log_prob", "entropy", "moments", "rsample", "kl"])
def test_lowrank_multivariate_normal_matches_torch(torch, what):
    value = RNG.standard_normal((3, 2, 4)).astype(np.float32)

    def fn(lib, loc, w, diag, x):
        dist = _lowrank(lib.distributions, loc, w, diag)
        if what == "log_prob":
            return dist.log_prob(x)
        if what == "entropy":
            return dist.entropy()
        if what == "moments":
            return lib.cat([dist.variance.reshape(-1), dist.covariance_matrix.reshape(-1),
                            dist.precision_matrix.reshape(-1), dist.scale_tril.reshape(-1)])
        if what == "rsample":
            lib.manual_seed(4)
            return dist.rsample((3,))
        mvn = lib.distributions.MultivariateNormal(loc * 0.5, scale_tril=lib.diag_embed(diag + 0.2))
        other = _lowrank(lib.distributions, loc.flip(0), w * 0.5, diag + 0.3)
        return lib.stack([lib.distributions.kl_divergence(dist, other), lib.distributions.kl_divergence(mvn, dist),
                          lib.distributions.kl_divergence(dist, mvn)])

    check_grads(fn, [LOC, FACTOR, DIAG, value], torch, rtol=1e-4, atol=1e-4)


def test_lowrank_multivariate_normal_rejects_bad_shapes_like_torch(torch):
    for lib in (core, torch):
        d = lib.distributions
        with pytest.raises(ValueError, match="cov_factor must be a batch of matrices with shape 4 x m"):
            d.LowRankMultivariateNormal(lib.zeros(4), lib.ones(3, 2), lib.ones(4))
        with pytest.raises(ValueError, match="cov_diag must be a batch of vectors"):
            d.LowRankMultivariateNormal(lib.zeros(4), lib.ones(4, 2), lib.ones(3))


def _mixture(lib, logits, loc, scale):
    d = lib.distributions
    return d.MixtureSameFamily(d.Categorical(logits=logits), d.Independent(d.Normal(loc, scale), 1))


MIX_LOGITS = RNG.standard_normal((2, 3)).astype(np.float32)
MIX_LOC = RNG.standard_normal((2, 3, 2)).astype(np.float32)
MIX_SCALE = RNG.uniform(0.5, 1.5, (2, 3, 2)).astype(np.float32)


def test_mixture_same_family_log_prob_and_moments_match_torch_with_gradients(torch):
    x = RNG.standard_normal((5, 2, 2)).astype(np.float32)

    def fn(lib, logits, loc, scale, value):
        mix = _mixture(lib, logits, loc, scale)
        return lib.cat([mix.log_prob(value).reshape(-1), mix.mean.reshape(-1), mix.variance.reshape(-1)])

    check_grads(fn, [MIX_LOGITS, MIX_LOC, MIX_SCALE, x], torch, rtol=1e-4, atol=1e-5)


def test_mixture_same_family_samples_cdf_shapes_and_repr_match_torch(torch):
    outs = []
    for lib in (core, torch):
        d = lib.distributions
        lib.manual_seed(2)
        mix = _mixture(lib, lib.tensor(MIX_LOGITS), lib.tensor(MIX_LOC), lib.tensor(MIX_SCALE))
        flat = d.MixtureSameFamily(d.Categorical(logits=lib.tensor(MIX_LOGITS[0])),
                                   d.Normal(lib.tensor(MIX_LOC[0, :, 0]), lib.tensor(MIX_SCALE[0, :, 0])))
        outs.append([mix.sample((4,)), flat.sample((6,)), flat.cdf(lib.tensor([0.1, -0.3])), mix.batch_shape,
                     mix.event_shape, mix.expand((3, 2)).batch_shape, repr(flat)])
    assert_same(outs[0], outs[1], rtol=1e-5, atol=1e-6)


def test_mixture_same_family_rejects_mismatched_components_like_torch(torch):
    for lib in (core, torch):
        d = lib.distributions
        with pytest.raises(ValueError, match="does not equal"):
            d.MixtureSameFamily(d.Categorical(logits=lib.zeros(2)), d.Normal(lib.zeros(3), lib.ones(3)))
        with pytest.raises(ValueError, match="Mixture distribution needs to be an"):
            d.MixtureSameFamily(d.Normal(lib.zeros(3), lib.ones(3)), d.Normal(lib.zeros(3), lib.ones(3)))
        with pytest.raises(ValueError, match="Component distribution needs to be an instance"):
            d.MixtureSameFamily(d.Categorical(logits=lib.zeros(3)), lib.zeros(3))


@pytest.mark.parametrize("name", ["RelaxedBernoulli", "RelaxedOneHotCategorical"])
def test_relaxed_distributions_sample_and_score_like_torch(torch, name):
    probs = RNG.uniform(0.1, 0.9, (2, 3)).astype(np.float32)
    temperature = np.array([0.7], dtype=np.float32)

    def fn(lib, p, t):
        lib.manual_seed(9)
        dist = getattr(lib.distributions, name)(t, probs=p)
        x = dist.rsample((4,))
        return lib.cat([x.reshape(-1), dist.log_prob(x.detach()).reshape(-1)])

    check_grads(fn, [probs, temperature], torch, rtol=1e-4, atol=1e-4)


def test_relaxed_distributions_take_logits_and_expand_like_torch(torch):
    outs = []
    for lib in (core, torch):
        d = lib.distributions
        lib.manual_seed(1)
        logits, t = lib.tensor([[0.3, -1.0, 2.0]]), lib.tensor(0.5)
        rb, roc = d.RelaxedBernoulli(t, logits=logits), d.RelaxedOneHotCategorical(t, logits=logits)
        outs.append([rb.probs, roc.probs, rb.sample(), roc.sample((2,)), rb.expand((4, 3)).batch_shape,
                     roc.expand((5,)).batch_shape, roc.event_shape, rb.support.check(lib.tensor(0.5))])
    assert_same(outs[0], outs[1])


@pytest.mark.parametrize("name", ["HalfCauchy", "Pareto", "Weibull"])
def test_half_cauchy_pareto_and_weibull_match_torch(torch, name):
    make = {"HalfCauchy": lambda d, a, b: d.HalfCauchy(a), "Pareto": lambda d, a, b: d.Pareto(a, b),
            "Weibull": lambda d, a, b: d.Weibull(a, b)}[name]

    def fn(lib, a, b):
        lib.manual_seed(6)
        dist = make(lib.distributions, a, b)
        x = dist.rsample((2,))
        parts = [x, dist.log_prob(x.detach()), dist.entropy(), dist.mode]
        if name != "HalfCauchy":
            parts += [dist.mean, dist.variance]
        else:
            parts += [dist.cdf(x.detach()), dist.icdf(lib.tensor([0.2, 0.5, 0.9]))]
        return lib.cat([t.reshape(-1) for t in parts])

    check_grads(fn, [POS, POS2 + 1.5], torch, rtol=1e-4, atol=1e-5)
    for lib in (core, torch):
        assert tuple(make(lib.distributions, lib.tensor(POS), lib.tensor(POS2)).expand((2, 3)).batch_shape) == (2, 3)


def test_negative_binomial_scores_and_moments_match_torch_with_gradients(torch):
    counts = np.array([[0.0, 3.0, 1.0], [5.0, 0.0, 2.0]], dtype=np.float32)

    def fn(lib, total, logits, value):
        dist = lib.distributions.NegativeBinomial(total, logits=logits)
        by_probs = lib.distributions.NegativeBinomial(total, probs=lib.sigmoid(logits))
        return lib.cat([dist.log_prob(value).reshape(-1), by_probs.log_prob(value).reshape(-1), dist.mean,
                        dist.variance, dist.mode])

    check_grads(fn, [POS + 1, REAL, counts], torch, rtol=1e-4, atol=1e-5)


def test_negative_binomial_samples_are_counts_of_the_right_shape():
    core.manual_seed(0)
    dist = core.distributions.NegativeBinomial(core.tensor([2.0, 5.5]), logits=core.tensor([0.3, -1.2]))
    draws = dist.sample((500,))
    assert tuple(draws.shape) == (500, 2) and bool((draws >= 0).all()) and bool((draws == draws.round()).all())
    assert np.allclose(draws.mean(0).numpy(), dist.mean.numpy(), rtol=0.25)
