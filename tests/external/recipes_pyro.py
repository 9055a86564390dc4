"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Pyro, the probabilistic programming language on PyTorch, on core (2026-12-05, corpus helper s19 PYRO): pyro-ppl/pyro
at its 1.9.1 release, with the two pure-Python packages it imports, pyro-ppl/pyro-api 0.1.2 and dgasmith/opt_einsum
v3.4.0 (Apache-2.0, Apache-2.0, MIT). Each script holds the three packages beside it (every ``.py`` file at the tag,
tests left out: ``PYRO_PACKAGES``), which the runner loads in both runs (``runner._fetched_packages``; its stand-ins
for matplotlib, pandas and tqdm stay, since Pyro's tutorials plot and ``pyro.infer.mcmc`` imports tqdm). The scripts
are Pyro's own examples (``examples/*.py``, their ``argparse`` defaults shortened) and tutorials (notebooks, run cell
by cell, ``smoke_test`` on where they have one), and drivers of ours (``corpus_pyro.py``) appended to one of Pyro's
package modules run as that module: its distributions, transforms and constraints, inference algorithms (SVI with
each ELBO, autoguides, MCMC, ``Predictive``), effect handlers, ``pyro.optim`` and ``pyro.contrib.gp``.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

PYRO = ("pyro-ppl/pyro", "64e71eee1c14dc926d5cbc5e762b6337bb4750a6", "Apache-2.0")  # the 1.9.1 release
PYRO_API = ("pyro-ppl/pyro-api", "0ec96c18fa07251d1f0be1cbe08366424e31048e", "Apache-2.0")  # 0.1.2
OPT_EINSUM = ("dgasmith/opt_einsum", "c15aec2c7dbbcaf5b9790b980f699bf295baa7d9", "MIT")  # v3.4.0

