"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Meta-learning and differentiable optimisation on core (2026-12-06, corpus helper s28 META): second-order autograd
through optimizer steps (``create_graph=True`` through the updates, gradients of gradients, cloned and functionally
updated modules). Each library's package is fetched beside each script and loaded from the script's folder in both
runs (``runner._FETCHED_PACKAGES``):
- facebookresearch/higher (Apache-2.0) at its newest commit (2021-10-26; the last tag, v0.2.1 of 2020-07, lacks
  DifferentiableAdamW, the fix that makes DifferentiableAdam match ``torch.optim.Adam`` and the PyTorch 1.7 fix of
  its tests' helper): its three test modules through pytest, the MAML Omniglot example on a seeded stand-in loader
  (``corpus_meta.OmniglotNShot``) and ``corpus_meta``'s drivers (inner loops with each differentiable optimizer,
  learned learning rates, gradient callbacks, ``monkeypatch``, BatchNorm and LSTM modules patched);
- learnables/learn2learn (MIT) at its v0.2.1 release (2023-06-27): its unit tests that need no dataset (MAML,
  MetaSGD, GBML, the utilities, Kronecker layers, prototypical classifier, ``nn.misc``) through pytest, its toy
  examples (``maml_toy``, ``metamodule_toy``, ``maml_sine`` on ``fake_meta_deps``' torchmeta stand-in) and
  ``corpus_meta``'s drivers (MAML, MetaSGD, GBML with each gradient transform, LearnableOptimizer, ParameterUpdate,
  the utilities, ``learn2learn.nn``, the ``vision.models`` CNNs on seeded images). Its Cython ``data`` modules,
  gym environments and dataset downloaders are ``fake_meta_deps``' refusing stand-ins (none is used).
metaopt/torchopt is not covered: every module of it imports ``optree`` (a compiled pytree library, not installed
here, whose flatten/unflatten and accessors would have to be re-implemented as a fake), and its fused optimizers'
``torchopt._C``.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

NS = "\nmeta = __import__('corpus_meta')\n"
PYTEST = ("import torch\n", "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
          "    __import__('corpus_pruning').run_pytest(__file__)\n    raise SystemExit\nimport torch\n")
MAIN = ("if __name__ == '__main__':\n    unittest.main()", "if __name__ == '__main__':\n    pass")
MAIN2 = ("if __name__ == \"__main__\":\n    unittest.main()", "if __name__ == \"__main__\":\n    pass")

# facebookresearch/higher at its newest commit (2021-10-26, after v0.2.1).
HIGHER = ("facebookresearch/higher", "15a247ac06cac0d22601322677daff0dcfff062e", "Apache-2.0")
HIGHER_PACKAGE = [(f"higher/{m}.py", f"higher/{m}.py") for m in ("__init__", "optim", "patch", "utils")]


CONV_WEIGHT_GRAD = ("float32 summation order: a Conv2d weight's gradient sums batch x output pixels products (12 x 36 "
                    "for Conv2d(1, 4, 3) on 8x8 images) in oneDNN's order in torch, NumPy's in core; it differs in the "
                    "last bit even without create_graph; through two inner Adam steps and BatchNorm the meta-gradient's "
                    "elements differ past rtol 1e-5 (0.01626947 in core, 0.01626928 in torch)")


def _higher(name, *calls, xfail=None):
    """higher's ``tests/test_patch.py`` as the host of ``corpus_meta`` driver ``calls`` (its tests not run)."""
    return _r(f"meta_higher_{name}", HIGHER, "tests/test_patch.py",
              [(MAIN[0], MAIN[0].replace("unittest.main()", "pass") + NS + "\n".join(f"meta.{c}" for c in calls)
                + "\n")], support=HIGHER_PACKAGE, xfail=xfail)


