"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

GPyTorch on core (2026-12-05, corpus helper s19 GPYTORCH): cornellius-gp/gpytorch at its v1.15.2 release and the
linear_operator it requires (cornellius-gp/linear_operator v0.6.1, ``linear_operator>=0.6.1``), both MIT. Each
script holds both Python packages beside it (every ``.py`` file of each at its tag: ``GPYTORCH_PACKAGE``), which the
runner loads in both runs (``runner._fetched_packages``, its stand-ins kept: the notebooks import matplotlib and
tqdm). What else they import is not installed here: pyro, pykeops and faiss are guarded imports; scikit-learn's
``NearestNeighbors`` (VNNGP's neighbour search), scipy's ``loadmat`` (imported, never called) and tqdm's bars are
``fake_gpytorch_deps.py``'s; ``SpectralMixtureKernel.initialize_from_data_empspect`` (sklearn's GaussianMixture) and
the CIQ code (scipy.special) are not called; mpmath is not imported by either package.

The scripts are GPyTorch's example notebooks (``examples/``, as fetched: code cells in order) with
``smoke_test = True`` (the notebooks' own switch, ``'CI' in os.environ``, for running them in a test
framework): a few training iterations, and the UCI datasets they would download replaced by the seeded random
tensors of the same shape that the notebooks' smoke-test branch makes; then some of GPyTorch's and linear_operator's
own unit-test files (``test/``), run as their ``unittest`` classes through ``corpus_gpytorch.run_tests``, which
prints each test's outcome; and a driver of ours (``corpus_gpytorch.linear_operators``) that prints the values
linear_operator's operators compute.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

GPYTORCH = ("cornellius-gp/gpytorch", "82adcaa8377790dafc1482c3bbe2a555a46f3ff4", "MIT")  # the v1.15.2 release
LINEAR_OPERATOR = ("cornellius-gp/linear_operator", "b0a4312ec49e645d79e68cc1b32a37047baaae8b", "MIT")  # v0.6.1

