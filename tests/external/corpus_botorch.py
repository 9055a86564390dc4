"""Drivers for ``recipes_botorch.py``: BoTorch's models, fitting, acquisition functions, optimisation, test functions,
samplers and utilities used as its documentation and tutorials use them, printing the values at full precision
(float64) so that core's and torch's runs are compared; and ``run_tests`` for BoTorch's own unit-test files."""

from __future__ import annotations

import importlib

from corpus_gpytorch import show as _show
from corpus_labml import run_tests as _run_tests

RESIDUE = 1e-9  # relative to a tensor's largest entry: what float64 cancellation leaves of a zero


def show(name, value):
    """``corpus_gpytorch.show`` (shape, dtype, the first values at full precision), with a float tensor's entries
    below ``RESIDUE`` times its largest printed as 0.0: the gradient of an acquisition function at a point whose
    improvement is nil is a cancellation residue (1e-16 beside entries of 1e-1), whose digits follow the order of
    the sums, not BoTorch's arithmetic."""
    torch = _torch()
    if isinstance(value, torch.Tensor) and value.is_floating_point() and value.numel():
        value = value.detach()
        value = torch.where(value.abs() <= RESIDUE * value.abs().max(), torch.zeros_like(value), value)
    _show(name, value)


def run_tests(namespace, every=1):
    """The test file's ``unittest`` classes, each test's outcome printed (``corpus_labml.run_tests``)."""
    _run_tests(namespace, every)


def _torch():
    import torch  # core under the runner's alias in core's run

    return torch


def _data(torch, n=12, d=2, seed=0, m=1):
    """Seeded training data on the unit cube: ``n`` points in ``d`` dimensions and ``m`` smooth outcomes."""
    generator = torch.Generator().manual_seed(seed)
    x = torch.rand(n, d, generator=generator, dtype=torch.float64)
    ys = [torch.sin(6.0 * x[:, :1] + k) + (x - 0.5 - 0.1 * k).pow(2).sum(-1, keepdim=True) for k in range(m)]
    return x, torch.cat(ys, -1) + 0.05 * torch.randn(n, m, generator=generator, dtype=torch.float64)


def _fit(model, steps=25):
    """``fit_gpytorch_mll`` on the model's exact marginal log likelihood, through BoTorch's torch optimizer."""
    from botorch.fit import fit_gpytorch_mll
    from botorch.optim.fit import fit_gpytorch_mll_torch
    from gpytorch.mlls import ExactMarginalLogLikelihood

    mll = ExactMarginalLogLikelihood(model.likelihood, model)
    fit_gpytorch_mll(mll, optimizer=fit_gpytorch_mll_torch, optimizer_kwargs={"step_limit": steps})
    return mll


def single_task_gp():
    """SingleTaskGP with Normalize and Standardize, fitted; its parameters, posterior and fantasies."""
    torch = _torch()
    from botorch.models import SingleTaskGP
    from botorch.models.transforms import Normalize, Standardize

    x, y = _data(torch)
    model = SingleTaskGP(x, y, input_transform=Normalize(d=2), outcome_transform=Standardize(m=1))
    mll = _fit(model)
    for name, value in model.named_parameters():
        show(name, value)
    show("mll", mll(model(*model.train_inputs), model.train_targets))
    test = torch.linspace(0, 1, 5, dtype=torch.float64).unsqueeze(-1).repeat(1, 2)
    posterior = model.posterior(test)
    show("mean", posterior.mean)
    show("variance", posterior.variance)
    fantasy = model.fantasize(test[:2], sampler=_sobol(torch, 3))
    show("fantasy mean", fantasy.posterior(test[2:]).mean)
    conditioned = model.condition_on_observations(X=test[:1], Y=torch.tensor([[0.25]], dtype=torch.float64))
    show("conditioned mean", conditioned.posterior(test).mean)
    show("observation noise variance", model.posterior(test, observation_noise=True).variance)
    show("batch shape", model.batch_shape)
    show("num outputs", model.num_outputs)


def _sobol(torch, n, seed=0):
    from botorch.sampling import SobolQMCNormalSampler

    return SobolQMCNormalSampler(sample_shape=torch.Size([n]), seed=seed)


def fixed_noise_and_batched_gp():
    """SingleTaskGP with known noise (``train_Yvar``: the former FixedNoiseGP) and with two outputs (a batched
    model), fitted; their posteriors, samples and the model's ``subset_output``."""
    torch = _torch()
    from botorch.models import SingleTaskGP
    from botorch.models.transforms import Normalize, Standardize

    x, y = _data(torch, m=2, seed=1)
    fixed = SingleTaskGP(x, y[:, :1], train_Yvar=torch.full_like(y[:, :1], 0.01), outcome_transform=Standardize(m=1))
    _fit(fixed)
    show("fixed lengthscale", fixed.covar_module.lengthscale)
    show("fixed noise", fixed.likelihood.noise)
    test = torch.tensor([[0.1, 0.9], [0.5, 0.5], [0.8, 0.2]], dtype=torch.float64)
    show("fixed mean", fixed.posterior(test).mean)
    show("fixed variance", fixed.posterior(test).variance)
    batched = SingleTaskGP(x, y, input_transform=Normalize(d=2), outcome_transform=Standardize(m=2))
    _fit(batched)
    show("batched lengthscale", batched.covar_module.lengthscale)
    posterior = batched.posterior(test)
    show("batched mean", posterior.mean)
    show("batched covariance", posterior.mvn.covariance_matrix)
    samples = posterior.rsample_from_base_samples(torch.Size([2]), torch.ones(2, 3, 2, dtype=torch.float64))
    show("batched samples", samples)
    show("subset output mean", batched.subset_output([1]).posterior(test).mean)


