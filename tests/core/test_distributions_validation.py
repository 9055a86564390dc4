"""core.distributions validate arguments and values as torch.distributions does (ValueError, same gist)."""

import numpy as np
import pytest

import core
from tests.core.oracle import check_error

_BAD_PARAMETERS = {
    "Normal scale <= 0": (lambda d, t: d.Normal(t([0.0, 1.0]), t([1.0, -1.0])), "scale"),
    "Normal loc nan": (lambda d, t: d.Normal(t([float("nan")]), t([1.0])), "loc"),
    "Uniform low >= high": (lambda d, t: d.Uniform(t([0.0, 2.0]), t([1.0, 1.0])), "low"),
    "Bernoulli probs > 1": (lambda d, t: d.Bernoulli(probs=t([0.5, 1.5])), "probs"),
    "Categorical negative probs": (lambda d, t: d.Categorical(probs=t([0.5, -0.5, 1.0])), "probs"),
    "Multinomial negative probs": (lambda d, t: d.Multinomial(3, probs=t([-0.1, 1.1])), "probs"),
    "Beta zero concentration": (lambda d, t: d.Beta(t([0.0]), t([1.0])), "concentration"),
    "Gamma negative rate": (lambda d, t: d.Gamma(t([1.0]), t([-2.0])), "rate"),
    "Exponential zero rate": (lambda d, t: d.Exponential(t([0.0])), "rate"),
    "Laplace negative scale": (lambda d, t: d.Laplace(t([0.0]), t([-1.0])), "scale"),
    "Poisson negative rate": (lambda d, t: d.Poisson(t([-1.0])), "rate"),
    "Dirichlet negative concentration": (lambda d, t: d.Dirichlet(t([1.0, -1.0])), "concentration"),
    "MultivariateNormal non-symmetric covariance": (
        lambda d, t: d.MultivariateNormal(t([0.0, 0.0]), covariance_matrix=t([[1.0, 0.5], [0.0, 1.0]])),
        "covariance_matrix"),
    "MultivariateNormal scale_tril not lower": (
        lambda d, t: d.MultivariateNormal(t([0.0, 0.0]), scale_tril=t([[1.0, 0.5], [0.0, 1.0]])), "scale_tril"),
}


@pytest.mark.parametrize("case", _BAD_PARAMETERS)
def test_invalid_parameters_raise_value_error_like_torch(case, torch):
    make, param = _BAD_PARAMETERS[case]
    check_error(lambda lib: make(lib.distributions, lib.tensor), [], torch, match=f"Expected parameter {param}")


def test_the_parameter_message_names_shape_distribution_and_constraint(torch):
    for lib in (core, torch):
        with pytest.raises(ValueError) as info:
            lib.distributions.Normal(lib.tensor([0.0, 1.0]), lib.tensor([1.0, -1.0]))
        msg = str(info.value)
        assert msg.startswith("Expected parameter scale (Tensor of shape (2,)) of distribution "
                              "Normal(loc: torch.Size([2]), scale: torch.Size([2])) to satisfy the constraint "
                              "GreaterThan(lower_bound=0.0), but found invalid values:\n")


_OUT_OF_SUPPORT = {
    "Normal nan": (lambda d, t: d.Normal(t([0.0]), t([1.0])), [float("nan")]),
    "Uniform outside": (lambda d, t: d.Uniform(t([0.0]), t([1.0])), [1.5]),
    "Bernoulli not 0/1": (lambda d, t: d.Bernoulli(probs=t([0.3])), [0.5]),
    "Exponential negative": (lambda d, t: d.Exponential(t([1.0])), [-1.0]),
    "Gamma negative": (lambda d, t: d.Gamma(t([1.0]), t([1.0])), [-0.5]),
    "Beta above one": (lambda d, t: d.Beta(t([1.0]), t([1.0])), [1.5]),
    "Poisson fraction": (lambda d, t: d.Poisson(t([1.0])), [1.5]),
    "Categorical index too large": (lambda d, t: d.Categorical(probs=t([0.5, 0.5])), [2]),
    "Dirichlet off simplex": (lambda d, t: d.Dirichlet(t([1.0, 1.0])), [[0.5, 0.6]]),
    "Multinomial too many": (lambda d, t: d.Multinomial(2, probs=t([0.5, 0.5])), [[2.0, 1.0]]),
}


@pytest.mark.parametrize("case", _OUT_OF_SUPPORT)
def test_log_prob_of_a_value_outside_the_support_raises_value_error_like_torch(case, torch):
    make, value = _OUT_OF_SUPPORT[case]
    check_error(lambda lib: make(lib.distributions, lib.tensor).log_prob(lib.tensor(value)), [], torch,
                match="Expected value argument .* to be within the support")


def test_log_prob_of_a_value_of_the_wrong_shape_raises_value_error_like_torch(torch):
    check_error(lambda lib: lib.distributions.Normal(lib.zeros(3), lib.ones(3)).log_prob(lib.zeros(2)), [], torch,
                match="Value is not broadcastable with batch_shape\\+event_shape")
    check_error(lambda lib: lib.distributions.Dirichlet(lib.ones(3)).log_prob(lib.ones(2) / 2), [], torch,
                match="The right-most size of value must match event_shape")


def test_log_prob_of_a_number_raises_value_error_like_torch(torch):
    check_error(lambda lib: lib.distributions.Normal(lib.zeros(1), lib.ones(1)).log_prob(0.5), [], torch,
                match="The value argument to log_prob must be a Tensor")


