"""core.distributions against torch.distributions: densities, moments, entropies and their gradients.

Each case builds the same distribution in both libraries from the same parameter arrays and
compares what a user reads off it (``log_prob`` of a value, ``entropy``, ``mean``, ``variance``,
``cdf``...) and the gradients with respect to the parameters and the value.
"""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_grads, inputs

_rng = np.random.default_rng(0)


def _pos(*shape):
    return _rng.uniform(0.5, 2.5, shape).astype(np.float32)


def _real(*shape):
    return _rng.standard_normal(shape).astype(np.float32)


def _unit(*shape):
    return _rng.uniform(0.05, 0.95, shape).astype(np.float32)


def _simplex(*shape):
    p = _rng.uniform(0.1, 1.0, shape)
    return (p / p.sum(-1, keepdims=True)).astype(np.float32)


def _spd(n, batch=()):
    a = _rng.standard_normal(batch + (n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(np.float32)


_COUNTS = np.array([[2.0, 0.0, 3.0], [1.0, 1.0, 3.0]], np.float32)
_L = np.linalg.cholesky(_spd(3)).astype(np.float32)

# name -> (make(lib, *params) -> distribution, parameter arrays, a value in the support)
CASES = {
    "Normal": (lambda d, loc, scale: d.Normal(loc, scale), [_real(2, 3), _pos(3)], _real(2, 3)),
    "Uniform": (lambda d, lo, hi: d.Uniform(lo, lo + hi), [_real(3), _pos(3)], None),
    "Laplace": (lambda d, loc, scale: d.Laplace(loc, scale), [_real(4), _pos(4)], _real(4)),
    "Exponential": (lambda d, rate: d.Exponential(rate), [_pos(2, 2)], _pos(2, 2)),
    "Gamma": (lambda d, c, r: d.Gamma(c, r), [_pos(3), _pos(2, 3)], _pos(2, 3)),
    "Beta": (lambda d, a, b: d.Beta(a, b), [_pos(4), _pos(4)], _unit(4)),
    "Poisson": (lambda d, rate: d.Poisson(rate), [_pos(3) * 3], np.array([0.0, 2.0, 7.0], np.float32)),
    "Bernoulli(probs)": (lambda d, p: d.Bernoulli(probs=p), [_unit(3)], np.array([0.0, 1.0, 1.0], np.float32)),
    "Bernoulli(logits)": (lambda d, lg: d.Bernoulli(logits=lg), [_real(3)], np.array([1.0, 0.0, 1.0], np.float32)),
    "Categorical(probs)": (lambda d, p: d.Categorical(probs=p), [_simplex(2, 4)], np.array([3, 0])),
    "Categorical(logits)": (lambda d, lg: d.Categorical(logits=lg), [_real(2, 4)], np.array([[1, 2], [0, 3]])),
    "Multinomial": (lambda d, p: d.Multinomial(5, probs=p), [_simplex(2, 3)], _COUNTS),
    "OneHotCategorical": (lambda d, lg: d.OneHotCategorical(logits=lg), [_real(2, 3)],
                          np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], np.float32)),
    "Dirichlet": (lambda d, c: d.Dirichlet(c), [_pos(2, 3)], _simplex(2, 3)),
    "MultivariateNormal(covariance)": (lambda d, loc, cov: d.MultivariateNormal(loc, covariance_matrix=cov),
                                       [_real(2, 3), _spd(3)], _real(2, 3)),
    "MultivariateNormal(scale_tril)": (lambda d, loc, tril: d.MultivariateNormal(loc, scale_tril=tril),
                                       [_real(3), _L], _real(4, 3)),
    "MultivariateNormal(precision)": (lambda d, loc, prec: d.MultivariateNormal(loc, precision_matrix=prec),
                                      [_real(3), _spd(3, (2,))], _real(2, 3)),
    "Independent(Normal)": (lambda d, loc, scale: d.Independent(d.Normal(loc, scale), 1), [_real(2, 3), _pos(2, 3)],
                            _real(2, 3)),
}
_NO_ENTROPY_IN_TORCH = {"Poisson"}


def _value(name, params):
    if name == "Uniform":  # inside [low, low + width)
        return params[0] + 0.5 * params[1]
    return CASES[name][2]


def _dist(lib, name, params):
    return CASES[name][0](lib.distributions, *params)


