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


RUN_TESTS = "__import__('corpus_botorch').run_tests(globals())"
# BoTorch's test files end without ``unittest.main()``: their last lines, after which the tests run
_LAST = {
    'test_functions/test_base' : '        # the outlier_generator sets corruptions to 1\n        self.assertTrue((result == 1).all())',
    'test_functions/test_synthetic' : '        KeaneBumpFunction(dim=4, noise_std=0.1, constraint_noise_std=[0.1, 0.2]),\n    ]',
    'test_functions/test_multi_fidelity' : '                        )\n                        self.assertEqual(res.shape, batch_shape + tail_shape)',
    'test_functions/test_sensitivity_analysis' : '        Ztrue = torch.tensor([5163.0, -8137.0])\n        self.assertAllClose(Z, Ztrue, atol=1e-3)\n        self.assertIsNone(f._optimizers)\n        with self.assertRaises(NotImplementedError):\n            f.optimal_value',
    'test_functions/test_multi_objective_multi_fidelity' : '            self.assertEqual(f.dim, 5)\n            self.assertTrue(\n                torch.equal(f.bounds, torch.tensor(self.bounds).to(f.bounds))\n            )',
    'utils/test_safe_math' : '        with self.assertRaisesRegex(UnsupportedError, "Only dtypes"):\n            log_softplus(torch.randn(2, dtype=torch.float16))',
    'utils/test_transforms' : '            self.assertFalse(is_ensemble(model=ModelList(ModelList(m), m)))\n            self.assertFalse(is_ensemble(model=ModelList(ModelList(m), deterministic)))',
    'utils/test_low_rank' : '                                sample_cached_cholesky(\n                                    posterior=test_posterior,\n                                    baseline_L=baseline_L,\n                                    q=q,\n                                    base_samples=sampler.base_samples.detach().clone(),\n                                    sample_shape=sampler.sample_shape,\n                                )',
    'utils/test_objective' : '        Y = torch.ones(2, 4, 2)\n        objective_transform = get_objective_weights_transform(torch.tensor([1.0, 1.0]))\n        Y_transformed = objective_transform(Y)\n        self.assertTrue(torch.equal(torch.sum(Y, dim=-1), Y_transformed))',
    'utils/test_rounding' : '            output = OneHotArgmaxSTE.apply(X)\n            # sample some weights to checked that gradients are passed\n            # as intended\n            w = torch.rand_like(X)\n            (w * output).sum().backward()\n            self.assertTrue(torch.equal(w, X.grad))',
    'utils/test_constraints' : '                lower_bound=-torch.inf, upper_bound=torch.inf, initial_value=0.15\n            )',
    'utils/test_torch' : '        with self.assertRaises(RuntimeError):\n            buffer_dict(1)',
    'utils/test_dispatcher' : '            with self.assertRaisesRegex(TypeError, "No function found"):\n                self.dispatcher._source(0.5)',
    'utils/test_containers' : '                other = torch.cat([vals[i] for i in indices[index]])\n                self.assertTrue(dense[index].equal(other))',
    'utils/test_context_managers' : '            sum(params).backward()\n        self.assertFalse(any(x.grad.eq(0).all() for x in params))',
    'utils/test_constants' : '            self.assertEqual(other["device"].type, tkwargs["device"].type)\n            self.assertEqual(other["dtype"], tkwargs["dtype"])',
    'utils/probability/test_bvn' : '                self.assertAllClose(ex, _ex, rtol=0, atol=atol)\n                self.assertAllClose(ey, _ey, rtol=0, atol=atol)',
    'utils/probability/test_linalg' : '        )\n        self.assertTrue(isinstance(piv_chol, PivotedCholesky))',
    'utils/probability/test_truncated_multivariate_normal' : '            a = getattr(trunc, key)\n            self.assertTrue(all(a.allclose(b) for b in getattr(other, key).unbind()))',
    'utils/probability/test_mvnxpb' : '        with self.assertRaisesRegex(TypeError, error_msg):\n            fake_solver.concat(1, 1)',
    'utils/probability/test_unified_skew_normal' : '                f"cross_covariance_matrix: {d.cross_covariance_matrix.shape}" in r\n            )',
    'utils/multi_objective/test_pareto' : '            else:\n                self.assertTrue(torch.equal(not_dom, not_dom_expected_no_dedup))',
    'utils/multi_objective/test_hypervolume' : '                    idcs, torch.tensor([0, 1], dtype=torch.long, device=self.device)\n                )\n            )',
    'utils/multi_objective/test_scalarization' : '                expected_Y = -(-weights * Y_test).max(dim=-1).values\n                self.assertAllClose(Y_transformed, expected_Y)',
    'utils/multi_objective/box_decompositions/test_box_decomposition' : '        with self.assertRaises(BotorchError):\n            box_decomp._compute_pareto_Y()',
    'utils/multi_objective/box_decompositions/test_dominated' : '        partitioning.update(Y=torch.ones(1, 3))\n        self.assertEqual(partitioning.compute_hypervolume().item(), 1)',
    'utils/multi_objective/box_decompositions/test_non_dominated' : '\n            # TODO: test approximate decomposition',
    'utils/multi_objective/box_decompositions/test_utils' : '            expected_bounds = expected_bounds_raw.to(dtype=dtype)\n            self.assertTrue(torch.equal(bounds, expected_bounds))',
    'utils/multi_objective/box_decompositions/test_box_decomposition_list' : '            with self.assertRaises(BotorchTensorDimensionError):\n                bd.update(new_Y.unsqueeze(0))',
    'sampling/test_normal' : '            sampler(posterior)\n            self.assertIn(f"Requested: {maxdim}", str(e.exception))',
    'sampling/test_base' : '        with self.assertRaisesRegex(RuntimeError, "an instance of"):\n            sampler._instance_check(base_sampler=other)',
    'sampling/test_stochastic_samplers' : '        with self.assertRaisesRegex(NotImplementedError, "_update_base_samples"):\n            sampler._update_base_samples(posterior=posterior, base_sampler=sampler)',
    'sampling/test_list_sampler' : '            posterior=p2, base_sampler=sampler2.samplers[1]\n        )',
    'sampling/test_index_sampler' : '        sampler._construct_base_samples(posterior=posterior)\n        self.assertAllClose(base_samples, sampler.base_samples)',
    'posteriors/test_gpytorch' : '            with self.assertRaises(BotorchTensorDimensionError):\n                scalarize_posterior(posterior, weights.unsqueeze(0), offset)',
    'posteriors/test_torch_posterior' : '                    loaded_posterior.distribution.rate,\n                )\n            )',
    'posteriors/test_transformed' : '            transformed_mean = transformed_post.mean\n            self.assertAllClose(transformed_mean, torch.ones(5))',
    'posteriors/test_posteriorlist' : '                    "sub-posterior has q=1.",\n                ):\n                    scalarize_posterior(posterior_list, weights, offset)',
    'posteriors/test_multitask' : '        x_2 = torch.linalg.solve(A, b[0, 0, :, :])\n        self.assertAllClose(x_1, x_2)',
    'acquisition/test_analytic' : '            X = torch.empty(3, 1, 1, device=self.device, dtype=dtype)\n            pm = module(X)\n            self.assertTrue(\n                torch.allclose(pm, (mean.squeeze(-1) * module.weights).sum(dim=-1))\n            )',
    'acquisition/test_monte_carlo' : '        new_val = new_acqf(X)\n        self.assertAllClose(new_val, old_val)',
    'acquisition/test_objective' : '            ):\n                first_call_output = pref_obj(test_X)',
    'acquisition/test_acquisition' : '        acqf = DummyMultiModelAcqf(model_dict=model_dict)\n        self.assertIs(acqf.model_dict, model_dict)',
    'acquisition/test_fixed_feature' : '                )\n                self.assertEqual(ff.values.device, expected_device)',
    'acquisition/test_penalized' : '            X = torch.randn(3, 2, 5, device=self.device, dtype=dtype)\n            penalized_obj = generic_obj(samples) - 0.1 * l1_penalty_obj(X).unsqueeze(\n                expand_dim\n            )\n            self.assertTrue(torch.equal(obj2(samples, X), penalized_obj))',
    'acquisition/test_proximal' : '                    ExpectedImprovement(\n                        bad_model,\n                        0.0,\n                        posterior_transform=scalarized_posterior_transform,\n                    ),\n                    proximal_weights,\n                )',
    'acquisition/test_risk_measures' : '                    torch.tensor([[3.0, 1.0]], device=self.device, dtype=dtype),\n                )\n            )',
    'acquisition/test_thompson_sampling' : '            ):\n                acqf.redraw(batch_size=2)',
    'acquisition/test_cost_aware' : '                with self.assertRaisesRegex(NotImplementedError, msg):\n                    icwu(X, deltas, X_evaluation_mask=eval_mask)',
    'acquisition/test_cached_cholesky' : '                samples = acqf._get_f_X_samples(posterior=posterior, q_in=q)\n                self.assertTrue(torch.equal(samples, mock_samples[2:].unsqueeze(0)))',
    'acquisition/multi_objective/test_logei' : '\n        if fat:\n            self.assertTrue(0 < exp_log_res)\n            self.assertTrue(exp_log_res <= 1e-10)  # should be *very* small\n        else:  # This is an interesting difference between the exp and the fat tail.\n            self.assertEqual(0, exp_log_res)',
    'acquisition/multi_objective/test_objective' : '                    constraint_idcs=[1, -1],\n                )',
    'acquisition/multi_objective/test_analytic' : '            )\n            self.assertTrue(torch.equal(acqf._cross_product_indices, expected_indices))',
    'acquisition/multi_objective/test_parego' : '            models.append(model)\n        self.base_test_parego(model=ModelListGP(*models))',
    'models/transforms/test_input' : '            sec_expected = sec_expected.flatten(-3, -2)\n            self.assertAllClose(subset_transformed[..., 2:], sec_expected)',
    'models/transforms/test_outcome' : '            tf = Bilog(outputs=[0])\n            Y_tf, Yvar_tf = tf(Y, None)\n            tf_subset = tf.subset_output(idcs=[0])\n            Y_tf_subset, Yvar_tf_subset = tf_subset(Y[..., [0]], None)\n            self.assertTrue(torch.equal(Y_tf_subset, Y_tf[..., [0]]))\n            self.assertIsNone(Yvar_tf_subset)',
    'models/transforms/test_utils' : '        with self.assertRaisesRegex(RuntimeError, "are not broadcastable"):\n            expand_and_copy_tensor(X=torch.rand(2, 2, 3), batch_shape=torch.Size([3]))',
    'models/test_multitask' : '            ):\n                get_task_value_remapping(task_values, dtype)',
    'models/test_deterministic' : '        # the following line should execute fine\n        fss_model_double.posterior(test_X_float)',
    'models/test_cost' : '                )\n                self.assertAllClose(cost, cost_exp)',
    'models/test_model' : '        ):\n            ModelDict(m=MockPosterior())',
    'optim/test_parameter_constraints' : '        )\n        self.assertIsInstance(bounds, Bounds)\n        self.assertTrue(np.all(np.equal(bounds.lb, np.zeros((3, 1, 2)).flatten())))\n        self.assertTrue(np.all(np.equal(bounds.ub, np.ones((3, 1, 2)).flatten())))',
    'exceptions/test_errors' : '        with self.assertRaisesRegex(OptimizationGradientError, "message"):\n            raise error',
    'exceptions/test_warnings' : '            self.assertTrue(issubclass(ws[-1].category, WarningClass))\n            self.assertTrue("message" in str(ws[-1].message))',
    'test_settings' : '        self.assertEqual(linop_settings.max_cholesky_size.value(), 4096)\n        self.assertEqual(gp_settings.max_eager_kernel_size.value(), 4096)',
    'test_fit' : '                closure=self.closure,\n                data_loader=self.data_loader,\n            )',
    'acquisition/test_logei' : '        acqf = qLogNoisyExpectedHypervolumeImprovement(\n            model=model_list, X_baseline=X, ref_point=ref_point\n        )\n        self.assertTrue(acqf._log)',
    'test_end_to_end' : '                bounds=self.bounds,\n                q=1,\n                num_restarts=10,\n                raw_samples=20,\n                options={"maxiter": 5},\n            )\n            self.assertTrue(-EPS <= candidates <= 1 + EPS)',
}


