"""The distributions the API sweep added, against PyTorch: seeded draws (the same numbers), reparameterised
gradients, log_prob, cdf/icdf where they exist, moments, entropy, expand and printing, for ContinuousBernoulli,
FisherSnedecor, GeneralizedPareto, InverseGamma, Kumaraswamy, LogisticNormal and
OneHotCategoricalStraightThrough."""

import numpy as np
import pytest

import core


def _leaf(lib, values, dtype):
    return lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)


def _f64(lib, values):
    return lib.tensor(values, dtype=lib.float64)


CASES = {  # name: (build(lib, leaf) -> distribution, the leaf's values, a value to evaluate at)
    "ContinuousBernoulli": (lambda lib, w: lib.distributions.ContinuousBernoulli(probs=w), [0.2, 0.4995, 0.8],
                            [0.1, 0.5, 0.9]),
    "ContinuousBernoulli_logits": (lambda lib, w: lib.distributions.ContinuousBernoulli(logits=w), [-1.0, 0.3],
                                   [0.25, 0.75]),
    "FisherSnedecor": (lambda lib, w: lib.distributions.FisherSnedecor(w, _f64(lib, [5.0, 9.0])), [3.0, 6.0],
                       [0.5, 2.0]),
    "GeneralizedPareto": (lambda lib, w: lib.distributions.GeneralizedPareto(  # float32: torch's log_prob
        lib.tensor([0.0, 1.0, 0.5]), w, lib.tensor([0.2, 0.0, -0.3])), [1.0, 2.0, 0.5], [0.7, 1.5, 0.9]),
    "InverseGamma": (lambda lib, w: lib.distributions.InverseGamma(w, _f64(lib, [2.0, 0.5])), [1.5, 3.0], [0.8, 0.3]),
    "Kumaraswamy": (lambda lib, w: lib.distributions.Kumaraswamy(w, _f64(lib, [3.0, 1.5])), [2.0, 0.7], [0.3, 0.6]),
    "LogisticNormal": (lambda lib, w: lib.distributions.LogisticNormal(w, _f64(lib, [0.5, 1.2])), [0.1, -0.4],
                       [0.2, 0.3, 0.5]),
}
GAMMA_BASED = ("FisherSnedecor", "InverseGamma")
METHODS = ("log_prob", "cdf", "icdf", "entropy", "mean", "variance", "mode")


def _evaluate(lib, name):
    build, leaf_values, value = CASES[name]
    lib.manual_seed(0)
    dtype = "float32" if name == "GeneralizedPareto" else "float64"  # torch's GeneralizedPareto fails on float64
    leaf = _leaf(lib, leaf_values, dtype)
    dist = build(lib, leaf)
    draws = dist.rsample((4,))
    (grad,) = lib.autograd.grad(draws.sum(), leaf)
    out = {"draws": draws.detach().numpy(), "grad": grad.numpy(),
           "batch": tuple(dist.expand((3, *dist.batch_shape)).batch_shape)}
    v = lib.tensor(value, dtype=getattr(lib, dtype))
    for method in METHODS:
        try:
            result = getattr(dist, method)
            out[method] = (result(v) if method in ("log_prob", "cdf", "icdf") else
                           result() if callable(result) else result).detach().numpy()
        except NotImplementedError:
            out[method] = "NotImplementedError"
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_added_distribution_matches_torch(name, torch):
    ours, theirs = _evaluate(core, name), _evaluate(torch, name)
    assert ours.keys() == theirs.keys()
    for key in ours:
        if isinstance(ours[key], np.ndarray):
            # NOTE: a Gamma draw's gradient in its concentration is torch's own approximation (_standard_gamma_grad)
            rtol = 2e-3 if key == "grad" and name in GAMMA_BASED else 1e-5 if name == "GeneralizedPareto" else 1e-9
            np.testing.assert_allclose(ours[key], theirs[key], rtol=rtol, atol=rtol * 1e-3, equal_nan=True,
                                       err_msg=key)
        else:
            assert ours[key] == theirs[key], key


def test_straight_through_one_hot_draws_as_torch_and_passes_probability_gradients(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        probs = lib.tensor([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], requires_grad=True)
        dist = lib.distributions.OneHotCategoricalStraightThrough(probs=probs)
        sample = dist.rsample((5,))
        (sample * lib.arange(3.0)).sum().backward()
        results.append((sample.detach().numpy(), probs.grad.numpy(), dist.has_rsample))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-6)
    assert results[0][2] is results[1][2] is True