def model_list_and_multitask():
    """ModelListGP of two SingleTaskGPs with SumMarginalLogLikelihood, MultiTaskGP (a task column) and
    KroneckerMultiTaskGP, each fitted a few steps; posteriors and their joint covariances."""
    torch = _torch()
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import KroneckerMultiTaskGP, ModelListGP, MultiTaskGP, SingleTaskGP
    from botorch.models.transforms import Standardize
    from botorch.optim.fit import fit_gpytorch_mll_torch
    from gpytorch.mlls import SumMarginalLogLikelihood

    x, y = _data(torch, n=10, m=2, seed=2)
    models = [SingleTaskGP(x, y[:, i:i + 1], outcome_transform=Standardize(m=1)) for i in range(2)]
    model = ModelListGP(*models)
    mll = SumMarginalLogLikelihood(model.likelihood, model)
    fit_gpytorch_mll(mll, optimizer=fit_gpytorch_mll_torch, optimizer_kwargs={"step_limit": 10})
    test = torch.tensor([[0.3, 0.6], [0.7, 0.1]], dtype=torch.float64)
    posterior = model.posterior(test)
    show("list mean", posterior.mean)
    show("list variance", posterior.variance)
    tasks = torch.cat([torch.cat([x, torch.full_like(x[:, :1], i)], -1) for i in range(2)])
    multitask = MultiTaskGP(tasks, torch.cat([y[:, :1], y[:, 1:]]), task_feature=-1,
                            outcome_transform=Standardize(m=1))
    _fit(multitask, 10)
    show("multitask mean", multitask.posterior(test).mean)
    show("multitask variance", multitask.posterior(test).variance)
    show("multitask output 1 mean", multitask.posterior(test, output_indices=[1]).mean)
    kronecker = KroneckerMultiTaskGP(x, y)
    _fit(kronecker, 10)
    posterior = kronecker.posterior(test)
    show("kronecker mean", posterior.mean)
    show("kronecker variance", posterior.variance)
    show("kronecker samples", posterior.rsample(torch.Size([2])).shape)


def _fitted(torch, n=10, seed=3, m=1):
    from botorch.models import SingleTaskGP
    from botorch.models.transforms import Standardize

    x, y = _data(torch, n=n, seed=seed, m=m)
    model = SingleTaskGP(x, y, outcome_transform=Standardize(m=m))
    _fit(model, 20)
    return model, x, y


def _value_and_grad(name, acqf, points):
    points = points.clone().requires_grad_(True)
    value = acqf(points)
    value.sum().backward()
    show(f"{name} value", value)
    show(f"{name} grad", points.grad)


def analytic_acquisition():
    """The analytic acquisition functions on a fitted model: values at a batch of points and their gradients."""
    torch = _torch()
    from botorch import acquisition as acq

    model, x, y = _fitted(torch)
    two = _fitted(torch, m=2, seed=4)[0]
    best = y.max()
    points = torch.rand(4, 1, 2, generator=torch.Generator().manual_seed(7), dtype=torch.float64)
    made = {
        "EI": acq.ExpectedImprovement(model, best_f=best),
        "LogEI": acq.LogExpectedImprovement(model, best_f=best),
        "PI": acq.ProbabilityOfImprovement(model, best_f=best),
        "LogPI": acq.analytic.LogProbabilityOfImprovement(model, best_f=best),
        "UCB": acq.UpperConfidenceBound(model, beta=0.2),
        "LCB minimize": acq.UpperConfidenceBound(model, beta=0.2, maximize=False),
        "PosteriorMean": acq.PosteriorMean(model),
        "PosteriorStandardDeviation": acq.analytic.PosteriorStandardDeviation(model),
        "EI minimize": acq.ExpectedImprovement(model, best_f=y.min(), maximize=False),
        "LogNEI": acq.LogNoisyExpectedImprovement(
            __import__("botorch.models", fromlist=["SingleTaskGP"]).SingleTaskGP(
                x, y, train_Yvar=torch.full_like(y, 0.01)), x, num_fantasies=4),
        "ConstrainedEI": acq.ConstrainedExpectedImprovement(
            two, best_f=0.5, objective_index=0, constraints={1: (None, 0.3)}),
        "LogConstrainedEI": acq.analytic.LogConstrainedExpectedImprovement(
            two, best_f=0.5, objective_index=0, constraints={1: (None, 0.3)}),
    }
    for name, function in made.items():
        _value_and_grad(name, function, points)


def mc_acquisition():
    """The Monte-Carlo acquisition functions with SobolQMCNormalSampler (seeded): q-batch values and gradients."""
    torch = _torch()
    from botorch import acquisition as acq
    from botorch.acquisition.objective import GenericMCObjective, LinearMCObjective

    model, x, y = _fitted(torch)
    best = y.max()
    points = torch.rand(3, 2, 2, generator=torch.Generator().manual_seed(8), dtype=torch.float64)
    made = {
        "qEI": acq.qExpectedImprovement(model, best_f=best, sampler=_sobol(torch, 64)),
        "qLogEI": acq.qLogExpectedImprovement(model, best_f=best, sampler=_sobol(torch, 64)),
        "qNEI": acq.qNoisyExpectedImprovement(model, x, sampler=_sobol(torch, 64), prune_baseline=True),
        "qLogNEI": acq.qLogNoisyExpectedImprovement(model, x, sampler=_sobol(torch, 64), prune_baseline=True),
        "qPI": acq.qProbabilityOfImprovement(model, best_f=best, sampler=_sobol(torch, 64), tau=1e-2),
        "qUCB": acq.qUpperConfidenceBound(model, beta=0.2, sampler=_sobol(torch, 64)),
        "qSimpleRegret": acq.qSimpleRegret(model, sampler=_sobol(torch, 64)),
        "qEI generic objective": acq.qExpectedImprovement(
            model, best_f=best, sampler=_sobol(torch, 32), objective=GenericMCObjective(lambda s, X=None: -s[..., 0])),
        "qLogEI linear objective": acq.qLogExpectedImprovement(
            model, best_f=best, sampler=_sobol(torch, 32),
            objective=LinearMCObjective(torch.tensor([2.0], dtype=torch.float64))),
        "qNEI pending": acq.qNoisyExpectedImprovement(model, x, sampler=_sobol(torch, 32), prune_baseline=False,
                                                      X_pending=x[:1] + 0.01),
    }
    for name, function in made.items():
        _value_and_grad(name, function, points)
    show("qNEI baseline kept", made["qNEI"].X_baseline.shape)


