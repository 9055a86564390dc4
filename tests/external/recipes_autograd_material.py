"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Material whose subject is autograd itself (2026-12-07, helper s35 corpus2), prefix ``ag_``:
- ``ag_hf_*``: ltatzel/PyTorchHessianFree (BSD-3-Clause), Martens' Hessian-free optimizer: conjugate gradient on
  Hessian- and GGN-vector products (double backward through ``autograd.grad(create_graph=True)``, or BackPACK's, the
  package fetched beside it from ``recipes_backpack``'s pin), its line search and CG backtracking, the empirical
  Fisher preconditioner and gradient accumulation: its own five test modules through pytest and its examples
  (the small-network ones on its tests' problem helpers: ``example_utils`` imports DeepOBS and torchvision);
- ``ag_gdtuo_*``: kach/gradient-descent-the-ultimate-optimizer (MIT), hyperoptimizer towers (SGD, AdaGrad,
  RMSProp, Adam, each optimizing the one below through ``backward(create_graph=True)`` and ``retain_grad`` on
  non-leaf parameters written into ``Module._parameters``): its README's MNIST example (the seeded MNIST stand-in)
  with several stacks;
- ``ag_hacks_*``: cybertronai/autograd-hacks (public domain): per-example gradients and Hessians from forward and
  backward module hooks, its own test module;
- ``ag_flows_*``: tonyduan/normalizing-flows (MIT): planar, radial, RealNVP, MAF, neural spline flows (autoregressive
  and coupling), ActNorm and invertible 1x1 convolutions, trained by their log-det-Jacobians, its 1-D and 2-D
  examples (SciPy: ``corpus_autograd.scipy_stand_in``).
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_backpack import _BPK_MODULES, BPK, UNFOLD
from recipes_lucidrains import EINOPS_PACKAGE

RECIPES: list[dict] = []

HF = ("ltatzel/PyTorchHessianFree", "f430d815cfddf763728a73fa8c01ef916ab0d623", "BSD-3-Clause")
HF_PACKAGE = [(f"hessianfree/{m}.py",) * 2 for m in
              ("__init__", "cg", "cg_backtracking", "linesearch", "optimizer", "preconditioners", "utils")]
BACKPACK = [*((*BPK[:2], f"backpack/{m}.py", f"backpack/{m}.py") for m in _BPK_MODULES.split()),  # (its own pin)
            *((*UNFOLD[:2], f"unfoldNd/{m}.py", f"unfoldNd/{m}.py")
              for m in ("__init__", "fold", "unfold", "unfold_transpose", "utils")), *EINOPS_PACKAGE]
HF_SUPPORT = [*HF_PACKAGE, *BACKPACK, ("tests/test_utils.py", "test_utils.py")]


def _pytest_first(first, *args):
    """The edit that runs a test module through pytest (``corpus_pruning.run_pytest``) when run as a script: put
    before ``first``, or after it where it is ``from __future__ import annotations``."""
    extra = "".join(f", {a!r}" for a in args)
    run = ("if __name__ == '__main__':  # (pytest imports this file again, as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{extra})\n    raise SystemExit\n")
    return (first, first + run if first.startswith("from __future__") else run + first)


def _hf_test(name, first, *args, xfail=None):
    return _r(f"ag_hf_test_{name}", HF, f"tests/test_{name}.py", [_pytest_first(first, *args)], support=HF_SUPPORT,
              xfail=xfail)


RECIPES += [
    _hf_test("cg", '"""Test the cg-method'),
    _hf_test("cg_backtracking", '"""Test the cg-backtracking'),
    _hf_test("optimizer", '"""Test the `HessianFree` optimizer."""'),
    _hf_test("optimizer_acc", '"""Test the accumulation'),
    _hf_test("preconditioners", '"""Test the preconditioners."""'),
]
EXAMPLE_UTILS = ("from example_utils import", "from test_utils import")  # (example_utils imports DeepOBS)
RECIPES += [
    _r("ag_hf_example_mwe", HF, "examples/run_mwe.py", [("        opt.step(forward=forward)",
                                                         "        print(opt.step(forward=forward))")],
       support=HF_SUPPORT),
    _r("ag_hf_example_rosenbrock", HF, "examples/run_rosenbrock.py", [EXAMPLE_UTILS], support=HF_SUPPORT),
    _r("ag_hf_example_small_nn", HF, "examples/run_small_nn.py", [EXAMPLE_UTILS], support=HF_SUPPORT),
    _r("ag_hf_example_small_nn_acc", HF, "examples/run_small_nn_acc.py", [EXAMPLE_UTILS], support=HF_SUPPORT),
]

GDTUO = ("kach/gradient-descent-the-ultimate-optimizer", "b3b047e02ca6d32e0e61e34a0ca6e0bc57e55bdf", "MIT")
GDTUO_PACKAGE = [(f"src/gradient_descent_the_ultimate_optimizer/{m}.py",
                  f"gradient_descent_the_ultimate_optimizer/{m}.py") for m in ("__init__", "gdtuo")]
STACK = "optim = gdtuo.Adam(optimizer=gdtuo.SGD(1e-5))"


def _gdtuo(name, stack=None):
    """The README's example (its python blocks) on 300 seeded MNIST stand-in images, with the stack ``stack``;
    each epoch also prints the stack's top optimizer's hyperparameters."""
    edits = [("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
             ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
             ('    print("EPOCH: {}, TRAIN LOSS: {}".format(i, train_loss))',
              '    print("EPOCH: {}, TRAIN LOSS: {}".format(i, train_loss))\n'
              '    print(optim, {k: round(v.item(), 7) for k, v in optim.parameters.items()})')]
    if stack:
        edits.append((STACK, f"optim = {stack}"))
    return _r(f"ag_gdtuo_{name}", GDTUO, "README.md#Example", edits, support=GDTUO_PACKAGE)


RECIPES += [
    _gdtuo("adam_sgd"),
    _gdtuo("sgd", "gdtuo.SGD(0.01)"),
    _gdtuo("sgd_sgd", "gdtuo.SGD(0.01, optimizer=gdtuo.SGD(1e-4))"),
    _gdtuo("sgd_momentum_sgd", "gdtuo.SGD(0.01, mu=0.9, optimizer=gdtuo.SGD(1e-4))"),
    _gdtuo("adagrad_sgd", "gdtuo.AdaGrad(0.01, optimizer=gdtuo.SGD(1e-4))"),
    _gdtuo("rmsprop_sgd", "gdtuo.RMSProp(0.001, optimizer=gdtuo.SGD(1e-4))"),
    _gdtuo("rmspropalpha_sgd", "gdtuo.RMSPropAlpha(0.001, optimizer=gdtuo.SGD(1e-4))"),
    _gdtuo("adambaydin_sgd", "gdtuo.AdamBaydin(optimizer=gdtuo.SGD(1e-5))"),
    _gdtuo("adam_adam_sgd", "gdtuo.Adam(optimizer=gdtuo.Adam(optimizer=gdtuo.SGD(1e-5)))"),
    _gdtuo("sgd_sgd_sgd", "gdtuo.SGD(0.01, optimizer=gdtuo.SGD(1e-4, optimizer=gdtuo.SGD(1e-5)))"),
]

HACKS = ("cybertronai/autograd-hacks", "2c2e494cbf7a0240199cd767f3179477f25f4e23", "Unlicense")
RECIPES += [
    _r("ag_hacks_test", HACKS, "autograd_hacks_test.py", [_pytest_first("import torch\n")],
       support=[("autograd_hacks.py", "autograd_hacks.py")]),
]

FLOWS = ("tonyduan/normalizing-flows", "3ee9127e3753be3878a0a4fd3ea435ff2d31d143", "MIT")
FLOWS_SUPPORT = [(f"src/{m}.py",) * 2 for m in ("flows", "models", "utils")]
FLOWS_IMPORT = ("from src.flows import *", "with __import__('corpus_autograd').scipy_stand_in():  # SciPy\n"
                "    from src.flows import *")
LOG_TO_STDOUT = ("logging.basicConfig(level=logging.INFO)",  # (logging writes to stderr, which is not compared)
                 "logging.basicConfig(level=logging.INFO, stream=__import__('sys').stdout, force=True)")


def _flows(name, dims, args, show="z"):
    """examples/ex_{dims}d.py with ``args`` and 101 iterations (two log lines), then the latent codes' and samples'
    statistics printed where it saves its figure."""
    path = f"examples/ex_{dims}d.py"
    edits = [FLOWS_IMPORT, ("    args = argparser.parse_args()",
                            f"    args = argparser.parse_args({[*args, '--iterations', '101']!r})"), LOG_TO_STDOUT,
             (f'    plt.savefig("./examples/ex_{dims}d.png")',
              "    print('z', z.mean(0), z.std(0))\n    print('samples', samples.mean(0), samples.std(0), samples[:3])")]
    if dims == 1:
        edits.insert(0, ("import scipy as sp\nimport scipy.stats\n", "with __import__('corpus_autograd').scipy_stand_in():\n"
                                                                     "    import scipy as sp\n    import scipy.stats\n"))
    return _r(f"ag_flows_{name}", FLOWS, path, edits, support=FLOWS_SUPPORT)


RECIPES += [
    _flows("1d_nsf_ar", 1, []),
    _flows("1d_nsf_cl", 1, ["--flow", "NSF_CL"]),  # (a coupling of dim // 2 = 0: reshape's error, as torch's)
    _flows("1d_maf", 1, ["--flow", "MAF"]),
    _flows("2d_nsf_cl", 2, []),
    _flows("2d_nsf_ar", 2, ["--flow", "NSF_AR"]),
    _flows("2d_planar", 2, ["--flow", "Planar", "--flows", "4"]),
    # (not its Radial flow: its parameters are torch.Tensor(n), uninitialised memory, in both libraries)
    _flows("2d_realnvp", 2, ["--flow", "RealNVP"]),
    _flows("2d_maf", 2, ["--flow", "MAF"]),
    _flows("2d_maf_actnorm", 2, ["--flow", "MAF", "--actnorm"]),
    _flows("2d_realnvp_convolve", 2, ["--flow", "RealNVP", "--convolve", "--use-mixture"]),
]

EIG = ("noahgolmant/pytorch-hessian-eigenthings", "8b475ab9cd111ede83379ef95c5a5dc84a1752df", "MIT")
EIG_PACKAGE = [(f"hessian_eigenthings/{m}.py",) * 2 for m in (
    "__init__ algorithms/__init__ algorithms/lanczos algorithms/power_iteration algorithms/result "
    "algorithms/spectral_density algorithms/trace batching linalg/__init__ linalg/backend loss_fns/__init__ "
    "loss_fns/_fused_ce_hvp loss_fns/huggingface loss_fns/standard loss_fns/transformer_lens operators/__init__ "
    "operators/base operators/distributed/__init__ operators/distributed/ddp operators/fisher operators/ggn "
    "operators/hessian param_utils").split()]


def _eig_test(name, first='"""', *args, xfail=None):
    """tests/test_NAME.py, one of its own test modules, through pytest, its conftest beside it (markers for the
    optional libraries: curvlinops, transformers, transformer_lens are not installed, their cases skip)."""
    return _r(f"ag_eig_test_{name}", EIG, f"tests/test_{name}.py", [_pytest_first(first, *args)],
              support=[*EIG_PACKAGE, ("tests/conftest.py", "conftest.py")], xfail=xfail)


FUTURE = "from __future__ import annotations\n"
# (left out: test_against_curvlinops, test_ddp_hessian (two processes), test_ggn_matvec_a100 (a GPU) and
# test_large_n_memory, whose ceilings are on tracemalloc's peak: it traces NumPy's buffers, core's tensors, and not
# torch's allocator, so in core it measures every temporary (hutch++ 0.99 GB of its 0.64 GB ceiling))
RECIPES += [
    _eig_test("analytic_hessian"),
    _eig_test("batching", "import pytest"),
    _eig_test("eigendecomp_on_hessian"),
    _eig_test("fisher_operator", "import pytest"),
    _eig_test("fused_ce_hvp", FUTURE),
    _eig_test("ggn_matvec", FUTURE),
    _eig_test("ggn_operator", "import pytest"),
    _eig_test("hessian_finite_difference"),
    _eig_test("hessian_operator", "import pytest"),
    _eig_test("lanczos_random_matrix", "import numpy as np"),
    _eig_test("linalg_backend", "import pytest"),
    _eig_test("loss_fns"),
    _eig_test("param_utils", "import pytest"),
    _eig_test("power_iteration_random_matrix", "import numpy as np"),
    _eig_test("smoke", "import hessian_eigenthings"),
    _eig_test("spectral_density", "import numpy as np"),
    _eig_test("trace", "import numpy as np"),
    _r("ag_eig_example_supervised_mlp", EIG, "examples/supervised_mlp.py", support=EIG_PACKAGE),
]

PINN = ("benmoseley/harmonic-oscillator-pinn", "f00c5d9c8ac778f82186c1f2501c2dc2c8fb1de4", "MIT")
RECIPES += [  # 200 and 600 of its 1000 and 20000 steps; the loss and every 50th prediction printed with each frame
    _r("ag_pinn_harmonic_oscillator", PINN, "Harmonic oscillator PINN.ipynb", [
        ("for i in range(1000):", "for i in range(200):"),
        ("        files.append(file)", "        files += [file]\n        print(i + 1, loss.item(), yh[::50].flatten())"),
        ("for i in range(20000):", "for i in range(600):"),
        ("        files.append(file)", "        files += [file]\n"
                                     "        print(i + 1, loss1.item(), loss2.item(), yh[::50].flatten())")]),
]

NODE = ("msurtsukov/neural-ode", "661050efd30c696506ee19803fc57d638f6c02aa", "none stated")
NODE_EDITS = [("import seaborn as sns\nsns.color_palette(\"bright\")\n", ""),  # (not installed; colours only)
              ("dtype=np.int)", "dtype=int)"),  # (NumPy 2 has no np.int)
              ("            clear_output(wait=True)", "            print(i, loss.item(), z_p[::40, 0])"),
              ("def norm(dim):", "raise SystemExit  # (its MNIST classifier: convolutions through the adjoint)\n"
                                 "def norm(dim):")]


def _node(name, steps):
    """Its notebook to the spiral experiments (the custom ``ODEAdjoint`` Function's adjoint backward), ``steps``:
    (linear, comp) training steps for its 500 and 3000, the loss and trajectory printed where it plots."""
    linear, comp = steps
    return _r(f"ag_node_{name}", NODE, "Neural ODEs.ipynb", [
        *NODE_EDITS, ('conduct_experiment(ode_true, ode_trained, 500, "linear")',
                      f'conduct_experiment(ode_true, ode_trained, {linear}, "linear", plot_freq=5)'),
        ('conduct_experiment(ode_true, ode_trained, 3000, "comp", plot_freq=30)',
         f'conduct_experiment(ode_true, ode_trained, {comp}, "comp", plot_freq=5)')])


RECIPES += [_node("spirals", (21, 11))]

VIZ = ("szagoruyko/pytorchviz", "5cf04c13e601366f6b9cf5939b5af5144d55b887", "MIT")
VIZ_PACKAGE = [(f"torchviz/{m}.py",) * 2 for m in ("__init__", "dot")]
VIZ_IMPORT = ("from torchviz import make_dot, make_dot_from_trace",
              "with __import__('corpus_autograd').graphviz_stand_in():  # (graphviz is not installed)\n"
              "    from torchviz import make_dot, make_dot_from_trace")
RECIPES += [  # torchviz walks grad_fn graphs: next_functions, AccumulateGrad's variable, saved tensors and attributes
    _r("ag_viz_examples", VIZ, "examples.ipynb", [
        VIZ_IMPORT, ("from torchvision.models import AlexNet\n\nmodel = AlexNet()",  # (torchvision's models: a stub)
                     "model = __import__('corpus_courses5').tiny_resnet()"),
        ("torch.randn(1, 3, 227, 227)", "torch.randn(1, 3, 32, 32)")], support=VIZ_PACKAGE, keep_going=True),
    _r("ag_viz_test", VIZ, "test/test.py", [_pytest_first("import unittest"), VIZ_IMPORT], support=VIZ_PACKAGE),
]

XITORCH = ("xitorch/xitorch", "ad9eec1b02804d0934e091640559cb66e3ec7f2c", "MIT")
XITORCH_PACKAGE = [(f"xitorch/{m}.py",) * 2 for m in (
    "__init__ version _core/__init__ _core/editable_module _core/linop _core/packer _core/pure_function "
    "_docstr/__init__ _docstr/api_docstr _impls/__init__ _impls/integrate/__init__ _impls/integrate/fixed_quad "
    "_impls/integrate/ivp/__init__ _impls/integrate/ivp/adaptive_rk _impls/integrate/ivp/explicit_rk "
    "_impls/integrate/mcsamples/__init__ _impls/integrate/mcsamples/mcmc _impls/integrate/samples_quad "
    "_impls/interpolate/__init__ _impls/interpolate/base_interp _impls/interpolate/extrap_utils "
    "_impls/interpolate/interp_1d _impls/linalg/__init__ _impls/linalg/solve _impls/linalg/symeig "
    "_impls/optimize/__init__ _impls/optimize/equilibrium _impls/optimize/minimizer _impls/optimize/root/__init__ "
    "_impls/optimize/root/_jacobian _impls/optimize/root/rootsolver _tests/__init__ _tests/utils _utils/__init__ "
    "_utils/assertfuncs _utils/attr _utils/bcast _utils/decorators _utils/exceptions _utils/misc _utils/tensor "
    "_utils/tupleops _utils/types _utils/unique debug/__init__ debug/modes grad/__init__ grad/jachess "
    "integrate/__init__ integrate/mcquad integrate/quad integrate/solve_ivp integrate/squad interpolate/__init__ "
    "interpolate/interp1 linalg/__init__ linalg/solve linalg/symeig optimize/__init__ optimize/rootfinder").split()]


def _xitorch_test(name, first, *args, xfail=None):
    """xitorch/_tests/test_NAME.py through pytest, its package beside it, SciPy's two names stood in for."""
    extra = "".join(f", {a!r}" for a in args)
    run = ("if __name__ == '__main__':  # (pytest imports this file again, as a module)\n"
           f"    __import__('corpus_autograd').run_pytest_without_scipy(__file__{extra})\n    raise SystemExit\n")
    return _r(f"ag_xitorch_test_{name}", XITORCH, f"xitorch/_tests/test_{name}.py", [(first, run + first)],
              support=XITORCH_PACKAGE, xfail=xfail)


# Left out, each differing from torch (measured 2026-12-07, not fixed this session, see README's known differences):
# test_integrate and test_interp (torch raises "a leaf Variable that requires grad is being used in an in-place
# operation" at its cubic spline's `spudiag[..., :] = offdiag`, core does not; not reproduced outside pytest yet),
# test_linop_fcns and test_optimize (core raises "For complex Tensors, both grad_output and output are required to
# have the same dtype" in complex gradchecks, and gradcheck finds a Jacobian mismatch in symeig's degenerate case),
# test_pure_function (pytest names torch.jit.script's result by its class, ScriptFunction; core's is a function);
# and test_memleak, test_integrate_speed (timings). The first four take 5-8 minutes each in core.
RECIPES += [  # xitorch: custom Functions' backward, gradcheck/gradgradcheck of its operators and packers
    _xitorch_test("debug", "import xitorch"),
    _xitorch_test("editable_module", "import torch"),
    _xitorch_test("jac", "import torch"),
    _xitorch_test("linop", "import warnings"),
    _xitorch_test("packer", "import torch"),
    _xitorch_test("utils", "import warnings"),
    _xitorch_test("wrap_nnmodule", "import torch"),
]
