"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Captum's own Python package (pytorch/captum at its v0.8.0 release, BSD-3-Clause) on core (2026-12-05, corpus helper
s21 CAPTUM). Each script holds the package (every module but the insights server) beside it, which the runner loads
in both runs (``runner._fetched_packages``); ``corpus_labml.captum_stand_ins()`` stubs the matplotlib modules its
visualisation imports. Three kinds of script: one of the package's ``__init__`` modules run as that module with
calls to ``corpus_captum.py``'s drivers appended (attributions of small seeded models printed to 7 decimals); the
README's "Getting Started" walkthrough; and Captum's own test files that the earlier Captum scripts
(``recipes_labml.py``, at a later commit) leave out, run by ``corpus_labml.run_tests``.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_labml import CAPTUM_PACKAGE as _LATER_PACKAGE
from recipes_torchvision import TV, TV_PACKAGE

RECIPES: list[dict] = []

CAPTUM = ("pytorch/captum", "fc17d5070c5447593749ce28f9602c7ae58d54ac", "BSD-3-Clause")  # the v0.8.0 release
# the same modules as recipes_labml's later commit, but remote_provider (added after v0.8.0)
CAPTUM_PACKAGE = [(path, path) for path, _ in _LATER_PACKAGE if not path.endswith("/remote_provider.py")]
STAND_INS = "__import__('corpus_labml').captum_stand_ins()  # matplotlib.axes, .figure... (its visualisation)"
DRIVERS = "import torch\ncc = __import__('corpus_captum')"
FIRST = "#!/usr/bin/env python3"


def _driver(name, module, *calls, **kw):
    """captum/MODULE.py (a package's ``__init__``) run as its module, the drivers' ``calls`` appended after its
    ``__all__``'s closing bracket."""
    package = ".".join(["captum", *module.split("/")[:-1]])
    head = f"{FIRST}\n__package__ = {package!r}  # run as the package's module\n{STAND_INS}"
    last = '"SummarizerSingleTensor",\n]\n' if module == "attr/__init__" else "\n]\n"
    return _r(f"captum_api_{name}", CAPTUM, f"captum/{module}.py",
              [(FIRST, head), (last, "\n".join([last.rstrip("\n"), "", DRIVERS, *calls, ""]))],
              support=CAPTUM_PACKAGE, **kw)


RECIPES += [
    _driver("gradient_methods", "attr/__init__", "cc.gradient_methods()"),
    _driver("integrated_gradients", "attr/__init__", "cc.integrated_gradients()"),
    _driver("noise_tunnel", "attr/__init__", "cc.noise_tunnel()"),
    _driver("deeplift", "attr/__init__", "cc.deeplift()"),
    _driver("gradient_shap", "attr/__init__", "cc.gradient_shap()"),
    _driver("perturbation", "attr/__init__", "cc.perturbation_methods()"),
    _driver("surrogate", "attr/__init__", "cc.surrogate_methods()"),
    _driver("layer", "attr/__init__", "cc.layer_methods()"),
    _driver("embedding", "attr/__init__", "cc.embedding_attribution()"),
    _driver("gradcam", "attr/__init__", "cc.gradcam_methods()"),
    _driver("neuron", "attr/__init__", "cc.neuron_methods()"),
    _driver("lrp", "attr/__init__", "cc.lrp()"),
    _driver("inplace_model", "attr/__init__", "cc.inplace_model()"),
    _driver("transformer", "attr/__init__", "cc.transformer_attribution()"),
    _driver("mixed_model", "attr/__init__", "cc.mixed_model()"),
    _driver("dtypes", "attr/__init__", "cc.dtypes()"),
    _driver("utilities", "attr/__init__", "cc.utilities()"),
    _driver("metrics", "metrics/__init__", "cc.metrics()"),
    _driver("robust", "metrics/__init__", "cc.robust()"),
    _driver("influence", "metrics/__init__", "cc.influence()"),
    _driver("influence_functions", "metrics/__init__", "cc.influence_functions()",
            xfail="float32 LAPACK rounding: the 31x31 Hessian of the loss (double backward through float32 GEMMs, "
                  "1 ulp apart in 398 of 961 entries) goes through torch.linalg.eig, LAPACK's float32 sgeev in torch "
                  "(eigenvalues 1e-6 relative from the float64 ones, core's 1e-7); inverting the small eigenvalues "
                  "amplifies that to the 4th digit of an influence score (0.0071436 vs 0.0071403); float64 runs agree"),
]


def _test(path, first_import, tail, every=1, leave_out=()):
    """Captum's tests/PATH.py with the stand-ins before its first Captum import and its TestCases run after ``tail``,
    its last lines, by ``corpus_captum.run_tests`` (each test's outcome; every ``every``-th, and not those in
    ``leave_out``, where the file takes seconds)."""
    name = path.rpartition("/")[2].removeprefix("test_")
    options = "".join([f", every={every}" if every > 1 else "", f", leave_out={leave_out!r}" if leave_out else ""])
    run = f"import corpus_captum\ncorpus_captum.run_tests(globals(){options})"
    run = "    " + run.replace("\n", "\n    ") if tail == "    unittest.main()" else f"{tail}\n\n\n{run}\n"
    return _r(f"captum_test_{name}", CAPTUM, f"tests/{path}.py",
              [(first_import, f"__import__('corpus_captum').test_stand_ins()  # matplotlib, parameterized\n"
                              f"{first_import}"), (tail, run)],
              support=CAPTUM_PACKAGE)