def knowledge_gradient():
    """qKnowledgeGradient (one-shot: fantasies in the candidate set) and its ``evaluate`` with an inner
    PosteriorMean maximisation, on a fitted model; qMultiFidelityKnowledgeGradient's projection."""
    torch = _torch()
    from botorch.acquisition import PosteriorMean, qKnowledgeGradient

    model, x, y = _fitted(torch)
    kg = qKnowledgeGradient(model, num_fantasies=4)
    show("augmented q", kg.get_augmented_q_batch_size(2))
    points = torch.rand(2, 2 + 4, 2, generator=torch.Generator().manual_seed(9), dtype=torch.float64)
    _value_and_grad("qKG", kg, points)
    show("extracted candidates", kg.extract_candidates(points))
    from botorch.optim.initializers import gen_batch_initial_conditions

    torch.manual_seed(0)  # (its own initial conditions would maximise the posterior mean through SciPy)
    candidate, value = _optimize(kg, torch, q=1, restarts=2, raw=16, steps=10,
                                 ic_generator=gen_batch_initial_conditions)
    show("qKG one-shot candidate", candidate)
    show("qKG one-shot value", value)
    show("posterior mean", PosteriorMean(model)(points[:, :1]))


def _optimize(acqf, torch, q=1, restarts=2, raw=16, steps=5, bounds=None, **kw):
    """``optimize_acqf`` through ``gen_candidates_torch`` (Adam on the restarts, BoTorch's torch path)."""
    from botorch.generation.gen import gen_candidates_torch
    from botorch.optim import optimize_acqf

    if bounds is None:
        bounds = torch.tensor([[0.0, 0.0], [1.0, 1.0]], dtype=torch.float64)
    return optimize_acqf(acqf, bounds=bounds, q=q, num_restarts=restarts, raw_samples=raw,
                         gen_candidates=gen_candidates_torch, options={"maxiter": steps}, **kw)


def optimize_acquisition():
    """``optimize_acqf`` with ``gen_candidates_torch``: analytic EI and LogEI, joint and sequential qEI/qLogNEI
    batches, fixed features, every restart's result; ``optimize_acqf_discrete`` over a choice set and the
    initial conditions ``gen_batch_initial_conditions`` draws."""
    torch = _torch()
    from botorch import acquisition as acq
    from botorch.optim import optimize_acqf_discrete

    model, x, y = _fitted(torch)
    best = y.max()
    for name, function, q, kw in [
        ("EI", acq.ExpectedImprovement(model, best_f=best), 1, {}),
        ("LogEI", acq.LogExpectedImprovement(model, best_f=best), 1, {}),
        ("qEI joint", acq.qExpectedImprovement(model, best_f=best, sampler=_sobol(torch, 32)), 2, {}),
        ("qLogNEI sequential", acq.qLogNoisyExpectedImprovement(model, x, sampler=_sobol(torch, 32)), 2,
         {"sequential": True}),
        ("UCB fixed feature", acq.UpperConfidenceBound(model, beta=0.5), 1, {"fixed_features": {1: 0.25}}),
        ("qUCB no best", acq.qUpperConfidenceBound(model, beta=0.5, sampler=_sobol(torch, 32)), 2,
         {"return_best_only": False}),
    ]:
        torch.manual_seed(0)
        candidate, value = _optimize(function, torch, q=q, **kw)
        show(f"{name} candidate", candidate)
        show(f"{name} value", value)
    torch.manual_seed(0)
    choices = torch.rand(16, 2, generator=torch.Generator().manual_seed(11), dtype=torch.float64)
    candidate, value = optimize_acqf_discrete(acq.qExpectedImprovement(model, best_f=best, sampler=_sobol(torch, 32)),
                                              q=2, choices=choices)
    show("discrete candidate", candidate)
    show("discrete value", value)
    from botorch.optim.initializers import gen_batch_initial_conditions

    torch.manual_seed(0)
    conditions = gen_batch_initial_conditions(acq.ExpectedImprovement(model, best_f=best),
                                              torch.tensor([[0.0, 0.0], [1.0, 1.0]], dtype=torch.float64),
                                              q=1, num_restarts=4, raw_samples=32)
    show("batch initial conditions", conditions)