@pytest.mark.parametrize("make", [
    lambda d, t: d.Bernoulli(probs=t([0.5]), logits=t([0.0])),
    lambda d, t: d.Categorical(),
    lambda d, t: d.Categorical(probs=t(0.5)),
    lambda d, t: d.Dirichlet(t(1.0)),
    lambda d, t: d.MultivariateNormal(t([0.0]), covariance_matrix=t([[1.0]]), scale_tril=t([[1.0]])),
    lambda d, t: d.MultivariateNormal(t(0.0), covariance_matrix=t([[1.0]])),
    lambda d, t: d.Independent(d.Normal(t([0.0]), t([1.0])), 2),
], ids=["probs and logits", "neither", "0-d probs", "0-d concentration", "two matrices", "0-d loc",
        "too many reinterpreted dims"])
def test_malformed_constructor_arguments_raise_value_error_like_torch(make, torch):
    check_error(lambda lib: make(lib.distributions, lib.tensor), [], torch)


def test_broadcast_all_refuses_what_is_neither_number_nor_tensor(torch):
    check_error(lambda lib: lib.distributions.Normal("0", 1.0), [], torch, match="Input arguments must all be")


def test_validate_args_false_accepts_invalid_parameters_and_values(torch):
    for lib in (core, torch):
        d = lib.distributions.Normal(lib.tensor([0.0]), lib.tensor([-1.0]), validate_args=False)
        assert np.isnan(d.log_prob(lib.tensor([0.5])).item())
        b = lib.distributions.Bernoulli(probs=lib.tensor([0.3]), validate_args=False)
        assert np.isfinite(b.log_prob(lib.tensor([0.5])).item())


@pytest.fixture
def validation_off():
    core.distributions.Distribution.set_default_validate_args(False)
    yield
    core.distributions.Distribution.set_default_validate_args(True)


def test_set_default_validate_args_turns_validation_off_for_new_distributions(validation_off):
    d = core.distributions.Exponential(core.tensor([-1.0]))
    assert d.log_prob(core.tensor([1.0])).item() != d.log_prob(core.tensor([1.0])).item()  # nan
    assert core.distributions.Exponential(core.tensor([1.0]), validate_args=True)._validate_args


def test_validation_is_on_by_default_and_the_setting_takes_only_booleans(torch):
    assert core.distributions.Distribution._validate_args is torch.distributions.Distribution._validate_args
    check_error(lambda lib: lib.distributions.Distribution.set_default_validate_args(1.5), [], torch)


def test_expand_keeps_the_validation_setting(torch):
    d = core.distributions.Normal(core.zeros(2), core.ones(2), validate_args=False).expand((3, 2))
    assert not d._validate_args
    d = core.distributions.Normal(core.zeros(2), core.ones(2)).expand((3, 2))
    with pytest.raises(ValueError, match="Expected value argument"):
        d.log_prob(core.tensor([float("nan"), 0.0]))


def test_multinomial_with_a_tensor_total_count_is_not_implemented_like_torch(torch):
    check_error(lambda lib: lib.distributions.Multinomial(lib.tensor(3), probs=lib.tensor([0.5, 0.5])), [], torch,
                match="inhomogeneous total_count is not supported")


def test_constraint_reprs_match_torch(torch):
    for name in ("real", "positive", "nonnegative", "unit_interval", "simplex", "boolean", "nonnegative_integer",
                 "positive_integer", "real_vector", "lower_cholesky", "positive_definite"):
        assert repr(getattr(core.distributions.constraints, name)) == repr(getattr(torch.distributions.constraints,
                                                                                   name))
    c, t = core.distributions.constraints, torch.distributions.constraints
    assert repr(c.integer_interval(0, 3)) == repr(t.integer_interval(0, 3))
    assert repr(c.interval(-1.0, 2.0)) == repr(t.interval(-1.0, 2.0))
    assert repr(c.independent(c.positive, 2)) == repr(t.independent(t.positive, 2))


@pytest.mark.parametrize("name, value", [
    ("real", [0.0, float("inf"), float("nan")]),
    ("positive", [-1.0, 0.0, 2.0]),
    ("nonnegative", [-1.0, 0.0, 2.0]),
    ("unit_interval", [-0.1, 0.0, 1.0, 1.1]),
    ("boolean", [0.0, 1.0, 0.5]),
    ("nonnegative_integer", [-1.0, 0.0, 3.0, 2.5]),
    ("simplex", [[0.2, 0.8], [0.5, 0.6], [-0.5, 1.5]]),
    ("real_vector", [[0.0, 1.0], [float("nan"), 1.0]]),
    ("lower_cholesky", [[[1.0, 0.0], [2.0, 1.0]], [[1.0, 0.5], [2.0, 1.0]], [[-1.0, 0.0], [0.0, 1.0]]]),
    ("positive_definite", [[[2.0, 1.0], [1.0, 2.0]], [[1.0, 2.0], [2.0, 1.0]]]),
])
def test_constraint_checks_match_torch(name, value, torch):
    ours = getattr(core.distributions.constraints, name).check(core.tensor(value))
    theirs = getattr(torch.distributions.constraints, name).check(torch.tensor(value))
    assert ours.tolist() == theirs.tolist()


def test_dependent_supports_are_not_checked_statically(torch):
    c = core.distributions.constraints
    assert c.is_dependent(core.distributions.Uniform.support)
    assert c.is_dependent(c.dependent) and not c.is_dependent(c.real)
    assert repr(core.distributions.Uniform(0.0, 2.0).support) == repr(torch.distributions.Uniform(0.0, 2.0).support)
    with pytest.raises(ValueError, match="Cannot determine validity of dependent constraint"):
        c.dependent.check(core.zeros(1))
