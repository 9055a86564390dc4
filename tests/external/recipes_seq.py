"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Modern sequence models as their own packages (2026-12-06, corpus helper s28 SEQ), each loaded from the script's
folder in both runs (``runner._fetched_packages``):
- ``xlstm_*``: NX-AI's official xLSTM at its v1.0.8 release (2024-11-04, Apache-2.0; the last release before its
  ``xlstm_large`` needs the Triton ``mlstm_kernels``) on its pure-PyTorch backends only: the mLSTM cell's parallel
  stabilized form and recurrent step, the sLSTM cell's "vanilla" backend (never the CUDA one), the layers, blocks,
  the README's xLSTMBlockStack and xLSTMLMModel at small sizes trained by AdamW and stepped token by token; the
  script is the package's ``xlstm/components/init.py`` (absolute imports only) with drivers of ours appended
  (``corpus_seq.py``), in float32 and float64, with and without the layers' causal depthwise conv;
- ``tcn_*``: paul-krug's pytorch-tcn (MIT) at its head of 2024-11-09: its two unit-test modules through pytest
  (test_tcn's model and input made smaller, the ONNX Runtime test deselected), and TCN, TemporalConv1d and
  TemporalConvTranspose1d driven: forward, gradients, Adam steps and causal streaming through their buffers;
- ``torchdyn_*``: DiffEqML's torchdyn at 1.0.6 (Apache-2.0) with torchcde v0.2.3, torchsde and torchdiffeq beside it
  (pytorch_lightning, ``attr.s`` and its data sets' SciPy/scikit-learn names: ``fake_seq_deps.py``): its
  test_problem through pytest, NeuralODE under autograd, adjoint and interpolated-adjoint sensitivities trained a
  few Adam steps, its solvers on Van der Pol and Lorenz, augmentation and data control, Galerkin layers, HNN/LNN.
The drivers print values with every digit; residuals between two routes of one library (a step against the parallel
form, streamed against full) print as agreement, and values under 16 epsilons of their tensor's largest as 0 (the
residue of an exactly cancelling sum: ``corpus_seq._show``).
"""

from __future__ import annotations

from recipe_kit import _r

_E3NN = __import__("recipes_e3nn")  # (torchsde's pin and files)
_LIB2 = __import__("recipes_libraries2")  # (torchdiffeq's)

RECIPES: list[dict] = []

# NX-AI/xlstm (Apache-2.0) at its v1.0.8 release (2024-11-04).
XLSTM = ("NX-AI/xlstm", "9ed5e2b68a323956895fef29616797dc277ce921", "Apache-2.0")
XLSTM_PACKAGE = [(f"xlstm/{m}.py", f"xlstm/{m}.py") for m in (
    "__init__ utils xlstm_block_stack xlstm_lm_model blocks/__init__ blocks/xlstm_block blocks/mlstm/__init__ "
    "blocks/mlstm/backends blocks/mlstm/block blocks/mlstm/cell blocks/mlstm/layer blocks/slstm/__init__ "
    "blocks/slstm/block blocks/slstm/cell blocks/slstm/layer blocks/slstm/src/__init__ blocks/slstm/src/cuda_init "
    "blocks/slstm/src/vanilla/__init__ blocks/slstm/src/vanilla/lstm blocks/slstm/src/vanilla/slstm "
    "components/__init__ components/conv components/feedforward components/init components/linear_headwise "
    "components/ln components/util").split()]
XLSTM_LAST = "    std = 2 / num_blocks / math.sqrt(dim)\n    torch.nn.init.normal_(param, mean=0.0, std=std)\n    return param\n"


def _xlstm(name, *calls, xfail=None):
    """xlstm/components/init.py run as a script beside its package, driver ``calls`` on the package appended."""
    body = XLSTM_LAST + "\n\nimport xlstm as xl\ncs = __import__('corpus_seq')\n" + "".join(f"cs.{c}\n" for c in calls)
    return _r(f"xlstm_{name}", XLSTM, "xlstm/components/init.py", [(XLSTM_LAST, body)], support=XLSTM_PACKAGE,
              xfail=xfail)


F64 = "torch.float64"
RECIPES += [
    _xlstm("backends", "xlstm_backends(xl)"),
    _xlstm("backends_f64", f"xlstm_backends(xl, {F64})"),
    _xlstm("mlstm_layer", "mlstm_layer(xl)"),
    _xlstm("mlstm_layer_f64", f"mlstm_layer(xl, {F64})", f"mlstm_layer(xl, {F64}, proj_factor=1.5, bias=True)"),
    _xlstm("slstm_layer", "slstm_layer(xl)"),
    _xlstm("slstm_layer_f64", f"slstm_layer(xl, {F64})", f"slstm_layer(xl, {F64}, num_heads=4, group_norm_weight=False)"),
    _xlstm("lstm_cell", f"slstm_layer(xl, {F64}, function='lstm')", f"slstm_layer(xl, {F64}, function='lstm', "
           "bias_init='small_init', recurrent_weight_init='standard')"),
    _xlstm("slstm_inits", f"slstm_layer(xl, {F64}, bias_init='standard', recurrent_weight_init='standard')",
           f"slstm_layer(xl, {F64}, bias_init='zeros')"),
    _xlstm("block_stack", "block_stack(xl)"),
    _xlstm("block_stack_f64", f"block_stack(xl, {F64})", f"block_stack(xl, {F64}, slstm_at=(0, 2), bias=True)"),
    _xlstm("block_stack_mlstm_only", f"block_stack(xl, {F64}, slstm_at=(), num_blocks=2)"),
    _xlstm("block_stack_slstm_only", f"block_stack(xl, {F64}, slstm_at='all', num_blocks=2, bias_init='small_init')"),
    _xlstm("lm_train", "lm_train(xl)"),
    _xlstm("lm_train_f64", f"lm_train(xl, {F64})", f"lm_train(xl, {F64}, slstm_at=(), tie_weights=True, "
           "weight_decay_on_embedding=True)"),
    _xlstm("components", "components(xl)", f"components(xl, {F64})"),
]
# The same without the causal depthwise convolution (``conv1d_kernel_size=0``, a config option of the package).
NOCONV = "conv1d_kernel_size=0"
RECIPES += [
    _xlstm("mlstm_layer_noconv", f"mlstm_layer(xl, {NOCONV})", f"mlstm_layer(xl, {F64}, {NOCONV})"),
    _xlstm("slstm_layer_noconv", f"slstm_layer(xl, {F64}, {NOCONV})", f"slstm_layer(xl, {F64}, {NOCONV}, function='lstm')"),
    _xlstm("block_stack_noconv", "block_stack(xl, conv=0)", f"block_stack(xl, {F64}, conv=0, slstm_at=(0, 2))"),
    _xlstm("lm_train_noconv", "lm_train(xl, conv=0)", f"lm_train(xl, {F64}, conv=0, slstm_at=(), tie_weights=True)"),
]

# paul-krug/pytorch-tcn (MIT) at its main branch's head of 2024-11-09 (1.2.2.dev1; it tags no releases): its two
# unit-test modules through pytest (the ONNX Runtime streaming test deselected: not installed), and its package's
# ``__init__`` run as a script beside it with drivers of ours appended.
TCN = ("paul-krug/pytorch-tcn", "3b3deac30c9f6a74b5cffbf614378a928268f9bd", "MIT")
TCN_PACKAGE = [(f"pytorch_tcn/{m}.py", f"pytorch_tcn/{m}.py") for m in ("__init__", "buffer", "conv", "pad", "tcn")]


def _tcn_test(name, deselect="", xfail=None):
    """tests/unit/test_NAME.py through pytest (``-k`` ``deselect``)."""
    args = f", '-k', {deselect!r}" if deselect else ""
    run = ("import unittest\n", "import unittest\nif __name__ == '__main__':  # (pytest imports the file as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{args})\n    raise SystemExit\n")
    return _r(f"tcn_test_{name}", TCN, f"tests/unit/test_{name}.py", [run, *TCN_TEST_SIZES.get(name, ())],
              support=TCN_PACKAGE, xfail=xfail)


# test_tcn's model and input at a smaller size (the last layer's 128 channels kept: its expected shapes take them for
# output_projection=128's; the grid search streams each of ~60 models frame by frame: 4 minutes
# of torch at 8 layers of up to 128 channels, a batch of 10 and 196 steps; here ~30 s of core)
TCN_TEST_SIZES = {"tcn": [("            32, 64, 64, 128,\n            32, 64, 64, 128,", "            4, 8, 8, 12,\n"
                                                                                        "            4, 8, 8, 128,"),
                          ("self.batch_size = 10", "self.batch_size = 2"), ("self.time_steps = 196", "self.time_steps = 12")]}


TCN_LAST = "__version__ = '1.2.2.dev1'"


def _tcn(name, *calls, xfail=None):
    """pytorch_tcn/__init__.py run as a script beside its package, driver ``calls`` appended."""
    body = TCN_LAST + "\nimport torch\nimport pytorch_tcn as pt\ncs = __import__('corpus_seq')\n" + "".join(
        f"cs.{c}\n" for c in calls)
    return _r(f"tcn_{name}", TCN, "pytorch_tcn/__init__.py", [(TCN_LAST, body)], support=TCN_PACKAGE, xfail=xfail)


RECIPES += [
    _tcn_test("tcn"), _tcn_test("conv", "not onnx"),
    _tcn("train", "tcn_train(pt)", "tcn_train(pt, use_norm='batch_norm', activation='gelu')",
         xfail="float32 summation order: the TCN's dense conv1d layers (batch 2, 3 to 12 channels, dilated) run "
         "through oneDNN in torch and NumPy's GEMM in core; the last bits grow through ReLU and weight norm to "
         "1.3e-4 (relative) in a layer's weight gradient (the float64 runs, tcn_train_f64, match)"),
    _tcn("train_f64", f"tcn_train(pt, {F64})", f"tcn_train(pt, {F64}, use_skip_connections=True, use_gate=True)"),
    _tcn("noncausal", f"tcn_train(pt, {F64}, causal=False, use_norm='layer_norm', output_projection=5, "
         "output_activation='tanh')", "tcn_train(pt, causal=False, dilations=[1, 3, 9], use_norm=None)"),
    _tcn("options", f"tcn_train(pt, {F64}, input_shape='NLC', kernel_initializer='kaiming_normal', "
         "activation='leaky_relu')", f"tcn_train(pt, {F64}, dilation_reset=2, use_norm='weight_norm', dropout=0.0, "
         "kernel_initializer='normal')"),
    _tcn("temporal_convs", "temporal_convs(pt)", f"temporal_convs(pt, {F64})"),
]

# DiffEqML/torchdyn (Apache-2.0) at its 1.0.6 release (2023-09-01), with patrick-kidger/torchcde at v0.2.3 (2021-07-21,
# Apache-2.0), torchsde v0.2.6 (recipes_e3nn's pin) and torchdiffeq (recipes_libraries2's), each loaded from the
# script's folder; pytorch_lightning, attrs' ``attr.s`` and the data sets' SciPy and scikit-learn names are
# fake_seq_deps' stand-ins. Its own test_problem through pytest, and its package's ``__init__`` run as a script
# with drivers of ours appended: NeuralODE under each sensitivity, its solvers, augmentation, Galerkin layers,
# energy models.
TORCHDYN = ("DiffEqML/torchdyn", "c708c4c0c4df0fe809e46967d4ebb3b153ada12d", "Apache-2.0")
TORCHCDE = ("patrick-kidger/torchcde", "7a2fd9a12ac7894a3f321a7760c48b5ffd0040fb", "Apache-2.0")
_TORCHDYN_MODULES = (
    "__init__ core/__init__ core/defunc core/neuralde core/problems core/utils datasets/__init__ "
    "datasets/static_datasets models/__init__ models/cnf models/energy models/hybrid nn/__init__ nn/galerkin "
    "nn/node_layers numerics/__init__ numerics/interpolators numerics/odeint numerics/sensitivity "
    "numerics/solvers/_constants numerics/solvers/hyper numerics/solvers/ode numerics/solvers/root "
    "numerics/solvers/sde numerics/solvers/templates numerics/systems numerics/utils").split()
_TORCHCDE_MODULES = ("__init__ interpolation_base interpolation_cubic interpolation_hermite_cubic_bdiff "
                     "interpolation_linear log_ode misc solver").split()
TORCHDYN_PACKAGE = [*((f"torchdyn/{m}.py", f"torchdyn/{m}.py") for m in _TORCHDYN_MODULES),
                    *(TORCHCDE[:2] + (f"torchcde/{m}.py", f"torchcde/{m}.py") for m in _TORCHCDE_MODULES),
                    *(_E3NN.TORCHSDE[:2] + entry for entry in _E3NN.TORCHSDE_PACKAGE),
                    *(_LIB2.TORCHDIFFEQ[:2] + entry for entry in _LIB2.TORCHDIFFEQ_PACKAGE)]
TORCHDYN_LAST = "TTuple = Tuple[Tensor, Tensor]"


def _torchdyn_test(name, deselect="", xfail=None):
    """test/test_NAME.py through pytest (``-k`` ``deselect``)."""
    args = f", '-k', {deselect!r}" if deselect else ""
    first = "import torch\n" if name == "energy" else "import pytest\n"
    run = (first, "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{args})\n    raise SystemExit\n" + first)
    path = f"test/{name}.py" if "/" in name else f"test/test_{name}.py"
    return _r(f"torchdyn_test_{name.replace('/test_', '_')}", TORCHDYN, path, [run],
              support=[*TORCHDYN_PACKAGE, ("test/conftest.py", "conftest.py")], xfail=xfail)


def _torchdyn(name, *calls, xfail=None):
    """torchdyn/__init__.py run as a script beside its package, driver ``calls`` appended."""
    body = TORCHDYN_LAST + "\nimport torch\nimport torchdyn as td\ncs = __import__('corpus_seq')\n" + "".join(
        f"cs.{c}\n" for c in calls)
    return _r(f"torchdyn_{name}", TORCHDYN, "torchdyn/__init__.py", [(TORCHDYN_LAST, body)], support=TORCHDYN_PACKAGE,
              xfail=xfail)


RECIPES += [
    _torchdyn_test("problem"),  # (its torch.load of a whole model: weights_only's refusal, in both)
    # (left out: test_sensitivity, whose adjoint trainings take 70 s of torch and minutes of core, and test_ode, over
    # 8 minutes of core with its Lightning-Trainer tests deselected: not traced, see the report of helper s28 SEQ)
    _torchdyn("node_autograd", "neural_ode(td)", "neural_ode(td, solver='dopri5')", "neural_ode(td, solver='rk4')"),
    _torchdyn("node_adjoint", "neural_ode(td, sensitivity='adjoint')",
              "neural_ode(td, solver='dopri5', sensitivity='adjoint', atol_adjoint=1e-6, rtol_adjoint=1e-6)"),
    _torchdyn("node_interpolated_adjoint", "neural_ode(td, sensitivity='interpolated_adjoint')"),
    _torchdyn("node_f32", "neural_ode(td, dtype=torch.float32)", "neural_ode(td, solver='euler', dtype=torch.float32)"),
    _torchdyn("odeint_solvers", "odeint_solvers(td)"),
    _torchdyn("augmented", "augmented_node(td)"),
    _torchdyn("galerkin", "galerkin(td, torch.float32)", "galerkin(td)"),  # (float64: its float32 eye refuses)
    _torchdyn("energy", "energy_models(td)"),
]