def multi_objective():
    """Multi-objective BO: Pareto fronts, box decompositions, hypervolume, qEHVI/qNEHVI/qLogNEHVI values and
    gradients, ParEGO's Chebyshev scalarisation, on a two-output model of BraninCurrin."""
    torch = _torch()
    from botorch.acquisition.multi_objective import (
        qExpectedHypervolumeImprovement,
        qNoisyExpectedHypervolumeImprovement,
    )
    from botorch.acquisition.multi_objective.logei import qLogNoisyExpectedHypervolumeImprovement
    from botorch.acquisition.objective import GenericMCObjective
    from botorch.models import SingleTaskGP
    from botorch.models.transforms import Standardize
    from botorch.test_functions.multi_objective import BraninCurrin
    from botorch.utils.multi_objective import is_non_dominated
    from botorch.utils.multi_objective.box_decompositions import (
        DominatedPartitioning,
        FastNondominatedPartitioning,
        NondominatedPartitioning,
    )
    from botorch.utils.multi_objective.hypervolume import Hypervolume, infer_reference_point
    from botorch.utils.multi_objective.scalarization import get_chebyshev_scalarization
    from botorch.utils.sampling import sample_simplex
    from botorch.utils.transforms import normalize

    problem = BraninCurrin(negate=True).to(torch.float64)
    x = torch.rand(12, 2, generator=torch.Generator().manual_seed(12), dtype=torch.float64)
    y = problem(x)
    show("objectives", y)
    pareto = is_non_dominated(y)
    show("non dominated", pareto)
    show("problem reference point", problem.ref_point)
    ref = infer_reference_point(y[pareto])
    show("inferred reference point", ref)
    show("hypervolume", Hypervolume(ref).compute(y[pareto]))
    for cls in (DominatedPartitioning, FastNondominatedPartitioning, NondominatedPartitioning):
        partitioning = cls(ref_point=ref, Y=y)
        show(f"{cls.__name__} hypervolume", partitioning.compute_hypervolume())
        show(f"{cls.__name__} bounds", partitioning.get_hypercell_bounds().shape)
    show("max hypervolume", problem.max_hv)
    model = SingleTaskGP(x, y, outcome_transform=Standardize(m=2))
    _fit(model, 15)
    points = torch.rand(2, 2, 2, generator=torch.Generator().manual_seed(13), dtype=torch.float64)
    partitioning = FastNondominatedPartitioning(ref_point=ref, Y=y)
    _value_and_grad("qEHVI", qExpectedHypervolumeImprovement(model, ref.tolist(), partitioning,
                                                              sampler=_sobol(torch, 32)), points)
    _value_and_grad("qNEHVI", qNoisyExpectedHypervolumeImprovement(model, ref.tolist(), x, sampler=_sobol(torch, 32),
                                                                   prune_baseline=True, cache_root=False), points)
    _value_and_grad("qLogNEHVI", qLogNoisyExpectedHypervolumeImprovement(
        model, ref.tolist(), x, sampler=_sobol(torch, 32), prune_baseline=True), points)
    torch.manual_seed(0)
    weights = sample_simplex(2, dtype=torch.float64).squeeze(0)
    show("simplex weights", weights)
    bounds = torch.stack([y.min(0).values, y.max(0).values])
    scalarization = get_chebyshev_scalarization(weights, y)
    show("chebyshev", scalarization(y))
    show("normalized", normalize(y, bounds))
    from botorch.acquisition import qLogNoisyExpectedImprovement

    parego = qLogNoisyExpectedImprovement(model, x, objective=GenericMCObjective(
        lambda samples, X=None: scalarization(samples)), sampler=_sobol(torch, 32))
    _value_and_grad("ParEGO qLogNEI", parego, points)
    torch.manual_seed(0)
    candidate, value = _optimize(qLogNoisyExpectedHypervolumeImprovement(
        model, ref.tolist(), x, sampler=_sobol(torch, 16), prune_baseline=True), torch, q=1, restarts=2, raw=8,
        steps=4)
    show("qLogNEHVI candidates", candidate)


def synthetic_functions():
    """``botorch.test_functions.synthetic``: each problem at seeded points in its bounds (noiseless, noisy with a
    seed, negated), its optimal value and optimizers, and the gradient of its value."""
    torch = _torch()
    from botorch.test_functions import synthetic
    from botorch.utils.transforms import unnormalize

    names = ["Ackley", "Beale", "Branin", "Bukin", "Cosine8", "DropWave", "DixonPrice", "EggHolder", "Griewank",
             "Hartmann", "HolderTable", "Levy", "Michalewicz", "Powell", "Rastrigin", "Rosenbrock", "Shekel",
             "SixHumpCamel", "StyblinskiTang", "ThreeHumpCamel", "AckleyMixed", "Labs", "PressureVessel",
             "WeldedBeamSO", "TensionCompressionString", "SpeedReducer", "ConstrainedGramacy",
             "ConstrainedHartmann", "ConstrainedHartmannSmooth"]
    generator = torch.Generator().manual_seed(21)
    for name in names:
        cls = getattr(synthetic, name, None)
        if cls is None:
            print(name, "not in this release")
            continue
        problem = cls().to(torch.float64)
        x = unnormalize(torch.rand(3, problem.dim, generator=generator, dtype=torch.float64), problem.bounds)
        if getattr(problem, "discrete_inds", None) or getattr(problem, "integer_inds", None):
            x = x.round()
        show(f"{name} dim {problem.dim} value", problem(x))
        show(f"{name} optimal value", getattr(problem, "_optimal_value", None))
        if getattr(problem, "num_constraints", 0):
            show(f"{name} slack", problem.evaluate_slack(x))
            show(f"{name} feasible", problem.is_feasible(x))
        if not (getattr(problem, "discrete_inds", None) or getattr(problem, "integer_inds", None)
                or name in ("Labs",)):
            leaf = x.clone().requires_grad_(True)
            problem.evaluate_true(leaf).sum().backward()
            show(f"{name} grad", leaf.grad)
    noisy = synthetic.Hartmann(dim=6, noise_std=0.1, negate=True).to(torch.float64)
    torch.manual_seed(3)
    show("Hartmann6 noisy negated", noisy(torch.full((2, 6), 0.3, dtype=torch.float64)))
    show("Hartmann6 optimizers", synthetic.Hartmann(dim=6).optimizers)
    show("Branin optimizers value", synthetic.Branin().evaluate_true(synthetic.Branin().optimizers))
    show("Ackley 5", synthetic.Ackley(dim=5, negate=True)(torch.zeros(1, 5)))
    show("Rosenbrock float32", synthetic.Rosenbrock(dim=3)(torch.tensor([[0.5, -0.2, 1.3]])))


