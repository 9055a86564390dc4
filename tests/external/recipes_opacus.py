"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Opacus on core (2026-12-05, corpus helper s20 OPACUS): pytorch/opacus at its v1.5.4 release, Apache-2.0. Each script
holds Opacus' whole Python package beside it (every ``.py`` file of ``opacus/`` at the tag, its tests included:
``OPACUS_PACKAGE``), which the runner loads in both runs (``runner._fetched_packages``, the runner's stand-ins kept:
its examples import tqdm and torchvision). SciPy, which its accountants import, is not installed here:
``fake_opacus_deps.py`` stands in for the few functions they call (the accountants compute in NumPy and ``math``,
the same in both runs). The scripts are Opacus' own modules run as the module they are (``__package__`` set) with
calls to ``corpus_opacus.py``'s drivers appended, which use Opacus as its README, tutorials and tests do and print
per-sample gradients, clipped and noised updates (a seeded noise generator), losses and epsilons; its own unit-test
files (``opacus/tests``), their ``unittest`` classes run by ``corpus_opacus.run_tests`` with Hypothesis' examples
derandomised and few (``corpus_opacus.hypothesis_profile``); and its examples on seeded stand-in data.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

OPACUS = ("pytorch/opacus", "f3752c3ad0fcac0f0a2690e67e8cc3ff14c133e4", "Apache-2.0")  # the v1.5.4 release

_OPACUS_MODULES = {
    "": "__init__ data_loader distributed lightning privacy_engine version",
    "accountants": "__init__ accountant gdp prv rdp utils",
    "accountants/analysis": "__init__ gdp rdp",
    "accountants/analysis/prv": "__init__ compose domain prvs",
    "grad_sample": "__init__ conv dp_multihead_attention dp_rnn embedding embedding_norm_sample functorch "
        "grad_sample_module grad_sample_module_fast_gradient_clipping group_norm gsm_base gsm_exp_weights gsm_no_op "
        "instance_norm layer_norm linear rms_norm utils",
    "layers": "__init__ dp_multihead_attention dp_rnn param_rename",
    "optimizers": "__init__ adaclipoptimizer ddp_perlayeroptimizer ddpoptimizer ddpoptimizer_fast_gradient_clipping "
        "optimizer optimizer_fast_gradient_clipping perlayeroptimizer utils",
    "schedulers": "__init__ grad_clip_scheduler noise_scheduler",
    "scripts": "compute_dp_sgd_privacy",
    "tests": "__init__ accountants_test batch_memory_manager_test ddp_hook_check distributed_poisson_test "
        "dpdataloader_test grad_sample_module_fast_gradient_clipping_test grad_sample_module_test "
        "gradient_accumulation_test module_validator_test multigpu_adaptive_clipping multigpu_gradcheck "
        "per_sample_gradients_utils_test poisson_test privacy_engine_test privacy_engine_validation_test "
        "prv_accountant randomness_test utils",
    "tests/dp_layers": "__init__ common dp_multihead_attention_test dp_rnn_test",
    "tests/grad_samples": "__init__ common conv1d_test conv2d_test conv3d_test dp_multihead_attention_test "
        "dp_rnn_test embedding_bag_test embedding_norm_sample_test embedding_test group_norm_test "
        "instance_norm1d_test instance_norm2d_test instance_norm3d_test layer_norm_test linear_test rms_norm_test "
        "sequence_bias_test",
    "tests/schedulers": "__init__ grad_clip_scheduler_test noise_scheduler_test",
    "tests/validators": "__init__ batch_norm_test instance_norm_test lstm_test multihead_attention_test",
    "utils": "__init__ batch_memory_manager fast_gradient_clipping_utils module_utils packed_sequences "
        "per_sample_gradients_utils tensor_utils uniform_sampler",
    "utils/adaptive_clipping": "__init__ adaptive_clipping_utils",
    "validators": "__init__ batch_norm errors instance_norm lstm module_validator multihead_attention utils",
}
OPACUS_PACKAGE = [(p, p) for p in (f"opacus/{folder + '/' if folder else ''}{name}.py"
                                   for folder, names in _OPACUS_MODULES.items() for name in names.split())]
DRIVERS = "import torch\nop = __import__('corpus_opacus')"
SHEBANG = "#!/usr/bin/env python3"
COPYRIGHT = "# Copyright (c) Meta Platforms, Inc. and affiliates."


def _module(name, module, last, *calls, first=SHEBANG):
    """opacus/MODULE.py run as its module (``__package__`` set before ``first``, its first line), the drivers'
    ``calls`` appended after ``last``, its last lines."""
    package = ".".join(["opacus", *module.split("/")[:-1]])
    line = f"__package__ = {package!r}  # run as the package's module"
    return _r(f"opacus_{name}", OPACUS, f"opacus/{module}.py",
              [(first, f"{line}\n{first}"), (last, "\n".join([last.rstrip("\n"), "", DRIVERS, *calls, ""]))],
              support=OPACUS_PACKAGE)


GRAD_SAMPLE_END = '    "wrap_model",\n    "get_gsm_class",\n]'
ENGINE_END = "        return checkpoint"
OPTIMIZERS_END = '        f"Unexpected optimizer parameters. Clipping: {clipping}, distributed: {distributed}"\n    )'
ADAPTIVE = ("target_unclipped_quantile=0.5, clipbound_learning_rate=0.2, max_clipbound=10.0, min_clipbound=0.1, "
            "unclipped_num_std=2.0")
RECIPES += [
    _module("grad_samples_linear_conv", "grad_sample/__init__", GRAD_SAMPLE_END,
            "op.per_sample_gradients(['linear', 'linear_3d', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose'])"),
    _module("grad_samples_norms", "grad_sample/__init__", GRAD_SAMPLE_END,
            "op.per_sample_gradients(['layer_norm', 'group_norm', 'instance_norm', 'instance_norm1d', 'rms_norm'])"),
    _module("grad_samples_embedding_rnn", "grad_sample/__init__", GRAD_SAMPLE_END,
            "op.per_sample_gradients(['embedding', 'embedding_bag', 'dp_lstm', 'dp_gru'])"),
    _module("grad_samples_rnn_attention", "grad_sample/__init__", GRAD_SAMPLE_END,
            "op.per_sample_gradients(['dp_rnn', 'dp_mha'])"),
    _module("privacy_engine_hooks_functorch", "privacy_engine", ENGINE_END,
            "op.private_training('hooks')", "op.private_training('functorch', optimizer='adam')"),
    _module("privacy_engine_ew_ghost", "privacy_engine", ENGINE_END,
            "op.private_training('ew')", "op.private_training('ghost', optimizer='rmsprop')"),
    _module("clipping_per_layer_adaptive", "optimizers/__init__", OPTIMIZERS_END,
            "op.private_training(clipping='per_layer')",
            f"op.private_training(clipping='adaptive', {ADAPTIVE})", first=COPYRIGHT),
    _module("optimizer_gdp", "optimizers/__init__", OPTIMIZERS_END,
            "op.private_training(poisson=False, accountant='gdp', optimizer='adam')",
            "op.optimizer_step()", "op.optimizer_step(reduction='sum', accumulate=2, optimizer='adamw')",
            first=COPYRIGHT),
]
