"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

BoTorch on core (2026-12-06, corpus helper s22 BOTORCH): pytorch/botorch at its v0.15.1 release (MIT), Bayesian
optimisation on GPyTorch. Each script holds BoTorch's Python package beside it (every ``.py`` file of ``botorch/`` at
the tag: ``BOTORCH_PACKAGE``) with what it imports: GPyTorch's and linear_operator's packages as
``recipes_gpytorch`` fetches them (v1.15.2 and v0.6.1: BoTorch 0.15.1 pins gpytorch 1.14 and linear_operator 0.6,
its main branch since asks ``>=``; nothing it calls changed), Pyro's with pyroapi and opt_einsum as ``recipes_pyro``
fetches them (``botorch.models`` imports its fully Bayesian models, which import Pyro) and multipledispatch's at its
1.0.0 tag (mrocklin/multipledispatch, BSD-3-Clause: ``botorch.utils.dispatcher``). The runner loads them in both runs
(``runner._fetched_packages``); SciPy, threadpoolctl and pyre_extensions are ``fake_botorch_deps.py``'s. SciPy's
optimizers are not here, so the scripts fit with ``fit_gpytorch_mll_torch`` and optimise acquisition functions with
``gen_candidates_torch``, both BoTorch's own torch paths.

The scripts are drivers of ours (``corpus_botorch``) that use BoTorch as its documentation and tutorials do, printing
values at full precision (float64, BoTorch's recommended dtype, so the numbers are BoTorch's arithmetic rather than
float32 rounding), BoTorch's tutorials as scripts (few iterations, SciPy's paths swapped for the torch ones) and its
own unit-test files run through their ``BotorchTestCase`` classes (``corpus_botorch.run_tests``).
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_gpytorch import GPYTORCH, GPYTORCH_PACKAGE
from recipes_pyro import PYRO, PYRO_PACKAGES

RECIPES: list[dict] = []

BOTORCH = ("pytorch/botorch", "533a4d2af1841980de9589361d3187dcba4569bd", "MIT")  # the v0.15.1 release
MULTIPLEDISPATCH = ("mrocklin/multipledispatch", "f91547f9936e5ed368ab151c1060ee7cfe67ab79", "BSD-3-Clause")  # 1.0.0

_BOTORCH_MODULES = {
    "": "__init__ cross_validation fit logging settings",
    "acquisition": "__init__ acquisition active_learning analytic bayesian_active_learning cached_cholesky cost_aware "
        "decoupled factory fixed_feature input_constructors joint_entropy_search knowledge_gradient logei "
        "max_value_entropy_search monte_carlo multi_step_lookahead multioutput_acquisition objective penalized "
        "predictive_entropy_search preference prior_guided proximal risk_measures thompson_sampling utils",
    "acquisition/multi_objective": "__init__ analytic base hypervolume_knowledge_gradient joint_entropy_search logei "
        "max_value_entropy_search monte_carlo multi_fidelity multi_output_risk_measures objective parego "
        "predictive_entropy_search utils",
    "exceptions": "__init__ errors warnings",
    "generation": "__init__ gen sampling utils",
    "models": "__init__ approximate_gp contextual contextual_multioutput cost deterministic ensemble fully_bayesian "
        "fully_bayesian_multitask gp_regression gp_regression_fidelity gp_regression_mixed gpytorch higher_order_gp "
        "latent_kronecker_gp map_saas model model_list_gp_regression multitask pairwise_gp relevance_pursuit "
        "robust_relevance_pursuit_model",
    "models/kernels": "__init__ categorical contextual_lcea contextual_sac downsampling exponential_decay "
        "infinite_width_bnn linear_truncated_fidelity orthogonal_additive_kernel",
    "models/likelihoods": "__init__ pairwise sparse_outlier_noise",
    "models/transforms": "__init__ factory input outcome utils",
    "models/utils": "__init__ assorted gpytorch_modules inducing_point_allocators",
    "optim": "__init__ batched_lbfgs_b core fit homotopy initializers optimize optimize_homotopy optimize_mixed "
        "parameter_constraints stopping",
    "optim/closures": "__init__ core model_closures",
    "optim/utils": "__init__ acquisition_utils common model_utils numpy_utils timeout",
    "posteriors": "__init__ base_samples ensemble fully_bayesian gpytorch higher_order latent_kronecker multitask "
        "posterior posterior_list torch transformed",
    "sampling": "__init__ base get_sampler index_sampler list_sampler normal pairwise_samplers qmc stochastic_samplers",
    "sampling/pathwise": "__init__ paths posterior_samplers prior_samplers update_strategies utils",
    "sampling/pathwise/features": "__init__ generators maps",
    "test_functions": "__init__ base multi_fidelity multi_objective multi_objective_multi_fidelity "
        "sensitivity_analysis synthetic utils",
    "test_utils": "__init__ mock",
    "utils": "__init__ constants constraints containers context_managers datasets dispatcher evaluation "
        "feasible_volume low_rank multitask objective rounding safe_math sampling test_helpers testing torch "
        "transforms types",
    "utils/multi_objective": "__init__ hypervolume optimize pareto scalarization",
    "utils/multi_objective/box_decompositions": "__init__ box_decomposition box_decomposition_list dominated "
        "non_dominated utils",
    "utils/probability": "__init__ bvn lin_ess linalg mvnxpb truncated_multivariate_normal unified_skew_normal utils",
}
_MULTIPLEDISPATCH_MODULES = "__init__ conflict core dispatcher utils variadic"


