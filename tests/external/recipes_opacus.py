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
from recipes_torchvision import TV, TV_PACKAGE

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
    _module("validators_layers", "validators/__init__", '    "register_module_validator",\n    "register_module_fixer",\n]',
            "op.validators_and_layers()"),
    _module("engine_features", "privacy_engine", ENGINE_END, "op.engine_features()"),
]


# the last lines of Opacus' test files (none ends with ``unittest.main()``): their tests run after them
_TEST_ENDS = {
    'accountants_test': '        epsilon = new_rdp_accountant.get_epsilon(delta=1e-5)\n        self.assertAlmostEqual(epsilon, 7.32911117143)',
    'batch_memory_manager_test': '    GSM_MODE = "functorch"',
    'dp_layers/dp_multihead_attention_test': '            self.assertFalse("in_proj_bias" in dp_attn.state_dict())',
    'dp_layers/dp_rnn_test': '            self.compare_gradients(\n                rnn,\n                dp_rnn,\n                rnn_train_fn,\n                x,\n                (h0, c0) if use_cn else h0,\n                atol=1e-5,\n                rtol=1e-3,\n            )',
    'dpdataloader_test': '        _ = DPDataLoader.from_data_loader(data_loader)',
    'grad_sample_module_fast_gradient_clipping_test': '        )\n\n        logging.info(f"Max difference between (vanilla) Opacus and FGC = {max(diff)}")\n        msg = "Fail: Gradients from vanilla DP-SGD and from fast gradient clipping are different"\n        assert torch.allclose(flat_grads_normal, flat_grads_gc, atol=1e-3), msg',
    'grad_sample_module_test': '    def test_disable_hooks(self) -> None:\n        pass',
    'grad_samples/conv1d_test': '            x, conv, batch_first=True, atol=10e-5, rtol=10e-4, ew_compatible=N > 0\n        )',
    'grad_samples/conv2d_test': '            torch.norm(m._module.weight.grad_sample[0] - m._module.weight.grad), 1e-7\n        )',
    'grad_samples/conv3d_test': '            ew_compatible=is_ew_compatible,\n        )',
    'grad_samples/dp_multihead_attention_test': '        self.run_test(x, attn, batch_first=False)',
    'grad_samples/dp_rnn_test': '        self.run_test(x, rnn, batch_first=batch_first, ew_compatible=False)',
    'grad_samples/embedding_bag_test': '        )',
    'grad_samples/embedding_norm_sample_test': '        )\n        computed_norms = result[embedding_layer.weight]\n\n        # Verify the computed norms match the expected norms\n        torch.testing.assert_close(computed_norms, expected_norms, atol=1e-4, rtol=1e-4)',
    'grad_samples/embedding_test': '        self.run_test(x, emb, batch_first=batch_first, ew_compatible=N > 0)',
    'grad_samples/group_norm_test': '        self.run_test(x, norm, batch_first=True, ew_compatible=N > 0)',
    'grad_samples/instance_norm1d_test': '        self.run_test(x, norm, batch_first=True)',
    'grad_samples/instance_norm2d_test': '        self.run_test(x, norm, batch_first=True)',
    'grad_samples/instance_norm3d_test': '        self.run_test(x, norm, batch_first=True)',
    'grad_samples/layer_norm_test': '        return normalized_shape, x_shape',
    'grad_samples/linear_test': '        self.run_test(x, linear, batch_first=batch_first, ew_compatible=N > 0)',
    'grad_samples/rms_norm_test': '        return normalized_shape, x_shape',
    'grad_samples/sequence_bias_test': '        self.run_test(x, seqbias, batch_first, ew_compatible=False)',
    'gradient_accumulation_test': '        self.GRAD_SAMPLE_MODE = "functorch"',
    'module_validator_test': '            ModuleValidator.fix(m, replace_bn_with_in=True, num_groups=4)',
    'per_sample_gradients_utils_test': '        self.per_sample_grads_utils_test(x, linear, grad_sample_mode, N == 0)',
    'poisson_test': '        self.assertNotEqual(batch_sizes1, batch_sizes2)',
    'privacy_engine_test': '        return ModelWithCustomLinear()',
    'privacy_engine_validation_test': '        module.extra_param.requires_grad = False\n\n        module, optim, dl = self.privacy_engine.make_private(\n            module=module,\n            optimizer=optim,\n            data_loader=dl,\n            noise_multiplier=1.0,\n            max_grad_norm=1.0,\n            grad_sample_mode="ew",\n        )\n\n        for x in dl:\n            module(x)',
    'randomness_test': '        self.assertFalse(torch.allclose(data1, data2))',
    'schedulers/grad_clip_scheduler_test': '        self.assertEqual(self.optimizer.max_grad_norm, scheduler_function(1))',
    'schedulers/noise_scheduler_test': '        self.assertEqual(self.optimizer.noise_multiplier, noise_lambda(1))',
    'validators/batch_norm_test': '        self.assertTrue(isinstance(fixs, nn.GroupNorm))',
    'validators/instance_norm_test': '        self.assertTrue(fixs is self.in_no_stats)',
    'validators/lstm_test': '        )',
    'validators/multihead_attention_test': '        )',
}


