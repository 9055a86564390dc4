"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Third-party pure-PyTorch libraries, third batch (2026-12-07, corpus helper s31 LIBS), each package fetched beside
its scripts and imported from the script's folder in both runs (the runner drops the folder's modules after each
script). Two kinds of script per library:
- ``l3_<lib>_test_*``: the library's own test modules through pytest (``corpus_pruning.run_pytest``);
- ``l3_<lib>_*``: a module of the package run as a script with drivers of ours appended (``corpus_libs3.py``): each
  main function on seeded inputs, its values and gradients printed with every digit.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

DRIVERS = "__import__('corpus_libs3')"


def _pytest_first(first, *args, prelude="", within=None):
    """The edit that runs a test module (its first line ``first``) through pytest with ``args``; ``prelude`` runs
    before pytest does (imports needing a stand-in), ``within`` is a context manager's expression pytest runs in."""
    extra = "".join(f", {a!r}" for a in args)
    run = f"__import__('corpus_pruning').run_pytest(__file__{extra})\n"
    run = f"    with {within}:\n        {run}" if within else f"    {run}"
    return (first, "if __name__ == '__main__':  # (pytest imports this file again, as a module)\n" + prelude
            + run + "    raise SystemExit\n" + first)


# facebookresearch/flow_matching at its 1.0.10 release (the commit setting the version; the mirror has no tags),
# CC BY-NC 4.0; its ODE solver calls torchdiffeq (fetched beside it at recipes_libraries2's pin)
FLOW = ("facebookresearch/flow_matching", "15c915108bef9d324db80c9b7f032c8b5f705983", "CC-BY-NC-4.0")
TORCHDIFFEQ = ("rtqichen/torchdiffeq", "657943acefa826ef04c025ebeb1ff5e9d60dc268", "MIT")
FLOW_PACKAGE = [(f"flow_matching/{m}.py",) * 2 for m in (
    "__init__ loss/__init__ loss/generalized_loss path/__init__ path/affine path/geodesic path/mixture path/path "
    "path/path_sample path/scheduler/__init__ path/scheduler/schedule_transform path/scheduler/scheduler "
    "solver/__init__ solver/discrete_solver solver/ode_solver solver/riemannian_ode_solver solver/solver "
    "solver/utils utils/__init__ utils/categorical_sampler utils/manifolds/__init__ utils/manifolds/manifold "
    "utils/manifolds/sphere utils/manifolds/torus utils/manifolds/utils utils/model_wrapper utils/utils").split()]
FLOW_PACKAGE += [(*TORCHDIFFEQ[:2], f"torchdiffeq/{m}.py", f"torchdiffeq/{m}.py") for m in (
    "__init__ _impl/__init__ _impl/adaptive_heun _impl/adjoint _impl/bosh3 _impl/dopri5 _impl/dopri8 "
    "_impl/event_handling _impl/fehlberg2 _impl/fixed_adams _impl/fixed_grid _impl/fixed_grid_implicit _impl/interp "
    "_impl/misc _impl/odeint _impl/rk_common _impl/scipy_wrapper _impl/solvers _impl/tsit5").split()]
NO_SCIPY = "    with __import__('corpus_libraries2').no_scipy():  # torchdiffeq's SciPy wrapper's import\n" \
           "        import torchdiffeq  # noqa\n"
META = "# Copyright (c) Meta Platforms, Inc. and affiliates."


def _flow_test(name, path):
    return _r(f"l3_flow_test_{name}", FLOW, f"tests/{path}.py", [_pytest_first(META, prelude=NO_SCIPY)],
              support=FLOW_PACKAGE)


ZEN3 = "on the AMD EPYC Zen 3 (AVX2) of 2026-12-07, "
# NOTE: they print torch's output on the Zen 3 since core follows MKL's blocked sgemm there (core/_openblas_chains.py,
# 2026-12-07); kept not strict (CPU_DEPENDENT) as they were not run on a Zen 4
SMALL_GEMM = (ZEN3 + "matching torch since core follows MKL's blocked float32 sgemm there (core/_openblas_chains.py); "
              "before, with NumPy's order: ")
XFAIL_DISCRETE = SMALL_GEMM + ("the first differing op is the posterior model's Linear(80, 32) on 16 rows (262 of 512 "
                               "outputs, last bit); not run on a Zen 4")
