"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

torchode on core (2026-12-06, corpus helper s27 SCI): martenlienen/torchode at its 1.0.1 release (commit "Bump
version to 1.0.1", 2026-03-17; MIT), a batch-parallel ODE solver (Euler, Heun, Dopri5, Tsit5; integral, PID and fixed
step size controllers; AutoDiffAdjoint, BacksolveAdjoint with torch.func, JointBacksolveAdjoint), its own package
fetched beside each script and loaded in both runs (``runner._fetched_packages``; it needs sympy, installed here,
and torchtyping, ``fake_sci_deps.py``'s). Three kinds of script:
- ``torchode_test_*``: its own test modules through pytest (``corpus_pruning.run_pytest``) with ``problems.py`` and
  ``stubs.py`` beside them;
- ``torchode_doc_*``: its documentation's notebooks run cell by cell (the timing cells' ``%%timeit`` dropped as every
  notebook's magics are), the torchdiffeq comparison with the corpus' torchdiffeq (``recipes_libraries2``) beside it;
- ``torchode_drive_*``: ``torchode/__init__.py`` run as a script beside the package with drivers of ours
  (``corpus_torchode.py``): the README's linear problem under each method and controller, neural ODEs trained a few
  Adam steps through the solver, per-sample time spans with extra arguments, ``solve_ivp``, the backsolve adjoints'
  gradients next to AutoDiffAdjoint's, dense output.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_libraries2 import TORCHDIFFEQ

RECIPES: list[dict] = []

TORCHODE = ("martenlienen/torchode", "fccc51fa37edd5a91c9b6bfc61bb3dc3071b857c", "MIT")
TORCHODE_PACKAGE = [(f"torchode/{m}.py", f"torchode/{m}.py") for m in (
    "__init__ adjoints interface interpolation problems solution status_codes step_size_controllers terms typing "
    "single_step_methods/__init__ single_step_methods/base single_step_methods/dopri5 single_step_methods/euler "
    "single_step_methods/heun single_step_methods/runge_kutta single_step_methods/tsit5").split()]
TEST_SUPPORT = [("tests/problems.py", "problems.py"), ("tests/stubs.py", "stubs.py")]


FIRST_LINES = {"adjoint": "from unittest.mock import Mock\n", "dtype_stability": "import pytest\n",
               "extra_args": "from unittest.mock import Mock\n", "fixed_step_controller": "from pytest import approx\n",
               "interface": "from problems import get_problem\n", "interpolation": "import numpy as np\n",
               "single_step_methods": "from unittest.mock import Mock\n",
               "step_size_controllers": "from unittest.mock import Mock\n", "torch_script": "import pytest\n"}


def _test(name, xfail=None):
    """tests/NAME_test.py, one of torchode's own test modules, through pytest (problems.py, stubs.py beside it)."""
    first = FIRST_LINES[name]
    run = (first, "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
           "    __import__('corpus_pruning').run_pytest(__file__)\n    raise SystemExit\n" + first)
    return _r(f"torchode_test_{name}", TORCHODE, f"tests/{name}_test.py", [run],
              support=[*TORCHODE_PACKAGE, *TEST_SUPPORT], xfail=xfail)


RECIPES += [_test(name) for name in FIRST_LINES]

INIT = "from .adjoints import AutoDiffAdjoint, BacksolveAdjoint, JointBacksolveAdjoint\n"


def _drive(name, *calls, xfail=None):
    """torchode/__init__.py run as a script beside its package, its first import replaced by ``import torchode as
    to`` and driver ``calls`` (``corpus_torchode as co``), then ``raise SystemExit`` (its relative imports)."""
    body = ("import torch\nimport torchode as to\nco = __import__('corpus_torchode')\n"
            + "\n".join(f"co.{c}" for c in calls) + "\nraise SystemExit\n")
    return _r(f"torchode_drive_{name}", TORCHODE, "torchode/__init__.py", [(INIT, body)], support=TORCHODE_PACKAGE,
              xfail=xfail)


RECIPES += [
    _drive("linear", "linear(to)", "linear(to, 'tsit5', 'pid')", "linear(to, 'heun', 'pid')",
           "linear(to, 'euler', 'fixed')", "linear(to, 'dopri5', 'fixed', torch.float64)",
           "linear(to, 'tsit5', 'integral', torch.float64)"),
    _drive("neural_dopri5", "neural(to)", "neural(to, 'dopri5', 'pid', batch=4, seed=3)"),
    _drive("neural_tsit5", "neural(to, 'tsit5')", "neural(to, 'tsit5', 'pid', batch=2, seed=5)"),
    _drive("neural_fixed", "neural(to, 'euler', 'fixed')", "neural(to, 'heun', 'fixed')",
           "neural(to, 'heun', 'integral', seed=4)"),
    _drive("spans", "varying_spans(to)", "varying_spans(to, 'dopri5')"),
    _drive("solve_ivp", "solve_ivp(to)"),
    _drive("backsolve", "backsolve(to)",
           xfail="cause not isolated: BacksolveAdjoint's forward solution agrees bit for bit, its gradients "
           "(the adjoint equations solved backwards with torch.func.vjp of the MLP under torch.func.vmap, float32) "
           "differ from torch's from the 6th digit; JointBacksolveAdjoint (autograd, no vmap) and AutoDiffAdjoint "
           "on the same problem agree bit for bit"),
    _drive("joint_backsolve", "backsolve(to, joint=True)"),
    _drive("interpolation", "interpolation(to)"),
]

TORCHDIFFEQ_PACKAGE = [(*TORCHDIFFEQ[:2], f"torchdiffeq/{m}.py", f"torchdiffeq/{m}.py") for m in (
    "__init__ _impl/__init__ _impl/adaptive_heun _impl/adjoint _impl/bosh3 _impl/dopri5 _impl/dopri8 "
    "_impl/event_handling _impl/fehlberg2 _impl/fixed_adams _impl/fixed_grid _impl/fixed_grid_implicit _impl/interp "
    "_impl/misc _impl/odeint _impl/rk_common _impl/scipy_wrapper _impl/solvers _impl/tsit5").split()]

RECIPES += [
    _r("torchode_doc_extra_stats", TORCHODE, "docs/extra-stats.ipynb", support=TORCHODE_PACKAGE, keep_going=True),
    _r("torchode_doc_jit", TORCHODE, "docs/jit.ipynb", support=TORCHODE_PACKAGE, keep_going=True,
       xfail="torch.jit.script(adjoint) fails in torch 2.13 (RuntimeError: type INTERNAL ASSERT FAILED at "
       "torch/csrc/jit/ir/ir.h:1516) on torchode 1.0.1's AutoDiffAdjoint, so its later cells fail on the missing "
       "adjoint_jit; core's torch.jit.script returns the module to run eagerly and the notebook completes (its "
       "eager and scripted solutions agree)"),
    _r("torchode_doc_torchdiffeq", TORCHODE, "docs/torchdiffeq.ipynb",
       support=[*TORCHODE_PACKAGE, *TORCHDIFFEQ_PACKAGE], keep_going=True),
]