_PYRO_MODULES = {
    "": "__init__ generic logger primitives settings util",
    "contrib": "__init__ autoguide minipyro util zuko",
    "contrib/autoname": "__init__ autoname named scoping",
    "contrib/bnn": "__init__ hidden_layer utils",
    "contrib/cevae": "__init__",
    "contrib/conjugate": "__init__ infer",
    "contrib/easyguide": "__init__ easyguide",
    "contrib/epidemiology": "__init__ compartmental distributions models util",
    "contrib/examples": "__init__ bart finance multi_mnist nextstrain polyphonic_data_loader scanvi_data util",
    "contrib/forecast": "__init__ evaluate forecaster util",
    "contrib/funsor": "__init__",
    "contrib/funsor/handlers": "__init__ enum_messenger named_messenger plate_messenger primitives "
                               "replay_messenger runtime trace_messenger",
    "contrib/funsor/infer": "__init__ discrete elbo trace_elbo traceenum_elbo tracetmc_elbo",
    "contrib/gp": "__init__ parameterized util",
    "contrib/gp/kernels": "__init__ brownian coregionalize dot_product isotropic kernel periodic static",
    "contrib/gp/likelihoods": "__init__ binary gaussian likelihood multi_class poisson",
    "contrib/gp/models": "__init__ gplvm gpr model sgpr vgp vsgp",
    "contrib/mue": "__init__ dataloaders missingdatahmm models statearrangers",
    "contrib/oed": "__init__ eig search util",
    "contrib/oed/glmm": "__init__ glmm guides",
    "contrib/randomvariable": "__init__ random_variable",
    "contrib/timeseries": "__init__ base gp lgssm lgssmgp",
    "contrib/tracking": "__init__ assignment distributions dynamic_models extended_kalman_filter hashing "
                        "measurements",
    "distributions": "__init__ affine_beta asymmetriclaplace avf_mvn coalescent conditional conjugate "
                     "constraints delta diag_normal_mixture diag_normal_mixture_shared_cov distribution "
                     "empirical extended folded gaussian_scale_mixture grouped_normal_normal hmm "
                     "improper_uniform inverse_gamma kl lkj log_normal_negative_binomial logistic mixture "
                     "multivariate_studentt nanmasked omt_mvn one_one_matching one_two_matching "
                     "ordered_logistic polya_gamma projected_normal rejector relaxed_straight_through "
                     "score_parts sine_bivariate_von_mises sine_skewed softlaplace spanning_tree stable "
                     "stable_log_prob torch torch_distribution torch_patch torch_transform unit util "
                     "von_mises_3d zero_inflated",
    "distributions/testing": "__init__ fakes gof naive_dirichlet rejection_exponential rejection_gamma special",
    "distributions/transforms": "__init__ affine_autoregressive affine_coupling basic batchnorm "
                                "block_autoregressive cholesky discrete_cosine generalized_channel_permute haar "
                                "householder lower_cholesky_affine matrix_exponential neural_autoregressive "
                                "normalize ordered permute planar polynomial power radial simplex_to_ordered "
                                "softplus spline spline_autoregressive spline_coupling sylvester unit_cholesky "
                                "utils",
    "infer": "__init__ abstract_infer csis discrete elbo energy_distance enum importance inspect predictive "
             "renyi_elbo resampler rws smcfilter svgd svi trace_elbo trace_mean_field_elbo trace_mmd "
             "trace_tail_adaptive_elbo traceenum_elbo tracegraph_elbo tracetmc_elbo util",
    "infer/autoguide": "__init__ effect gaussian guides initialization structured utils",
    "infer/mcmc": "__init__ adaptation api hmc logger mcmc_kernel nuts rwkernel util",
    "infer/reparam": "__init__ conjugate discrete_cosine haar hmm loc_scale neutra projected_normal reparam "
                     "softmax split stable strategies structured studentt transform unit_jacobian",
    "nn": "__init__ auto_reg_nn dense_nn module",
    "ops": "__init__ arrowhead contract dual_averaging gamma_gaussian gaussian hessian indexing integrator jit "
           "linalg newton packed provenance rings special ssm_gp stats streaming tensor_utils welford",
    "ops/einsum": "__init__ adjoint torch_log torch_map torch_marginal torch_sample util",
    "optim": "__init__ adagrad_rmsprop clipped_adam dct_adam horovod lr_scheduler multi optim "
             "pytorch_optimizers",
    "params": "__init__ param_store",
    "poutine": "__init__ block_messenger broadcast_messenger collapse_messenger condition_messenger "
               "do_messenger enum_messenger escape_messenger guide handlers indep_messenger "
               "infer_config_messenger lift_messenger markov_messenger mask_messenger messenger plate_messenger "
               "reentrant_messenger reparam_messenger replay_messenger runtime scale_messenger seed_messenger "
               "subsample_messenger substitute_messenger trace_messenger trace_struct uncondition_messenger "
               "util",
}
_OPT_EINSUM_MODULES = {
    "": "__init__ _version blas contract helpers parser path_random paths sharing testing typing",
    "backends": "__init__ cupy dispatch jax object_arrays tensorflow theano torch",
}
_PYROAPI_MODULES = {
    "": "__init__ dispatch testing version",
}


def _files(modules, root):
    return [f"{root}/{folder}/{name}.py" if folder else f"{root}/{name}.py"
            for folder, names in modules.items() for name in names.split()]


PYRO_PACKAGES = [*((p, p) for p in _files(_PYRO_MODULES, "pyro")),
                 *(PYRO_API[:2] + (p, p) for p in _files(_PYROAPI_MODULES, "pyroapi")),
                 *(OPT_EINSUM[:2] + (p, p) for p in _files(_OPT_EINSUM_MODULES, "opt_einsum"))]
LOG_TO_STDOUT = ('logging.basicConfig(format="%(message)s", level=logging.INFO)',  # logging writes on stderr
                 'logging.basicConfig(format="%(message)s", level=logging.INFO, stream=sys.stdout, force=True)')
LOG_TIMED = ('logging.basicConfig(format="%(relativeCreated) 9d %(message)s", level=logging.INFO)',  # (and a time)
             'logging.basicConfig(format="%(message)s", level=logging.INFO, stream=sys.stdout, force=True)')


def _example(name, path, args, edits=(), support=(), **kw):
    """examples/PATH run with ``args`` instead of the command line's."""
    return _r(f"pyro_{name}", PYRO, f"examples/{path}",
              [("args = parser.parse_args()", f"args = parser.parse_args({args!r})"), *edits],
              support=[*PYRO_PACKAGES, *support], **kw)


