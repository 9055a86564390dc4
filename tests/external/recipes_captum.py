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

RECIPES: list[dict] = []

CAPTUM = ("pytorch/captum", "fc17d5070c5447593749ce28f9602c7ae58d54ac", "BSD-3-Clause")  # the v0.8.0 release
# the same modules as recipes_labml's later commit, but remote_provider (added after v0.8.0)
CAPTUM_PACKAGE = [(path, path) for path, _ in _LATER_PACKAGE if not path.endswith("/remote_provider.py")]
STAND_INS = "__import__('corpus_labml').captum_stand_ins()  # matplotlib.axes, .figure... (its visualisation)"
DRIVERS = "import torch\ncc = __import__('corpus_captum')"
FIRST = "#!/usr/bin/env python3"


def _driver(name, module, *calls):
    """captum/MODULE.py (a package's ``__init__``) run as its module, the drivers' ``calls`` appended after its
    ``__all__``'s closing bracket."""
    package = ".".join(["captum", *module.split("/")[:-1]])
    head = f"{FIRST}\n__package__ = {package!r}  # run as the package's module\n{STAND_INS}"
    last = '"SummarizerSingleTensor",\n]\n' if module == "attr/__init__" else "\n]\n"
    return _r(f"captum_api_{name}", CAPTUM, f"captum/{module}.py",
              [(FIRST, head), (last, "\n".join([last.rstrip("\n"), "", DRIVERS, *calls, ""]))],
              support=CAPTUM_PACKAGE)


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
    _driver("metrics", "metrics/__init__", "cc.metrics()"),
    _driver("robust", "metrics/__init__", "cc.robust()"),
]