@pytest.mark.parametrize("other", ["ContinuousBernoulli", "Beta", "Exponential", "Normal", "Uniform", "Pareto"])
def test_continuous_bernoulli_kl_divergences_match_torch(other, torch):
    def pair(lib):
        d = lib.distributions
        cb = d.ContinuousBernoulli(probs=lib.tensor([0.2, 0.7], dtype=lib.float64))
        q = {"ContinuousBernoulli": lambda: d.ContinuousBernoulli(probs=lib.tensor([0.6, 0.4], dtype=lib.float64)),
             "Beta": lambda: d.Beta(lib.tensor([2.0, 0.5], dtype=lib.float64), lib.tensor([1.5, 3.0],
                                                                                        dtype=lib.float64)),
             "Exponential": lambda: d.Exponential(lib.tensor([1.5, 0.3], dtype=lib.float64)),
             "Normal": lambda: d.Normal(lib.tensor([0.2, -1.0], dtype=lib.float64), lib.tensor([0.5, 2.0],
                                                                                            dtype=lib.float64)),
             "Uniform": lambda: d.Uniform(lib.tensor([-0.5, 0.2], dtype=lib.float64), lib.tensor([1.5, 1.0],
                                                                                              dtype=lib.float64)),
             "Pareto": lambda: d.Pareto(lib.tensor([1.0, 2.0], dtype=lib.float64), lib.tensor([2.0, 3.0],
                                                                                           dtype=lib.float64))}[other]()
        backward = d.kl_divergence(q, cb)  # KL(Beta || CB) exists, KL(CB || Beta) does not (in torch either)
        return (backward if other == "Beta" else d.kl_divergence(cb, q)).numpy(), backward.numpy()
    for a, b in zip(pair(core), pair(torch)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_von_mises_draws_torchs_angles_and_matches_its_density_and_moments(dtype, torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        dist = lib.distributions.VonMises(lib.tensor([0.3, -2.0, 1.0], dtype=getattr(lib, dtype)),
                                          lib.tensor([0.5, 4.0, 20.0], dtype=getattr(lib, dtype)))
        draws = dist.sample((6,))
        value = lib.tensor([0.1, -1.5, 3.0], dtype=getattr(lib, dtype))
        results.append((draws.numpy(), dist.log_prob(value).numpy(), dist.variance.numpy(), dist.mean.numpy(),
                        tuple(dist.expand((2, 3)).batch_shape), str(draws.dtype)))
    ours, theirs = results
    rtol = 1e-6 if dtype == "float32" else 1e-12
    for a, b in zip(ours[:4], theirs[:4]):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol)
    assert ours[4:] == theirs[4:]


@pytest.mark.parametrize("concentration", [0.5, 2.0, [1.0, 3.0]])
def test_lkj_cholesky_draws_torchs_factors_and_matches_its_log_prob(concentration, torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        dist = lib.distributions.LKJCholesky(4, lib.tensor(concentration, dtype=lib.float64))
        draws = dist.sample((3,))
        results.append((draws.numpy(), dist.log_prob(draws).numpy(), tuple(dist.expand((2, *dist.batch_shape))
                                                                           .batch_shape)))
        assert bool(lib.distributions.constraints.corr_cholesky.check(draws).all())
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-12)
    assert results[0][2] == results[1][2]


@pytest.mark.parametrize("parameter", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_wishart_draws_torchs_matrices_with_its_warning_and_matches_its_density(parameter, torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        matrix = lib.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=lib.float64)
        if parameter == "scale_tril":
            matrix = lib.linalg.cholesky(matrix)
        dist = lib.distributions.Wishart(lib.tensor([5.0, 6.5], dtype=lib.float64), **{parameter: matrix})
        with pytest.warns(UserWarning, match="Singular sample detected."):  # torch's inverted check (see core)
            draws = dist.rsample((3,))
        results.append([draws, dist.log_prob(draws), dist.entropy(), dist.mean, dist.variance, dist.mode,
                        dist.covariance_matrix, dist.precision_matrix])
    for a, b in zip(*results):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


def test_wishart_refuses_bad_degrees_of_freedom_as_torch(torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match="expected to be greater than ndim - 1 = 2"):
            lib.distributions.Wishart(lib.tensor(1.5), covariance_matrix=lib.eye(3))