@pytest.mark.parametrize("name", CASES)
def test_log_prob_and_its_gradients_match_torch(name, torch):
    _, params, _ = CASES[name]
    value = _value(name, params)
    check_grads(lambda lib, *ts: _dist(lib, name, ts[:-1]).log_prob(ts[-1]), [*params, value], torch, rtol=1e-4,
                atol=1e-5)


@pytest.mark.parametrize("name", sorted(set(CASES) - _NO_ENTROPY_IN_TORCH))
def test_entropy_and_its_gradients_match_torch(name, torch):
    check_grads(lambda lib, *ts: _dist(lib, name, ts).entropy(), CASES[name][1], torch, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("moment", ["mean", "variance", "stddev", "mode"])
def test_moments_match_torch(name, moment, torch):
    params = CASES[name][1]
    results = []
    for lib in (core, torch):
        try:
            results.append(getattr(_dist(lib, name, inputs(lib, params)), moment))
        except NotImplementedError:
            results.append(NotImplementedError)
    ours, theirs = results
    if theirs is NotImplementedError:
        assert ours is NotImplementedError
    else:
        assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", CASES)
def test_shapes_and_flags_match_torch(name, torch):
    params = CASES[name][1]
    ours, theirs = (_dist(lib, name, inputs(lib, params)) for lib in (core, torch))
    assert tuple(ours.batch_shape) == tuple(theirs.batch_shape)
    assert tuple(ours.event_shape) == tuple(theirs.event_shape)
    assert ours.has_rsample == theirs.has_rsample
    assert ours.has_enumerate_support == theirs.has_enumerate_support
    assert type(ours.support).__name__ == type(theirs.support).__name__
    assert repr(ours).replace("torch.", "") == repr(theirs).replace("torch.", "")


def test_poisson_entropy_is_not_implemented_as_in_torch(torch):
    for lib in (core, torch):
        with pytest.raises(NotImplementedError):
            lib.distributions.Poisson(lib.tensor([1.0])).entropy()


_CONTINUOUS = {  # name -> (make(lib, *params), parameter arrays, a value, a quantile level)
    "Normal": (lambda d, loc, scale: d.Normal(loc, scale), [_real(3), _pos(3)], _real(3), _unit(3)),
    "Uniform": (lambda d, lo, width: d.Uniform(lo - 1, lo + width), [_real(3), _pos(3)], None, _unit(3)),
    "Laplace": (lambda d, loc, scale: d.Laplace(loc, scale), [_real(3), _pos(3)], _real(3), _unit(3)),
    "Exponential": (lambda d, rate: d.Exponential(rate), [_pos(3)], _pos(3), _unit(3)),
}


@pytest.mark.parametrize("name", _CONTINUOUS)
def test_cdf_and_icdf_and_their_gradients_match_torch(name, torch):
    make, params, value, quantile = _CONTINUOUS[name]
    value = params[0] if value is None else value
    check_grads(lambda lib, *ts: make(lib.distributions, *ts[:-1]).cdf(ts[-1]), [*params, value], torch, rtol=1e-4,
                atol=1e-6)
    check_grads(lambda lib, *ts: make(lib.distributions, *ts[:-1]).icdf(ts[-1]), [*params, quantile], torch,
                rtol=1e-4, atol=1e-5)


def test_gamma_cdf_and_its_gradient_in_the_value_match_torch(torch):
    conc = np.array([0.3, 1.0, 4.0, 30.0], np.float64)
    rate = np.array([1.0, 2.0, 0.5, 1.0], np.float64)
    value = np.array([0.1, 0.7, 9.0, 28.0], np.float64)
    results = []
    for lib in (core, torch):
        x = lib.tensor(value, requires_grad=True)
        cdf = lib.distributions.Gamma(lib.tensor(conc), lib.tensor(rate)).cdf(x)
        cdf.sum().backward()
        results.append((cdf, x.grad))
    assert_same(results[0][0], results[1][0], rtol=1e-8, atol=1e-12)
    assert_same(results[0][1], results[1][1], rtol=1e-8, atol=1e-12)


def test_log_prob_broadcasts_a_batch_of_values_like_torch(torch):
    loc, scale, value = _real(3), _pos(3), _real(5, 1, 3)
    check_grads(lambda lib, a, b, v: lib.distributions.Normal(a, b).log_prob(v), [loc, scale, value], torch)


def test_numbers_as_parameters_give_an_empty_batch_shape_like_torch(torch):
    for lib in (core, torch):
        d = lib.distributions.Normal(0.0, 2.0)
        assert tuple(d.batch_shape) == () and d.loc.dtype == lib.float32
        assert abs(d.log_prob(lib.tensor(1.0)).item() - (-1.737085)) < 1e-5
    ours, theirs = core.distributions.Gamma(2.0, 3.0), torch.distributions.Gamma(2.0, 3.0)
    assert_same(ours.log_prob(core.tensor([0.5])), theirs.log_prob(torch.tensor([0.5])))


def test_float64_parameters_keep_float64_like_torch(torch):
    params = [_real(3).astype(np.float64), _pos(3).astype(np.float64)]
    ours, theirs = (lib.distributions.Normal(*inputs(lib, params)) for lib in (core, torch))
    assert_same(ours.log_prob(core.tensor([0.0])), theirs.log_prob(torch.tensor([0.0])))
    assert_same(ours.entropy(), theirs.entropy())


@pytest.mark.parametrize("name", ["Normal", "Gamma", "Categorical(probs)", "Multinomial", "Dirichlet",
                                  "OneHotCategorical", "MultivariateNormal(covariance)", "Independent(Normal)",
                                  "Bernoulli(probs)"])
def test_expand_gives_torch_shapes_and_values(name, torch):
    params = CASES[name][1]
    value = _value(name, params)
    results = []
    for lib in (core, torch):
        d = _dist(lib, name, inputs(lib, params))
        e = d.expand((4,) + tuple(d.batch_shape))
        results.append((tuple(e.batch_shape), tuple(e.event_shape), e.log_prob(lib.tensor(value)), e.mean))
    (ob, oe, olp, om), (tb, te, tlp, tm) = results
    assert (ob, oe) == (tb, te)
    assert_same(olp, tlp, rtol=1e-5, atol=1e-5)
    assert_same(om, tm)


def test_bernoulli_probs_and_logits_convert_like_torch(torch):
    p = np.array([0.0, 0.25, 0.5, 1.0], np.float32)
    ours, theirs = core.distributions.Bernoulli(probs=core.tensor(p)), torch.distributions.Bernoulli(
        probs=torch.tensor(p))
    assert_same(ours.logits, theirs.logits)
    lg = np.array([-3.0, 0.0, 2.0], np.float32)
    ours, theirs = core.distributions.Bernoulli(logits=core.tensor(lg)), torch.distributions.Bernoulli(
        logits=torch.tensor(lg))
    assert_same(ours.probs, theirs.probs)


def test_categorical_normalises_probs_and_logits_like_torch(torch):
    raw = np.array([[1.0, 2.0, 5.0], [3.0, 3.0, 3.0]], np.float32)
    for kw in ("probs", "logits"):
        ours = core.distributions.Categorical(**{kw: core.tensor(raw)}, validate_args=False)
        theirs = torch.distributions.Categorical(**{kw: torch.tensor(raw)}, validate_args=False)
        assert_same(ours.probs, theirs.probs)
        assert_same(ours.logits, theirs.logits)
        assert_same(ours.enumerate_support(), theirs.enumerate_support())


def test_multinomial_log_prob_of_a_zero_probability_category_never_drawn_is_finite(torch):
    probs, counts = np.array([0.0, 0.4, 0.6], np.float32), np.array([0.0, 2.0, 3.0], np.float32)
    ours = core.distributions.Multinomial(5, probs=core.tensor(probs)).log_prob(core.tensor(counts))
    theirs = torch.distributions.Multinomial(5, probs=torch.tensor(probs)).log_prob(torch.tensor(counts))
    assert_same(ours, theirs)
    assert np.isfinite(ours.item())


def test_perplexity_is_the_exponential_of_the_entropy_like_torch(torch):
    ours = core.distributions.Categorical(probs=core.tensor([0.2, 0.3, 0.5])).perplexity()
    theirs = torch.distributions.Categorical(probs=torch.tensor([0.2, 0.3, 0.5])).perplexity()
    assert_same(ours, theirs)


def test_multivariate_normal_derived_matrices_match_torch(torch):
    loc, cov = _real(3), _spd(3)
    ours = core.distributions.MultivariateNormal(core.tensor(loc), covariance_matrix=core.tensor(cov))
    theirs = torch.distributions.MultivariateNormal(torch.tensor(loc), covariance_matrix=torch.tensor(cov))
    for name in ("scale_tril", "precision_matrix", "covariance_matrix"):
        assert_same(getattr(ours, name), getattr(theirs, name), rtol=1e-4, atol=1e-5)