XFAIL_SCHEDULE = SMALL_GEMM + "the first differing op is the velocity MLP's Linear(16, 2) on 5 rows (2 of 10 outputs)"
XFAIL_RIEMANN = (ZEN3 + "float32 acos: core computes MKL's vector acos as it rounds on the AMD Zen 4 (core/_mkl_asin.py); "
                 "here torch's MKL rounds otherwise (Sphere.dist's acos: 1 of 6 values one ulp apart; 5727 of 200000 "
                 "random inputs)")


def _flow(name, *calls, xfail=None):
    """flow_matching/__init__.py run as a script beside its package, driver ``calls`` appended."""
    imports = ("with __import__('corpus_libraries2').no_scipy():\n    import torchdiffeq  # noqa\nimport torch\n"
               "import flow_matching.path as fm_path, flow_matching.path.scheduler as fm_sched\n"
               "import flow_matching.solver as fm_solver, flow_matching.loss as fm_loss\n"
               "import flow_matching.utils as fm_utils, flow_matching.utils.manifolds as fm_manifolds\n")
    body = '__version__ = "1.0.10"\n' + imports + "".join(f"{DRIVERS}.{c}\n" for c in calls)
    return _r(f"l3_flow_{name}", FLOW, "flow_matching/__init__.py", [('__version__ = "1.0.10"', body)],
              support=FLOW_PACKAGE, xfail=xfail)


RECIPES += [
    _flow_test("path", "path/test_path"),
    _flow_test("schedule_transform", "path/test_schedule_transform"),
    _flow_test("scheduler", "path/test_scheduler"),
    _flow_test("discrete_solver", "solver/test_discrete_solver"),
    _flow_test("ode_solver", "solver/test_ode_solver"),
    _flow_test("riemannian_ode_solver", "solver/test_riemannian_ode_solver"),
    _flow_test("utils", "utils/test_utils"),
    _flow("paths", "fm_paths(fm_path, fm_sched)"),
    _flow("train_2d", "fm_train(fm_path, fm_sched, fm_solver)"),
    _flow("train_2d_float64", "fm_train(fm_path, fm_sched, fm_solver, torch.float64)"),
    _flow("solver_grads", "fm_solver_grads(fm_solver, fm_utils)"),
    _flow("discrete", "fm_discrete(fm_path, fm_sched, fm_solver, fm_loss)", xfail=XFAIL_DISCRETE),
    _flow("riemannian", "fm_riemannian(fm_path, fm_sched, fm_solver, fm_manifolds)", xfail=XFAIL_RIEMANN),
    _flow("schedule_transform", "fm_schedule_transform(fm_path, fm_sched, fm_solver)", xfail=XFAIL_SCHEDULE),
]

# kmkurn/pytorch-crf at its v0.7.2 release, MIT: a linear-chain CRF layer (forward algorithm, Viterbi decoding)
CRF = ("kmkurn/pytorch-crf", "8f3203a1f1d7984c87718bfe31853242670258db", "MIT")
CRF_PACKAGE = [("torchcrf/__init__.py",) * 2]
CRF_LAST = "        return best_tags_list\n"


def _crf(name, *calls, xfail=None):
    """torchcrf/__init__.py run as a script (its CRF class defined there), driver ``calls`` appended."""
    body = CRF_LAST + "\n\n" + "".join(f"{DRIVERS}.{c}\n" for c in calls)
    return _r(f"l3_crf_{name}", CRF, "torchcrf/__init__.py", [(CRF_LAST, body)], support=CRF_PACKAGE, xfail=xfail)


XFAIL_TAGGER = (ZEN3 + "the first differing op first_diff.py finds is the CRF normalizer's LogsumexpBackward0 (5 of 24 "
                "gradients one ulp apart with equal incoming gradients; its exp(self - result) matches torch's on "
                "equal inputs in isolation, so a saved input the tracer does not see differs, likely from the "
                "BiLSTM's small GEMMs, which core follows in MKL's order only on the Zen 4); not traced further")


RECIPES += [
    _r("l3_crf_test_crf", CRF, "tests/test_crf.py", [_pytest_first("import itertools")], support=CRF_PACKAGE),
    _crf("forward_decode", "crf_forward_decode(CRF, torch.float32)", "crf_forward_decode(CRF, torch.float64)"),
    _crf("tagger", "crf_tagger(CRF)", xfail=XFAIL_TAGGER),
]

