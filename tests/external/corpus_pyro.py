"""Drivers for Pyro's own package (``recipes_pyro.py``; our text).

A recipe fetches one of Pyro's package modules (``pyro/distributions/__init__.py``, ``pyro/infer/__init__.py``...)
as its script, with the packages beside it, and appends calls to the drivers here. They use Pyro as its
documentation, tutorials and tests do: ``pyro.set_rng_seed`` before each part, small models and data, a few steps
of each optimiser or sampler, and print every number to full precision (tensors to 6 decimals, losses with
``repr``), so both runs are compared digit for digit.
"""

from __future__ import annotations

import types

import torch
from corpus_gym import modules_installed


def show(name, value):
    """A tensor as ``name shape dtype values`` (at most 8, 6 decimals); tuples, lists and dicts item by item."""
    if isinstance(value, dict):
        for k in sorted(value, key=str):
            show(f"{name}.{k}", value[k])
        return
    if isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value):
        for i, v in enumerate(value):
            show(f"{name}[{i}]", v)
        return
    if not isinstance(value, torch.Tensor):
        print(name, repr(value))
        return
    flat = value.detach().flatten()[:8]
    if value.is_floating_point():
        values = [f"{v:.6f}" for v in flat.tolist()]
        total = f"{value.detach().double().sum().item():.6f}"
    else:
        values, total = flat.tolist(), value.sum().item() if value.dtype != torch.bool else int(value.sum())
    print(name, tuple(value.shape), str(value.dtype).replace("torch.", ""), values, "sum", total)


