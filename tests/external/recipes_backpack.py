"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

BackPACK on core (2026-12-06, corpus helper s29 BACKPACK): f-dangel/backpack ("backpack-for-pytorch") at its 1.7.1
release (2024-11-15, MIT), which extends autograd through module hooks (individual gradients, their variance and
second moments, DiagGGN, KFAC, KFLR, KFRA, DiagHessian, square-root GGN factors, Hessian- and GGN-vector products),
its own package fetched beside each script and loaded in both runs (``runner._fetched_packages``) with what it
imports: f-dangel/unfoldNd at 0.2.3 (MIT), einops (recipes_lucidrains' pin) and torchvision's package (its tests'
and one example's ResNets). Three kinds of script:
- ``bpk_test_*``: its own test modules through pytest (``corpus_pruning.run_pytest``), the ``test`` package beside
  them; pytorch_memlab's ``MemReporter`` (its memory-leak tests) is ``fake_backpack_deps.py``'s, which sums the live
  tensors' storages as memlab does;
- ``bpk_example_*``: its documentation's examples (``docs_src/examples``), on seeded MNIST stand-ins
  (``corpus_backpack.mnist_batch``/``mnist_loader``), shortened; memory_profiler is ``fake_backpack_deps.py``'s;
- ``bpk_drive_*``: ``backpack/__init__.py`` run as a script beside its package with drivers of ours
  (``corpus_backpack.py``): every extension's quantities on small seeded networks printed with every digit, and a
  few steps of training preconditioned by them.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_lucidrains import EINOPS_PACKAGE
from recipes_torchvision import TV, TV_PACKAGE

RECIPES: list[dict] = []

BPK = ("f-dangel/backpack", "565af23a4d6b1569704d28b4ec8c11ba5d43bf15", "MIT")  # the 1.7.1 release
UNFOLD = ("f-dangel/unfoldNd", "9d9f43d58cbe3fbbf70c3fb51d3ecbf2e870a9f5", "MIT")  # the 0.2.3 release
_BPK_MODULES = """__init__ context core/__init__ core/derivatives/__init__ core/derivatives/adaptive_avg_pool_nd
core/derivatives/avgpool1d core/derivatives/avgpool2d core/derivatives/avgpool3d core/derivatives/avgpoolnd
core/derivatives/basederivatives core/derivatives/batchnorm_nd core/derivatives/bcewithlogitsloss
core/derivatives/conv1d core/derivatives/conv2d core/derivatives/conv3d core/derivatives/conv_transpose1d
core/derivatives/conv_transpose2d core/derivatives/conv_transpose3d core/derivatives/conv_transposend
core/derivatives/convnd core/derivatives/crossentropyloss core/derivatives/dropout
core/derivatives/elementwise core/derivatives/elu core/derivatives/embedding core/derivatives/flatten
core/derivatives/leakyrelu core/derivatives/linear core/derivatives/logsigmoid core/derivatives/lstm
core/derivatives/maxpool1d core/derivatives/maxpool2d core/derivatives/maxpool3d core/derivatives/maxpoolnd
core/derivatives/mseloss core/derivatives/nll_base core/derivatives/pad core/derivatives/permute
core/derivatives/relu core/derivatives/rnn core/derivatives/scale_module core/derivatives/selu
core/derivatives/shape_check core/derivatives/sigmoid core/derivatives/slicing core/derivatives/sum_module
core/derivatives/tanh core/derivatives/zeropad2d custom_module/__init__ custom_module/branching
custom_module/graph_utils custom_module/pad custom_module/permute custom_module/reduce_tuple
custom_module/scale_module custom_module/slicing extensions/__init__ extensions/backprop_extension
extensions/curvature extensions/curvmatprod/__init__ extensions/curvmatprod/ggnmp/__init__
extensions/curvmatprod/ggnmp/activations extensions/curvmatprod/ggnmp/batchnorm1d
extensions/curvmatprod/ggnmp/conv2d extensions/curvmatprod/ggnmp/dropout extensions/curvmatprod/ggnmp/flatten
extensions/curvmatprod/ggnmp/ggnmpbase extensions/curvmatprod/ggnmp/linear extensions/curvmatprod/ggnmp/losses
extensions/curvmatprod/ggnmp/padding extensions/curvmatprod/ggnmp/pooling extensions/curvmatprod/hmp/__init__
extensions/curvmatprod/hmp/activations extensions/curvmatprod/hmp/batchnorm1d
extensions/curvmatprod/hmp/conv2d extensions/curvmatprod/hmp/dropout extensions/curvmatprod/hmp/flatten
extensions/curvmatprod/hmp/hmpbase extensions/curvmatprod/hmp/linear extensions/curvmatprod/hmp/losses
extensions/curvmatprod/hmp/padding extensions/curvmatprod/hmp/pooling extensions/curvmatprod/pchmp/__init__
extensions/curvmatprod/pchmp/activations extensions/curvmatprod/pchmp/conv2d
extensions/curvmatprod/pchmp/dropout extensions/curvmatprod/pchmp/flatten extensions/curvmatprod/pchmp/linear
extensions/curvmatprod/pchmp/losses extensions/curvmatprod/pchmp/padding
extensions/curvmatprod/pchmp/pchmpbase extensions/curvmatprod/pchmp/pooling extensions/firstorder/__init__
extensions/firstorder/base extensions/firstorder/batch_grad/__init__
extensions/firstorder/batch_grad/batch_grad_base extensions/firstorder/batch_grad/batchnorm_nd
extensions/firstorder/batch_grad/conv1d extensions/firstorder/batch_grad/conv2d
extensions/firstorder/batch_grad/conv3d extensions/firstorder/batch_grad/conv_transpose1d
extensions/firstorder/batch_grad/conv_transpose2d extensions/firstorder/batch_grad/conv_transpose3d
extensions/firstorder/batch_grad/embedding extensions/firstorder/batch_grad/linear
extensions/firstorder/batch_grad/rnn extensions/firstorder/batch_l2_grad/__init__
extensions/firstorder/batch_l2_grad/batch_l2_base extensions/firstorder/batch_l2_grad/batchnorm_nd
extensions/firstorder/batch_l2_grad/convnd extensions/firstorder/batch_l2_grad/convtransposend
extensions/firstorder/batch_l2_grad/embedding extensions/firstorder/batch_l2_grad/linear
extensions/firstorder/batch_l2_grad/rnn extensions/firstorder/gradient/__init__
extensions/firstorder/gradient/base extensions/firstorder/gradient/batchnorm_nd
extensions/firstorder/gradient/conv1d extensions/firstorder/gradient/conv2d
extensions/firstorder/gradient/conv3d extensions/firstorder/gradient/convtranspose1d
extensions/firstorder/gradient/convtranspose2d extensions/firstorder/gradient/convtranspose3d
extensions/firstorder/gradient/embedding extensions/firstorder/gradient/linear
extensions/firstorder/gradient/rnn extensions/firstorder/sum_grad_squared/__init__
extensions/firstorder/sum_grad_squared/batchnorm_nd extensions/firstorder/sum_grad_squared/conv1d
extensions/firstorder/sum_grad_squared/conv2d extensions/firstorder/sum_grad_squared/conv3d
extensions/firstorder/sum_grad_squared/convtranspose1d extensions/firstorder/sum_grad_squared/convtranspose2d
extensions/firstorder/sum_grad_squared/convtranspose3d extensions/firstorder/sum_grad_squared/embedding
extensions/firstorder/sum_grad_squared/linear extensions/firstorder/sum_grad_squared/rnn
extensions/firstorder/sum_grad_squared/sgs_base extensions/firstorder/variance/__init__
extensions/firstorder/variance/batchnorm_nd extensions/firstorder/variance/conv1d
extensions/firstorder/variance/conv2d extensions/firstorder/variance/conv3d
extensions/firstorder/variance/convtranspose1d extensions/firstorder/variance/convtranspose2d
extensions/firstorder/variance/convtranspose3d extensions/firstorder/variance/embedding
extensions/firstorder/variance/linear extensions/firstorder/variance/rnn
extensions/firstorder/variance/variance_base extensions/mat_to_mat_jac_base extensions/module_extension
extensions/saved_quantities extensions/secondorder/__init__ extensions/secondorder/base
extensions/secondorder/diag_ggn/__init__ extensions/secondorder/diag_ggn/activations
extensions/secondorder/diag_ggn/adaptive_avg_pool_nd extensions/secondorder/diag_ggn/batchnorm_nd
extensions/secondorder/diag_ggn/conv1d extensions/secondorder/diag_ggn/conv2d
extensions/secondorder/diag_ggn/conv3d extensions/secondorder/diag_ggn/convnd
extensions/secondorder/diag_ggn/convtranspose1d extensions/secondorder/diag_ggn/convtranspose2d
extensions/secondorder/diag_ggn/convtranspose3d extensions/secondorder/diag_ggn/convtransposend
extensions/secondorder/diag_ggn/custom_module extensions/secondorder/diag_ggn/diag_ggn_base
extensions/secondorder/diag_ggn/dropout extensions/secondorder/diag_ggn/embedding
extensions/secondorder/diag_ggn/flatten extensions/secondorder/diag_ggn/linear
extensions/secondorder/diag_ggn/losses extensions/secondorder/diag_ggn/pad
extensions/secondorder/diag_ggn/padding extensions/secondorder/diag_ggn/permute
extensions/secondorder/diag_ggn/pooling extensions/secondorder/diag_ggn/rnn
extensions/secondorder/diag_ggn/slicing extensions/secondorder/diag_hessian/__init__
extensions/secondorder/diag_hessian/activations extensions/secondorder/diag_hessian/adaptive_avg_pool_nd
extensions/secondorder/diag_hessian/conv1d extensions/secondorder/diag_hessian/conv2d
extensions/secondorder/diag_hessian/conv3d extensions/secondorder/diag_hessian/convnd
extensions/secondorder/diag_hessian/convtranspose1d extensions/secondorder/diag_hessian/convtranspose2d
extensions/secondorder/diag_hessian/convtranspose3d extensions/secondorder/diag_hessian/convtransposend
extensions/secondorder/diag_hessian/diag_h_base extensions/secondorder/diag_hessian/dropout
extensions/secondorder/diag_hessian/flatten extensions/secondorder/diag_hessian/linear
extensions/secondorder/diag_hessian/losses extensions/secondorder/diag_hessian/pad
extensions/secondorder/diag_hessian/padding extensions/secondorder/diag_hessian/pooling
extensions/secondorder/diag_hessian/slicing extensions/secondorder/hbp/__init__
extensions/secondorder/hbp/activations extensions/secondorder/hbp/conv1d extensions/secondorder/hbp/conv2d
extensions/secondorder/hbp/conv3d extensions/secondorder/hbp/conv_transpose1d
extensions/secondorder/hbp/conv_transpose2d extensions/secondorder/hbp/conv_transpose3d
extensions/secondorder/hbp/conv_transposend extensions/secondorder/hbp/convnd
extensions/secondorder/hbp/custom_module extensions/secondorder/hbp/dropout extensions/secondorder/hbp/flatten
extensions/secondorder/hbp/hbp_options extensions/secondorder/hbp/hbpbase extensions/secondorder/hbp/linear
extensions/secondorder/hbp/losses extensions/secondorder/hbp/padding extensions/secondorder/hbp/pooling
extensions/secondorder/sqrt_ggn/__init__ extensions/secondorder/sqrt_ggn/activations
extensions/secondorder/sqrt_ggn/base extensions/secondorder/sqrt_ggn/batchnorm_nd
extensions/secondorder/sqrt_ggn/convnd extensions/secondorder/sqrt_ggn/convtransposend
extensions/secondorder/sqrt_ggn/custom_module extensions/secondorder/sqrt_ggn/dropout
extensions/secondorder/sqrt_ggn/embedding extensions/secondorder/sqrt_ggn/flatten
extensions/secondorder/sqrt_ggn/linear extensions/secondorder/sqrt_ggn/losses
extensions/secondorder/sqrt_ggn/pad extensions/secondorder/sqrt_ggn/padding
extensions/secondorder/sqrt_ggn/pooling extensions/secondorder/sqrt_ggn/slicing hessianfree/__init__
hessianfree/ggnvp hessianfree/hvp hessianfree/lop hessianfree/rop utils/__init__ utils/conv
utils/conv_transpose utils/convert_parameters utils/errors utils/examples utils/hooks utils/kroneckers
utils/linear utils/module_classification utils/subsampling utils/unsqueeze"""
_TESTS_MODULES = """__init__ adaptive_avg_pool/__init__ adaptive_avg_pool/problem adaptive_avg_pool/settings_adaptive_avg_pool_nd
adaptive_avg_pool/test_adaptive_avg_pool_nd automated_kfac_test automated_test bugfixes_test conv2d_test
converter/__init__ converter/converter_cases converter/resnet_cases converter/test_converter core/__init__
core/derivatives/__init__ core/derivatives/activation_settings core/derivatives/batch_norm_settings
core/derivatives/convolution_settings core/derivatives/derivatives_test core/derivatives/embedding_settings
core/derivatives/implementation/autograd core/derivatives/implementation/backpack
core/derivatives/implementation/base core/derivatives/linear_settings core/derivatives/loss_settings
core/derivatives/lstm_settings core/derivatives/padding_settings core/derivatives/permute_settings
core/derivatives/pooling_adaptive_settings core/derivatives/pooling_settings core/derivatives/problem
core/derivatives/rnn_settings core/derivatives/scale_module_settings core/derivatives/settings
core/derivatives/slicing_settings core/derivatives/utils custom_module/__init__ custom_module/test_pad
custom_module/test_slicing extensions/__init__ extensions/automated_settings extensions/firstorder/__init__
extensions/firstorder/batch_grad/__init__ extensions/firstorder/batch_grad/batch_grad_settings
extensions/firstorder/batch_grad/test_batch_grad extensions/firstorder/batch_l2_grad/__init__
extensions/firstorder/batch_l2_grad/batchl2grad_settings extensions/firstorder/batch_l2_grad/test_batchl2grad
extensions/firstorder/firstorder_settings extensions/firstorder/sum_grad_squared/__init__
extensions/firstorder/sum_grad_squared/sumgradsquared_settings
extensions/firstorder/sum_grad_squared/test_sumgradsquared extensions/firstorder/variance/__init__
extensions/firstorder/variance/test_variance extensions/firstorder/variance/variance_settings
extensions/graph_clear_test extensions/implementation/__init__ extensions/implementation/autograd
extensions/implementation/backpack extensions/implementation/base extensions/implementation/hooks
extensions/problem extensions/secondorder/__init__ extensions/secondorder/diag_ggn/__init__
extensions/secondorder/diag_ggn/diag_ggn_settings extensions/secondorder/diag_ggn/test_batch_diag_ggn
extensions/secondorder/diag_ggn/test_diag_ggn extensions/secondorder/diag_hessian/__init__
extensions/secondorder/diag_hessian/diagh_settings extensions/secondorder/diag_hessian/test_diag_hessian
extensions/secondorder/hbp/__init__ extensions/secondorder/hbp/kfac_settings
extensions/secondorder/hbp/kflr_settings extensions/secondorder/hbp/kfra_settings
extensions/secondorder/hbp/test_kfac extensions/secondorder/hbp/test_kflr extensions/secondorder/hbp/test_kfra
extensions/secondorder/secondorder_settings extensions/secondorder/sqrt_ggn/__init__
extensions/secondorder/sqrt_ggn/sqrt_ggn_settings extensions/secondorder/sqrt_ggn/test_sqrt_ggn
extensions/test_backprop_extension extensions/test_hooks extensions/utils hessianfree/__init__
hessianfree/test_ggnvp implementation/__init__ implementation/implementation
implementation/implementation_autograd implementation/implementation_bpext interface_test layers layers_test
linear_test networks problems test___init__ test_batch_first test_problem test_problems_activations
test_problems_bn test_problems_convolutions test_problems_kfacs test_problems_linear test_problems_padding
test_problems_pooling test_retain_graph test_second_order_warnings utils/__init__ utils/conv_transpose
utils/evaluation_mode utils/skip_extension_test utils/skip_test utils/test_conv utils/test_conv_settings
utils/test_conv_transpose utils/test_conv_transpose_settings utils/test_subsampling utils_test"""

BPK_PACKAGE = [*((f"backpack/{m}.py",) * 2 for m in _BPK_MODULES.split()),
               *((*UNFOLD[:2], f"unfoldNd/{m}.py", f"unfoldNd/{m}.py")
                 for m in ("__init__", "fold", "unfold", "unfold_transpose", "utils")),
               *EINOPS_PACKAGE, *((*TV[:2], *p) for p in TV_PACKAGE)]
TESTS = [(f"test/{m}.py",) * 2 for m in _TESTS_MODULES.split()]


def _test(name, module, first, *args, edits=(), xfail=None):
    """test/MODULE.py, one of BackPACK's own test modules, through pytest (``args`` after it: ``-m``...), with
    the ``test`` package beside it (its absolute imports, ``from test.automated_test import ...``)."""
    extra = "".join(f", {a!r}" for a in args)
    run = (first, "if __name__ == '__main__':  # (pytest imports this file again, as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{extra})\n    raise SystemExit\n" + first)
    return _r(f"bpk_test_{name}", BPK, f"test/{module}.py", [run, *edits], support=[*BPK_PACKAGE, *TESTS],
              xfail=xfail)


DERIV = "from test.core.derivatives.utils import"
AUTO = "from test.automated_test import check_sizes_and_values"
RECIPES += [
    _test("bugfixes", "bugfixes_test", "import itertools"),
    _test("conv2d", "conv2d_test", "from random import choice, randint"),
    _test("pad", "custom_module/test_pad", DERIV),
    _test("slicing", "custom_module/test_slicing", DERIV),
    _test("graph_clear", "extensions/graph_clear_test", "from typing import Tuple"),
    _test("backprop_extension", "extensions/test_backprop_extension", "import pytest"),
    _test("hooks", "extensions/test_hooks", DERIV),
    _test("ggnvp", "hessianfree/test_ggnvp", "from torch import zeros, zeros_like"),
    _test("interface", "interface_test", "import pytest"),
    _test("linear", "linear_test", "from torch import Tensor, allclose"),
    _test("init", "test___init__", "from contextlib import nullcontext",  # (8 steps: a leak passes 1 MiB at the 2nd)
          edits=[("steps = 50", "steps = 8")]),
    _test("batch_first", "test_batch_first", "from pytest import raises"),
    _test("retain_graph", "test_retain_graph", AUTO),
    _test("second_order_warnings", "test_second_order_warnings", DERIV),
    _test("utils_conv", "utils/test_conv", "from test.core.derivatives.problem import make_test_problems"),
    _test("utils_conv_transpose", "utils/test_conv_transpose",
          "from test.core.derivatives.problem import make_test_problems"),
    _test("kfac", "extensions/secondorder/hbp/test_kfac", AUTO, "-m", "not montecarlo"),  # (as its CI runs it)
    _test("kflr", "extensions/secondorder/hbp/test_kflr", AUTO),
    _test("derivatives_jac_t_mat_prod", "core/derivatives/derivatives_test", "from contextlib import nullcontext",
          "-m", "not montecarlo", "-k", "test_jac_t_mat_prod"),  # (302 of its 1690 cases: each module's VJPs)
    _test("derivatives_jac_mat_prod", "core/derivatives/derivatives_test", "from contextlib import nullcontext",
          "-m", "not montecarlo", "-k", "test_jac_mat_prod or test_weight_jac_mat_prod or test_bias_jac_mat_prod "
          "or test_param_mjp"),
]

# The documentation's examples: MNIST batches from ``corpus_backpack``'s seeded stand-in (BackPACK's helpers download
# MNIST through torchvision), fewer iterations where they train.
ONE_BATCH = ("load_one_batch_mnist(", "__import__('corpus_backpack').mnist_batch(")
LOADER = ("get_mnist_dataloader(", "__import__('corpus_backpack').mnist_loader(")


def _example(name, path, edits=(), xfail=None):
    return _r(f"bpk_example_{name}", BPK, f"docs_src/examples/{path}.py", edits, support=BPK_PACKAGE, xfail=xfail)


RECIPES += [
    _example("all_in_one", "basic_usage/example_all_in_one",
             [("X, y = load_one_batch_mnist(batch_size=512)", "X, y = " + ONE_BATCH[1] + "batch_size=64)")]),
    _example("batched_jacobians", "use_cases/example_batched_jacobians"),
    _example("custom_module", "use_cases/example_custom_module"),
    _example("extension_hook", "use_cases/example_extension_hook", [("X, y = load_one_batch_mnist(", "X, y = " + ONE_BATCH[1])]),
    _example("gradient_of_variance", "use_cases/example_gradient_of_variance",
             [("x, y = load_one_batch_mnist(", "x, y = " + ONE_BATCH[1])] * 2),
    _example("resnet_all_in_one", "use_cases/example_resnet_all_in_one",
             [("x, y = load_one_batch_mnist(", "x, y = " + ONE_BATCH[1])],
             xfail="BackPACK's converter finds torch.flatten calls in a traced graph by their text ('<built-in method "
             "flatten' in str(node.target)): torch's flatten is a builtin whose str says so, core's is a Python "
             "function ('<function flatten at 0x...>'), so in core the call to it in torchvision's ResNet-18 stays a "
             "call_function node where torch's run gets an nn.Flatten module (print_tabular shows it), and DiagGGNExact "
             "through the converted model raises at it ('Difference in dimension must be 1', [5, 4, 512] against [4, "
             "512, 1, 1]) where torch's run compares the diagonals"),
    _example("rnn", "use_cases/example_rnn", [("self.hidden_dim = 64", "self.hidden_dim = 16")]),
    _example("subsampling", "use_cases/example_subsampling", [("X, y = load_one_batch_mnist(", "X, y = " + ONE_BATCH[1])]),
    _example("trace_estimation", "use_cases/example_trace_estimation",
             [("BATCH_SIZE = 256", "BATCH_SIZE = 32"), ("x, y = load_one_batch_mnist(", "x, y = " + ONE_BATCH[1]),
              ("V_steps = 30", "V_steps = 3"),
              ("torch.logspace(1, 3,", "torch.logspace(1, 2,"), ("num_curves = 15", "num_curves = 2"),
              ("V = 1000", "V = 20"), *[("duration = end - start", "duration = 0.0  # (a wall-clock time)")] * 3]),
    _example("retain_graph", "use_cases/example_retain_graph",
             [("spatial_dims = 5, 3, (32, 32)", "spatial_dims = 5, 3, (16, 16)"),
              *[('print(f"\\tTime [s]: {end-start:.2e}")', "pass  # (a wall-clock time)")] * 2]),
    _example("save_memory_convolutions", "use_cases/example_save_memory_convolutions",
             [("X, y = load_one_batch_mnist(batch_size=64)", "X, y = " + ONE_BATCH[1] + "batch_size=16)"),
              ("run_time = time.time() - start", "run_time = 0.0  # (a wall-clock time)")]),
    _example("diag_ggn_optimizer", "use_cases/example_diag_ggn_optimizer",
             [("MAX_ITER = 200", "MAX_ITER = 6"), ("PRINT_EVERY = 50", "PRINT_EVERY = 2"),
              ("mnist_loader = get_mnist_dataloader(", "mnist_loader = " + LOADER[1])]),
    _example("differential_privacy", "use_cases/example_differential_privacy",
             [("MAX_ITER = 200", "MAX_ITER = 6"), ("PRINT_EVERY = 50", "PRINT_EVERY = 2"),
              ("mnist_dataloader = get_mnist_dataloader(", "mnist_dataloader = " + LOADER[1])]),
    _example("cg_newton", "use_cases/example_cg_newton",
             [("BATCH_SIZE = 64", "BATCH_SIZE = 16"), ("MAX_ITER = 50", "MAX_ITER = 4"),
              ("PRINT_EVERY = 10", "PRINT_EVERY = 1"), *[("mnist_loader = get_mnist_dataloader(",
                                                           "mnist_loader = " + LOADER[1])] * 2],
             xfail="rounding amplified by conjugate gradients on an indefinite matrix: the Hessian run's CG (HMP "
             "block products plus 1e-2 damping) meets negative curvature (p'Ap < 0) and its iterates grow the "
             "last-bit differences of the block products by about 1e3 per iteration (the GGN run's losses agree to "
             "every printed digit); the script in float64 differs the same way (its CG step sizes agree to 1e-15 for "
             "200 iterations, then 27.7240579685729 vs 27.7240579685670, -15.605066 vs -15.605069, and the losses "
             "2.27917 vs 2.27000)"),
]

LAST = "    CTX.add_hook_handle(module.register_full_backward_hook(hook_run_extensions))"


def _drive(name, *calls, xfail=None):
    """backpack/__init__.py run as a script beside its package, with ``corpus_backpack``'s ``calls`` appended."""
    body = "\n".join([LAST, "", "", "cb = __import__('corpus_backpack')", *(f"cb.{c}" for c in calls)])
    return _r(f"bpk_drive_{name}", BPK, "backpack/__init__.py", [(LAST, body + "\n")], support=BPK_PACKAGE,
              xfail=xfail)


RECIPES += [
    _drive("first_order_mlp", "extensions('mlp', names=cb.FIRST)", "extensions('mlp', 'mse', names=cb.FIRST)"),
    _drive("first_order_conv", "extensions('conv', names=cb.FIRST)", "extensions('conv1d', 'mse', names=cb.FIRST)",
           "extensions('conv3d', names=cb.FIRST)"),
    _drive("first_order_tconv", "extensions('tconv', names=cb.FIRST)", "extensions('mlp32', names=cb.FIRST)"),
    _drive("second_order_mlp", "extensions('mlp', names=cb.SECOND)", "extensions('mlp', 'mse', names=cb.SECOND)"),
    _drive("second_order_conv", "extensions('conv', names=cb.SECOND)", "extensions('conv1d', names=cb.SECOND)"),
    _drive("second_order_tconv", "extensions('tconv', names=cb.SECOND)", "extensions('conv3d', 'mse', names=cb.SECOND)"),
    _drive("float32", "extensions('conv32', names=cb.FIRST + cb.SECOND)",
           xfail="float32 convolutions' weight gradients, autograd's own before BackPACK's: torch's oneDNN kernels and "
           "core's NumPy products add the 2x8x8 windows in other orders (the conv's grad_batch and .grad differ in the "
           "last bit, 0.019804146 vs 0.019804144), and a variance that cancels to -7.3953904e-4 (core) vs -7.3952827e-4 "
           "(torch) shows it"),
    _drive("products", "curvature_products('mlp')", "curvature_products('conv')"),
    _drive("recurrent", "recurrent('rnn')", "recurrent('lstm')"),
    _drive("batchnorm", "batchnorm()"),
    _drive("train", "train('mlp')", "train('conv', curvature='diag_ggn_mc')", "train('tconv', curvature='diag_h')",
           "train('mlp32', steps=6, lr=0.5)"),
]
