"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Modern sequence models as their own packages (2026-12-06, corpus helper s28 SEQ), each loaded from the script's
folder in both runs (``runner._fetched_packages``):
- ``xlstm_*``: NX-AI's official xLSTM at its v1.0.8 release (2024-11-04, Apache-2.0; the last release before its
  ``xlstm_large`` needs the Triton ``mlstm_kernels``) on its pure-PyTorch backends only: the mLSTM cell's parallel
  stabilized form and recurrent step, the sLSTM cell's "vanilla" backend (never the CUDA one), the layers, blocks,
  the README's xLSTMBlockStack and xLSTMLMModel at small sizes trained by AdamW and stepped token by token; the
  script is the package's ``xlstm/components/init.py`` (absolute imports only) with drivers of ours appended
  (``corpus_seq.py``), in float32 and float64.
"""

from __future__ import annotations

from recipe_kit import _r

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
# What differs, in the last bits (every script without the causal conv, and without the float64 headwise products
# below, matches bit for bit: ``xlstm_*_noconv``):
DW_BACKWARD = ("the causal depthwise conv1d's float32 backward: PyTorch runs oneDNN's depthwise backward-data and "
               "backward-weights kernels (their own blocked accumulation orders; the forward is oneDNN's order in "
               "core, core.nn.functional._conv_dw), core its NumPy GEMMs; the input gradient differs in the last bit "
               "and grows through the layers' gradients")
DW_F64 = ("the causal depthwise conv1d in float64: PyTorch runs ATen's slow_conv2d per group, MKL's dgemm adding "
          "each tap's product to the bias in order, core NumPy's GEMM and then the bias (last bit of the forward)")
HEADWISE_F64 = ("LinearHeadwiseExpand's einsum in float64 is a bmm of 2 heads, (12, 8) @ a transposed (8, 8), whose "
                "dot kernels in MKL's dgemm add in another order than NumPy's BLAS (core._small_gemm reproduces "
                "float32's, not float64's): the sLSTM gates differ in the last bit from the first step")
RECIPES += [
    _xlstm("backends", "xlstm_backends(xl)"),
    _xlstm("backends_f64", f"xlstm_backends(xl, {F64})"),
    _xlstm("mlstm_layer", "mlstm_layer(xl)", xfail=DW_BACKWARD),
    _xlstm("mlstm_layer_f64", f"mlstm_layer(xl, {F64})", f"mlstm_layer(xl, {F64}, proj_factor=1.5, bias=True)",
           xfail=DW_F64),
    _xlstm("slstm_layer", "slstm_layer(xl)"),
    _xlstm("slstm_layer_f64", f"slstm_layer(xl, {F64})", f"slstm_layer(xl, {F64}, num_heads=4, group_norm_weight=False)",
           xfail=HEADWISE_F64 + "; " + DW_F64),
    _xlstm("lstm_cell", f"slstm_layer(xl, {F64}, function='lstm')", f"slstm_layer(xl, {F64}, function='lstm', "
           "bias_init='small_init', recurrent_weight_init='standard')", xfail=HEADWISE_F64 + "; " + DW_F64),
    _xlstm("slstm_inits", f"slstm_layer(xl, {F64}, bias_init='standard', recurrent_weight_init='standard')",
           f"slstm_layer(xl, {F64}, bias_init='zeros')", xfail=HEADWISE_F64 + "; " + DW_F64),
    _xlstm("block_stack", "block_stack(xl)", xfail=DW_BACKWARD),
    _xlstm("block_stack_f64", f"block_stack(xl, {F64})", f"block_stack(xl, {F64}, slstm_at=(0, 2), bias=True)",
           xfail=DW_F64),
    _xlstm("block_stack_mlstm_only", f"block_stack(xl, {F64}, slstm_at=(), num_blocks=2)", xfail=DW_F64),
    _xlstm("block_stack_slstm_only", f"block_stack(xl, {F64}, slstm_at='all', num_blocks=2, bias_init='small_init')"),
    _xlstm("lm_train", "lm_train(xl)"),
    _xlstm("lm_train_f64", f"lm_train(xl, {F64})", f"lm_train(xl, {F64}, slstm_at=(), tie_weights=True, "
           "weight_decay_on_embedding=True)"),
    _xlstm("components", "components(xl)", f"components(xl, {F64})", xfail=DW_BACKWARD + "; " + DW_F64),
]
# The same without the causal depthwise convolution (``conv1d_kernel_size=0``, a config option of the package).
NOCONV = "conv1d_kernel_size=0"
RECIPES += [
    _xlstm("mlstm_layer_noconv", f"mlstm_layer(xl, {NOCONV})", f"mlstm_layer(xl, {F64}, {NOCONV})"),
    _xlstm("slstm_layer_noconv", f"slstm_layer(xl, {F64}, {NOCONV})", f"slstm_layer(xl, {F64}, {NOCONV}, function='lstm')",
           xfail=HEADWISE_F64),
    _xlstm("block_stack_noconv", "block_stack(xl, conv=0)", f"block_stack(xl, {F64}, conv=0, slstm_at=(0, 2))"),
    _xlstm("lm_train_noconv", "lm_train(xl, conv=0)", f"lm_train(xl, {F64}, conv=0, slstm_at=(), tie_weights=True)"),
]