def multi_objective_functions():
    """``botorch.test_functions.multi_objective``: DTLZ, ZDT, BraninCurrin, VehicleSafety, CarSideImpact...,
    their values at seeded points, Pareto fronts generated, reference points and max hypervolumes."""
    torch = _torch()
    from botorch.test_functions import multi_objective as mo
    from botorch.utils.transforms import unnormalize

    generator = torch.Generator().manual_seed(22)
    problems = [mo.DTLZ1(dim=4), mo.DTLZ2(dim=4), mo.DTLZ3(dim=4), mo.DTLZ4(dim=4), mo.DTLZ5(dim=4), mo.DTLZ7(dim=4),
                mo.ZDT1(dim=3), mo.ZDT2(dim=3), mo.ZDT3(dim=3), mo.BraninCurrin(), mo.DH1(dim=3), mo.DH2(dim=3),
                mo.DH3(dim=3), mo.DH4(dim=3), mo.GMM(num_objectives=2), mo.Penicillin(), mo.ToyRobust(),
                mo.VehicleSafety(), mo.CarSideImpact(), mo.BNH(), mo.SRN(), mo.CONSTR(), mo.ConstrainedBraninCurrin(),
                mo.C2DTLZ2(dim=3, num_objectives=2), mo.DiscBrake(), mo.OSY(), mo.WeldedBeam(), mo.MW7(dim=3)]
    for problem in problems:
        problem = problem.to(torch.float64)
        name = type(problem).__name__
        x = unnormalize(torch.rand(3, problem.dim, generator=generator, dtype=torch.float64), problem.bounds)
        show(f"{name} value", problem(x))
        show(f"{name} ref point", problem.ref_point)
        if getattr(problem, "num_constraints", 0):
            show(f"{name} slack", problem.evaluate_slack(x))
        try:
            show(f"{name} max hv", problem.max_hv)
        except NotImplementedError as exc:
            print(f"{name} max hv: NotImplementedError {exc}")
        if hasattr(problem, "gen_pareto_front"):
            try:
                show(f"{name} pareto front", problem.gen_pareto_front(4))
            except NotImplementedError as exc:
                print(f"{name} pareto front: NotImplementedError {exc}")


def sobol_and_sampling():
    """torch.quasirandom.SobolEngine (scrambled and not, draw, draw_base2, fast_forward, reset, float32/64 and
    int64 dims up to 21201... a few) bit for bit, and ``botorch.utils.sampling``'s seeded draws: Sobol samples in
    bounds, Sobol normals, the simplex and hypersphere, ``manual_seed``, batched multinomial, polytope samples by
    hit-and-run (with a starting point), ``sparse_to_dense_constraints``; ``botorch.sampling.qmc``'s engines."""
    torch = _torch()
    from torch.quasirandom import SobolEngine

    for dim, scramble, seed in ((1, False, None), (3, True, 0), (5, True, 7), (40, True, 123), (2, False, None)):
        engine = SobolEngine(dimension=dim, scramble=scramble, seed=seed)
        show(f"sobol {dim} {scramble} draw", engine.draw(5, dtype=torch.float64))
        engine.fast_forward(3)
        show(f"sobol {dim} after fast_forward", engine.draw(2))
        engine.reset()
        show(f"sobol {dim} draw_base2", engine.draw_base2(3))
        show(f"sobol {dim} num_generated", engine.num_generated)
        print(repr(engine))
    engine = SobolEngine(3, scramble=True, seed=5)
    show("sobol quasi", engine.quasi)
    show("sobol shift", engine.shift)
    show("sobol sobolstate", engine.sobolstate[:, :4])
    from botorch.sampling.qmc import MultivariateNormalQMCEngine, NormalQMCEngine
    from botorch.utils import sampling as su

    show("NormalQMCEngine", NormalQMCEngine(d=3, seed=1).draw(4, dtype=torch.float64))
    show("NormalQMCEngine no Box-Muller", NormalQMCEngine(d=3, seed=1, inv_transform=True).draw(4))
    mean = torch.tensor([1.0, -1.0], dtype=torch.float64)
    cov = torch.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=torch.float64)
    show("MultivariateNormalQMCEngine", MultivariateNormalQMCEngine(mean, cov, seed=2).draw(4))
    bounds = torch.tensor([[0.0, -1.0, 2.0], [1.0, 1.0, 5.0]], dtype=torch.float64)
    show("draw_sobol_samples", su.draw_sobol_samples(bounds, n=4, q=2, seed=3))
    show("draw_sobol_normal_samples", su.draw_sobol_normal_samples(3, 4, dtype=torch.float64, seed=4))
    show("sample_simplex", su.sample_simplex(3, n=4, qmc=True, seed=5, dtype=torch.float64))
    show("sample_simplex iid", su.sample_simplex(3, n=2, seed=5, dtype=torch.float64))
    show("sample_hypersphere", su.sample_hypersphere(3, n=4, qmc=True, seed=6, dtype=torch.float64))
    with su.manual_seed(7):
        show("manual_seed rand", torch.rand(3))
    show("after manual_seed", torch.rand(1).shape)
    show("batched_multinomial", su.batched_multinomial(torch.tensor([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]]), 2,
                                                          generator=torch.Generator().manual_seed(8)))
    eye = torch.eye(3, dtype=torch.float64)  # x0 + x1 >= 1 in the unit cube, as A x <= b
    a = torch.cat([torch.tensor([[-1.0, -1.0, 0.0]], dtype=torch.float64), eye, -eye])
    b = torch.tensor([[-1.0], [1.0], [1.0], [1.0], [0.0], [0.0], [0.0]], dtype=torch.float64)
    samples = su.sample_polytope(A=a, b=b, x0=torch.tensor([[0.6], [0.6], [0.5]], dtype=torch.float64), n=5, n0=10,
                                 seed=10)
    show("sample_polytope", samples)
    show("sparse_to_dense", su.sparse_to_dense_constraints(3, [(torch.tensor([0, 2]), torch.tensor([1.0, 2.0]),
                                                                 0.5)]))
    show("draw_sobol_samples batch", su.draw_sobol_samples(bounds, n=2, q=1, batch_shape=torch.Size([2]), seed=11))