RECIPES += [
    _r(f"meta_higher_test_{name}", HIGHER, f"tests/test_{name}.py", [PYTEST], support=HIGHER_PACKAGE)
    for name in ("higher", "optim", "patch")
]
RECIPES += [
    _r("meta_higher_maml_omniglot", HIGHER, "examples/maml-omniglot.py",
       [("from support.omniglot_loaders import OmniglotNShot", "from corpus_meta import OmniglotNShot"),
        ("args = argparser.parse_args()",
         "args = argparser.parse_args(['--n_way', '3', '--k_spt', '1', '--k_qry', '2', '--task_num', '2'])"),
        ("device = torch.device('cuda')", "device = torch.device('cpu')"),
        ("for epoch in range(100):", "for epoch in range(1):"),
        ("        plot(log)", "        print([(e['mode'], e['epoch'], repr(float(e['loss'])), e['acc']) for e in log])"),
        (" | Time: {iter_time:.2f}", ""),  # a wall-clock time
        ("batch_idx % 4 == 0", "batch_idx % 1 == 0")],
       support=HIGHER_PACKAGE,
       xfail="float32 summation order: its second and third Conv2d(64, 64, 3) sum 576 products an output in oneDNN's "
             "order in torch, NumPy's GEMM's in core (the first forward already differs in the last bit there); five "
             "inner SGD steps and a meta-step later the third batch's query loss is 0.4280428 in core, 0.4280480 in "
             "torch"),
    _r("meta_higher_deep_energy", HIGHER, "examples/deep-energy-mnist.py",
       [("import higher\n", "import higher\ntorch.manual_seed(0)\n"),
        ("args = parser.parse_args()", "args = parser.parse_args([])"),
        ("datasets.MNIST('/tmp/mnist-data', train=True",
         "__import__('corpus_support').fake_mnist_small('/tmp/mnist-data', train=True"),
        ("datasets.MNIST(\n            '/tmp/mnist-data', train=False",
         "__import__('corpus_support').fake_mnist_small(\n            '/tmp/mnist-data', train=False"),
        ('device = torch.device("cuda")', 'device = torch.device("cpu")'),
        ("for epoch in range(10):", "for epoch in range(2):")],
       support=HIGHER_PACKAGE),
    _higher("sgd", "higher_inner('SGD', lr=0.1)", "higher_inner('SGD', lr=0.1, momentum=0.9, dampening=0.1)",
            "higher_inner('SGD', lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)"),
    _higher("adam", "higher_inner('Adam', lr=0.05)", "higher_inner('Adam', lr=0.05, amsgrad=True, weight_decay=0.1)"),
    _higher("adamw", "higher_inner('AdamW', lr=0.05)", "higher_inner('AdamW', lr=0.05, amsgrad=True)"),
    _higher("rmsprop", "higher_inner('RMSprop', lr=0.01)",
            "higher_inner('RMSprop', lr=0.01, momentum=0.5, centered=True, weight_decay=0.01)"),
    _higher("adagrad", "higher_inner('Adagrad', lr=0.1)", "higher_inner('Adagrad', lr=0.1, lr_decay=0.1, "
            "weight_decay=0.01)"),
    _higher("adadelta", "higher_inner('Adadelta', lr=1.0)", "higher_inner('Adadelta', lr=1.0, rho=0.8, "
            "weight_decay=0.01)"),
    _higher("adamax", "higher_inner('Adamax', lr=0.05)", "higher_inner('Adamax', lr=0.05, weight_decay=0.01)"),
    _higher("asgd", "higher_inner('ASGD', lr=0.05)", "higher_inner('ASGD', lr=0.05, t0=1, weight_decay=0.01)"),
    _higher("rprop", "higher_inner('Rprop', lr=0.05)", "higher_inner('Rprop', lr=0.05, etas=(0.4, 1.3))"),
    _higher("first_order", "higher_inner('SGD', track=False, copy_initial_weights=False, lr=0.1)",
            "higher_inner('Adam', track=True, copy_initial_weights=True, lr=0.05)"),
    _higher("learned_lr", "higher_learned_lr()", "higher_learned_lr('SGD', momentum=0.5)"),
    _higher("grad_callback", "higher_grad_callback()"),
    _higher("monkeypatch", "higher_monkeypatch()"),
    _higher("float64", "higher_inner('SGD', lr=0.1, momentum=0.9, dtype=torch.float64)",
            "higher_inner('Adam', lr=0.05, dtype=torch.float64)"),
    _higher("groups", "higher_groups()"),
    _higher("monkeypatch_conv", "higher_monkeypatch(['conv'])", xfail=CONV_WEIGHT_GRAD),
    _higher("monkeypatch_lstm", "higher_monkeypatch(['lstm'])"),
]