RECIPES += [
    _example("svi_torch", "svi_torch.py", ["--size", "500", "--batch-size", "100", "--num-epochs", "3"]),
    _example("toy_mixture_enum", "toy_mixture_model_discrete_enumeration.py", ["-n", "20", "-o", "200"]),
    _example("lkj_nuts", "lkj.py", ["--num-samples", "4", "--n", "20", "--num-chains", "1", "--num-variables", "3",
                                    "--warmup-steps", "2"],
             [("    MCMC(\n", "    mcmc = MCMC(\n"),  # the posterior summarised (the example prints nothing)
              ("    ).run(y)", "    )\n    mcmc.run(y)\n    mcmc.summary(prob=0.5)")]),
    _example("inclined_plane", "inclined_plane.py", ["-n", "3"], [("N_obs = 20", "N_obs = 4")]),
    _example("minipyro", "minipyro.py", ["-b", "minipyro", "-n", "51"]),
    _example("minipyro_pyro", "minipyro.py", ["-b", "pyro", "-n", "51"]),
    _example("smcfilter", "smcfilter.py", ["-n", "20", "-p", "20"], [LOG_TIMED, ("import logging", "import logging\nimport sys")]),
    _example("lda", "lda.py", ["-t", "4", "-w", "64", "-d", "50", "-wd", "16", "-n", "5", "-l", "20-20", "-b", "16"],
             [LOG_TIMED, ("import logging", "import logging\nimport sys")]),
    _example("lda_jit", "lda.py", ["-t", "4", "-w", "64", "-d", "50", "-wd", "16", "-n", "5", "-l", "20-20", "-b",
                                   "16", "--jit"], [LOG_TIMED, ("import logging", "import logging\nimport sys")]),
    _example("sparse_regression", "sparse_regression.py",
             ["--num-data", "50", "--num-steps", "20", "--num-dimensions", "10", "--num-restarts", "2",
              "--active-dimensions", "3", "--quadratic-dimensions", "2"]),
    _example("eight_schools_mcmc", "eight_schools/mcmc.py", ["--num-samples", "10", "--warmup-steps", "10"],
             [LOG_TO_STDOUT, ("import logging", "import logging\nimport sys")],
             support=[("examples/eight_schools/data.py", "data.py")]),
    _example("eight_schools_svi", "eight_schools/svi.py", ["--num-epochs", "50"],
             [LOG_TO_STDOUT, ("import logging", "import logging\nimport sys")],
             support=[("examples/eight_schools/data.py", "data.py")]),
    _example("autoname_mixture", "contrib/autoname/mixture.py", ["-n", "20"],
             xfail="MKL's vector exp (vsExp, PyTorch's float32 exp kernel) rounds exp(0.2377) of a positive-constrained "
                   "scale to the neighbour below the correctly rounded value core gives at step 2; Adam carries the ulp "
                   "into the printed parameters' last digits"),
    _example("autoname_scoping_mixture", "contrib/autoname/scoping_mixture.py", ["-n", "20"]),
    _example("autoname_tree_data", "contrib/autoname/tree_data.py", ["-n", "10"]),
    _example("cevae_synthetic", "contrib/cevae/synthetic.py",
             ["--num-data", "100", "--latent-dim", "4", "--hidden-dim", "16", "--num-layers", "2", "-n", "2",
              "-b", "50"]),
    _example("cjs", "capture_recapture/cjs.py", ["-n", "2", "-m", "1"],
             support=[(f"examples/capture_recapture/{f}", f) for f in (
                 "dipper_capture_history.csv", "dipper_sex.csv", "meadow_voles_capture_history.csv")]),
]
RECIPES += [
    _example("timeseries_gp_imgp", "contrib/timeseries/gp_models.py", ["-n", "5", "-m", "imgp", "--test"]),
    _example("timeseries_gp_lcmgp", "contrib/timeseries/gp_models.py", ["-n", "5", "-m", "lcmgp", "--test"]),
    _example("epidemiology_sir_svi", "contrib/epidemiology/sir.py",
             ["-p", "100", "-d", "8", "-f", "2", "--svi", "-ss", "5", "-sp", "2", "-n", "5", "-np", "16"],
             [LOG_TO_STDOUT, ("import logging", "import logging\nimport sys")]),
    _example("epidemiology_sir_mcmc", "contrib/epidemiology/sir.py",
             ["-p", "100", "-d", "8", "-f", "2", "--mcmc", "-n", "3", "-w", "2", "-np", "16"],
             [LOG_TO_STDOUT, ("import logging", "import logging\nimport sys")]),
    _example("sir_hmc", "sir_hmc.py", ["-p", "10", "-d", "8", "-n", "4", "-w", "4", "-t", "3"],
             [LOG_TO_STDOUT, ("import logging", "import logging\nimport sys")]),
]
RSA = [("examples/rsa/search_inference.py", "search_inference.py")]
RECIPES += [
    _example("rsa_schelling", "rsa/schelling.py", ["-n", "10"], support=RSA),
    _example("rsa_schelling_false", "rsa/schelling_false.py", ["-n", "10"], support=RSA),
]

