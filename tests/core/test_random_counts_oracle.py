"""core's gamma, Poisson, binomial and Dirichlet draws are PyTorch's: after the same seed they equal torch's
CPU draws element for element and leave the generator exactly where torch leaves it.

Each test seeds both libraries (or a ``Generator`` of each), runs the same code in each and compares
values, dtypes and shapes exactly, then the default generators' state bytes (which hold the cached
Box-Muller sine too), so a draw that took one number more or less than torch's fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy

SEED = 2024
DTYPES = ["float32", "float64"]
SIZES = [1, 5, 17, 300]


def _same(ours, theirs) -> None:
    a, b = to_numpy(ours), to_numpy(theirs)
    assert str(ours.dtype).replace("torch.", "") == str(theirs.dtype).replace("torch.", "")
    assert a.shape == b.shape
    assert np.array_equal(a, b, equal_nan=True), f"first differences: {a[a != b][:3]} vs {b[a != b][:3]}"


def _check(torch, fn, seed=SEED) -> None:
    """Run ``fn(lib)`` after ``manual_seed(seed)`` in both libraries; compare every tensor and the generator."""
    torch.manual_seed(seed)
    theirs = fn(torch)
    core.manual_seed(seed)
    ours = fn(core)
    for o, t in zip(ours, theirs) if isinstance(ours, tuple) else [(ours, theirs)]:
        _same(o, t)
    assert np.array_equal(to_numpy(core.get_rng_state()), to_numpy(torch.get_rng_state())), "streams diverged"


def _full(lib, n, value, dtype):
    return lib.full((n,), value, dtype=getattr(lib, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("concentration", [0.05, 0.5, 1.0, 2.5, 30.0])
def test_standard_gamma_draws_equal_torchs(torch, dtype, n, concentration):
    _check(torch, lambda T: T._standard_gamma(_full(T, n, concentration, dtype)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_standard_gamma_of_mixed_zero_and_tiny_concentrations_equals_torchs(torch, dtype):
    alphas = [0.0, 1e-3, 0.3, 0.999, 1.0, 1.5, 7.0, 0.0, 1e-30, 400.0] * 3
    _check(torch, lambda T: T._standard_gamma(T.tensor(alphas, dtype=getattr(T, dtype)).reshape(3, 10).t()))


@pytest.mark.parametrize("dtype", DTYPES + ["float16"])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("rate", [0.0, 0.3, 4.0, 9.99, 10.0, 250.0])
def test_poisson_draws_equal_torchs_below_and_above_rate_ten(torch, dtype, n, rate):
    _check(torch, lambda T: T.poisson(_full(T, n, rate, dtype)))


BINOMIAL_CASES = {  # count, prob: which branch of torch's sampler they take
    "inversion": (6.0, 0.3),
    "inversion, many trials": (2000.0, 0.004),
    "inversion of 1 - prob": (9.0, 0.85),
    "BTRS": (100.0, 0.3),
    "BTRS at one half": (41.0, 0.5),
    "BTRS of 1 - prob": (120.0, 0.7),
    "BTRS, a million trials": (1e6, 0.37),
    "prob 0": (50.0, 0.0),
    "prob 1": (50.0, 1.0),
    "no trials": (0.0, 0.5),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [3, 40])
@pytest.mark.parametrize("case", BINOMIAL_CASES)
def test_binomial_draws_equal_torchs_in_both_algorithms_and_at_the_edges(torch, dtype, n, case):
    count, prob = BINOMIAL_CASES[case]
    _check(torch, lambda T: T.binomial(_full(T, n, count, dtype), _full(T, n, prob, dtype)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_binomial_of_mixed_counts_and_probs_equals_torchs(torch, dtype):
    counts = [10.0, 100.0, 1000.0, 5.0, 0.0, 20.0, 37.0, 1e6, 3.0, 12.5]
    probs = [0.3, 0.2, 0.7, 0.5, 0.4, 0.95, 0.0, 0.001, 1.0, 0.5]
    _check(torch, lambda T: T.binomial(T.tensor(counts * 2, dtype=getattr(T, dtype)),
                                       T.tensor(probs * 2, dtype=getattr(T, dtype))))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("categories", [1, 2, 3, 5, 8, 17, 300])
def test_sample_dirichlet_equals_torchs_for_short_and_long_category_rows(torch, dtype, categories):
    alpha = np.random.default_rng(categories).uniform(0.05, 3.0, (4, categories))
    _check(torch, lambda T: T._sample_dirichlet(T.tensor(alpha, dtype=getattr(T, dtype))))


def _distribution_draws(T, dtype):
    d, t = T.distributions, lambda v: T.tensor(v, dtype=getattr(T, dtype))
    return (d.Gamma(t([0.3, 2.0, 11.0]), t([1.0, 3.0, 0.5])).rsample((7,)),
            d.Gamma(t([1e-3, 0.01]), t([1e30, 1e30])).rsample((4,)),  # float32 quotients underflow: clamped to tiny
            d.Chi2(t([0.5, 3.0])).sample((9,)),
            d.Beta(t([0.3, 2.0]), t([1.5, 0.7])).rsample((9,)),
            d.Dirichlet(t([[0.3, 2.0, 1.0, 4.0, 0.1]])).rsample((6,)),
            d.StudentT(t([0.5, 3.0, 30.0]), t(1.0), t(2.0)).rsample((5,)),
            d.Poisson(t([0.3, 20.0, 0.0])).sample((9,)),
            d.Binomial(t([10.0, 100.0, 7.0]), t([0.3, 0.6, 1.0])).sample((9,)),
            d.NegativeBinomial(t([3.0, 100.0]), logits=t([0.0, 0.0])).sample((9,)))  # exp(-0): an exact rate


@pytest.mark.parametrize("dtype", DTYPES)
def test_distribution_samples_built_on_these_kernels_equal_torchs(torch, dtype):
    _check(torch, lambda T: _distribution_draws(T, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_draws_between_other_random_calls_keep_the_streams_aligned(torch, dtype):
    def steps(T):
        dt = getattr(T, dtype)
        return (T.randn(3, dtype=T.float64),  # leaves a cached normal, which the gamma sampler uses first
                T._standard_gamma(_full(T, 20, 0.7, dtype)), T.rand(3),
                T.poisson(_full(T, 20, 12.0, dtype)), T.randn(1, dtype=dt),
                T.binomial(_full(T, 20, 30.0, dtype), _full(T, 20, 0.4, dtype)), T.randn(5, dtype=T.float64),
                T._sample_dirichlet(T.ones(4, 3, dtype=dt)), T.randn(17, dtype=dt))
    _check(torch, steps)


@pytest.mark.parametrize("dtype", DTYPES)
def test_generator_objects_give_torchs_draws_and_leave_the_default_stream_alone(torch, dtype):
    def with_generator(T):
        g, dt = T.Generator().manual_seed(99), getattr(T, dtype)
        draws = (T._standard_gamma(_full(T, 20, 0.7, dtype), generator=g), T.poisson(_full(T, 5, 3.0, dtype), g),
                 T.binomial(_full(T, 5, 30.0, dtype), _full(T, 5, 0.4, dtype), generator=g),
                 T._sample_dirichlet(T.ones(4, 3, dtype=dt), generator=g), T.rand(4, generator=g))
        return draws + (g.get_state(),)
    _check(torch, with_generator)


def test_gamma_rsample_gradients_are_close_to_torchs_at_the_same_draws(torch):
    grads = []
    for lib in (core, torch):
        lib.manual_seed(SEED)
        conc = lib.tensor([0.2, 0.9, 3.0, 40.0], dtype=lib.float64, requires_grad=True)
        lib.distributions.Gamma(conc, lib.tensor(2.0, dtype=lib.float64)).rsample((50,)).sum().backward()
        grads.append(to_numpy(conc.grad))
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-3)


def test_zero_dim_empty_and_transposed_inputs_keep_their_shapes_and_equal_torchs(torch):
    def draws(T):
        return (T.poisson(T.tensor(20.0)), T._standard_gamma(T.tensor(0.4)), T.binomial(T.tensor(30.0), T.tensor(0.4)),
                T._sample_dirichlet(T.tensor(2.0)), T._standard_gamma(T.ones(0, 2)), T._sample_dirichlet(T.ones(0, 3)),
                T._sample_dirichlet(T.ones(2, 0)), T._standard_gamma(T.arange(1.0, 13.0).reshape(3, 4).t()),
                T.binomial(T.full((4, 3), 30.0).t(), T.linspace(0.1, 0.9, 12).reshape(3, 4)))
    _check(torch, draws)