def utils_and_safe_math():
    """``botorch.utils.transforms`` (normalize, standardize, the t-batch decorators), ``safe_math``'s smooth and
    log-space functions with their gradients, ``utils.probability``'s bivariate normal and truncated normal
    helpers, ``utils.objective``'s feasibility weighting, ``utils.low_rank`` and ``utils.rounding``."""
    torch = _torch()
    from botorch.utils import safe_math, transforms
    from botorch.utils.objective import compute_feasibility_indicator, compute_smoothed_feasibility_indicator
    from botorch.utils.probability import utils as putils

    bvn = importlib.import_module("botorch.utils.probability.bvn")  # (the package's ``bvn`` is the function)
    from botorch.utils.rounding import approximate_round

    generator = torch.Generator().manual_seed(31)
    x = torch.randn(4, 3, generator=generator, dtype=torch.float64)
    bounds = torch.tensor([[-2.0, -1.0, 0.0], [2.0, 3.0, 1.0]], dtype=torch.float64)
    show("normalize", transforms.normalize(x, bounds))
    show("unnormalize", transforms.unnormalize(transforms.normalize(x, bounds), bounds))
    show("standardize", transforms.standardize(x))
    show("standardize constant", transforms.standardize(torch.ones(3, 1, dtype=torch.float64)))
    show("match_batch_shape", transforms.match_batch_shape(x, torch.zeros(2, 5, 4, 3)).shape)
    show("is_ensemble", transforms.is_ensemble(None) if hasattr(transforms, "is_ensemble") else None)
    leaf = x.clone().requires_grad_(True)
    functions = {
        "logmeanexp": lambda t: safe_math.logmeanexp(t, dim=-1),
        "smooth_amax": lambda t: safe_math.smooth_amax(t, dim=-1, tau=0.1),
        "smooth_amin": lambda t: safe_math.smooth_amin(t, dim=-1, tau=0.1),
        "fatmax": lambda t: safe_math.fatmax(t, dim=-1, tau=0.1),
        "fatmin": lambda t: safe_math.fatmin(t, dim=-1, tau=0.1),
        "fatmaximum": lambda t: safe_math.fatmaximum(t, t.flip(-1), tau=0.1),
        "log1pexp": safe_math.log1pexp,
        "standard_normal_log_hazard": lambda t: putils.standard_normal_log_hazard(t),
        "fatplus": lambda t: safe_math.fatplus(t, tau=0.5),
        "log_fatplus": lambda t: safe_math.log_fatplus(t, tau=0.5),
        "log_fatmoid": lambda t: safe_math.log_fatmoid(t, tau=0.5),
        "fatmoid": lambda t: safe_math.fatmoid(t, tau=0.5),
        "log_softplus": lambda t: safe_math.log_softplus(t, tau=0.5),
        "logexpit": safe_math.logexpit,
        "logplusexp": lambda t: safe_math.logplusexp(t, t.flip(-1)),
        "logdiffexp": lambda t: safe_math.logdiffexp(t - 3.0, t),
        "logsumexp": lambda t: safe_math.logsumexp(t, dim=0),
        "log1mexp": lambda t: safe_math.log1mexp(-t.abs() - 0.1),
        "cauchy": lambda t: safe_math.cauchy(t),
        "sigmoid fat": lambda t: safe_math.sigmoid(t, fat=True),
        "log_erfc": lambda t: putils.log_erfc(t),
        "log_erfcx": lambda t: putils.log_erfcx(t),
        "log_ndtr": lambda t: putils.log_ndtr(t),
        "log_phi": lambda t: putils.log_phi(t),
        "ndtr": lambda t: putils.ndtr(t),
        "phi": lambda t: putils.phi(t),
        "log_prob_normal_in": lambda t: putils.log_prob_normal_in(t - 1.0, t + 0.5),
        "approximate_round": lambda t: approximate_round(t * 3.0),
        "feasibility": lambda t: compute_smoothed_feasibility_indicator(
            [lambda s: s[..., 0], lambda s: -s[..., 1]], t, eta=1e-1, log=True),
    }
    for name, function in functions.items():
        if leaf.grad is not None:
            leaf.grad = None
        value = function(leaf)
        value.sum().backward()
        show(f"{name} value", value)
        show(f"{name} grad", leaf.grad)
    show("feasibility indicator", compute_feasibility_indicator([lambda s: s[..., 0]], x))
    show("log_ndtr extremes", putils.log_ndtr(torch.tensor([-40.0, -5.0, 0.0, 5.0, 40.0], dtype=torch.float64)))
    show("log_erfc extremes", putils.log_erfc(torch.tensor([-30.0, -2.0, 0.0, 3.0, 30.0], dtype=torch.float64)))
    def f64(*values):
        return torch.tensor(values, dtype=torch.float64)

    r = f64(-0.9, -0.3, 0.0, 0.5, 0.95)
    show("bvn", bvn.bvn(r, f64(-1.0, -2.0, -0.5, 0.0, -1.5), f64(-0.5, -1.0, -1.0, -0.2, -3.0),
                        f64(1.0, 0.5, 2.0, 1.5, 0.5), f64(0.7, 2.5, 0.3, 1.0, 0.25)))
    show("bvnu", bvn.bvnu(r, f64(0.3, -0.1, 1.2, -2.0, 0.0), f64(0.9, 0.4, -0.3, 1.0, 0.0)))
    show("bvnmom", bvn.bvnmom(r, f64(-1.0, -2.0, -0.5, 0.0, -1.5), f64(-0.5, -1.0, -1.0, -0.2, -3.0),
                              f64(1.0, 0.5, 2.0, 1.5, 0.5), f64(0.7, 2.5, 0.3, 1.0, 0.25)))
    show("swap_along_dim", putils.swap_along_dim_(x.clone(), i=0, j=2, dim=0))
    show("percentile_of_score", putils.percentile_of_score(x, x[:, :1]))
    show("leggauss", putils.leggauss(5, dtype=torch.float64))