def _test(path, every=1, **kw):
    """BoTorch's test/PATH.py, its ``BotorchTestCase`` classes run by ``corpus_botorch.run_tests``."""
    call = RUN_TESTS if every == 1 else RUN_TESTS.replace("(globals())", f"(globals(), every={every})")
    last = _LAST[path]
    name = path.replace("test_", "").replace("multi_objective", "mo").replace("box_decompositions", "box")
    return _r(f"botorch_test_{name.replace('/', '_')}", BOTORCH, f"test/{path}.py",
              [(f"\n{last}", f"\n{last}\n\n\n{call}\n")], support=BOTORCH_PACKAGE, **kw)


# left out: acquisition/multi_objective/test_monte_carlo, 11 s of core's CPU even for every sixth test
# every n-th test of the files whose whole suite takes seconds in core
_EVERY = {"test_functions/test_synthetic": 3, "acquisition/test_analytic": 3, "acquisition/test_monte_carlo": 2}
RECIPES += [_test(path, _EVERY.get(path, 1)) for path in _LAST]


COLAB = ("if 'google.colab' in sys.modules:\n", "if 'google.colab' in sys.modules:\n    pass  # (its %pip line)\n")
SMOKE = ('SMOKE_TEST = os.environ.get("SMOKE_TEST")', "SMOKE_TEST = True  # the tutorials' own test setting")
TORCH_FIT = "**__import__('corpus_botorch').torch_fit()"  # fit_gpytorch_mll's torch path (SciPy is not installed)
TORCH_GEN = "gen_candidates=__import__('corpus_botorch').torch_gen()"  # optimize_acqf's torch path