# harvardnlp/pytorch-struct at its v0.5 release (2021-02-13), MIT: structured distributions over linear chains,
# semi-Markov chains, dependency trees, CKY parses and alignments, on generic semirings
STRUCT = ("harvardnlp/pytorch-struct", "8c8c14e49360ff74c127ad8e64fa7fc3ae81ca73", "MIT")
STRUCT_PACKAGE = [(f"torch_struct/{m}.py",) * 2 for m in (
    "__init__ alignment autoregressive cky cky_crf deptree distributions helpers linearchain semimarkov "
    "semirings/__init__ semirings/checkpoint semirings/fast_semirings semirings/sample semirings/semirings "
    "semirings/sparse_max").split()]
STRUCT_TESTS = [*STRUCT_PACKAGE, ("tests/extensions.py", "extensions.py")]
STRUCT_VERSION = 'version = "0.5"'


def _struct_test(name, first, *args):
    """tests/test_NAME.py through pytest; its ``from .extensions`` import made absolute (the file is beside it)."""
    edits = [_pytest_first(first, *args)]
    if name in ("algorithms", "distributions"):
        edits.append(("from .extensions import", "from extensions import"))
    return _r(f"l3_struct_test_{name}", STRUCT, f"tests/test_{name}.py", edits, support=STRUCT_TESTS)


def _struct(name, *calls, xfail=None):
    """torch_struct/__init__.py run as a script beside its package (absolute imports), driver ``calls`` appended."""
    edits = [(f"from .{m} import", f"from torch_struct.{m} import") for m in (
        "cky", "cky_crf", "deptree", "linearchain", "semimarkov", "alignment", "semirings", "distributions",
        "autoregressive")]
    body = STRUCT_VERSION + "\nimport torch\nimport torch_struct\n" + "".join(f"{DRIVERS}.{c}\n" for c in calls)
    return _r(f"l3_struct_{name}", STRUCT, "torch_struct/__init__.py", [*edits, (STRUCT_VERSION, body)],
              support=STRUCT_PACKAGE, xfail=xfail)


RECIPES += [
    _struct_test("algorithms", "from torch_struct import ("),
    _struct_test("cky", "import torch"),
    _struct_test("distributions", "from torch_struct import LinearChainCRF"),
    _struct_test("semirings", "import torch"),
    _struct("linear_chain", "struct_linear_chain(torch_struct)"),
    _struct("semi_markov", "struct_semi_markov(torch_struct)"),
    _struct("dependency", "struct_dependency(torch_struct)"),
    _struct("trees", "struct_trees(torch_struct)"),
    _struct("training", "struct_training(torch_struct)"),
    _struct("semirings", "struct_semirings(torch_struct)"),
]

# cooper-org/cooper at its v1.0.1 release, MIT: Lagrangian-based constrained optimisation (multipliers, formulations,
# simultaneous, alternating and extrapolation optimizers, nuPI); its tests' helpers import cvxpy (not installed
# here: an empty stand-in while pytest runs; the convergence tests, which solve with it, are left out)
COOPER = ("cooper-org/cooper", "f9fa33a5ba0eb8860545ab3c3ecb42b453a5239f", "MIT")
COOPER_PACKAGE = [(f"src/cooper/{m}.py", f"cooper/{m}.py") for m in (
    "__init__ cmp constraints/__init__ constraints/constraint constraints/constraint_state formulations/__init__ "
    "formulations/formulations formulations/utils multipliers/__init__ multipliers/multipliers optim/__init__ "
    "optim/constrained_optimizers/__init__ optim/constrained_optimizers/alternating_optimizer "
    "optim/constrained_optimizers/constrained_optimizer optim/constrained_optimizers/extrapolation_optimizer "
    "optim/constrained_optimizers/simultaneous_optimizer optim/optimizer optim/torch_optimizers/__init__ "
    "optim/torch_optimizers/extragradient optim/torch_optimizers/nupi_optimizer optim/unconstrained_optimizer "
    "penalty_coefficients/__init__ penalty_coefficients/penalty_coefficient_updaters "
    "penalty_coefficients/penalty_coefficients utils/__init__ utils/annotations utils/utils").split()]
COOPER_TESTING = [*COOPER_PACKAGE, *((f"testing/{m}.py",) * 2 for m in ("__init__", "cooper_helpers", "utils")),
                  ("tests/conftest.py", "conftest.py")]
