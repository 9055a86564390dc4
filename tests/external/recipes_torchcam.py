"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

torch-cam's own package on core (2026-12-06, corpus helper s23 TORCHCAM): frgfm/torch-cam at its v0.4.1 release
(2025-10-27, Apache-2.0), ``torchcam`` fetched beside each script and loaded from there in both runs
(``runner._fetched_packages``; ``fake_torchcam_deps.py`` gives ``importlib.metadata`` its version, as an installed
wheel's metadata does; Pillow and matplotlib, which ``torchcam.utils`` imports, stay the runner's stand-ins). Each
script is ``torchcam/__init__.py`` run beside its package with calls to ``corpus_torchcam.py``'s drivers appended:
CAM, Grad-CAM, Grad-CAM++, Smooth Grad-CAM++, XGrad-CAM, LayerCAM, Score-CAM, SS-CAM and IS-CAM on a small seeded
float64 CNN (single and multiple target layers, fused maps, a class index or one per image), the automatic layer
location, the argument checks' messages and ``ClassificationMetric``.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

TCAM = ("frgfm/torch-cam", "419d412d19260b861c3ce0b2d3d5efb681c59705", "Apache-2.0")
TCAM_PACKAGE = [(f"torchcam/{m}.py", f"torchcam/{m}.py") for m in (
    "__init__", "metrics", "utils", "methods/__init__", "methods/_utils", "methods/activation", "methods/core",
    "methods/gradient")]
LAST = '__version__ = version("torchcam")\n'


def _drive(name, *calls, xfail=None):
    """torchcam/__init__.py as a script beside its package, with driver ``calls`` (``corpus_torchcam as cc``)."""
    body = "print(__version__)\nimport torchcam\ncc = __import__('corpus_torchcam')\n" + "\n".join(
        f"cc.{c}" for c in calls) + "\n"
    return _r(f"tcam_{name}", TCAM, "torchcam/__init__.py", [(LAST, LAST + body)], support=TCAM_PACKAGE, xfail=xfail)


RECIPES += [
    _drive("cam", "cam(torchcam, 'CAM', fc_layer='fc')", "cam(torchcam, 'CAM', class_idx=2, fc_layer=None)",
           "located(torchcam)"),
    _drive("gradcam", "cam(torchcam, 'GradCAM')", "cam(torchcam, 'GradCAM', target=['features.4', 'features.7'], "
           "fuse=True)", "cam(torchcam, 'GradCAM', target='features.2')"),
    _drive("gradcampp", "cam(torchcam, 'GradCAMpp')", "cam(torchcam, 'GradCAMpp', target=['features.1', "
           "'features.7'], fuse=True)"),
    _drive("smoothgradcampp", "cam(torchcam, 'SmoothGradCAMpp', num_samples=3, std=0.2)",
           "cam(torchcam, 'SmoothGradCAMpp', target=['features.4', 'features.7'], fuse=True, num_samples=2)"),
    _drive("xgradcam", "cam(torchcam, 'XGradCAM')", "cam(torchcam, 'XGradCAM', target=['features.4', 'features.7'], "
           "fuse=True)"),
    _drive("layercam", "cam(torchcam, 'LayerCAM')", "cam(torchcam, 'LayerCAM', target=['features.1', 'features.4', "
           "'features.7'], fuse=True)"),
    _drive("scorecam", "cam(torchcam, 'ScoreCAM', batch_size=5)", "cam(torchcam, 'ScoreCAM', target=['features.4', "
           "'features.5'], fuse=True, batch_size=8)"),
    _drive("sscam", "cam(torchcam, 'SSCAM', batch_size=8, num_samples=3, std=1.0)"),
    _drive("iscam", "cam(torchcam, 'ISCAM', batch_size=8, num_samples=4)"),
    _drive("checks", "errors(torchcam)"),
    _drive("metrics", "metric(torchcam)", "metric(torchcam, 'LayerCAM')", "metric(torchcam, 'ScoreCAM', batch_size=8)"),
]

# torch-cam's own tests by pytest in the script's process, with its conftest (its mock models); the tests on
# torchvision's pretrained-architecture models (MobileNet, ResNet at 224x224) left out by ``-k``.
RUN_TESTS = ("if __name__ == '__main__':  # the module run by pytest, which imports it again\n"
             "    __import__('corpus_pruning').run_pytest(__file__, {args})\n    raise SystemExit\n")


IMG_TENSOR = ("from torchcam.methods import core\n", "from torchcam.methods import core\n\n\n"
              "@pytest.fixture(scope='session')\ndef mock_img_tensor():  # the conftest's fallback: it downloads a photo\n"
              "    return torch.rand((1, 3, 224, 224)).requires_grad_(True)\n")


def _test(name, path, first, k=None, edits=(), xfail=None):
    args = repr("-k") + ", " + repr(k) if k else ""
    run = (first, RUN_TESTS.format(args=args) + first)
    return _r(f"tcam_test_{name}", TCAM, f"tests/{path}", [run, *edits],
              support=[*TCAM_PACKAGE, ("tests/conftest.py", "conftest.py")], xfail=xfail)


RECIPES += [
    _test("core", "test_methods_core.py", "import pytest\n", edits=[IMG_TENSOR]),
    _test("activation", "test_methods_activation.py", "import pytest\n", "conv1x1 or video"),
    _test("gradient", "test_methods_gradient.py", "import pytest\n", "video or fuse"),
]
