"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

TorchJD on core (2026-12-07, corpus helper s30 TJD): TorchJD/torchjd at its v0.8.1 release (2026-01-07, MIT),
Jacobian descent for multi-objective training: aggregators of a Jacobian's rows (UPGrad, MGDA, DualProj,
Aligned-MTL, ConFIG, GradDrop, IMTL-G, Krum, PCGrad...), ``autojac``'s ``backward``/``mtl_backward`` (Jacobians
through ``torch.autograd.grad`` with ``is_grads_batched`` and transforms of them) and ``autogram``'s ``Engine``
(Gramians from module hooks and ``vmap``). Its ``torchjd`` package (``src/torchjd``) is fetched beside each script
and loaded in both runs (``runner._fetched_packages``); ``qpsolvers``' ``solve_qp`` (UPGrad's and DualProj's
projection onto the dual cone) is ``fake_pmin_deps.py``'s exact active-set solver; cvxpy is not installed, so
CAGrad and NashMTL are absent in both runs, as without TorchJD's optional extras. Two kinds of script:
- ``tjd_test_*``: its own unit and documentation test modules through pytest (``corpus_pruning.run_pytest``), with
  ``tests/conftest.py``, ``settings.py`` and ``utils/`` beside them (the aggregation tests' folder is their package,
  for their relative imports of ``_asserts``, ``_inputs``, ``_matrix_samplers``); torchvision is the runner's stub
  (``utils/architectures.py`` imports it; the models that build torchvision's are left out: ``-k``);
- ``tjd_drive_*``: ``torchjd/__init__.py`` run as a script beside its package with drivers of ours
  (``corpus_torchjd.py``): every aggregator and weighting on seeded Jacobians, ``backward``/``mtl_backward`` on
  small networks, ``Engine``'s Gramians, a few steps of multi-task training, values with every digit.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

TJD = ("TorchJD/torchjd", "acd6d4efbb9792c7cc280bcff79cdaa838b23034", "MIT")  # the v0.8.1 release
TJD_PACKAGE = [(f"src/torchjd/{m}.py", f"torchjd/{m}.py") for m in (
    "__init__ aggregation/__init__ aggregation/_aggregator_bases aggregation/_aligned_mtl aggregation/_cagrad "
    "aggregation/_config aggregation/_constant aggregation/_dualproj aggregation/_flattening aggregation/_graddrop "
    "aggregation/_imtl_g aggregation/_krum aggregation/_mean aggregation/_mgda aggregation/_nash_mtl "
    "aggregation/_pcgrad aggregation/_random aggregation/_sum aggregation/_trimmed_mean aggregation/_upgrad "
    "aggregation/_utils/__init__ aggregation/_utils/check_dependencies aggregation/_utils/dual_cone "
    "aggregation/_utils/gramian aggregation/_utils/non_differentiable aggregation/_utils/pref_vector "
    "aggregation/_utils/str aggregation/_weighting_bases autogram/__init__ autogram/_edge_registry "
    "autogram/_engine autogram/_gramian_accumulator autogram/_gramian_computer autogram/_gramian_utils "
    "autogram/_jacobian_computer autogram/_module_hook_manager autojac/__init__ autojac/_backward "
    "autojac/_mtl_backward autojac/_transform/__init__ autojac/_transform/_accumulate "
    "autojac/_transform/_aggregate autojac/_transform/_base autojac/_transform/_diagonalize "
    "autojac/_transform/_differentiate autojac/_transform/_grad autojac/_transform/_init autojac/_transform/_jac "
    "autojac/_transform/_materialize autojac/_transform/_ordered_set autojac/_transform/_select "
    "autojac/_transform/_stack autojac/_utils").split()]
TEST_SUPPORT = [("tests/conftest.py", "conftest.py"), ("tests/settings.py", "settings.py"),
                *((f"tests/utils/{m}.py", f"utils/{m}.py") for m in (
                    "__init__", "architectures", "contexts", "dict_assertions", "forward_backwards", "tensors"))]
AGGREGATION_PACKAGE = [(f"tests/unit/aggregation/{m}.py", f"{m}.py") for m in (
    "__init__", "_asserts", "_inputs", "_matrix_samplers")]


def _test(name, path, first, *args, package=(), xfail=None):
    """tests/PATH, one of its test modules, through pytest (``args`` after it), ``first`` its first line."""
    extra = "".join(f", {a!r}" for a in args)
    run = (first, "if __name__ == '__main__':  # (pytest imports this file again, as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{extra})\n    raise SystemExit\n" + first)
    return _r(f"tjd_test_{name}", TJD, f"tests/{path}.py", [run],
              support=[*TJD_PACKAGE, *TEST_SUPPORT, *package], xfail=xfail)


def _aggregation(name, first, *args, xfail=None):
    return _test(name, f"unit/aggregation/test_{name}", first, *args, package=AGGREGATION_PACKAGE, xfail=xfail)


CROSS_TERMS = ("autogram's Engine over modules that nest their calls (OverlyNested, test_iwmtl's): core's run reaches "
               "JacobianBasedGramianComputerWithCrossTerms before the forward hook that sets its summed_jacobian "
               "(AttributeError in test_compute_gramian[None-OverlyNested()-32] and the doc's test_iwmtl); the "
               "module-hook order there is not yet traced")
RETAINS_GRAD = ("torch raises a RuntimeError where vmap's batched backward reaches a tensor that retains its grad "
                "(TorchJD's test_input_retaining_grad_fails and test_shared_param_retaining_grad_fails expect it); core "
                "runs the batched rows through its engine's is_grads_batched path, which does not raise")
NULL = "from contextlib import nullcontext as does_not_raise"
RECIPES += [
    _aggregation("upgrad", "import torch"),
    _aggregation("mgda", "from pytest import mark"),
    _aggregation("dualproj", "import torch"),
    _aggregation("aligned_mtl", "import torch"),
    _aggregation("config", "import torch"),
    _aggregation("constant", NULL),
    _aggregation("graddrop", "import re"),
    _aggregation("imtl_g", "from pytest import mark"),
    _aggregation("krum", NULL),
    _aggregation("mean", "from pytest import mark"),
    _aggregation("pcgrad", "from pytest import mark"),
    _aggregation("random", "from pytest import mark"),
    _aggregation("sum", "from pytest import mark"),
    _aggregation("trimmed_mean", NULL),
    _aggregation("values", "from pytest import mark, param"),
    _aggregation("aggregator_bases", "from collections.abc import Sequence"),
    _test("dual_cone", "unit/aggregation/_utils/test_dual_cone", "import numpy as np"),
    _test("pref_vector", "unit/aggregation/_utils/test_pref_vector", NULL),
    _test("backward", "unit/autojac/test_backward", "import torch", xfail=RETAINS_GRAD),
    _test("mtl_backward", "unit/autojac/test_mtl_backward", "import torch", xfail=RETAINS_GRAD),
    _test("autojac_utils", "unit/autojac/test_utils", "from pytest import mark, raises"),
    _test("transform_jac", "unit/autojac/_transform/test_jac", "import torch"),
    _test("transform_grad", "unit/autojac/_transform/test_grad", "import torch"),
    _test("transform_interactions", "unit/autojac/_transform/test_interactions", "import torch"),
    _test("transform_aggregate", "unit/autojac/_transform/test_aggregate", "import math"),
    _test("transform_accumulate", "unit/autojac/_transform/test_accumulate", "from pytest import mark, raises"),
    _test("transform_stack", "unit/autojac/_transform/test_stack", "from collections.abc import Iterable"),
    _test("edge_registry", "unit/autogram/test_edge_registry", "from torch.autograd.graph import get_gradient_edge"),
    _test("gramian_utils", "unit/autogram/test_gramian_utils", "from pytest import mark"),
    _test("engine", "unit/autogram/test_engine", "from collections.abc import Callable", xfail=CROSS_TERMS),
    _test("deprecations", "unit/test_deprecations", "import pytest"),
    _test("doc_rst", "doc/test_rst", '"""', xfail=CROSS_TERMS),
    _test("doc_aggregation", "doc/test_aggregation", '"""This file'),
    _test("doc_autogram", "doc/test_autogram", '"""This file'),
    _test("doc_backward", "doc/test_backward", '"""'),
]

LAST = '    raise AttributeError(f"module {__name__} has no attribute {name}")'


def _drive(name, *calls, xfail=None):
    """src/torchjd/__init__.py run as a script beside its package (absolute imports), driver ``calls`` appended."""
    body = LAST + "\n\n\nimport torch\nimport torchjd\ncj = __import__('corpus_torchjd')\n" + "".join(
        f"cj.{c}\n" for c in calls)
    edits = [("from .autojac import backward", "from torchjd.autojac import backward"),
             ("from .autojac import mtl_backward", "from torchjd.autojac import mtl_backward"), (LAST, body)]
    return _r(f"tjd_drive_{name}", TJD, "src/torchjd/__init__.py", edits, support=TJD_PACKAGE, xfail=xfail)


RECIPES += [
    _drive("aggregators", "aggregators(torch.float32)",
           xfail="LAPACK in float32: Aligned-MTL's eigh and ConFIG's and IMTL-G's pinv (an SVD) are MKL's ssyevd/sgesdd "
           "in torch and NumPy's LAPACK in core, which round the last bits differently (those 3 of 16 aggregators "
           "and 2 weightings; the float64 run, tjd_drive_aggregators_f64, matches)"),
    _drive("aggregators_f64", "aggregators(torch.float64)"),
    _drive("backward", "backward()"),
    _drive("mtl_train", "mtl_train()"),
    _drive("autogram", "autogram()"),
]
