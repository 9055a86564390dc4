"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

DeepXDE on core (2026-12-06, corpus helper s25 DEEPXDE): lululxvi/deepxde at its v1.15.0 release (2025-12-05,
LGPL-2.1), physics-informed neural networks on its PyTorch backend, its own package fetched beside each script and
loaded in both runs (``runner._fetched_packages``). DeepXDE has no test suite; the scripts are its examples that
name the PyTorch backend as supported (``examples/pinn_forward``, ``pinn_inverse``, ``function``, ``operator``),
shortened: a few Adam iterations, L-BFGS capped by ``dde.optimizers.set_LBFGS_options(maxiter=...)``, fewer
collocation points where training would be slow, datasets the repository ships as support files. Every script's
edits share one preamble (``PREAMBLE``): ``DDE_BACKEND=pytorch`` set before ``import deepxde`` (as its docs say) and
``corpus_deepxde.watch(dde)``, which stills the package's wall-clock timings and prints each ``Model.train``'s last
losses, test predictions and first weights with every digit (the package prints three). The examples written for
TensorFlow's ``tf.sin``/``tf.exp``/``tf.concat(..., axis=1)`` and naming ``torch.sin`` in their comments for the
PyTorch backend get ``import torch as tf`` in place of ``from deepxde.backend import tf``. SciPy, scikit-learn and
scikit-optimize (the collocation samplers, GRF's kernel and interpolation) are ``fake_deepxde_deps.py``.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

DDE = ("lululxvi/deepxde", "0049ad080e9d1dbd1b1f34a18fec855d1c5679e9", "LGPL-2.1")
DDE_PACKAGE = [(f"deepxde/{m}.py", f"deepxde/{m}.py") for m in (
    "__init__ backend/__init__ backend/backend backend/pytorch/__init__ backend/pytorch/tensor "
    "backend/set_default_backend backend/utils callbacks config data/__init__ data/constraint data/data data/dataset "
    "data/fpde data/func_constraint data/function data/function_spaces data/helper data/ide data/mf data/pde "
    "data/pde_operator data/quadruple data/sampler data/triple display geometry/__init__ geometry/csg "
    "geometry/geometry geometry/geometry_1d geometry/geometry_2d geometry/geometry_3d geometry/geometry_nd "
    "geometry/pointcloud geometry/sampler geometry/timedomain gradients/__init__ gradients/gradients "
    "gradients/gradients_forward gradients/gradients_reverse gradients/jacobian icbc/__init__ "
    "icbc/boundary_conditions icbc/initial_conditions losses metrics model nn/__init__ nn/activations "
    "nn/deeponet_strategy nn/initializers nn/pytorch/__init__ nn/pytorch/deeponet nn/pytorch/fnn nn/pytorch/mionet "
    "nn/pytorch/nn nn/regularizers optimizers/__init__ optimizers/config optimizers/pytorch/__init__ "
    "optimizers/pytorch/nncg optimizers/pytorch/optimizers real utils/__init__ utils/array_ops_compat utils/external "
    "utils/internal utils/pytorch zcs/__init__ zcs/gradient zcs/model zcs/operator").split()]

PREAMBLE32 = ("import deepxde as dde", "import os\nos.environ['DDE_BACKEND'] = 'pytorch'\nimport deepxde as dde\n"
              "__import__('corpus_deepxde').watch(dde)")
PREAMBLE = (PREAMBLE32[0], PREAMBLE32[1] + "\ndde.config.set_default_float('float64')")
TORCH_AS_TF = ("from deepxde.backend import tf", "import torch as tf  # the PyTorch lines its comments name")


def _lbfgs(maxiter, compile_call='model.compile("L-BFGS")'):
    """L-BFGS for ``maxiter`` iterations in two steps of half as many (DeepXDE's defaults: 15000 in steps of 1000;
    the per-step counts are set once, at import, so they are set here too)."""
    return (compile_call, f"dde.optimizers.set_LBFGS_options(maxiter={maxiter})\n"
            f"dde.optimizers.LBFGS_options.update(iter_per_step={maxiter // 2}, fun_per_step={maxiter * 5 // 8})\n"
            f"{compile_call}")


def _iters(old, new):
    return (f"iterations={old}", f"iterations={new}")


def _data(*names):
    """Datasets in the repository's examples/dataset, read from the script's folder (the examples read ../dataset)."""
    return [(f"examples/dataset/{n}", f"dataset/{n}") for n in names]


def _ex(name, path, edits=(), *, data=(), support=(), xfail=None, tf=False, f32=False):
    """examples/PATH with the preamble (float64 unless ``f32``), ``import torch as tf`` where ``tf``, and ``edits``."""
    return _r(f"dde_{name}", DDE, f"examples/{path}.py",
              [PREAMBLE32 if f32 else PREAMBLE, *([TORCH_AS_TF] if tf else []), *edits],
              support=[*DDE_PACKAGE, *_data(*data), *support], xfail=xfail)


NO_SCIPY_ODE = ('plt.xlabel("t")', 'raise SystemExit  # its reference solution is SciPy\'s solve_ivp\nplt.xlabel("t")')

# examples/pinn_forward: forward problems (PDE residuals through dde.grad's jacobian and hessian)
RECIPES += [
    _ex("poisson_dirichlet_1d", "pinn_forward/Poisson_Dirichlet_1d", [_iters(10000, 60)], tf=True),
    _ex("poisson_dirichlet_1d_f32", "pinn_forward/Poisson_Dirichlet_1d", [_iters(10000, 5)], tf=True, f32=True),
    _ex("burgers_f32", "pinn_forward/Burgers",
        [("../dataset/", "dataset/"), ("num_domain=2540, num_boundary=80, num_initial=160",
                                       "num_domain=254, num_boundary=20, num_initial=40"),
         _iters(15000, 30), _lbfgs(10)], data=["Burgers.npz"], f32=True,
        xfail="float32 tanh rounding: torch.tanh is MKL's vector tanh, not correctly rounded (0.08% of float32 "
        "values an ulp from core's correctly rounded ones; SLEEF's tanhf_u10 matches torch on 99.7% only); 30 Adam "
        "steps and 10 L-BFGS iterations grow those ulps to 2e-5 in a printed loss (the float64 dde_burgers matches). "
        "The 20 -> 1 output layer's addmm gives torch's bits since session 26 (core/_small_gemm.py's _gemv): "
        "first_diff.py now finds ~8,800 equal ops, the first difference a gradient after a backward pass"),
    _ex("diffusion_1d_f32", "pinn_forward/diffusion_1d", [("num_test=10000,", "num_test=500,"), _iters(10000, 40)],
        tf=True, f32=True),
    _ex("helmholtz_dirichlet_2d_f32", "pinn_forward/Helmholtz_Dirichlet_2d",
        [("iterations = 5000", "iterations = 10"), ("precision_train = 10", "precision_train = 3"),
         ("precision_test = 30", "precision_test = 5"), ("parameters = [1e-3, 3, 150,", "parameters = [1e-3, 3, 30,")],
        f32=True),
    _ex("poisson_neumann_1d", "pinn_forward/Poisson_Neumann_1d", [_iters(10000, 60)]),
    _ex("poisson_robin_1d", "pinn_forward/Poisson_Robin_1d", [_iters(10000, 60)]),
    _ex("poisson_periodic_1d", "pinn_forward/Poisson_periodic_1d", [_iters(10000, 60)], tf=True),
    _ex("poisson_lshape", "pinn_forward/Poisson_Lshape",
        [("num_domain=1200, num_boundary=120, num_test=1500", "num_domain=120, num_boundary=24, num_test=150"),
         _iters(50000, 20), _lbfgs(10)]),
    _ex("euler_beam", "pinn_forward/Euler_beam", [_iters(10000, 40)]),
    _ex("ode_system", "pinn_forward/ode_system", [_iters(20000, 60)]),
    _ex("ode_system_f32", "pinn_forward/ode_system", [_iters(20000, 5)], f32=True),
    _ex("ode_2nd", "pinn_forward/ode_2nd", [_iters(10000, 60)]),
    _ex("helmholtz_dirichlet_2d", "pinn_forward/Helmholtz_Dirichlet_2d",
        [("iterations = 5000", "iterations = 10"), ("precision_train = 10", "precision_train = 3"),
         ("precision_test = 30", "precision_test = 5"), ("parameters = [1e-3, 3, 150,", "parameters = [1e-3, 3, 30,")]),
    _ex("kovasznay_flow", "pinn_forward/Kovasznay_flow",
        [("num_domain=2601,", "num_domain=101,"), ("num_boundary=400,", "num_boundary=40,"),
         ("num_test=100000,", "num_test=200,"), _iters(30000, 10), _lbfgs(6),
         ("X = spatial_domain.random_points(100000)", "X = spatial_domain.random_points(300)")]),
    _ex("laplace_disk", "pinn_forward/Laplace_disk",
        [("num_domain=2540, num_boundary=80", "num_domain=254, num_boundary=20"), _iters(15000, 30)], tf=True),
    _ex("lotka_volterra", "pinn_forward/Lotka_Volterra",  # (its 7 input features need a first layer of 7 in PyTorch)
        [("[], 3000, 2, num_test=3000)", "[], 300, 2, num_test=300)"), ("[1] + [64] * 6", "[7] + [32] * 3"),
         _iters(50000, 20), _lbfgs(6), NO_SCIPY_ODE], tf=True),
    _ex("diffusion_1d", "pinn_forward/diffusion_1d", [("num_test=10000,", "num_test=500,"), _iters(10000, 40)],
        tf=True),
    _ex("diffusion_1d_exact_bc", "pinn_forward/diffusion_1d_exactBC",
        [("num_test=10000)", "num_test=500)"), _iters(10000, 40)], tf=True),
    _ex("diffusion_1d_resample", "pinn_forward/diffusion_1d_resample",
        [("num_test=10000,", "num_test=500,"), ("period=100)", "period=10)"), _iters(2000, 30)], tf=True),
    _ex("diffusion_reaction", "pinn_forward/diffusion_reaction",
        [("num_domain=320, solution=func, num_test=80000", "num_domain=80, solution=func, num_test=400"),
         _iters(20000, 30)], tf=True),
    _ex("burgers", "pinn_forward/Burgers",
        [("../dataset/", "dataset/"), ("num_domain=2540, num_boundary=80, num_initial=160",
                                       "num_domain=254, num_boundary=20, num_initial=40"),
         _iters(15000, 30), _lbfgs(10)], data=["Burgers.npz"]),
    _ex("burgers_rar", "pinn_forward/Burgers_RAR",  # residual-based adaptive refinement, two rounds
        [("../dataset/", "dataset/"), ("num_domain=2500, num_boundary=100, num_initial=160",
                                       "num_domain=250, num_boundary=20, num_initial=40"),
         _iters(10000, 20), _lbfgs(6), ("random_points(100000)", "random_points(2000)"),
         ("err = 1\nwhile err > 0.005:", "err, rounds = 1, 0\nwhile err > 0.005 and rounds < 2:\n    rounds += 1"),
         _iters(10000, 20)], data=["Burgers.npz"]),
    _ex("helmholtz_neumann_2d_hole", "pinn_forward/Helmholtz_Neumann_2d_hole",
        [("precision_train = 15", "precision_train = 4"), ("precision_test = 30", "precision_test = 6"),
         ("iterations = 5000", "iterations = 10"), ("num_dense_nodes = 350", "num_dense_nodes = 24")]),
    _ex("elasticity_plate", "pinn_forward/elasticity_plate",
        [("num_domain=500,", "num_domain=60,"), ("num_boundary=500,", "num_boundary=40,"), _iters(5000, 15)]),
    _ex("beltrami_flow", "pinn_forward/Beltrami_flow",
        [("num_domain=50000,", "num_domain=200,"), ("num_boundary=5000,", "num_boundary=50,"),
         ("num_initial=5000,", "num_initial=50,"), ("num_test=10000,", "num_test=100,"), _iters(30000, 8),
         _lbfgs(4, 'model.compile("L-BFGS", loss_weights=[1, 1, 1, 1, 100, 100, 100, 100, 100, 100])')]),
    _ex("heat_resample", "pinn_forward/heat_resample",
        [("num_domain=2540,", "num_domain=254,"), ("num_boundary=80,", "num_boundary=20,"),
         ("num_initial=160,", "num_initial=40,"), ("num_test=2540,", "num_test=254,"), ("period=10)", "period=5)"),
         _iters(200000, 12), _lbfgs(6), ("heat_eq_exact_solution(x[i], t[j])", "heat_eq_exact_solution(x[i], t[j])[0]")]),
    _ex("heat", "pinn_forward/heat",
        [("num_domain=2540,", "num_domain=254,"), ("num_boundary=80,", "num_boundary=20,"),
         ("num_initial=160,", "num_initial=40,"), ("num_test=2540,", "num_test=254,"), _iters(20000, 20),
         _lbfgs(8), ("heat_eq_exact_solution(x[i], t[j])", "heat_eq_exact_solution(x[i], t[j])[0]")]),  # (NumPy 2.4)
]

# examples/pinn_inverse: unknown coefficients as dde.Variable trained with the network (external_trainable_variables)
RECIPES += [
    _ex("lorenz_inverse", "pinn_inverse/Lorenz_inverse",
        [("../dataset/", "dataset/"), ("num_domain=400,", "num_domain=100,"), _iters(20000, 30), ("period=600,", "period=10,"),
         _lbfgs(8, 'model.compile("L-BFGS", external_trainable_variables=external_trainable_variables)')],
        data=["Lorenz.npz"]),
    _ex("diffusion_1d_inverse", "pinn_inverse/diffusion_1d_inverse",
        [("num_test=10000,", "num_test=500,"), ("period=1000)", "period=10)"), _iters(50000, 40)], tf=True),
    _ex("elliptic_inverse_field", "pinn_inverse/elliptic_inverse_field",
        [("num_domain=200,", "num_domain=50,"), _iters(20000, 40)]),
    _ex("elliptic_inverse_field_batch", "pinn_inverse/elliptic_inverse_field_batch",
        [("gen_traindata(10000)", "gen_traindata(1000)"), ("num_domain=200,", "num_domain=50,"), _iters(20000, 30)]),
    _ex("reaction_inverse", "pinn_inverse/reaction_inverse",  # (every 40th of its 20k observations)
        [("../dataset/", "dataset/"), ("return np.hstack((X, T)), Ca, Cb", "return np.hstack((X, T))[::40], Ca[::40], Cb[::40]"), ("num_domain=2000,", "num_domain=200,"), ("num_test=50000,", "num_test=500,"),
         ("period=1000,", "period=5,"), _iters(80000, 15)], data=["reaction.npz"]),
    _ex("brinkman_forchheimer", "pinn_inverse/brinkman_forchheimer", [("period=200,", "period=10,"), _iters(30000, 40)]),
]

# examples/function: plain regression through dde.data.Function and DataSet
RECIPES += [
    _ex("func", "function/func", [_iters(10000, 60)]),
    _ex("dataset", "function/dataset", [("../dataset/", "dataset/"), ("../dataset/", "dataset/"), _iters(50000, 60)],
        data=["dataset.train", "dataset.test"]),
]

# examples/operator: DeepONets, physics-informed on GRF input functions (PDEOperator, PDEOperatorCartesianProd, zcs)
ADR = [("examples/operator/ADR_solver.py", "ADR_solver.py")]
RECIPES += [
    _ex("antiderivative_aligned_pideeponet", "operator/antiderivative_aligned_pideeponet",
        [("GRF(length_scale=0.2)", "GRF(length_scale=0.2, N=100)"), ("eval_pts, 1000, num_test=100, batch_size=100",
                                                                     "eval_pts, 40, num_test=10, batch_size=10"),
         ("[50, 128, 128, 128]", "[50, 32, 32]"), ("[1, 128, 128, 128]", "[1, 32, 32]"), _iters(40000, 20)]),
    _ex("antiderivative_unaligned_pideeponet", "operator/antiderivative_unaligned_pideeponet",
        [("GRF(length_scale=0.2)", "GRF(length_scale=0.2, N=100)"), ("eval_pts, 1000, num_test=1000)",
                                                                     "eval_pts, 30, num_test=20)"),
         ("[50, 128, 128, 128]", "[50, 32, 32]"), ("[1, 128, 128, 128]", "[1, 32, 32]"), _iters(40000, 20)]),
    _ex("poisson_1d_pideeponet", "operator/poisson_1d_pideeponet",
        [("num_function=100,", "num_function=20,"), ("set_LBFGS_options(maxiter=1000)", "set_LBFGS_options(maxiter=12)\n"
                                                     "dde.optimizers.LBFGS_options.update(iter_per_step=6, fun_per_step=8)")]),
    _ex("advection_aligned_pideeponet", "operator/advection_aligned_pideeponet",
        [("length_scale=1)", "length_scale=1, N=100)"), ("num_domain=250, num_initial=50, num_test=500",
                                                        "num_domain=50, num_initial=10, num_test=50"),
         ("eval_pts, 1000, function_variables=[0], num_test=100, batch_size=32",
          "eval_pts, 30, function_variables=[0], num_test=10, batch_size=8"),
         ("[50, 128, 128, 128]", "[50, 32, 32]"), ("[dim_x, 128, 128, 128]", "[dim_x, 32, 32]"), _iters(50000, 15)]),
    _ex("advection_unaligned_pideeponet", "operator/advection_unaligned_pideeponet",
        [("length_scale=1)", "length_scale=1, N=100)"), ("num_domain=250, num_initial=50, num_test=500",
                                                        "num_domain=50, num_initial=10, num_test=50"),
         ("eval_pts, 1000, function_variables=[0], num_test=1000", "eval_pts, 20, function_variables=[0], num_test=10"),
         ("[50, 128, 128, 128]", "[50, 32, 32]"), ("[dim_x, 128, 128, 128]", "[dim_x, 32, 32]"), _iters(50000, 12)]),
    _ex("advection_aligned_pideeponet_2d", "operator/advection_aligned_pideeponet_2d",
        [("length_scale=1)", "length_scale=1, N=100)"), ("num_domain=200, num_boundary=200", "num_domain=40, num_boundary=20"),
         ("eval_pts, 1000, function_variables=[0], num_test=100, batch_size=32",
          "eval_pts, 30, function_variables=[0], num_test=10, batch_size=8"),
         ("[50, 128, 128, 128]", "[50, 32, 32]"), ("[dim_x, 128, 128, 128]", "[dim_x, 32, 32]"), _iters(30000, 12)]),
    _ex("diff_rec_aligned_pideeponet", "operator/diff_rec_aligned_pideeponet",
        [("GRF(length_scale=0.2)", "GRF(length_scale=0.2, N=100)"),
         ("num_domain=200,", "num_domain=50,"), ("num_boundary=40,", "num_boundary=10,"), ("num_test=500,", "num_test=50,"),
         ("eval_pts, 1000, function_variables=[0], num_test=100, batch_size=50",
          "eval_pts, 30, function_variables=[0], num_test=10, batch_size=8"),
         ("[50, 128, 128, 128]", "[50, 32, 32]"), ("[2, 128, 128, 128]", "[2, 32, 32]"), _iters(20000, 12)],
        support=ADR),
    _ex("diff_rec_unaligned_pideeponet", "operator/diff_rec_unaligned_pideeponet",
        [("GRF(length_scale=0.2)", "GRF(length_scale=0.2, N=100)"),
         ("num_domain=200,", "num_domain=50,"), ("num_boundary=40,", "num_boundary=10,"), ("num_test=500,", "num_test=50,"),
         ("eval_pts, 1000, function_variables=[0], num_test=1000", "eval_pts, 20, function_variables=[0], num_test=10"),
         ("[50, 128, 128, 128]", "[50, 32, 32]"), ("[2, 128, 128, 128]", "[2, 32, 32]"), _iters(50000, 12)],
        support=ADR),
    _ex("stokes_aligned_pideeponet", "operator/stokes_aligned_pideeponet",
        [("GRF(length_scale=0.2)", "GRF(length_scale=0.2, N=100)"), ("num_domain=5000,", "num_domain=100,"),
         ("num_boundary=4000,", "num_boundary=80,"), ("num_test=500,", "num_test=50,"),
         ("num_function=1000,", "num_function=20,"), ("num_test=100, batch_size=50", "num_test=6, batch_size=5"),
         ("[n_pts_edge, 128, 128, 128]", "[n_pts_edge, 24, 24]"), ("[2, 128, 128, 128]", "[2, 24, 24]"),
         ("decay=(\"inverse time\", 10000, 0.5)", "decay=(\"inverse time\", 4, 0.5)"), _iters(50000, 10),
         ("../dataset/", "dataset/")], data=["stokes.npz"]),
    _ex("diff_rec_aligned_zcs_pideeponet", "operator/diff_rec_aligned_zcs_pideeponet",
        [("GRF(length_scale=0.2)", "GRF(length_scale=0.2, N=100)"),
         ("num_domain=200,", "num_domain=50,"), ("num_boundary=40,", "num_boundary=10,"), ("num_test=500,", "num_test=50,"),
         ("eval_pts, 1000, function_variables=[0], num_test=100, batch_size=50",
          "eval_pts, 30, function_variables=[0], num_test=10, batch_size=8"),
         ("[50, 128, 128, 128]", "[50, 32, 32]"), ("[2, 128, 128, 128]", "[2, 32, 32]"), _iters(20000, 15)],
        support=ADR),
]

# drivers of ours (corpus_deepxde.py), run after the package is imported as the examples import it: the Poisson example's
# text is the script, stopped after the preamble and the drivers
DRIVE_BASE = "pinn_forward/Poisson_Neumann_1d"


def _drive(name, *calls, xfail=None):
    """The preamble (float64) and driver ``calls`` of corpus_deepxde on this script's deepxde package."""
    code = PREAMBLE[1] + "\nlr = __import__('corpus_deepxde')\n" + "".join(f"lr.{c}\n" for c in calls)
    return _r(f"dde_drive_{name}", DDE, f"examples/{DRIVE_BASE}.py",
              [(PREAMBLE[0], code + "raise SystemExit  # (the drivers only)")], support=DDE_PACKAGE, xfail=xfail)


RECIPES += [
    _drive("activations", "activations(dde, ['relu', 'elu', 'gelu', 'selu', 'sigmoid', 'silu', 'swish', 'sin'])"),
    _drive("activations_laaf", "activations(dde, ['LAAF-5 tanh', 'LAAF-2 sin', 'LAAF-10 relu'])"),
    _drive("optimizers", "optimizers(dde)"),
    _drive("lbfgs", "lbfgs(dde)"),
    _drive("losses", "losses(dde)"),
    _drive("nets", "nets(dde)"),
    _drive("gradients", "gradients(dde)"),
    _drive("nncg", "nncg(dde)"),
    _drive("mixed", "mixed(dde)"),
    _drive("callbacks", "callbacks(dde)"),
    _drive("deeponets", "deeponets(dde)", "deeponets(dde, 'independent', 2)", "deeponets(dde, 'split_both', 2)",
           "deeponets(dde, 'split_branch', 2)", "deeponets(dde, 'split_trunk', 2)"),
    _drive("pod_mionet", "pod_and_mionet(dde)"),
]

# the same drivers in float32, DeepXDE's default, a few steps each
RECIPES += [
    _drive("gradients_f32", "float32(dde)", "gradients(dde)"),
    _drive("activations_f32", "float32(dde)", "activations(dde, ['relu', 'elu', 'gelu', 'selu', 'sigmoid', 'silu', 'sin'])"),
    _drive("optimizers_f32", "float32(dde)", "optimizers(dde)"),
    _drive("deeponets_f32", "float32(dde)", "deeponets(dde)", "deeponets(dde, 'split_both', 2)"),
    _drive("callbacks_f32", "float32(dde)", "callbacks(dde)"),
]