def input_outcome_transforms():
    """``botorch.models.transforms``: input transforms (Normalize with learned and given bounds, InputStandardize,
    Warp's Kumaraswamy CDF, Log10, Round, AppendFeatures, InputPerturbation, FilterFeatures, a chain) forward,
    untransform and their training/eval behaviour; outcome transforms (Standardize, Log, Power, Bilog, a chain)
    forward, untransform with variances, and a GP posterior untransformed."""
    torch = _torch()
    from botorch.models.transforms import input as tin
    from botorch.models.transforms import outcome as tout

    generator = torch.Generator().manual_seed(41)
    x = torch.rand(5, 3, generator=generator, dtype=torch.float64) * torch.tensor([2.0, 10.0, 1.0],
                                                                                   dtype=torch.float64)
    bounds = torch.tensor([[0.0, 0.0, 0.0], [2.0, 10.0, 1.0]], dtype=torch.float64)
    transforms = {
        "Normalize learned": tin.Normalize(d=3),
        "Normalize bounds": tin.Normalize(d=3, bounds=bounds),
        "Normalize indices": tin.Normalize(d=3, indices=[1]),
        "InputStandardize": tin.InputStandardize(d=3),
        "Warp": tin.Warp(d=3, indices=[0, 2], bounds=bounds),
        "Log10": tin.Log10(indices=[1]),
        "Round": tin.Round(integer_indices=[1], approximate=True, tau=0.1),
        "AppendFeatures": tin.AppendFeatures(feature_set=torch.tensor([[0.5], [0.25]], dtype=torch.float64)),
        "InputPerturbation": tin.InputPerturbation(torch.tensor([[0.01, 0.0, 0.0], [-0.01, 0.1, 0.0]],
                                                                dtype=torch.float64)),
        "FilterFeatures": tin.FilterFeatures(feature_indices=torch.tensor([0, 2])),
        "Chained": tin.ChainedInputTransform(log=tin.Log10(indices=[1]), norm=tin.Normalize(d=3)),
    }
    for name, transform in transforms.items():
        transform.train()
        show(f"{name} train", transform(x))
        transform.eval()
        show(f"{name} eval", transform(x[:2]))
        if transform.is_one_to_many is False and name not in ("FilterFeatures", "Round"):
            try:
                show(f"{name} untransform", transform.untransform(transform(x[:2])))
            except NotImplementedError as exc:
                print(f"{name} untransform: NotImplementedError {exc}")
        show(f"{name} params", [p for p in transform.parameters()])
    y = torch.rand(6, 2, generator=generator, dtype=torch.float64) * 3.0 + 0.5
    yvar = torch.full_like(y, 0.04)
    outcomes = {"Standardize": tout.Standardize(m=2), "Log": tout.Log(), "Power": tout.Power(power=0.5),
                "Bilog": tout.Bilog(), "Chained": tout.ChainedOutcomeTransform(log=tout.Log(),
                                                                                std=tout.Standardize(m=2)),
                "Standardize outputs": tout.Standardize(m=2, outputs=[1])}
    for name, transform in outcomes.items():
        transform.train()
        transformed, tvar = transform(y, yvar if name in ("Standardize", "Standardize outputs") else None)
        show(f"{name} Y", transformed)
        show(f"{name} Yvar", tvar)
        transform.eval()
        back, backvar = transform.untransform(transformed, tvar)
        show(f"{name} untransformed Y", back)
        show(f"{name} untransformed Yvar", backvar)
    standardize = outcomes["Standardize"]
    show("Standardize means stdvs", (standardize.means, standardize.stdvs))
    from botorch.models import SingleTaskGP

    model = SingleTaskGP(x[:, :2] / 10.0, y[:5], outcome_transform=tout.Standardize(m=2))
    model.eval()
    posterior = model.posterior(torch.tensor([[0.1, 0.5]], dtype=torch.float64))
    show("untransformed posterior mean", posterior.mean)
    show("untransformed posterior variance", posterior.variance)
    log_model = SingleTaskGP(x[:, :2] / 10.0, y[:5], outcome_transform=tout.Log())
    log_model.eval()
    log_posterior = log_model.posterior(torch.tensor([[0.1, 0.5]], dtype=torch.float64))
    show("log-normal posterior mean", log_posterior.mean)
    show("log-normal posterior variance", log_posterior.variance)
    torch.manual_seed(1)
    show("log-normal posterior samples", log_posterior.rsample(torch.Size([3])))


def torch_fit(steps=30):
    """``fit_gpytorch_mll``'s keyword arguments for BoTorch's torch path (the tutorials' default is SciPy's L-BFGS-B,
    not installed here): ``fit_gpytorch_mll_torch`` (Adam) for ``steps`` steps."""
    from botorch.optim.fit import fit_gpytorch_mll_torch

    return {"optimizer": fit_gpytorch_mll_torch, "optimizer_kwargs": {"step_limit": steps}}


def torch_gen():
    """``gen_candidates_torch``: ``optimize_acqf``'s torch path (its default, ``gen_candidates_scipy``, needs SciPy)."""
    from botorch.generation.gen import gen_candidates_torch

    return gen_candidates_torch