SMOKE = ("smoke_test = ('CI' in os.environ)", "smoke_test = True")  # the tutorials' own switch for their CI run


def _tutorial(name, notebook, edits=(), support=(), **kw):
    """tutorial/source/NOTEBOOK.ipynb, cell by cell (a cell that fails shows its error, the next one runs)."""
    return _r(f"pyro_tut_{name}", PYRO, f"tutorial/source/{notebook}.ipynb", edits,
              support=[*PYRO_PACKAGES, *support], keep_going=True, **kw)


RECIPES += [
    _tutorial("intro_part_i", "intro_part_i"),
    _tutorial("intro_part_ii", "intro_part_ii", [("num_steps = 2500", "num_steps = 200")]),
    _tutorial("svi_part_i", "svi_part_i", [("n_steps = 2 if smoke_test else 2000", "n_steps = 60")]),
    _tutorial("svi_part_iii", "svi_part_iii", [SMOKE]),
    _tutorial("effect_handlers", "effect_handlers"),
    _tutorial("enumeration", "enumeration", [SMOKE]),
    _tutorial("gmm", "gmm", [("smoke_test = \"CI\" in os.environ", "smoke_test = False"),
                             ("for seed in range(100))", "for seed in range(10))"),
                             ("for i in range(200 if not smoke_test else 2):", "for i in range(30):"),
                             ("for i in range(200 if not smoke_test else 2):", "for i in range(30):"),
                             ("num_samples=250, warmup_steps=50", "num_samples=10, warmup_steps=10")]),
    _tutorial("modules", "modules", [SMOKE]),
    _tutorial("tensor_shapes", "tensor_shapes", [SMOKE]),
    _tutorial("mle_map", "mle_map", [("n_steps=201", "n_steps=51")]),
    _tutorial("easyguide", "easyguide", [SMOKE]),
    _tutorial("ekf", "ekf", [("for i in range(250 if not smoke_test else 2):", "for i in range(20):")]),
    _tutorial("prior_predictive", "prior_predictive", [SMOKE]),
    _tutorial("rsa_implicature", "RSA-implicature", support=[("tutorial/source/search_inference.py",
                                                              "search_inference.py")]),
    _tutorial("csis", "csis", [("n_steps = 2 if smoke_test else 2000", "n_steps = 20"),
                               ("for _ in range(1000)])", "for _ in range(50)])"),
                               ("for _ in range(1000)])", "for _ in range(50)])")]),
    _tutorial("boosting_bbvi", "boosting_bbvi", [SMOKE]),
    _tutorial("gp", "gp", [("smoke_test = \"CI\" in os.environ", "smoke_test = True"),
                           ("num_steps = 1000\nloss = gp.util.train(model", "num_steps = 5\nloss = gp.util.train(model"),
                           ("loss = gp.util.train(model)\n", "loss = gp.util.train(model, num_steps=5)\n")]),
    _tutorial("tracking_1d", "tracking_1d", [SMOKE, ("args.num_frames = 5", "args.num_frames = 3")]),
    _tutorial("normalizing_flows_intro", "normalizing_flows_intro", [SMOKE]),
    _tutorial("svi_flow_guide", "svi_flow_guide", [("for step in range(4096 + 1):", "for step in range(21):")]),
    _tutorial("predictive_deterministic", "predictive_deterministic",
              [("MCMC(nuts_kernel, num_samples=500)", "MCMC(nuts_kernel, num_samples=4, warmup_steps=4)"),
               ("n_steps = 5001", "n_steps = 21"), ("num_samples=500)(X_, None)", "num_samples=20)(X_, None)"),
               ("n_steps = 3001", "n_steps = 21"), ("num_samples=500)(X_, None)", "num_samples=20)(X_, None)")]),
    _tutorial("stable", "stable", [SMOKE]),
]