def _fit(call, steps=None):
    """``call`` (a ``fit_gpytorch_mll(mll...)`` line of the tutorial) on BoTorch's torch optimizer."""
    fit = TORCH_FIT if steps is None else TORCH_FIT.replace("torch_fit()", f"torch_fit({steps})")
    return call, call.replace("mll)", f"mll, {fit})")


def _tutorial(name, edits, colab=True, **kw):
    """BoTorch's tutorials/NAME/NAME.ipynb as a script (code cells in order), its package beside it."""
    return _r(f"botorch_tutorial_{name}", BOTORCH, f"tutorials/{name}/{name}.ipynb", [COLAB] * colab + list(edits),
              support=BOTORCH_PACKAGE, **kw)


RECIPES += [
    _tutorial("fit_model_with_torch_optimizer", [("NUM_EPOCHS = 150", "NUM_EPOCHS = 50")]),
    _tutorial("compare_mc_analytic_acquisition", [
        _fit("fit_gpytorch_mll(mll);"),
        ("    options={},\n", f"    options={{\"maxiter\": 10}},\n    {TORCH_GEN},\n"),
        ("    options={},\n", f"    options={{\"maxiter\": 10}},\n    {TORCH_GEN},\n"),
        ('options={"maxiter": 500}', 'options={"maxiter": 10}'),
        ('options={"maxiter": 500}', 'options={"maxiter": 10}'),
        *[("num_restarts=20,", "num_restarts=4,"), ("raw_samples=100,", "raw_samples=32,")] * 3,
        *[("sample_shape=torch.Size([512])", "sample_shape=torch.Size([128])")] * 2]),
    _tutorial("custom_acquisition", [_fit("fit_gpytorch_mll(mll)")], colab=False),
    _tutorial("optimize_stochastic", [_fit("fit_gpytorch_mll(mll);"), ("for i in range(75):", "for i in range(15):"),
                                      ("(i + 1) % 15 == 0", "(i + 1) % 5 == 0")]),
]
RECIPES += [
    _driver("posteriors_samplers", "bt.posteriors_and_samplers()"),
    _driver("more_models", "bt.more_models()"),
]