def _test(path, every=1, examples=3, edits=(), support=(), **kw):
    """Opacus' opacus/tests/PATH.py run as its module, Hypothesis' profile loaded first (``examples`` examples per
    property test), its ``unittest`` classes run after its last lines by ``corpus_opacus.run_tests`` (only every
    ``every``-th test where the whole file takes seconds)."""
    module = f"tests/{path}"
    package = ".".join(["opacus", *module.split("/")[:-1]])
    source = f"opacus/{module}.py"
    last = _TEST_ENDS[path]
    profile = f"__import__('corpus_opacus').hypothesis_profile({examples})"
    run = f"__import__('corpus_opacus').run_tests(globals(){f', every={every}' if every != 1 else ''})"
    first = SHEBANG if path not in _COPYRIGHT_FIRST else COPYRIGHT
    return _r(f"opacus_test_{path.replace('/', '_').removesuffix('_test')}", OPACUS, source,
              [(first, f"__package__ = {package!r}  # run as the package's module\n{profile}\n{first}"),
               *edits, (last, f"{last}\n\n\n{run}\n")], support=[*OPACUS_PACKAGE, *support], **kw)


_COPYRIGHT_FIRST = {"batch_memory_manager_test", "dpdataloader_test", "privacy_engine_validation_test",
                    "randomness_test"}
# torchvision's own package (recipes_torchvision's) for the tests' models and transforms; its FakeData images are
# corpus_opacus.FakeData's (the runner's torchvision has no datasets)
TORCHVISION = [(*TV[:2], path, target) for path, target in TV_PACKAGE]
FAKE_DATA = ("from torchvision.datasets import FakeData", "from corpus_opacus import FakeData  # (a stand-in)")
WITH_IMAGES = {"edits": [FAKE_DATA], "support": TORCHVISION}
# the files whose whole run takes seconds run every n-th test (``every``) and fewer Hypothesis examples
_SPECIAL = {
    "grad_sample_module_test": {**WITH_IMAGES, "every": 3},
    "gradient_accumulation_test": {**WITH_IMAGES, "every": 5, "examples": 1},
    "module_validator_test": {"support": TORCHVISION, "every": 4},
    "grad_sample_module_fast_gradient_clipping_test": {"examples": 1, "every": 2},
    "batch_memory_manager_test": {"examples": 1, "every": 3},
    "randomness_test": {"every": 2},
    "dp_layers/dp_multihead_attention_test": {"examples": 1},
    "grad_samples/dp_rnn_test": {"examples": 2},
}
# left out: accountants_test (its searches for a noise multiplier take seconds of NumPy in either run) and
# privacy_engine_test (176 tests, 11 minutes of core's CPU at three examples each: all give torch's outcomes, once
# FakeData is corpus_opacus' and opt_einsum (recipes_pyro's) is beside it; two download torchvision weights)
_LEFT_OUT = {"accountants_test", "privacy_engine_test"}
RECIPES += [_test(name, **_SPECIAL.get(name, {})) for name in _TEST_ENDS if name not in _LEFT_OUT]


MNIST_ARGS = ["-b", "8", "--test-batch-size", "8", "-n", "1", "--lr", "0.25", "--sigma", "1.3", "-c", "1.0",
              "--device", "cpu", "--data-root", "."]
SMALL_MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist_small(")  # 32 training, 8 test images
RECIPES += [
    _r("opacus_example_mnist", OPACUS, "examples/mnist.py",
       [("args = parser.parse_args()", f"args = parser.parse_args({MNIST_ARGS!r})"), SMALL_MNIST, SMALL_MNIST],
       support=OPACUS_PACKAGE),
]


def _tutorial(name, path, edits=()):
    """Opacus' tutorials/PATH.ipynb cell by cell, each cell's error printed as Jupyter shows it (``keep_going``: the
    guides' cells are fragments that name what earlier prose defines, and the advanced-features tutorial shows a
    second backward refused on purpose)."""
    return _r(f"opacus_tutorial_{name}", OPACUS, f"tutorials/{path}.ipynb", list(edits), support=OPACUS_PACKAGE,
              keep_going=True)


RECIPES += [
    _tutorial("advanced_features", "intro_to_advanced_features"),
    _tutorial("grad_sampler", "guide_to_grad_sampler"),
    _tutorial("module_validator", "guide_to_module_validator"),
]


def _cifar10(name, *args):
    """examples/cifar10.py for one epoch of four batches of 2 seeded images (``corpus_opacus.tiny_cifar10``: 8
    training, 8 test images; its transforms are the runner's stubs, the stand-in hands tensors), epsilon printed at
    the first step only (the PRV accountant takes half a second of NumPy a call, in either run)."""
    argv = ["--epochs", "1", "--batch-size", "2", "--batch-size-test", "8", "--lr", "0.05", "--sigma", "1.5", "-c", "1.0",
            "-p", "4", "-j", "0", "--data-root", ".", *args]
    return _r(f"opacus_example_cifar10_{name}", OPACUS, "examples/cifar10.py",
              [("from torchvision.datasets import CIFAR10",
                "CIFAR10 = __import__('corpus_opacus').tiny_cifar10  # seeded images"),
               ("    return parser.parse_args()", f"    return parser.parse_args({argv!r})")],
              support=OPACUS_PACKAGE)


RECIPES += [
    _cifar10("functorch", "--grad_sample_mode", "no_op"),  # its own vmap(grad_and_value) per-sample gradients
    _cifar10("per_layer", "--clip_per_layer", "--optim", "Adam", "--lr-schedule", "constant", "--lr", "0.01"),
]