def posteriors_and_samplers():
    """GPyTorchPosterior's mean, variance, quantiles, base sample shape and samples through each sampler
    (SobolQMCNormalSampler, IIDNormalSampler, StochasticSampler, ``get_sampler``, ListSampler over a
    PosteriorList), TransformedPosterior, TorchPosterior, PosteriorList; and the deterministic models."""
    torch = _torch()
    from botorch.models import ModelListGP
    from botorch.models.deterministic import AffineDeterministicModel, GenericDeterministicModel
    from botorch.posteriors import PosteriorList, TorchPosterior, TransformedPosterior
    from botorch.sampling import IIDNormalSampler, ListSampler, SobolQMCNormalSampler, StochasticSampler
    from botorch.sampling.get_sampler import get_sampler

    model, x, y = _fitted(torch, m=1, seed=51)
    test = torch.tensor([[0.2, 0.4], [0.6, 0.9], [0.95, 0.05]], dtype=torch.float64)
    posterior = model.posterior(test)
    show("mean", posterior.mean)
    show("variance", posterior.variance)
    show("quantile", posterior.quantile(torch.tensor([0.1, 0.5, 0.9], dtype=torch.float64)))
    show("base sample shape", posterior.base_sample_shape)
    show("batch range", posterior.batch_range)
    for sampler in (SobolQMCNormalSampler(torch.Size([4]), seed=1), IIDNormalSampler(torch.Size([4]), seed=2),
                    StochasticSampler(torch.Size([3]))):
        torch.manual_seed(3)
        show(f"{type(sampler).__name__} samples", sampler(posterior))
    show("get_sampler", type(get_sampler(posterior, torch.Size([8]))).__name__)
    sampler = SobolQMCNormalSampler(torch.Size([2]), seed=4)
    sampler(posterior)
    show("sampler base samples", sampler.base_samples)
    transformed = TransformedPosterior(posterior, sample_transform=torch.exp,
                                       mean_transform=lambda m, v: torch.exp(m + v / 2),
                                       variance_transform=lambda m, v: (torch.exp(v) - 1) * torch.exp(2 * m + v))
    show("transformed mean", transformed.mean)
    show("transformed variance", transformed.variance)
    show("transformed samples", transformed.rsample_from_base_samples(torch.Size([2]), sampler.base_samples))
    torch_posterior = TorchPosterior(torch.distributions.Gamma(torch.tensor([2.0, 3.0], dtype=torch.float64),
                                                               torch.tensor([1.0, 0.5], dtype=torch.float64)))
    torch.manual_seed(5)
    show("TorchPosterior mean", torch_posterior.mean)
    show("TorchPosterior rsample", torch_posterior.rsample(torch.Size([3])))
    show("TorchPosterior variance", torch_posterior.variance)
    second, _, _ = _fitted(torch, m=1, seed=52)
    listed = ModelListGP(model, second).posterior(test)
    show("posterior list type", type(listed).__name__)
    show("posterior list mean", listed.mean)
    show("list sampler", ListSampler(SobolQMCNormalSampler(torch.Size([2]), seed=6),
                                     SobolQMCNormalSampler(torch.Size([2]), seed=7))(
        PosteriorList(posterior, second.posterior(test))))
    show("PosteriorList of two", PosteriorList(posterior, second.posterior(test)).variance)
    generic = GenericDeterministicModel(lambda X: X.sum(-1, keepdim=True) ** 2, num_outputs=1)
    show("generic deterministic", generic.posterior(test).mean)
    affine = AffineDeterministicModel(torch.tensor([[1.0, -1.0], [0.5, 2.0]], dtype=torch.float64), b=0.25)
    show("affine deterministic", affine.posterior(test).mean)
    show("affine variance", affine.posterior(test).variance)


def more_models():
    """SingleTaskMultiFidelityGP, MixedSingleTaskGP (a categorical column), SingleTaskVariationalGP with its
    ELBO, AdditiveMapSaasSingleTaskGP, HigherOrderGP: built, fitted a few steps, posterior mean and variance;
    ``batch_cross_validation`` over leave-one-out folds; Matheron-path Thompson samples."""
    torch = _torch()
    from botorch.cross_validation import batch_cross_validation, gen_loo_cv_folds
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import (
        HigherOrderGP,
        MixedSingleTaskGP,
        SingleTaskGP,
        SingleTaskMultiFidelityGP,
        SingleTaskVariationalGP,
    )
    from botorch.models.map_saas import AdditiveMapSaasSingleTaskGP
    from botorch.optim.fit import fit_gpytorch_mll_torch
    from botorch.sampling.pathwise import draw_matheron_paths
    from gpytorch.mlls import ExactMarginalLogLikelihood, VariationalELBO

    x, y = _data(torch, n=10, d=3, seed=61)
    test = torch.tensor([[0.1, 0.5, 1.0], [0.7, 0.3, 0.0]], dtype=torch.float64)
    fidelity = SingleTaskMultiFidelityGP(x, y, data_fidelities=[2])
    _fit(fidelity, 10)
    show("multi-fidelity mean", fidelity.posterior(test).mean)
    show("multi-fidelity variance", fidelity.posterior(test).variance)
    categorical = x.clone()
    categorical[:, 2] = (x[:, 2] * 3).floor()
    mixed = MixedSingleTaskGP(categorical, y, cat_dims=[2])
    _fit(mixed, 10)
    show("mixed mean", mixed.posterior(test).mean)
    show("mixed variance", mixed.posterior(test).variance)
    torch.manual_seed(0)
    variational = SingleTaskVariationalGP(x, y, inducing_points=4)
    mll = VariationalELBO(variational.likelihood, variational.model, num_data=10)
    fit_gpytorch_mll(mll, optimizer=fit_gpytorch_mll_torch, optimizer_kwargs={"step_limit": 10})
    show("variational mean", variational.posterior(test).mean)
    show("variational variance", variational.posterior(test).variance)
    saas = AdditiveMapSaasSingleTaskGP(x, y)
    _fit(saas, 10)
    show("map saas mean", saas.posterior(test).mean)
    torch.manual_seed(0)
    outputs = torch.stack([y.squeeze(-1) * k for k in (1.0, 0.5, -0.25)], -1).unsqueeze(-1).expand(10, 3, 2)
    higher = HigherOrderGP(x, outputs.clone())
    mll = ExactMarginalLogLikelihood(higher.likelihood, higher)
    fit_gpytorch_mll(mll, optimizer=fit_gpytorch_mll_torch, optimizer_kwargs={"step_limit": 5})
    show("higher order mean", higher.posterior(test).mean)
    show("higher order variance", higher.posterior(test).variance)
    folds = gen_loo_cv_folds(train_X=x[:6], train_Y=y[:6])
    show("cv folds", (folds.train_X.shape, folds.test_X.shape))
    results = batch_cross_validation(model_cls=SingleTaskGP, mll_cls=ExactMarginalLogLikelihood, cv_folds=folds,
                                     fit_args={"optimizer": fit_gpytorch_mll_torch,
                                               "optimizer_kwargs": {"step_limit": 10}})
    show("cv mean", results.posterior.mean)
    show("cv observed", results.observed_Y)
    model = SingleTaskGP(x, y)
    _fit(model, 10)
    torch.manual_seed(1)
    paths = draw_matheron_paths(model, sample_shape=torch.Size([3]))
    show("matheron paths", paths(test))