DRIVERS = "import sys\nimport torch\ncp = __import__('corpus_pyro')"
FIRST = "# Copyright (c) 2017-2019 Uber Technologies, Inc."
FIXTURES = [(f"tests/{path}", f"tests/{target}") for path, target in (
    ("__init__.py", "__init__.py"), ("distributions/__init__.py", "distributions/__init__.py"),
    ("distributions/dist_fixture.py", "distributions/dist_fixture.py"),
    ("distributions/conftest.py", "distributions/fixtures.py"))]  # (not a conftest.py in the scripts' tree)


def _driver(name, module, last, *calls, first=FIRST, support=()):
    """pyro/MODULE.py run as its module (``__package__`` set before its first line), ``corpus_pyro``'s ``calls``
    appended after ``last``, its last line."""
    package = ".".join(["pyro", *module.split("/")[:-1]])
    line = f"__package__ = {package!r}  # run as the package's module"
    return _r(f"pyro_{name}", PYRO, f"pyro/{module}.py",
              [(first, f"{line}\n{first}"), (last, "\n".join([last, "", DRIVERS, *calls, ""]))],
              support=[*PYRO_PACKAGES, *support])


DIST = ("distributions/__init__", "del torch_dists")
RECIPES += [
    _driver("distributions_zoo", *DIST, "cp.distributions(sys.modules['pyro.distributions'])"),
    _driver("rsample_gradients", *DIST, "cp.rsample_gradients(sys.modules['pyro.distributions'])"),
    _driver("distribution_fixtures_continuous", *DIST, "cp.distribution_fixtures(['continuous_dists'])",
            support=FIXTURES),
    _driver("distribution_fixtures_discrete", *DIST, "cp.distribution_fixtures(['discrete_dists'])",
            support=FIXTURES),
]

END = "\n]\n"  # the closing bracket of the module's __all__, its last line
INFER = ("infer/__init__", END, "from pyro import infer, optim")
RECIPES += [
    *(_driver(f"elbos_{i}", *INFER, f"cp.elbos(infer, optim, {names!r})") for i, names in enumerate((
        ["Trace_ELBO", "TraceMeanField_ELBO"], ["TraceGraph_ELBO", "TraceEnum_ELBO", "RenyiELBO"],
        ["JitTrace_ELBO", "JitTraceMeanField_ELBO", "JitTraceGraph_ELBO"]))),
    *(_driver(f"autoguides_{i}", *INFER, "from pyro.infer import autoguide",
              f"cp.autoguides(infer, autoguide, optim, {names!r})") for i, names in enumerate((
        ["AutoNormal", "AutoDiagonalNormal", "AutoMultivariateNormal"],
        ["AutoLowRankMultivariateNormal", "AutoDelta", "AutoLaplaceApproximation"],
        ["AutoIAFNormal", "AutoStructured", "AutoGaussian"]))),
    _driver("mcmc_hmc_nuts", "infer/mcmc/__init__", END, "from pyro import infer", "cp.mcmc(infer, [0, 1])"),
    _driver("mcmc_nuts_jit_full_mass", "infer/mcmc/__init__", END, "from pyro import infer", "cp.mcmc(infer, [2, 3])"),
    _driver("enumeration", *INFER, "cp.enumeration(infer)"),
    _driver("handlers", "poutine/__init__", END, "from pyro import poutine", "cp.handlers(poutine)"),
    *(_driver(f"optimisers_{i}", "optim/__init__", "__all__.extend(pytorch_optims)", "from pyro import infer, optim",
              f"cp.optimisers(infer, optim, {names!r})") for i, names in enumerate((
        ["Adam", "ClippedAdam", "SGD", "RMSprop", "Adagrad", "AdamW"],
        ["DCTAdam", "Adadelta", "NAdam", "RAdam", "ExponentialLR"],
        ["StepLR", "MultiStepLR", "OneCycleLR", "CosineAnnealingLR", "ReduceLROnPlateau"]))),
    _driver("contrib_gp", "contrib/gp/__init__", END, "from pyro.contrib import gp", "cp.gaussian_processes(gp)"),
    _driver("ops", "ops/stats", "        retval = retval[..., 0]\n\n    return retval\n", "cp.ops()"),
]