COOPER_FIRST = "# Copyright (C) 2025 The Cooper Developers."
NO_CVXPY = "__import__('corpus_gym').modules_installed({'cvxpy': __import__('types').ModuleType('cvxpy')})"


def _cooper_test(path, *args):
    """tests/PATH.py through pytest, the root conftest beside it and its folder's conftest imported into it."""
    folder, name = path.partition("/")[0], path.rpartition("/")[2]
    support, edits = list(COOPER_TESTING), [_pytest_first(COOPER_FIRST, *args, within=NO_CVXPY)]
    if folder in ("multipliers", "optim", "pipeline"):  # (tests/optim/conftest.py serves torch_optimizers/ too)
        support.append((f"tests/{folder}/conftest.py", f"{folder}_conftest.py"))
        anchor = "\nimport testing\n" if name == "test_checkpoint" else "\nimport cooper\n"
        edits.append((anchor, f"{anchor}from {folder}_conftest import *  # noqa (its fixtures)\n"))
    return _r(f"l3_cooper_test_{name[5:]}", COOPER, f"tests/{path}.py", edits, support=support)


RECIPES += [_cooper_test(p) for p in (
    "constraints/test_constraint", "constraints/test_constraint_state", "formulations/test_formulation",
    "formulations/test_formulation_utils", "multipliers/test_explicit_multipliers",
    "multipliers/test_implicit_multiplier", "optim/test_constrained_optimizers", "optim/test_optimizer",
    "optim/torch_optimizers/test_nupi", "penalty_coefficients/test_penalty_coefficients",
    "penalty_coefficients/test_penalty_updater", "pipeline/test_checkpoint", "pipeline/test_manual", "test_cmp")]

# KellerJordan/Muon at its newest commit (no releases), MIT: the Muon optimizer (momentum orthogonalised by a
# bfloat16 Newton-Schulz iteration) and its single-device variants with an auxiliary Adam
MUON = ("KellerJordan/Muon", "857d1adc159e098212f828d927460782d3da59e9", "MIT")
MUON_LAST = "                    p.add_(update, alpha=-group[\"lr\"])\n\n        return loss\n"


def _muon(name, *calls):
    """muon.py run as a script (its optimizers defined there), driver ``calls`` appended on the module itself."""
    body = MUON_LAST + "\n\nimport sys  # noqa\n" + "".join(
        f"{DRIVERS}.{c}(sys.modules[__name__])\n" for c in calls)
    first = (MUON_LAST, MUON_LAST[:-1] + "  # (MuonWithAuxAdam's: the file ends with SingleDeviceMuonWithAuxAdam)\n")
    return _r(f"l3_muon_{name}", MUON, "muon.py", [first, (MUON_LAST, body)])


RECIPES += [_muon("newton_schulz", "muon_newton_schulz"), _muon("training", "muon_training")]

# their differences follow this machine's MKL kernels (the reasons above): xfail, not strict (test_corpus'
# CPU_DEPENDENT), since on the AMD Zen 4 the small-GEMM and acos rules were measured on they may well pass
CPU_DEPENDENT: dict = {r["name"]: None for r in RECIPES if r["xfail"] and r["xfail"].startswith(ZEN3)}

# facebookresearch/vicreg at its newest commit (no releases), MIT: VICReg's self-supervised loss and LARS
VICREG = ("facebookresearch/vicreg", "4e12602fd495af83efd1631fbe82523e6db092e0", "MIT")
VICREG_MAIN = ("if __name__ == \"__main__\":\n    parser = argparse.ArgumentParser('VICReg training script', "
               "parents=[get_arguments()])\n    args = parser.parse_args()\n    main(args)")
RECIPES += [
    _r("l3_vicreg_training", VICREG, "main_vicreg.py",
       [*((f"{v} = torch.cat(FullGatherLayer.apply({v}), dim=0)", f"{v} = torch.cat([{v}], dim=0)  # (one process)")
          for v in "xy"),
        (VICREG_MAIN, f"{DRIVERS}.vicreg_training(sys.modules[__name__])")],
       support=[(f"{m}.py",) * 2 for m in ("resnet", "augmentations", "distributed")],
       xfail=SMALL_GEMM + "the first differing op is the backbone's Linear(48, 32) on 16 rows (238 of 512 outputs)"),
]
CPU_DEPENDENT["l3_vicreg_training"] = None  # (its reason above)