_GPYTORCH_MODULES = {
    "": "__init__ beta_features module settings",
    "constraints": "__init__ constraints",
    "distributions": "__init__ delta distribution multitask_multivariate_normal multivariate_normal",
    "functions": "__init__ _log_normal_cdf matern_covariance rbf_covariance",
    "kernels": "__init__ additive_structure_kernel arc_kernel constant_kernel cosine_kernel cylindrical_kernel "
        "distributional_input_kernel gaussian_symmetrized_kl_kernel grid_interpolation_kernel grid_kernel "
        "hamming_kernel index_kernel inducing_point_kernel kernel lcm_kernel linear_kernel matern52_kernel_grad "
        "matern_kernel multi_device_kernel multitask_kernel newton_girard_additive_kernel periodic_kernel "
        "piecewise_polynomial_kernel polynomial_kernel polynomial_kernel_grad product_structure_kernel rbf_kernel "
        "rbf_kernel_grad rbf_kernel_gradgrad rff_kernel rq_kernel scale_kernel spectral_delta_kernel "
        "spectral_mixture_kernel",
    "kernels/keops": "__init__ keops_kernel matern_kernel periodic_kernel rbf_kernel",
    "lazy": "__init__ lazy_evaluated_kernel_tensor",
    "likelihoods": "__init__ bernoulli_likelihood beta_likelihood gaussian_likelihood hadamard_gaussian_likelihood "
        "laplace_likelihood likelihood likelihood_list multitask_gaussian_likelihood negative_binomial_likelihood "
        "noise_models poisson_likelihood softmax_likelihood student_t_likelihood",
    "means": "__init__ constant_mean constant_mean_grad constant_mean_gradgrad linear_mean linear_mean_grad "
        "linear_mean_gradgrad mean multitask_mean zero_mean",
    "metrics": "__init__ metrics",
    "mlls": "__init__ _approximate_mll added_loss_term deep_approximate_mll deep_predictive_log_likelihood "
        "exact_marginal_log_likelihood gamma_robust_variational_elbo inducing_point_kernel_added_loss_term "
        "kl_gaussian_added_loss_term leave_one_out_pseudo_likelihood marginal_log_likelihood "
        "noise_model_added_loss_term predictive_log_likelihood sum_marginal_log_likelihood variational_elbo",
    "models": "__init__ approximate_gp exact_gp exact_prediction_strategies gp model_list",
    "models/deep_gps": "__init__ deep_gp dspp",
    "models/gplvm": "__init__ bayesian_gplvm latent_variable",
    "models/pyro": "__init__ _pyro_mixin pyro_gp",
    "optim": "__init__ ngd",
    "priors": "__init__ horseshoe_prior lkj_prior prior smoothed_box_prior torch_priors utils wishart_prior",
    "test": "__init__ base_keops_test_case base_kernel_test_case base_likelihood_test_case base_mean_test_case "
        "base_test_case model_test_case utils variational_test_case",
    "utils": "__init__ broadcasting cholesky deprecation errors generic getitem grid interpolation lanczos memoize "
        "nearest_neighbors permutation quadrature sparse sum_interaction_terms toeplitz transforms warnings",
    "variational": "__init__ _variational_distribution _variational_strategy "
        "additive_grid_interpolation_variational_strategy batch_decoupled_variational_strategy "
        "cholesky_variational_distribution ciq_variational_strategy delta_variational_distribution "
        "grid_interpolation_variational_strategy independent_multitask_variational_strategy "
        "large_batch_variational_strategy lmc_variational_strategy mean_field_variational_distribution "
        "natural_variational_distribution nearest_neighbor_variational_strategy "
        "orthogonally_decoupled_variational_strategy tril_natural_variational_distribution "
        "unwhitened_variational_strategy variational_strategy",
}
_LINEAR_OPERATOR_MODULES = {
    "": "__init__ beta_features settings",
    "functions": "__init__ _diagonalization _dsmm _inv_quad _inv_quad_logdet _matmul _pivoted_cholesky "
        "_root_decomposition _solve _sqrt_inv_matmul",
    "operators": "__init__ _linear_operator added_diag_linear_operator batch_repeat_linear_operator "
        "block_diag_linear_operator block_interleaved_linear_operator block_linear_operator cat_linear_operator "
        "chol_linear_operator constant_mul_linear_operator dense_linear_operator diag_linear_operator "
        "identity_linear_operator interpolated_linear_operator keops_linear_operator kernel_linear_operator "
        "kronecker_product_added_diag_linear_operator kronecker_product_linear_operator "
        "linear_operator_representation_tree low_rank_root_added_diag_linear_operator "
        "low_rank_root_linear_operator masked_linear_operator matmul_linear_operator mul_linear_operator "
        "permutation_linear_operator psd_sum_linear_operator root_linear_operator sum_batch_linear_operator "
        "sum_kronecker_linear_operator sum_linear_operator toeplitz_linear_operator triangular_linear_operator "
        "zero_linear_operator",
    "test": "__init__ base_test_case linear_operator_test_case utils",
    "utils": "__init__ broadcasting cholesky contour_integral_quad deprecation errors generic getitem interpolation "
        "lanczos linear_cg memoize minres permutation pinverse qr sparse stochastic_lq toeplitz warnings",
}


def _files(modules, package):
    return [f"{package}/{folder + '/' if folder else ''}{name}.py" for folder, names in modules.items()
            for name in names.split()]


LINEAR_OPERATOR_PACKAGE = [(p, p) for p in _files(_LINEAR_OPERATOR_MODULES, "linear_operator")]
GPYTORCH_PACKAGE = [*((p, p) for p in _files(_GPYTORCH_MODULES, "gpytorch")),
                    *(LINEAR_OPERATOR[:2] + entry for entry in LINEAR_OPERATOR_PACKAGE)]
SMOKE = ("smoke_test = ('CI' in os.environ)", "smoke_test = True  # the notebooks' test setting: short loops, random data")
NO_TIMINGS = (".timeit(100))", ".timeit(1).__class__.__name__)")  # a Measurement's repr shows the time it took