def _other(source, entries):
    """Support entries of another repository's package (``(path, path)`` pairs made ``(repo, commit, path, path)``)."""
    return [entry if len(entry) == 4 else source[:2] + entry for entry in entries]


BOTORCH_PACKAGE = [
    *((p, p) for p in (f"botorch/{folder + '/' if folder else ''}{name}.py" for folder, names in
                       _BOTORCH_MODULES.items() for name in names.split())),
    *_other(GPYTORCH, GPYTORCH_PACKAGE), *_other(PYRO, PYRO_PACKAGES),
    *(MULTIPLEDISPATCH[:2] + (f"multipledispatch/{name}.py",) * 2 for name in _MULTIPLEDISPATCH_MODULES.split()),
]
DRIVERS = "\n".join(["", "import torch", "bt = __import__('corpus_botorch')"])
END = "\n]\n"  # the closing bracket of botorch/__init__.py's __all__, its last line


def _driver(name, *calls):
    """botorch/__init__.py run as the package's module (its settings applied), then ``corpus_botorch``'s ``calls``."""
    line = "__package__ = 'botorch'  # run as the package's module"
    first = "import gpytorch.settings as gp_settings"
    return _r(f"botorch_{name}", BOTORCH, "botorch/__init__.py",
              [(first, f"{line}\n{first}"), (END, "\n".join([END.rstrip("\n"), DRIVERS, *calls, ""]))],
              support=BOTORCH_PACKAGE)


RECIPES += [
    _driver("single_task_gp", "bt.single_task_gp()"),
]
RECIPES += [
    _driver("fixed_noise_batched_gp", "bt.fixed_noise_and_batched_gp()"),
    _driver("model_list_multitask", "bt.model_list_and_multitask()"),
    _driver("analytic_acquisition", "bt.analytic_acquisition()"),
    _driver("mc_acquisition", "bt.mc_acquisition()"),
    _driver("knowledge_gradient", "bt.knowledge_gradient()"),
    _driver("optimize_acqf", "bt.optimize_acquisition()"),
    _driver("multi_objective", "bt.multi_objective()"),
]
RECIPES += [
    _driver("synthetic_functions", "bt.synthetic_functions()"),
    _driver("multi_objective_functions", "bt.multi_objective_functions()"),
    _driver("sobol_sampling", "bt.sobol_and_sampling()"),
    _driver("utils_safe_math", "bt.utils_and_safe_math()"),
    _driver("transforms", "bt.input_outcome_transforms()"),
]