# learnables/learn2learn at its v0.2.1 release (2023-06-27).
L2L = ("learnables/learn2learn", "b0a47f3ba8b7181383dade3a38161a7804796921", "MIT")
L2L_PACKAGE = [(f"learn2learn/{m}.py", f"learn2learn/{m}.py") for m in (
    "__init__", "_version", "algorithms/__init__", "algorithms/base_learner", "algorithms/gbml", "algorithms/maml",
    "algorithms/meta_sgd", "algorithms/lightning/__init__", "algorithms/lightning/lightning_anil",
    "algorithms/lightning/lightning_episodic_module", "algorithms/lightning/lightning_maml",
    "algorithms/lightning/lightning_metaoptnet", "algorithms/lightning/lightning_protonet", "data/__init__",
    "data/utils", "nn/__init__", "nn/kroneckers", "nn/metalayers/__init__", "nn/metalayers/metamodule",
    "nn/metalayers/parameter_transform", "nn/metaoptnet", "nn/misc", "nn/protonet", "optim/__init__",
    "optim/learnable_optimizer", "optim/parameter_update", "optim/transforms/__init__",
    "optim/transforms/kronecker_transform", "optim/transforms/metacurvature_transform",
    "optim/transforms/module_transform", "optim/transforms/transform_dictionary", "optim/update_rules/__init__",
    "optim/update_rules/differentiable_sgd", "utils/__init__", "vision/__init__", "vision/models/__init__",
    "vision/models/cnn4", "vision/models/resnet12", "vision/models/wrn28")]


def _l2l(name, *calls, xfail=None):
    """learn2learn's ``tests/unit/nn/misc.py`` as the host of ``corpus_meta`` driver ``calls`` (its test not run)."""
    return _r(f"meta_l2l_{name}", L2L, "tests/unit/nn/misc.py",
              [(MAIN2[0], MAIN2[1] + NS + "\n".join(f"meta.{c}" for c in calls) + "\n")], support=L2L_PACKAGE,
              xfail=xfail)


RECIPES += [
    _r(f"meta_l2l_test_{name}", L2L, f"tests/unit/{path}", [PYTEST], support=L2L_PACKAGE)
    for name, path in (("gbml", "algorithms/gbml_test.py"), ("maml", "algorithms/maml_test.py"),
                       ("metasgd", "algorithms/metasgd_test.py"), ("utils", "utils_test.py"),
                       ("kroneckers", "nn/kroneckers_test.py"), ("protonet", "nn/protonet_test.py"),
                       ("nn_misc", "nn/misc.py"))
]
RECIPES += [
    _r("meta_l2l_maml_toy", L2L, "examples/maml_toy.py",
       [("import torch as th\n", "import torch as th\nth.manual_seed(0)\n"), ("TIMESTEPS = 1000", "TIMESTEPS = 12"),
        ("TASKS_PER_STEP = 50", "TASKS_PER_STEP = 10"), ("print(i, step_loss.item())", "print(i, repr(step_loss.item()))")],
       support=L2L_PACKAGE),
    _r("meta_l2l_metamodule_toy", L2L, "examples/metamodule_toy.py", support=L2L_PACKAGE),
    _r("meta_l2l_maml_sine", L2L, "examples/maml_sine.py",
       [("    # load the dataset\n", "    torch.manual_seed(0)\n    np.random.seed(0)\n    # load the dataset\n"),
        ("num_tasks=160000", "num_tasks=12"), ("tasks_per_batch=16", "tasks_per_batch=4"),
        ("iter % 200 == 0", "iter % 1 == 0"), ("meta_train_loss.item())", "repr(meta_train_loss.item()))")],
       support=L2L_PACKAGE),
    _l2l("maml", "l2l_maml()", "l2l_maml(first_order=True)", "l2l_maml(allow_unused=True, allow_nograd=True)"),
    _l2l("metasgd", "l2l_maml(algorithm='MetaSGD')", "l2l_maml(first_order=True, algorithm='MetaSGD')"),
    _l2l("gbml_module", "l2l_gbml('module')", "l2l_gbml('module', adapt_transform=True)"),
    _l2l("gbml_kronecker", "l2l_gbml('kronecker')", "l2l_gbml('kronecker', first_order=True)"),
    _l2l("gbml_metacurvature", "l2l_gbml('metacurvature')", "l2l_gbml('metacurvature', adapt_transform=True)"),
    _l2l("learnable_optimizer", "l2l_learnable_optimizer()"),
    _l2l("float64", "l2l_maml(dtype=torch.float64)"),
    _l2l("functional_updates", "l2l_functional_updates()"),
    _l2l("utils", "l2l_utils()"),
    _l2l("nn", "l2l_nn()"),
    _l2l("vision_small", "l2l_vision('omniglot_fc')", "l2l_vision('omniglot_cnn')", "l2l_vision('cnn4')"),
    _l2l("vision_mini_imagenet", "l2l_vision('mini_imagenet_cnn')",
         xfail="a discontinuity amplifies the last bit: MiniImagenetCNN's first Conv2d(3, 8, 3, padding=1) on 84x84 "
               "images (oneDNN's order in torch) differs from core's in the last bit, and the second task's query "
               "loss after two inner steps is 0.5521 or 0.5571 depending on it (torch itself gives both: its initial "
               "weights scaled by 1 + 1e-7 noise move it from one to the other)"),
]