# 500 inducing points drawn from 1000 random points in 3-D under an RBF kernel: K_uu's condition number (~1e7) turns
# float32's last-bit differences in its Cholesky factor (MKL's spotrf in torch, OpenBLAS's through NumPy in core) into
# the 4th-5th digit of the test MAE; with torch.set_default_dtype(torch.float64) both print the same 10 digits
ILL_CONDITIONED = ("float32 rounding in the Cholesky factor of an ill-conditioned inducing-point kernel, amplified by "
                   "its condition number (~1e7): the test MAE differs in the 4th digit; in float64 both agree to 1e-10")


def _notebook(name, path, edits=(SMOKE,), support=(), **kw):
    """GPyTorch's examples/PATH.ipynb as a script, both packages (and the notebook's ``support`` files) beside it."""
    return _r(f"gpytorch_{name}", GPYTORCH, f"examples/{path}.ipynb", list(edits),
              support=[*GPYTORCH_PACKAGE, *support], **kw)


RECIPES += [
    _notebook("hyperparameters", "00_Basic_Usage/Hyperparameters", ()),
    _notebook("custom_kernel", "00_Basic_Usage/Implementing_a_custom_Kernel"),
    _notebook("metrics", "00_Basic_Usage/Metrics"),
    _notebook("saving_loading", "00_Basic_Usage/Saving_and_Loading_Models", ()),
    _notebook("additive_product_kernels", "00_Basic_Usage/kernels_with_additive_or_product_structure",
              [NO_TIMINGS, NO_TIMINGS]),
    _notebook("distributional_kernel", "01_Exact_GPs/GP_Regression_DistributionalKernel"),
    _notebook("classification_labels", "01_Exact_GPs/GP_Regression_on_Classification_Labels"),
    _notebook("simple_gp_regression", "01_Exact_GPs/Simple_GP_Regression"),
    _notebook("spectral_delta", "01_Exact_GPs/Spectral_Delta_GP_Regression"),
    _notebook("spectral_mixture", "01_Exact_GPs/Spectral_Mixture_GP_Regression"),
    _notebook("grid_gp", "02_Scalable_Exact_GPs/Grid_GP_Regression"),
    _notebook("sgpr", "02_Scalable_Exact_GPs/SGPR_Regression_CUDA", xfail=ILL_CONDITIONED),
    _notebook("batch_independent_multioutput", "03_Multitask_Exact_GPs/Batch_Independent_Multioutput_GP"),
    _notebook("hadamard_multitask", "03_Multitask_Exact_GPs/Hadamard_Multitask_GP_Regression"),
    _notebook("model_list", "03_Multitask_Exact_GPs/ModelList_GP_Regression"),
    _notebook("multitask", "03_Multitask_Exact_GPs/Multitask_GP_Regression"),
    _notebook("gplvm", "045_GPLVM/Gaussian_Process_Latent_Variable_Models_with_Stochastic_Variational_Inference",
              support=[("examples/045_GPLVM/3PhData.tar.gz", "3PhData.tar.gz")]),
    _notebook("approximate_objectives", "04_Variational_and_Approximate_GPs/Approximate_GP_Objective_Functions",
              [SMOKE, ('line, = ax.plot(train_x, mean, "blue")', 'line = ax.plot(train_x, mean, "blue")')]),
    _notebook("uncertain_inputs", "04_Variational_and_Approximate_GPs/GP_Regression_with_Uncertain_Inputs"),
    _notebook("variational_strategies",
              "04_Variational_and_Approximate_GPs/Modifying_the_variational_strategy_and_distribution",
              xfail=ILL_CONDITIONED),
    _notebook("natural_gradient", "04_Variational_and_Approximate_GPs/Natural_Gradient_Descent"),
    _notebook("non_gaussian_likelihoods", "04_Variational_and_Approximate_GPs/Non_Gaussian_Likelihoods"),
    _notebook("polya_gamma", "04_Variational_and_Approximate_GPs/PolyaGamma_Binary_Classification"),
    _notebook("svgp_multitask", "04_Variational_and_Approximate_GPs/SVGP_Multitask_GP_Regression"),
    _notebook("svgp", "04_Variational_and_Approximate_GPs/SVGP_Regression_CUDA"),
    _notebook("vnngp", "04_Variational_and_Approximate_GPs/VNNGP"),
    _notebook("deep_gp", "05_Deep_Gaussian_Processes/Deep_Gaussian_Processes"),
    _notebook("batch_mode", "08_Advanced_Usage/Simple_Batch_Mode_GP_Regression"),
    _notebook("derivatives_1d", "08_Advanced_Usage/Simple_GP_Regression_Derivative_Information_1d"),
    _notebook("torchscript_variational", "08_Advanced_Usage/TorchScript_Variational_Models",
              support=[("examples/08_Advanced_Usage/svgp_elevators.pt", "svgp_elevators.pt")]),
]