RECIPES += [  # test files recipes_labml's Captum scripts leave out (not lime, kernel_shap, shapley, targets: minutes)
    _test("attr/test_llm_attr", "from captum._utils.models.linear_model import SkLearnLasso",
          "            **attr_kws,\n        )\n\n"
          "        # 5 output tokens, 4 input tokens including sos\n"
          "        self.assertEqual(res.seq_attr.shape, (4,))\n"
          "        assert res.token_attr is not None\n"
          "        self.assertIsNotNone(res.token_attr)\n"
          "        token_attr = res.token_attr\n"
          "        self.assertEqual(token_attr.shape, (5, 4))\n"
          '        self.assertEqual(res.input_tokens, ["<sos>", "a", "b", "c"])\n'
          '        self.assertEqual(res.output_tokens, ["m", "n", "o", "p", "q"])\n',
          every=5, leave_out=("TestLLMAttr_0.test_llm_attr_1", "TestLLMAttr_1.test_llm_attr_1")),  # 1000 samples
    _test("attr/test_interpretable_input", "from captum._utils.typing import BatchEncodingType",
          "        assertTensorAlmostEqual(self, tt_input.to_model_input(), expected_model_inp)\n"
          "        assertTensorAlmostEqual(\n"
          "            self, tt_input.to_model_input(perturbed_tensor), expected_perturbed_inp\n        )\n"),
    _test("concept/test_concept", "from captum.concept._core.concept import Concept",
          '        concept = Concept(id=1, name="random", data_iter=random_iter)\n'
          "        for data in cast(Iterable, concept.data_iter):\n"
          "            self.assertEqual(data.shape[1:], torch.Size([3, 224, 224]))\n"),
    _test("influence/_core/test_tracin_self_influence",
          "from captum.influence._core.arnoldi_influence_function import ArnoldiInfluenceFunction",
          '                delta=0.01,  # due to numerical issues, we can\'t set this to 0.0\n'
          '                mode="max",\n            )\n', every=7),
    _test("utils/test_progress", "from captum._utils.progress import NullProgress, progress",
          '        assert mock_stderr.getvalue().endswith(f"\\r{desc}: 100% 5/5\\n")\n'),
]

RECIPES += [  # the README's walkthrough: IG, GradientShap, DeepLift(Shap), NoiseTunnel, layer and neuron conductance
    _r("captum_readme_getting_started", CAPTUM, "README.md#Getting Started",
       [("import numpy as np\n", f"{STAND_INS}\nimport numpy as np\n")], support=CAPTUM_PACKAGE,
       xfail="float32 GEMM rounding: the IG + SmoothGrad convergence deltas are rounding residues (+-4.8e-07) of "
             "sum(attributions) - (f(input) - f(baseline)); f's 8x3 @ 3x3 float32 matmul rounds 4 of 24 elements one "
             "ulp apart in MKL's sgemm and NumPy's BLAS (the attributions and the float64 run agree bit for bit)"),
]

RECIPES += [  # its CIFAR tutorial on the stand-in CIFAR-10, with the tutorial's own trained weights (torch.save'd)
    _r("captum_tut_cifar_interpret", CAPTUM, "tutorials/CIFAR_TorchVision_Interpret.ipynb",
       [("import matplotlib.pyplot as plt\n", f"{STAND_INS}\nimport matplotlib.pyplot as plt\n"),
        ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
        ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
        ("num_workers=2", "num_workers=0"), ("num_workers=2", "num_workers=0"),
        ("images, labels = dataiter.next()", "images, labels = next(dataiter)"),  # (DataLoader iterators: next())
        ("print('Original Image')",  # the heat maps it draws: each attribution's sums and first values
         "for name, a in (('saliency', grads), ('ig', attr_ig), ('ig_nt', attr_ig_nt), ('deeplift', attr_dl)):\n"
         "    print(name, a.shape, '%.6f %.6f' % (a.sum(), abs(a).sum()), np.round(a.flatten()[:6], 6))\n"
         "print('Original Image')")],
       support=[*CAPTUM_PACKAGE, ("tutorials/models/cifar_torchvision.pt", "models/cifar_torchvision.pt")],
       keep_going=True),
]

RECIPES += [  # its robustness tutorial: torchvision's own transforms (RandomRotation, GaussianBlur) as attacks
    _r("captum_tut_cifar_robustness", CAPTUM, "tutorials/CIFAR_Captum_Robustness.ipynb",
       [("import matplotlib.pyplot as plt\n", f"{STAND_INS}\nimport matplotlib.pyplot as plt\n"),
        ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
        ("num_workers=2", "num_workers=0"),
        ("n_batches = 100", "n_batches = 2"),  # (100 batches of 50 perturbations each: minutes)
        ("comparator.evaluate(image, target=label)", "__import__('corpus_captum').ordered(comparator.evaluate(image, "
                                                     "target=label))"),  # (its stats' order follows ids: sorted)
        ("comparator.summary()", "__import__('corpus_captum').ordered(comparator.summary())")],
       support=[*CAPTUM_PACKAGE, *(TV[:2] + path for path in TV_PACKAGE),
                ("tutorials/models/cifar_torchvision.pt", "models/cifar_torchvision.pt")],
       keep_going=True),
]
