"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

entmax on core (2026-12-06, corpus helper s25 DEEPXDE, second library): deep-spin/entmax at its v1.3 release
(2024-02-07, MIT): sparsemax, 1.5-entmax and alpha-entmax as custom autograd Functions (sort/top-k thresholds and
bisection), their losses. Its package is fetched beside each script and loaded in both runs. Two kinds of script:
- ``entmax_test_*``: its four test modules (``entmax/test_*.py``) through pytest (``corpus_pruning.run_pytest``);
- ``entmax_drive_*``: ``entmax/__init__.py`` run as a script beside the package with drivers of ours
  (``corpus_entmax.py``): each mapping along each dim with its support and gradients, a learned alpha, each loss,
  and a small classifier trained by Adam under three losses.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

ENTMAX = ("deep-spin/entmax", "4a9eb7f1a29920bf0aebfe3ad04f6d2ef44d3df7", "MIT")
ENTMAX_PACKAGE = [(f"entmax/{m}.py", f"entmax/{m}.py") for m in ("__init__", "activations", "losses", "root_finding")]


def _test(name, deselect="", xfail=None):
    """entmax/test_NAME.py, one of its test modules, through pytest (``-k`` ``deselect``: gradchecks that take
    minutes in either library)."""
    first = "import torch\n" if name == "mask" else "import pytest\n"
    args = f", '-k', {deselect!r}" if deselect else ""
    run = (first, "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{args})\n    raise SystemExit\n" + first)
    return _r(f"entmax_test_{name}", ENTMAX, f"entmax/test_{name}.py", [run], support=ENTMAX_PACKAGE, xfail=xfail)


# (deselected: test_loss's gradchecks of the three bisection losses, 12 runs of ~12 s each in torch, and
# test_root_finding's arbitrary-dimension gradchecks, ~20 s; the other gradchecks of the same functions stay)
RECIPES += [_test("losses", "not (test_loss and Bisect)"), _test("mask"),
            _test("root_finding", "not test_arbitrary_dimension_grad"), _test("topk")]

LAST = '__version__ = "1.3"'


def _drive(name, *calls, xfail=None):
    """entmax/__init__.py run as a script beside its package (its imports are absolute), driver ``calls`` appended."""
    body = LAST + "\nimport torch\nimport entmax\nce = __import__('corpus_entmax')\n" + "".join(f"ce.{c}\n" for c in calls)
    return _r(f"entmax_drive_{name}", ENTMAX, "entmax/__init__.py", [(LAST, body)], support=ENTMAX_PACKAGE, xfail=xfail)


RECIPES += [
    _drive("mappings", "mappings(entmax)"),
    _drive("mappings_f32", "mappings(entmax, torch.float32)"),
    _drive("learned_alpha", "learned_alpha(entmax)"),
    _drive("losses", "losses(entmax)", "losses(entmax, torch.float32)"),
    _drive("train", "train(entmax)"),
]
