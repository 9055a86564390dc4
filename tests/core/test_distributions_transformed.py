"""Transforms, TransformedDistribution, biject_to/transform_to and the families built on them (LogNormal,
HalfNormal, Gumbel, Cauchy, StudentT, Chi2, Binomial, Geometric) with their KL pairs, against torch."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

LOC, SCALE, DF = [0.3, -1.0, 2.0], [0.5, 1.5, 2.0], [0.8, 1.5, 5.0]
VALUES = [0.7, 1.3, 4.0]

FAMILIES = {
    "LogNormal": (lambda lib: lib.distributions.LogNormal(lib.tensor(LOC), lib.tensor(SCALE)), VALUES),
    "HalfNormal": (lambda lib: lib.distributions.HalfNormal(lib.tensor(SCALE)), VALUES),
    "Gumbel": (lambda lib: lib.distributions.Gumbel(lib.tensor(LOC), lib.tensor(SCALE)), VALUES),
    "Cauchy": (lambda lib: lib.distributions.Cauchy(lib.tensor(LOC), lib.tensor(SCALE)), VALUES),
    "StudentT": (lambda lib: lib.distributions.StudentT(lib.tensor(DF), lib.tensor(LOC), lib.tensor(SCALE)), VALUES),
    "Chi2": (lambda lib: lib.distributions.Chi2(lib.tensor(DF)), VALUES),
    "Binomial probs": (lambda lib: lib.distributions.Binomial(5, probs=lib.tensor([0.2, 0.5, 0.9])), [1.0, 2.0, 5.0]),
    "Binomial logits": (lambda lib: lib.distributions.Binomial(lib.tensor([5.0, 5.0, 5.0]),
                                                               logits=lib.tensor([0.2, 0.5, -0.9])), [0.0, 2.0, 4.0]),
    "Geometric": (lambda lib: lib.distributions.Geometric(lib.tensor([0.2, 0.5, 0.9])), [0.0, 2.0, 4.0]),
}


def _summary(d, lib, values):
    value = lib.tensor(values)
    out = {"log_prob": d.log_prob(value), "mean": d.mean, "variance": d.variance, "entropy": d.entropy(),
           "mode": d.mode, "batch_shape": tuple(d.batch_shape), "event_shape": tuple(d.event_shape),
           "expanded": d.expand((2, 3)).log_prob(value)}
    for name in ("cdf", "icdf"):
        try:
            out[name] = getattr(d, name)(value if name == "cdf" else lib.tensor([0.1, 0.5, 0.9]))
        except NotImplementedError:
            out[name] = None
    return out


@pytest.mark.parametrize("family", FAMILIES)
def test_family_matches_torch_in_densities_moments_and_shapes(torch, family):
    build, values = FAMILIES[family]
    ours, theirs = _summary(build(core), core, values), _summary(build(torch), torch, values)
    for key in ours:
        if ours[key] is None or theirs[key] is None:
            assert ours[key] is None and theirs[key] is None, key
        else:
            assert_same(ours[key], theirs[key], rtol=1e-6, path=key)


@pytest.mark.parametrize("family", ["LogNormal", "HalfNormal", "Gumbel", "Cauchy"])
def test_reparameterised_draws_are_torchs_with_the_same_seed_and_carry_gradients(torch, family):
    draws = []
    for lib in (core, torch):
        d = FAMILIES[family][0](lib)
        lib.manual_seed(0)
        draws.append(d.rsample((4,)))
    assert_same(draws[0], draws[1], rtol=1e-6)
    scale = core.tensor(SCALE, requires_grad=True)
    core.distributions.LogNormal(core.tensor(LOC), scale).rsample((3,)).sum().backward()
    assert scale.grad is not None and bool(scale.grad.isfinite().all())


@pytest.mark.parametrize("family,mean,var", [("StudentT", None, None), ("Chi2", DF, [2 * d for d in DF]),
                                             ("Binomial probs", [1.0, 2.5, 4.5], [0.8, 1.25, 0.45]),
                                             ("Geometric", [4.0, 1.0, 1 / 9], [20.0, 2.0, 1 / 8.1])])
def test_samples_follow_the_family_moments(family, mean, var):
    d = FAMILIES[family][0](core)
    draws = d.sample((20000,))
    assert tuple(draws.shape) == (20000, 3)
    if mean is not None:
        np.testing.assert_allclose(draws.mean(0).numpy(), mean, rtol=0.06, atol=0.02)
        np.testing.assert_allclose(draws.var(0).numpy(), var, rtol=0.12, atol=0.02)


TRANSFORMS = [
    ("ExpTransform", ()), ("SigmoidTransform", ()), ("TanhTransform", ()), ("SoftplusTransform", ()),
    ("AffineTransform", (1.0, 2.0)), ("PowerTransform", (2.0,)), ("StickBreakingTransform", ()),
    ("SoftmaxTransform", ()),
]


@pytest.mark.parametrize("name,args", TRANSFORMS)
def test_transforms_match_torch_forward_inverse_and_jacobian(torch, name, args):
    x = np.array([[0.2, -0.3, 1.0], [1.5, 0.1, -2.0]])
    if name == "PowerTransform":
        x = np.abs(x)
    results = []
    for lib in (core, torch):
        t = getattr(lib.distributions, name)(*args)
        xx = lib.tensor(x, requires_grad=True)
        y = t(xx)
        out = [y, t.inv(y)]
        if name != "SoftmaxTransform":
            jac = t.log_abs_det_jacobian(xx, y)
            out.append(jac)
            if jac.requires_grad:  # a constant Jacobian (AffineTransform) has no graph in either library
                jac.sum().backward()
                out.append(xx.grad)
        results.append((out, repr(t), t.event_dim, t.bijective, repr(t.domain), repr(t.codomain)))
    assert_same(results[0][0], results[1][0], rtol=1e-6)
    assert results[0][1:] == results[1][1:]


def test_compose_transform_inverse_cache_and_shapes_behave_as_torchs(torch):
    for lib in (core, torch):
        D = lib.distributions
        t = D.ComposeTransform([D.ExpTransform(), D.AffineTransform(1.0, 3.0)], cache_size=1)
        x = lib.tensor([0.5, -1.0])
        y = t(x)
        assert t.inv(y) is x
        assert t.inv.inv is t
        assert D.StickBreakingTransform().forward_shape((2, 3)) == (2, 4)
    ours = core.distributions.ComposeTransform([core.distributions.ExpTransform()])
    assert repr(ours) == repr(torch.distributions.ComposeTransform([torch.distributions.ExpTransform()]))


def test_transformed_distribution_scores_through_the_transforms(torch):
    def build(lib):
        D = lib.distributions
        base = D.Normal(lib.zeros(3), lib.ones(3))
        return D.TransformedDistribution(base, [D.SigmoidTransform(), D.AffineTransform(2.0, 5.0)])

    value = [2.5, 3.0, 6.5]
    for attr in ("log_prob", "cdf", "icdf"):
        arg = [0.2, 0.5, 0.7] if attr == "icdf" else value
        assert_same(getattr(build(core), attr)(core.tensor(arg)), getattr(build(torch), attr)(torch.tensor(arg)))
    assert repr(build(core).support) == repr(build(torch).support)
    simplex = core.distributions.TransformedDistribution(core.distributions.Normal(core.zeros(2), core.ones(2)),
                                                         core.distributions.StickBreakingTransform())
    assert tuple(simplex.event_shape) == (3,) and tuple(simplex.sample((5,)).sum(-1).round().tolist()) == (1.0,) * 5


@pytest.mark.parametrize("constraint", ["real", "positive", "nonnegative", "unit_interval", "simplex", "real_vector"])
def test_biject_to_and_transform_to_pick_torchs_transforms(torch, constraint):
    for registry in ("biject_to", "transform_to"):
        ours = getattr(core.distributions, registry)(getattr(core.distributions.constraints, constraint))
        theirs = getattr(torch.distributions, registry)(getattr(torch.distributions.constraints, constraint))
        assert repr(ours) == repr(theirs)
    t = core.distributions.biject_to(core.distributions.constraints.interval(-1.0, 3.0))
    y = t(core.tensor([-5.0, 0.0, 5.0]))
    assert bool(((y > -1) & (y < 3)).all())


KL_PAIRS = [
    lambda lib: (lib.distributions.LogNormal(0.0, 1.0), lib.distributions.LogNormal(1.0, 2.0)),
    lambda lib: (lib.distributions.HalfNormal(1.0), lib.distributions.HalfNormal(2.5)),
    lambda lib: (lib.distributions.Gumbel(0.0, 1.0), lib.distributions.Gumbel(1.0, 2.0)),
    lambda lib: (lib.distributions.Cauchy(0.0, 1.0), lib.distributions.Cauchy(1.0, 2.0)),
    lambda lib: (lib.distributions.Geometric(lib.tensor([0.3, 0.6])), lib.distributions.Geometric(lib.tensor(0.5))),
    lambda lib: (lib.distributions.Binomial(5, lib.tensor([0.3, 0.6])),
                 lib.distributions.Binomial(lib.tensor([5.0, 3.0]), lib.tensor([0.5, 0.5]))),
]


@pytest.mark.parametrize("pair", KL_PAIRS)
def test_kl_divergences_match_torch(torch, pair):
    ours = core.distributions.kl_divergence(*pair(core))
    assert_same(ours, torch.distributions.kl_divergence(*pair(torch)), rtol=1e-6)


def test_validation_rejects_what_torch_rejects(torch):
    for build in (lambda lib: lib.distributions.HalfNormal(lib.tensor([-1.0])),
                  lambda lib: lib.distributions.StudentT(lib.tensor([0.0])),
                  lambda lib: lib.distributions.Binomial(lib.tensor([2.5]), lib.tensor([0.5])),
                  lambda lib: lib.distributions.Geometric(lib.tensor([0.0])),
                  lambda lib: lib.distributions.TransformedDistribution(lib.distributions.Normal(0.0, 1.0), [1])):
        with pytest.raises(ValueError):
            build(torch)
        with pytest.raises(ValueError):
            build(core)