def attempt(name, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` shown; an exception is shown as its type and first line (the same in both runs)."""
    try:
        value = fn(*args, **kwargs)
    except Exception as exc:  # the failure is the output, in both libraries
        print(name, "raised", type(exc).__name__, (str(exc).splitlines() or [""])[0][:100])
        return None
    show(name, value)
    return value


# distributions -----------------------------------------------------------------------------------------------------


def _zoo(dist):
    """(name, distribution) pairs: torch's distributions as Pyro wraps them and Pyro's own."""
    t = torch.tensor
    loc, scale = t([0.5, -1.0, 2.0]), t([1.0, 0.5, 2.0])
    probs, conc = t([0.2, 0.3, 0.5]), t([1.5, 0.7, 3.0])
    cov = t([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 1.5]])
    mix = dist.Categorical(t([0.3, 0.7]))
    return [
        ("Normal", dist.Normal(loc, scale)), ("LogNormal", dist.LogNormal(loc, scale)),
        ("HalfNormal", dist.HalfNormal(scale)), ("HalfCauchy", dist.HalfCauchy(scale)),
        ("Cauchy", dist.Cauchy(loc, scale)), ("Laplace", dist.Laplace(loc, scale)),
        ("StudentT", dist.StudentT(conc, loc, scale)), ("Gumbel", dist.Gumbel(loc, scale)),
        ("Gamma", dist.Gamma(conc, scale)), ("Beta", dist.Beta(conc, scale)), ("Exponential", dist.Exponential(conc)),
        ("Chi2", dist.Chi2(conc)), ("Uniform", dist.Uniform(loc - 1, loc + scale)),
        ("Pareto", dist.Pareto(scale, conc)),
        ("Weibull", dist.Weibull(scale, conc)), ("Kumaraswamy", dist.Kumaraswamy(conc, scale)),
        ("VonMises", dist.VonMises(loc, conc)), ("FisherSnedecor", dist.FisherSnedecor(conc, scale + 1)),
        ("ContinuousBernoulli", dist.ContinuousBernoulli(probs)), ("Dirichlet", dist.Dirichlet(conc)),
        ("Bernoulli", dist.Bernoulli(probs)), ("Binomial", dist.Binomial(10, probs)),
        ("Categorical", dist.Categorical(probs)), ("OneHotCategorical", dist.OneHotCategorical(probs)),
        ("Geometric", dist.Geometric(probs)), ("Poisson", dist.Poisson(conc)),
        ("NegativeBinomial", dist.NegativeBinomial(5.0, probs)), ("Multinomial", dist.Multinomial(7, probs)),
        ("MultivariateNormal", dist.MultivariateNormal(loc, covariance_matrix=cov)),
        ("LowRankMultivariateNormal", dist.LowRankMultivariateNormal(loc, t([[1.0], [0.5], [-0.3]]), scale)),
        ("LKJCholesky", dist.LKJCholesky(3, 1.5)), ("LKJ", dist.LKJ(3, 2.0)),
        ("MixtureSameFamily", dist.MixtureSameFamily(mix, dist.Normal(t([-1.0, 2.0]), t([0.5, 1.0])))),
        ("Independent", dist.Normal(loc, scale).to_event(1)),
        ("InverseGamma", dist.InverseGamma(conc, scale)),
        ("AsymmetricLaplace", dist.AsymmetricLaplace(loc, scale, conc)),
        ("SoftLaplace", dist.SoftLaplace(loc, scale)), ("SkewLogistic", dist.SkewLogistic(loc, scale, conc)),
        ("Logistic", dist.Logistic(loc, scale)), ("AffineBeta", dist.AffineBeta(conc, scale, loc, scale)),
        ("BetaBinomial", dist.BetaBinomial(conc, scale, 8)), ("GammaPoisson", dist.GammaPoisson(conc, scale)),
        ("DirichletMultinomial", dist.DirichletMultinomial(conc, 6)),
        ("ZeroInflatedPoisson", dist.ZeroInflatedPoisson(conc, gate=probs)),
        ("ZeroInflatedNegativeBinomial", dist.ZeroInflatedNegativeBinomial(5.0, probs=probs, gate=probs)),
        ("Delta", dist.Delta(loc, t(0.3))), ("MultivariateStudentT", dist.MultivariateStudentT(4.0, loc,
                                                                                             torch.linalg.cholesky(cov))),
        ("ProjectedNormal", dist.ProjectedNormal(loc)), ("VonMises3D", dist.VonMises3D(t([0.5, 1.0, -2.0]))),
        ("FoldedDistribution", dist.FoldedDistribution(dist.Normal(loc, scale))),
        ("MixtureOfDiagNormals", dist.MixtureOfDiagNormals(t([[0.0, 1.0], [2.0, -1.0]]), t([[1.0, 0.5], [0.3, 2.0]]),
                                                           t([0.2, -0.4]))),
        ("ExtendedBinomial", dist.ExtendedBinomial(t([5.0, 8.0, 3.0]), probs)),
        ("LogNormalNegativeBinomial", dist.LogNormalNegativeBinomial(4.0, loc, 0.5)),
        ("Stable", dist.Stable(t([1.5, 0.8, 1.9]), t([0.0, 0.5, -0.5]), scale, loc)),
        ("SineBivariateVonMises", dist.SineBivariateVonMises(t(0.3), t(-0.2), t(2.0), t(1.5), t(0.4))),
        ("NanMaskedNormal", dist.NanMaskedNormal(loc, scale)),
        ("TruncatedPolyaGamma", dist.TruncatedPolyaGamma(prototype=t(0.0))),
    ]


def distributions(dist):
    """Each distribution of the zoo after ``pyro.set_rng_seed``: its shapes, support, a batch of draws, their log
    density, mean, variance and entropy where it has them, ``expand`` and ``rsample`` gradients."""
    import pyro

    for name, d in _zoo(dist):
        pyro.set_rng_seed(0)
        print("##", name, tuple(d.batch_shape), tuple(d.event_shape), d.support, d.has_rsample,
              getattr(d, "has_enumerate_support", False))
        x = attempt(f"{name}.sample", d.sample, (2,))
        if x is not None:
            attempt(f"{name}.log_prob", d.log_prob, x)
        for prop in ("mean", "variance"):
            attempt(f"{name}.{prop}", getattr, d, prop)
        attempt(f"{name}.entropy", d.entropy)
        if d.batch_shape:
            e = d.expand((2,) + tuple(d.batch_shape))
            print(f"{name}.expand", tuple(e.batch_shape), type(e).__name__)
        if getattr(d, "has_enumerate_support", False) and d.event_shape == ():
            attempt(f"{name}.enumerate_support", d.enumerate_support, False)


def rsample_gradients(dist):
    """``rsample`` of the reparameterised distributions, each parameter's gradient of a weighted sum of draws."""
    import pyro

    cases = {
        "Normal": lambda a, b: dist.Normal(a, b), "Gamma": lambda a, b: dist.Gamma(a, b),
        "Beta": lambda a, b: dist.Beta(a, b), "Dirichlet": lambda a, b: dist.Dirichlet(torch.stack([a, b], -1)),
        "LogNormal": lambda a, b: dist.LogNormal(a, b), "InverseGamma": lambda a, b: dist.InverseGamma(a, b),
        "StudentT": lambda a, b: dist.StudentT(a + 1, b), "Weibull": lambda a, b: dist.Weibull(a, b),
        "AffineBeta": lambda a, b: dist.AffineBeta(a, b, 1.0, 2.0), "Kumaraswamy": lambda a, b: dist.Kumaraswamy(a, b),
        "SoftLaplace": lambda a, b: dist.SoftLaplace(a, b), "FisherSnedecor": lambda a, b: dist.FisherSnedecor(a, b),
        "Chi2": lambda a, b: dist.Chi2(a * b), "Laplace": lambda a, b: dist.Laplace(a, b),
        "Stable": lambda a, b: dist.Stable(1.5, 0.3, a, b),
    }
    for name, make in cases.items():
        pyro.set_rng_seed(1)
        a = torch.tensor([0.8, 2.5, 6.0], requires_grad=True)
        b = torch.tensor([1.2, 0.4, 9.0], requires_grad=True)
        try:
            x = make(a, b).rsample((4,))
            (x * torch.arange(1.0, x.numel() + 1).view(x.shape)).sum().backward()
        except Exception as exc:
            print(name, "raised", type(exc).__name__, str(exc)[:100])
            continue
        show(f"{name} rsample", x)
        show(f"{name} grad a", a.grad)
        show(f"{name} grad b", b.grad)


def _scipy_stand_in():
    """``scipy`` and ``scipy.stats`` as names only: Pyro's test fixtures name a SciPy distribution beside each of theirs
    (used for goodness-of-fit tests this driver does not run; SciPy is not installed)."""
    class Named:
        def __init__(self, name):
            self.name = name

        def __getattr__(self, attr):
            return Named(f"{self.name}.{attr}")

    modules = {}
    for name in ("scipy", "scipy.stats", "scipy.special"):
        module = types.ModuleType(name)
        module.__getattr__ = lambda attr, _name=name: Named(f"{_name}.{attr}")
        modules[name] = module
    modules["scipy"].stats, modules["scipy"].special = modules["scipy.stats"], modules["scipy.special"]
    return modules


def distribution_fixtures(kinds=("continuous_dists", "discrete_dists")):
    """Pyro's own distribution fixtures (``tests/distributions/conftest.py``, fetched as ``fixtures.py``): every
    example's distribution built from its parameters, its log density at the fixture's test data, a seeded batch of
    draws and their log density, mean and variance, and, for discrete ones, ``enumerate_support``."""
    import pyro

    with modules_installed(_scipy_stand_in()):
        import importlib

        conftest = importlib.import_module("tests.distributions.fixtures")
    for kind in kinds:
        for fixture in getattr(conftest, kind):
            name = fixture.pyro_dist.__name__
            for i in range(fixture.get_num_test_data()):
                pyro.set_rng_seed(i)
                params = fixture.get_dist_params(i)
                print("##", kind, name, i)
                d = attempt(f"{name}", lambda f=fixture.pyro_dist, p=params: f(**p))
                if d is None:
                    continue
                print(" shapes", tuple(d.batch_shape), tuple(d.event_shape), d.has_rsample)
                attempt(" log_prob(test_data)", d.log_prob, fixture.get_test_data(i))
                x = attempt(" sample", d.sample, (3,))
                if x is not None:
                    attempt(" log_prob(sample)", d.log_prob, x)
                attempt(" mean", getattr, d, "mean")
                attempt(" variance", getattr, d, "variance")
                if fixture.is_discrete and getattr(d, "has_enumerate_support", False):
                    attempt(" enumerate_support", d.enumerate_support, True)


# inference ---------------------------------------------------------------------------------------------------------


def _regression_data(n=40):
    """A seeded Bayesian linear regression's data: two features, y = 1.5 x0 - 0.7 x1 + 0.3 + noise."""
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, 2, generator=g)
    y = 1.5 * x[:, 0] - 0.7 * x[:, 1] + 0.3 + 0.2 * torch.randn(n, generator=g)
    return x, y


def _regression_model(x, y=None):
    import pyro
    import pyro.distributions as dist

    weight = pyro.sample("weight", dist.Normal(torch.zeros(2), torch.ones(2)).to_event(1))
    bias = pyro.sample("bias", dist.Normal(0.0, 1.0))
    sigma = pyro.sample("sigma", dist.LogNormal(0.0, 1.0))
    with pyro.plate("data", x.shape[0]):
        return pyro.sample("obs", dist.Normal(x @ weight + bias, sigma), obs=y)


def _regression_guide(x, y=None):
    import pyro
    import pyro.distributions as dist
    from pyro.distributions import constraints

    w_loc = pyro.param("w_loc", torch.zeros(2))
    w_scale = pyro.param("w_scale", torch.ones(2), constraint=constraints.positive)
    b_loc = pyro.param("b_loc", torch.tensor(0.0))
    b_scale = pyro.param("b_scale", torch.tensor(1.0), constraint=constraints.positive)
    s_loc = pyro.param("s_loc", torch.tensor(0.0))
    pyro.sample("weight", dist.Normal(w_loc, w_scale).to_event(1))
    pyro.sample("bias", dist.Normal(b_loc, b_scale))
    pyro.sample("sigma", dist.LogNormal(s_loc, 0.1))


def _params():
    import pyro

    for name, value in sorted(pyro.get_param_store().items()):
        show(f"  param {name}", value)


def elbos(infer, optim, names, steps=10):
    """The regression's hand-written guide trained by SVI with each of Pyro's ELBOs (``JitTrace_ELBO`` traces the
    loss with ``torch.jit.trace``): the losses and the learned parameters."""
    import pyro

    x, y = _regression_data()
    for name, kwargs in [("Trace_ELBO", {}), ("Trace_ELBO", {"num_particles": 3}),
                         ("TraceMeanField_ELBO", {}), ("TraceGraph_ELBO", {}), ("TraceEnum_ELBO", {}),
                         ("RenyiELBO", {"alpha": 0.5, "num_particles": 2}),
                         ("JitTrace_ELBO", {}), ("JitTraceMeanField_ELBO", {}), ("JitTraceGraph_ELBO", {})]:
        if name not in names:
            continue
        pyro.clear_param_store()
        pyro.set_rng_seed(0)
        print("##", name, kwargs)
        try:
            svi = infer.SVI(_regression_model, _regression_guide, optim.Adam({"lr": 0.05}),
                            loss=getattr(infer, name)(**kwargs))
            losses = [svi.step(x, y) for _ in range(steps)]
        except Exception as exc:
            print("  raised", type(exc).__name__, (str(exc).splitlines() or [""])[0][:100])
            continue
        print("  losses", [f"{v:.5f}" for v in losses])
        _params()
        print("  evaluate_loss", f"{svi.evaluate_loss(x, y):.5f}")


def autoguides(infer, autoguide, optim, names, steps=15):
    """Each autoguide on the regression: SVI losses, the guide's median and quantiles, and posterior predictive
    samples through ``Predictive``."""
    import pyro

    x, y = _regression_data()
    for name, kwargs in [("AutoNormal", {}), ("AutoDiagonalNormal", {}), ("AutoMultivariateNormal", {}),
                         ("AutoLowRankMultivariateNormal", {"rank": 2}), ("AutoDelta", {}),
                         ("AutoLaplaceApproximation", {}), ("AutoIAFNormal", {"hidden_dim": [8], "num_transforms": 1}),
                         ("AutoStructured", {}), ("AutoGaussian", {})]:
        if name not in names:
            continue
        pyro.clear_param_store()
        pyro.set_rng_seed(0)
        print("##", name)
        try:
            guide = getattr(autoguide, name)(_regression_model, **kwargs)
            svi = infer.SVI(_regression_model, guide, optim.Adam({"lr": 0.05}), loss=infer.Trace_ELBO())
            losses = [svi.step(x, y) for _ in range(steps)]
            print("  losses", [f"{v:.5f}" for v in losses])
            attempt("  median", guide.median, x, y)
            if name not in ("AutoDelta", "AutoIAFNormal", "AutoStructured", "AutoGaussian"):
                attempt("  quantiles", guide.quantiles, [0.1, 0.9], x, y)
            if name == "AutoLaplaceApproximation":
                laplace = guide.laplace_approximation(x, y)
                show("  laplace loc", laplace.loc)
                show("  laplace scale_tril", laplace.scale_tril)
            predictive = infer.Predictive(_regression_model, guide=guide, num_samples=5)
            pyro.set_rng_seed(1)
            show("  predictive", predictive(x[:4]))
        except Exception as exc:
            print("  raised", type(exc).__name__, (str(exc).splitlines() or [""])[0][:100])


def mcmc(infer, cases, num_samples=6, warmup_steps=6):
    """HMC and NUTS on the regression (and NUTS with JIT-traced potential): the samples, their summary and
    ``Predictive`` from them."""
    import pyro

    x, y = _regression_data(20)
    kernels = [("HMC", {"step_size": 0.05, "num_steps": 4}), ("NUTS", {"max_tree_depth": 4}),
               ("NUTS", {"max_tree_depth": 3, "jit_compile": True, "ignore_jit_warnings": True}),
               ("NUTS", {"max_tree_depth": 3, "full_mass": True})]
    for name, kernel_kwargs in [kernels[i] for i in cases]:
        pyro.set_rng_seed(0)
        print("##", name, kernel_kwargs)
        try:
            kernel = getattr(infer, name)(_regression_model, **kernel_kwargs)
            run = infer.MCMC(kernel, num_samples=num_samples, warmup_steps=warmup_steps, disable_progbar=True)
            run.run(x, y)
            samples = run.get_samples()
            show("  samples", samples)
            run.summary(prob=0.8)
            pyro.set_rng_seed(1)
            show("  predictive", infer.Predictive(_regression_model, samples)(x[:3]))
        except Exception as exc:
            print("  raised", type(exc).__name__, (str(exc).splitlines() or [""])[0][:100])


def enumeration(infer, steps=10):
    """A two-component Gaussian mixture with its assignments enumerated (``TraceEnum_ELBO``, parallel and
    sequential, ``config_enumerate``), MAP assignments by ``infer_discrete`` and the marginals of the trained
    model's assignments."""
    import pyro
    import pyro.distributions as dist
    from pyro import poutine
    from pyro.distributions import constraints

    data = torch.tensor([0.0, 1.0, 10.0, 11.0, 12.0, -0.5, 9.5])

    def model(data):
        weights = pyro.sample("weights", dist.Dirichlet(0.5 * torch.ones(2)))
        scale = pyro.sample("scale", dist.LogNormal(0.0, 2.0))
        with pyro.plate("components", 2):
            locs = pyro.sample("locs", dist.Normal(0.0, 10.0))
        with pyro.plate("data", len(data)):
            assignment = pyro.sample("assignment", dist.Categorical(weights))
            pyro.sample("obs", dist.Normal(locs[assignment], scale), obs=data)

    def guide(data):
        weights = pyro.param("g_weights", torch.ones(2) / 2, constraint=constraints.simplex)
        scale = pyro.param("g_scale", torch.tensor(1.0), constraint=constraints.positive)
        locs = pyro.param("g_locs", torch.tensor([0.0, 10.0]))
        pyro.sample("weights", dist.Delta(weights).to_event(1))
        pyro.sample("scale", dist.Delta(scale))
        with pyro.plate("components", 2):
            pyro.sample("locs", dist.Delta(locs))

    for strategy in ("parallel",):
        pyro.clear_param_store()
        pyro.set_rng_seed(0)
        enumerated = infer.config_enumerate(model, strategy)
        elbo = infer.TraceEnum_ELBO(max_plate_nesting=1)
        svi = infer.SVI(enumerated, guide, pyro.optim.Adam({"lr": 0.1}), loss=elbo)
        print("##", strategy, "losses", [f"{svi.step(data):.5f}" for _ in range(steps)])
        _params()
        print("  loss", f"{elbo.loss(enumerated, guide, data):.5f}")
    trained = poutine.replay(infer.config_enumerate(model), trace=poutine.trace(guide).get_trace(data))
    for temperature in (0, 1):
        pyro.set_rng_seed(2)
        discrete = infer.infer_discrete(trained, first_available_dim=-2, temperature=temperature)
        show(f"  infer_discrete t={temperature}", poutine.trace(discrete).get_trace(data).nodes["assignment"]["value"])
    pyro.set_rng_seed(3)
    marginals = infer.TraceEnum_ELBO(max_plate_nesting=1).compute_marginals(trained, lambda data: None, data)
    show("  marginal probs", marginals["assignment"].probs if hasattr(marginals["assignment"], "probs") else
         marginals["assignment"].logits)


def handlers(poutine):
    """Effect handlers on a small model: trace (its sites, log densities and shapes), replay, block, condition,
    do, scale, mask, seed, uncondition, substitute, lift, reparam-style conditioning, ``markov``."""
    import pyro
    import pyro.distributions as dist

    def model(n=3):
        a = pyro.sample("a", dist.Normal(0.0, 1.0))
        with pyro.plate("p", n):
            b = pyro.sample("b", dist.Normal(a, 2.0))
        c = pyro.sample("c", dist.Gamma(2.0, 1.0 + b.abs().sum()))
        pyro.deterministic("d", a + c)
        return a, b, c

    pyro.set_rng_seed(0)
    tr = poutine.trace(model).get_trace()
    tr.compute_log_prob()
    for name, site in tr.nodes.items():
        if site["type"] == "sample":
            print(name, site["is_observed"], tuple(site["value"].shape), f"{site['log_prob_sum'].item():.6f}")
    print("log_prob_sum", f"{tr.log_prob_sum().item():.6f}")
    print(tr.format_shapes())
    pyro.set_rng_seed(1)
    show("replay", poutine.replay(model, trace=tr)())
    show("condition", poutine.condition(model, data={"a": torch.tensor(0.5)})())
    show("do", poutine.do(model, data={"a": torch.tensor(-1.0)})())
    with poutine.trace() as scaled, poutine.scale(scale=2.5):
        model()
    scaled.trace.compute_log_prob()
    print("scale log_prob_sum", f"{scaled.trace.log_prob_sum().item():.6f}")
    with poutine.trace() as masked, poutine.mask(mask=torch.tensor([True, False, True])):
        model()
    print("mask log_prob_sum", f"{masked.trace.log_prob_sum().item():.6f}")
    blocked = poutine.trace(poutine.block(model, hide=["b"])).get_trace()
    print("block sites", [n for n in blocked.nodes if blocked.nodes[n]["type"] == "sample"])
    seeded = poutine.seed(model, rng_seed=7)
    show("seed", seeded())
    show("seed again", seeded())
    conditioned = poutine.condition(model, data={"c": torch.tensor(1.0)})
    print("uncondition", poutine.trace(poutine.uncondition(conditioned)).get_trace().nodes["c"]["is_observed"])
    show("substitute", poutine.substitute(model, data={"a": torch.tensor(3.0)})())
    pyro.clear_param_store()

    def with_param():
        loc = pyro.param("loc", torch.tensor(0.25))
        return pyro.sample("z", dist.Normal(loc, 1.0))

    pyro.set_rng_seed(2)
    lifted = poutine.trace(poutine.lift(with_param, prior={"loc": dist.Normal(1.0, 0.1)})).get_trace()
    print("lift", lifted.nodes["loc"]["type"], f"{lifted.nodes['loc']['value'].item():.6f}")

    def chain(length=5):
        x = torch.tensor(0.0)
        for t in pyro.markov(range(length)):
            x = pyro.sample(f"x_{t}", dist.Normal(x, 1.0))
        return x

    pyro.set_rng_seed(3)
    tr = poutine.trace(chain).get_trace()
    print("markov sites", [n for n in tr.nodes if n.startswith("x_")], f"{tr.log_prob_sum().item():.6f}")
    pyro.set_rng_seed(4)
    show("broadcast", poutine.trace(poutine.broadcast(lambda: pyro.sample("w", dist.Normal(torch.zeros(2), 1.0))))
         .get_trace().nodes["w"]["value"])


def optimisers(infer, optim, names, steps=10):
    """``pyro.optim``'s wrappers of torch's optimisers and learning-rate schedulers driving SVI on the regression:
    the losses and the learning rates they set."""
    import pyro

    x, y = _regression_data()
    torch_optim = torch.optim
    cases = [
        ("Adam", lambda: optim.Adam({"lr": 0.05})), ("ClippedAdam", lambda: optim.ClippedAdam({"lr": 0.05,
                                                                                                 "clip_norm": 1.0,
                                                                                                 "lrd": 0.9})),
        ("SGD", lambda: optim.SGD({"lr": 0.001, "momentum": 0.9})), ("RMSprop", lambda: optim.RMSprop({"lr": 0.01})),
        ("Adagrad", lambda: optim.Adagrad({"lr": 0.1})), ("AdamW", lambda: optim.AdamW({"lr": 0.05})),
        ("DCTAdam", lambda: optim.DCTAdam({"lr": 0.05})), ("Adadelta", lambda: optim.Adadelta({"lr": 1.0})),
        ("NAdam", lambda: optim.NAdam({"lr": 0.05})), ("RAdam", lambda: optim.RAdam({"lr": 0.05})),
        ("ExponentialLR", lambda: optim.ExponentialLR({"optimizer": torch_optim.Adam, "optim_args": {"lr": 0.05},
                                                       "gamma": 0.8})),
        ("StepLR", lambda: optim.StepLR({"optimizer": torch_optim.SGD, "optim_args": {"lr": 0.002}, "step_size": 3,
                                         "gamma": 0.5})),
        ("MultiStepLR", lambda: optim.MultiStepLR({"optimizer": torch_optim.Adam, "optim_args": {"lr": 0.05},
                                                   "milestones": [2, 5], "gamma": 0.3})),
        ("OneCycleLR", lambda: optim.OneCycleLR({"optimizer": torch_optim.Adam, "optim_args": {"lr": 0.05},
                                                 "max_lr": 0.1, "total_steps": steps})),
        ("CosineAnnealingLR", lambda: optim.CosineAnnealingLR({"optimizer": torch_optim.Adam,
                                                               "optim_args": {"lr": 0.05}, "T_max": 6})),
        ("ReduceLROnPlateau", lambda: optim.ReduceLROnPlateau({"optimizer": torch_optim.Adam,
                                                               "optim_args": {"lr": 0.05}, "patience": 1})),
    ]
    for name, make in cases:
        if name not in names:
            continue
        pyro.clear_param_store()
        pyro.set_rng_seed(0)
        print("##", name)
        try:
            opt = make()
            svi = infer.SVI(_regression_model, _regression_guide, opt, loss=infer.Trace_ELBO())
            losses = []
            for _ in range(steps):
                losses.append(svi.step(x, y))
                if isinstance(opt, optim.PyroLRScheduler):
                    opt.step(losses[-1]) if name == "ReduceLROnPlateau" else opt.step()
            print("  losses", [f"{v:.5f}" for v in losses])
            states = opt.get_state()
            print("  lrs", sorted((k, round(v["param_groups"][0]["lr"], 8) if "param_groups" in v else
                                   round(v["optimizer"]["param_groups"][0]["lr"], 8)) for k, v in states.items()))
            _params()
        except Exception as exc:
            print("  raised", type(exc).__name__, (str(exc).splitlines() or [""])[0][:100])


# pyro.contrib.gp and pyro.ops ----------------------------------------------------------------------------------------


def gaussian_processes(gp, steps=10):
    """``pyro.contrib.gp``: kernels evaluated on seeded inputs, then GPRegression, SparseGPRegression (each
    approximation), VariationalGP and VariationalSparseGP trained a few steps by ``gp.util.train``, their losses,
    hyperparameters and predictions. In float64: their Cholesky factors of ill-conditioned kernel matrices turn
    float32 LAPACK's last bits (MKL's in torch, another LAPACK's in core) into the fifth digit of a loss."""
    import pyro
    import pyro.distributions as dist

    torch.set_default_dtype(torch.float64)
    g = torch.Generator().manual_seed(0)
    X = torch.linspace(0.0, 5.0, 20)
    y = torch.sin(X) + 0.2 * torch.randn(20, generator=g)
    Xnew = torch.tensor([0.5, 2.5, 4.0, 6.0])
    kernels = gp.kernels
    for name, kernel in [("RBF", kernels.RBF(1, variance=torch.tensor(1.5), lengthscale=torch.tensor(0.7))),
                         ("Matern32", kernels.Matern32(1)), ("Matern52", kernels.Matern52(1)),
                         ("Exponential", kernels.Exponential(1)), ("RationalQuadratic", kernels.RationalQuadratic(1)),
                         ("Periodic", kernels.Periodic(1, period=torch.tensor(2.0))),
                         ("Linear", kernels.Linear(1)), ("Polynomial", kernels.Polynomial(1, degree=2)),
                         ("Cosine", kernels.Cosine(1)), ("WhiteNoise", kernels.WhiteNoise(1)),
                         ("Sum", kernels.Sum(kernels.RBF(1), kernels.Linear(1))),
                         ("Product", kernels.Product(kernels.RBF(1), kernels.Periodic(1))),
                         ("Warping", kernels.Warping(kernels.RBF(1), owarping_coef=[1.0, 0.5]))]:
        show(f"kernel {name}", kernel(X[:4], Xnew))
        show(f"kernel {name} diag", kernel(X[:5], diag=True))
    models = [
        ("GPRegression", lambda: gp.models.GPRegression(X, y, kernels.RBF(1), noise=torch.tensor(0.1))),
        ("SparseGPRegression DTC", lambda: gp.models.SparseGPRegression(X, y, kernels.RBF(1), Xu=X[::4].clone(),
                                                                        approx="DTC")),
        ("SparseGPRegression FITC", lambda: gp.models.SparseGPRegression(X, y, kernels.RBF(1), Xu=X[::4].clone(),
                                                                         approx="FITC")),
        ("SparseGPRegression VFE", lambda: gp.models.SparseGPRegression(X, y, kernels.RBF(1), Xu=X[::4].clone(),
                                                                        approx="VFE")),
        ("VariationalGP", lambda: gp.models.VariationalGP(X, y, kernels.Matern52(1),
                                                          likelihood=gp.likelihoods.Gaussian())),
        ("VariationalSparseGP", lambda: gp.models.VariationalSparseGP(X, (y > 0).float(), kernels.RBF(1),
                                                                      Xu=X[::5].clone(),
                                                                      likelihood=gp.likelihoods.Binary())),
    ]
    for name, make in models:
        pyro.clear_param_store()
        pyro.set_rng_seed(0)
        print("##", name)
        try:
            model = make()
            if name == "GPRegression":
                model.kernel.lengthscale = pyro.nn.PyroSample(dist.LogNormal(0.0, 1.0))
                model.kernel.variance = pyro.nn.PyroSample(dist.LogNormal(0.0, 1.0))
                model.kernel.autoguide("lengthscale", dist.Normal)
                model.kernel.autoguide("variance", dist.Normal)
            losses = gp.util.train(model, num_steps=steps)
            print("  losses", [f"{v:.5f}" for v in losses])
            for pname, value in sorted(model.named_parameters()):
                show(f"  {pname}", value)
            model.set_mode("guide")
            mean, var = model(Xnew, full_cov=False)
            show("  mean", mean)
            show("  var", var)
        except Exception as exc:
            print("  raised", type(exc).__name__, (str(exc).splitlines() or [""])[0][:100])


def ops():
    """``pyro.ops``: opt_einsum contraction through Pyro's backends (``contract``, log-sum-exp einsum, the adjoint's
    sampling backward), statistics of samples, tensor utilities, special functions and the Gaussian and
    linear-algebra helpers."""
    import pyro
    import pyro.ops.stats as stats
    from pyro.ops import special, tensor_utils
    from pyro.ops.contract import einsum, ubersum
    from pyro.ops.einsum import contract

    g = torch.Generator().manual_seed(0)
    a, b, c = torch.randn(3, 4, generator=g), torch.randn(4, 5, generator=g), torch.randn(5, 3, generator=g)
    show("contract", contract("ij,jk,ki->", a, b, c, backend="torch"))
    show("contract path", contract("ij,jk->ik", a, b, backend="pyro.ops.einsum.torch_log"))
    show("einsum log", einsum("ab,bc->ac", a, b, modulo_total=True, backend="pyro.ops.einsum.torch_log")[0])
    show("ubersum", ubersum("ab,bc->a", a, b, batch_dims="", modulo_total=True)[0])
    import opt_einsum

    show("opt_einsum", opt_einsum.contract("ij,jk,kl->il", a, b, torch.randn(5, 2, generator=g), backend="torch"))
    print("opt_einsum path", opt_einsum.contract_path("ij,jk,kl->il", (3, 4), (4, 5), (5, 2), shapes=True)[0])
    samples = torch.randn(2, 200, 3, generator=g).cumsum(1) * 0.1 + torch.randn(2, 200, 3, generator=g)
    show("autocorrelation", stats.autocorrelation(samples[0, :, 0])[:6])
    show("autocovariance", stats.autocovariance(samples[0, :, 0])[:6])
    show("effective_sample_size", stats.effective_sample_size(samples))
    show("gelman_rubin", stats.gelman_rubin(samples))
    show("split_gelman_rubin", stats.split_gelman_rubin(samples))
    show("hpdi", stats.hpdi(samples[0], 0.9))
    show("quantile", stats.quantile(samples[0], [0.1, 0.5, 0.9]))
    show("pi", stats.pi(samples[0], 0.8))
    show("waic", stats.waic(samples[0].T.log_softmax(-1)))
    show("resample", stats.resample(samples[0, :, 0], num_samples=5)) if pyro.set_rng_seed(0) is None else None
    show("crps_empirical", stats.crps_empirical(samples[0, :50], samples[0, 0]))
    show("energy_score_empirical", stats.energy_score_empirical(samples[0, :30], samples[1, 0]))
    x = torch.randn(8, generator=g)
    show("convolve", tensor_utils.convolve(x, torch.tensor([0.25, 0.5, 0.25])))
    show("dct", tensor_utils.dct(x))
    show("idct", tensor_utils.idct(tensor_utils.dct(x)))
    show("haar", tensor_utils.haar_transform(x))
    show("block_diag_embed", tensor_utils.block_diag_embed(torch.randn(2, 2, 2, generator=g)))
    show("periodic_cumsum", tensor_utils.periodic_cumsum(x.unsqueeze(-1), 3, dim=-2))
    show("repeated_matmul", tensor_utils.repeated_matmul(torch.eye(2) * 0.9 + 0.05, 3))
    show("precision_to_scale_tril", tensor_utils.precision_to_scale_tril(torch.tensor([[2.0, 0.3], [0.3, 1.0]])))
    show("safe_log", special.safe_log(torch.tensor([0.0, 1e-30, 2.0])))
    show("log_beta", special.log_beta(torch.tensor([0.5, 2.0, 7.5]), torch.tensor([1.5, 3.0, 0.2])))
    show("log_binomial", special.log_binomial(torch.tensor([10.0, 7.5]), torch.tensor([3.0, 2.5])))
    show("log_I1", special.log_I1(3, torch.tensor([0.5, 2.0])))
    show("get_quad_rule", special.get_quad_rule(4, torch.zeros(()))[0])
    from pyro.ops.gaussian import Gaussian, matrix_and_mvn_to_gaussian, mvn_to_gaussian

    mvn = pyro.distributions.MultivariateNormal(torch.tensor([0.5, -1.0]), torch.tensor([[2.0, 0.3], [0.3, 1.0]]))
    gauss = mvn_to_gaussian(mvn)
    show("gaussian info_vec", gauss.info_vec)
    show("gaussian precision", gauss.precision)
    show("gaussian log_density", gauss.log_density(torch.tensor([0.0, 0.0])))
    show("gaussian event_logsumexp", gauss.event_logsumexp())
    joint = matrix_and_mvn_to_gaussian(torch.tensor([[1.0, 0.5], [0.0, 1.0]]), mvn)
    show("gaussian marginalize", joint.marginalize(left=2).precision)
    show("gaussian condition", joint.condition(torch.tensor([0.3, 0.1])).info_vec)
    both = Gaussian.cat([mvn_to_gaussian(mvn.expand((1,))), mvn_to_gaussian(mvn.expand((2,)))])
    print("Gaussian.cat", tuple(both.batch_shape), both.dim())
