"""Drivers for ``recipes_botorch.py``: BoTorch's models, fitting, acquisition functions, optimisation, test functions,
samplers and utilities used as its documentation and tutorials use them, printing the values at full precision
(float64) so that core's and torch's runs are compared; and ``run_tests`` for BoTorch's own unit-test files."""

from __future__ import annotations

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
    fit_gpytorch_mll(mll, optimizer=fit_gpytorch_mll_torch, optimizer_kwargs={"step_limit": 20})
    test = torch.tensor([[0.3, 0.6], [0.7, 0.1]], dtype=torch.float64)
    posterior = model.posterior(test)
    show("list mean", posterior.mean)
    show("list variance", posterior.variance)
    tasks = torch.cat([torch.cat([x, torch.full_like(x[:, :1], i)], -1) for i in range(2)])
    multitask = MultiTaskGP(tasks, torch.cat([y[:, :1], y[:, 1:]]), task_feature=-1,
                            outcome_transform=Standardize(m=1))
    _fit(multitask, 20)
    show("multitask mean", multitask.posterior(test).mean)
    show("multitask variance", multitask.posterior(test).variance)
    show("multitask output 1 mean", multitask.posterior(test, output_indices=[1]).mean)
    kronecker = KroneckerMultiTaskGP(x, y)
    _fit(kronecker, 15)
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
            _fitted(torch, m=2, seed=4)[0], best_f=0.5, objective_index=0, constraints={1: (None, 0.3)}),
        "LogConstrainedEI": acq.analytic.LogConstrainedExpectedImprovement(
            _fitted(torch, m=2, seed=4)[0], best_f=0.5, objective_index=0, constraints={1: (None, 0.3)}),
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


def _optimize(acqf, torch, q=1, restarts=3, raw=32, steps=15, bounds=None, **kw):
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
        model, ref.tolist(), x, sampler=_sobol(torch, 16), prune_baseline=True), torch, q=2, restarts=2, raw=16,
        steps=8, sequential=True)
    show("qLogNEHVI candidates", candidate)