RUN_TESTS = ("    unittest.main()", "    __import__('corpus_gpytorch').run_tests(globals())")
# the last lines of the test files that end without ``unittest.main()``: the tests run after them
_LAST = {
    'test/kernels/test_index_kernel.py': '        self.assertRaises(TypeError, kernel_fn, 1)',
    'test/likelihoods/test_bernoulli_likelihood.py': '        return BernoulliLikelihood()',
    'test/likelihoods/test_multitask_gaussian_likelihood.py': '    def test_nonbatch(self):\n        pass',
    'test/likelihoods/test_softmax_likelihood.py': '        self.assertEqual(len(list(likelihood.parameters())), 0)',
    'test/means/test_constant_mean.py': '    batch_shape = torch.Size([2, 3])',
    'test/means/test_linear_mean.py': '        b, n, d = torch.Size([2, 3]), 4, 5\n        test_x = torch.randn(*b, n, d)\n        mean = self.create_mean(d, b)\n        self.assertEqual(mean(test_x).shape, torch.Size([*b, n]))',
    'test/mlls/test_exact_marginal_log_likelihood.py': '        self.assertTrue(torch.allclose(marginal_log_likelihood, marginal_log_likelihood_by_hand))',
    'test/utils/test_grid.py': '        self.assertEqual(grid_size, 20)',
    'test/variational/test_natural_variational_distribution.py': '    return y, jvp_val',
    'test/test_settings.py': '                settings.min_fixed_noise._global_half_value,\n            )',
    'test/test_module.py': '        m.register_prior("mock_prior", mock_prior, lambda m: None, lambda m, v: None)',
    'test/operators/test_permutation_linear_operator.py': '            self.assertTrue((P @ y - x).abs().max() == 0)',
    'test/utils/test_minres.py': '        return self._test_minres(torch.Size([20, 5]), matrix_batch_shape=torch.Size([3]), shifts=shifts)',
}


def _run_tests(path, every=1):
    """The edit that runs the file's tests (only every ``every``-th where the whole file takes seconds): in place of
    ``unittest.main()``, or after its last lines."""
    call = RUN_TESTS[1] if every == 1 else RUN_TESTS[1].replace("(globals())", f"(globals(), every={every})")
    if path not in _LAST:
        return RUN_TESTS[0], call
    return _LAST[path], f"{_LAST[path]}\n\n\n{call.strip()}\n"


def _gpytorch_test(path, every=1, **kw):
    """GPyTorch's test/PATH.py, its unittest classes run by ``corpus_gpytorch.run_tests``."""
    return _r(f"gpytorch_test_{path.rpartition('/')[2].removeprefix('test_')}", GPYTORCH, f"test/{path}.py",
              [_run_tests(f"test/{path}.py", every)], support=GPYTORCH_PACKAGE, **kw)


def _operator_test(path, **kw):
    """linear_operator's test/PATH.py, its unittest classes run by ``corpus_gpytorch.run_tests``."""
    return _r(f"linop_test_{path.rpartition('/')[2].removeprefix('test_')}", LINEAR_OPERATOR, f"test/{path}.py",
              [_run_tests(f"test/{path}.py")], support=LINEAR_OPERATOR_PACKAGE, **kw)


# those of their test files that take well under 2 s in either library (left out: the operators' full
# LinearOperatorTestCase suites, 120-300 tests each: 2-14 s in core; the Gaussian likelihoods' and DiagLinearOperator's,
# 2.4-3 s in core; the Matérn covariance's, 1.5-2.7 s) and whose tests all behave as in torch (see the README)
GPYTORCH_EXAMPLE_TESTS = ("kronecker_multitask_gp_regression sgpr_regression model_list_gp_regression "
                          "fixed_noise_fanatasy_updates derivative_gp_fantasy")
GPYTORCH_KERNEL_TESTS = ("rbf_kernel matern_kernel periodic_kernel spectral_mixture_kernel scale_kernel "
                         "additive_and_product_kernels index_kernel linear_kernel polynomial_kernel rq_kernel "
                         "cosine_kernel piecewise_polynomial_kernel rbf_kernel_grad")
GPYTORCH_TESTS = ("likelihoods/test_bernoulli_likelihood likelihoods/test_softmax_likelihood "
                  "distributions/test_multivariate_normal distributions/test_multitask_multivariate_normal "
                  "means/test_constant_mean means/test_linear_mean mlls/test_exact_marginal_log_likelihood "
                  "constraints/test_constraints priors/test_gamma_prior priors/test_normal_prior "
                  "priors/test_lkj_prior priors/test_smoothed_box_prior utils/test_grid utils/test_interpolation "
                  "utils/test_quadrature functions/test_rbf_covariance "
                  "functions/test_log_normal_cdf variational/test_natural_variational_distribution test_settings "
                  "test_module")
OPERATOR_TESTS = "chol low_rank_root low_rank_root_added_diag identity triangular zero permutation"
FUNCTION_TESTS = "inv_quad matmul solve root_decomposition pivoted_cholesky diagonalization dsmm"
UTILS_TESTS = "linear_cg minres cholesky toeplitz interpolation sparse permutation"
RECIPES += [
    *(_gpytorch_test(f"examples/test_{name}") for name in GPYTORCH_EXAMPLE_TESTS.split()),
    *(_gpytorch_test(f"kernels/test_{name}") for name in GPYTORCH_KERNEL_TESTS.split()),
    *(_gpytorch_test(name) for name in GPYTORCH_TESTS.split()),
    *(_operator_test(f"operators/test_{name}_linear_operator") for name in OPERATOR_TESTS.split()),
    *(_operator_test(f"functions/test_{name}") for name in FUNCTION_TESTS.split()),
    *(_operator_test(f"utils/test_{name}") for name in UTILS_TESTS.split()),
    # the variational strategies' suites (108-131 tests, 5-6 s in either library): every eighth or fourth test
    _gpytorch_test("variational/test_variational_strategy", every=8),
    _gpytorch_test("variational/test_unwhitened_variational_strategy", every=4),
]


FUTURE = "from __future__ import annotations"


def _driver(name, source, module, package, support, *calls, last="\n]\n"):
    """``module`` (a file of the package) run as its module (``__package__`` set after its ``from __future__``
    line), then ``corpus_gpytorch``'s driver ``calls`` after ``last``, its last lines (the end of its ``__all__``)."""
    line = f"__package__ = {package!r}  # run as the package's module"
    drivers = "\n".join(["", "import torch", "gp = __import__('corpus_gpytorch')", *calls, ""])
    return _r(name, source, module, [(FUTURE, f"{FUTURE}\n{line}"), (last, last.rstrip("\n") + "\n" + drivers)],
              support=support)


RECIPES += [
    _driver("linop_operators", LINEAR_OPERATOR, "linear_operator/operators/__init__.py", "linear_operator.operators",
            LINEAR_OPERATOR_PACKAGE, "import sys", "import linear_operator",
            "gp.linear_operators(sys.modules['linear_operator.operators'], linear_operator)"),
]
