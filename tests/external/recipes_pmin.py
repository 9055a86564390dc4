"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

pytorch-minimize on core (2026-12-07, corpus helper s30 PMIN): rfeinman/pytorch-minimize at its v0.1.0 release
(2026-01-23, MIT), SciPy-like minimizers on torch autograd (BFGS, L-BFGS, conjugate gradient, Newton-CG, Newton
with the exact Hessian, dogleg, trust-region Newton-CG and exact, L-BFGS-B, Frank-Wolfe, trust-region-reflective
least squares, the ``Minimizer`` optimizer). Its ``torchmin`` package is fetched beside each script and loaded in
both runs (``runner._fetched_packages``); SciPy, which it imports throughout, is ``fake_pmin_deps.py``'s. Three kinds:
- ``pmin_test_*``: its own test modules through pytest (``corpus_pruning.run_pytest``), ``tests/conftest.py``'s
  fixtures beside them; the cases through SciPy's ``minimize`` (trust-constr) are left out (not installed here);
- ``pmin_drive_*``: ``torchmin/__init__.py`` run as a script beside its package with drivers of ours
  (``corpus_pmin.py``): every method on seeded problems, each result printed with every digit, the iterates of a
  few steps, least squares, constrained problems, the ``Minimizer`` optimizer on a small classifier;
- ``pmin_example_*``: its ``rosen_minimize`` notebook (the plot draws nothing) and ``train_mnist_Minimizer.py`` on
  a seeded MNIST stand-in (``corpus_pmin.mnist``: 256 train and 128 test images), 20 iterations.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

PMIN = ("rfeinman/pytorch-minimize", "8341f496eb233728dc732f7b5152080989db6a7e", "MIT")  # the v0.1.0 release
PMIN_PACKAGE = [(f"torchmin/{m}.py",) * 2 for m in (
    "__init__ _optimize _version benchmarks bfgs cg function line_search minimize minimize_constr newton "
    "constrained/frankwolfe constrained/lbfgsb constrained/trust_constr lstsq/__init__ lstsq/cg lstsq/common "
    "lstsq/least_squares lstsq/linear_operator lstsq/lsmr lstsq/trf optim/__init__ optim/minimizer "
    "optim/scipy_minimizer trustregion/__init__ trustregion/base trustregion/dogleg trustregion/exact "
    "trustregion/krylov trustregion/ncg").split()]
CONFTEST = [("tests/conftest.py", "conftest.py")]


def _test(name, path, first, *args, xfail=None):
    """tests/PATH, one of its test modules, through pytest (``args`` after it: deselections), conftest beside it."""
    extra = "".join(f", {a!r}" for a in args)
    run = (first, "if __name__ == '__main__':  # (pytest imports this file again, as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{extra})\n    raise SystemExit\n" + first)
    return _r(f"pmin_test_{name}", PMIN, f"tests/{path}", [run], support=[*PMIN_PACKAGE, *CONFTEST], xfail=xfail)


# (left out: the trust-constr cases, which call SciPy's minimize)
RECIPES += [
    _test("imports", "test_imports.py", "import pytest"),
    _test("minimize", "torchmin/test_minimize.py", "import pytest"),
    _test("minimize_constr", "torchmin/test_minimize_constr.py", "import pytest",
          "-k", "not loose_constraints and not tight_constraints"),
    _test("bounds", "torchmin/test_bounds.py", "import pytest", "--deselect",
          "script.py::test_equivalent_bounds[trust-constr]"),
]

# Measured here: torch.addr(M, s, y, alpha=-rho) (BFGS's inverse-Hessian update) is FMA-fused in torch's kernel (its
# vectorised 32-element blocks equal fma(alpha*v1, v2, beta*M) bit for bit; its tails follow no single formula), core
# rounds each product and sum; float64 mv/mm with a transposed operand (A.t().mv(g), X.t() @ G: the Newton, trust-region
# and least-squares Hessians and Jacobian products) take MKL's dgemv/dgemm order in torch, which core's _small_gemm
# reproduces for float32 only; LAPACK's cholesky/solve/eigh/lstsq (Newton, dogleg, trust-exact, L-BFGS-B's subspace
# solves) are MKL's in torch and NumPy's LAPACK in core. Each minimizer then takes other steps from the last bit on.
NUMERIC = ("the minimizers amplify last-bit differences into other iterates: BFGS's addr(alpha=-rho) (FMA-fused in "
           "torch's kernel, not in core), float64 products with a transposed operand (MKL's dgemv/dgemm order, "
           "reproduced in core for float32 only) and LAPACK's cholesky/solve/eigh/lstsq (MKL's in torch, NumPy's in core)")
UNTRACED = NUMERIC + "; this script's first differing op not traced one by one"

LAST = "           'Minimizer', 'ScipyMinimizer']"


def _drive(name, *calls, xfail=None):
    """torchmin/__init__.py run as a script beside its package (absolute imports), driver ``calls`` appended."""
    body = (LAST + "\nimport torch\nimport torchmin\ncp = __import__('corpus_pmin')\n"
            + "".join(f"cp.{c}\n" for c in calls))
    edits = [("from .", "from torchmin."), ("from .", "from torchmin."), ("from .", "from torchmin."),
             ("from .", "from torchmin."), ("from .", "from torchmin."), (LAST, body)]
    return _r(f"pmin_drive_{name}", PMIN, "torchmin/__init__.py", edits, support=PMIN_PACKAGE, xfail=xfail)


METHODS = ("bfgs", "l-bfgs", "cg", "newton-cg", "newton-exact", "dogleg", "trust-ncg", "trust-exact")
MATCHING = ("l-bfgs", "newton-cg", "trust-ncg")  # (the others: NUMERIC, BFGS's addr or the Hessian's LAPACK solves)
RECIPES += [_drive(f"rosen_{m.replace('-', '_')}", f"rosen(torchmin, {m!r})", f"rosen(torchmin, {m!r}, torch.float64)",
                   xfail=None if m in MATCHING else NUMERIC if m != "cg" else UNTRACED)
            for m in METHODS]
RECIPES += [
    _drive("benchmarks", "benchmarks(torchmin)"),
    _drive("quadratic", "quadratic(torchmin)", xfail=NUMERIC),
    _drive("newton_options", "newton_options(torchmin)", xfail=NUMERIC),
    _drive("line_search", "line_search(torchmin)", xfail=NUMERIC),
    _drive("least_squares", "least_squares(torchmin)", xfail=NUMERIC),
    _drive("constrained", "constrained(torchmin)", xfail=UNTRACED),
    _drive("minimizer", "minimizer(torchmin)", xfail=NUMERIC),
    _drive("logistic", "logistic(torchmin)", xfail=NUMERIC),
]

RECIPES.append(_r("pmin_example_rosen", PMIN, "examples/rosen_minimize.ipynb", support=PMIN_PACKAGE,
                  keep_going=True, xfail=NUMERIC))  # (its BFGS and float32 Newton runs)


def _mnist(method):
    """examples/train_mnist_Minimizer.py with ``--method METHOD`` on the seeded MNIST stand-in, 20 iterations."""
    args = ["--mnist_root", "data", "--method", method]
    return _r(f"pmin_example_mnist_{method.replace('-', '_')}", PMIN, "examples/train_mnist_Minimizer.py",
              [("args = parser.parse_args()", f"args = parser.parse_args({args!r})"),
               ("datasets.MNIST(args.mnist_root, train=True)", "__import__('corpus_pmin').mnist(train=True)"),
               ("datasets.MNIST(args.mnist_root, train=False)", "__import__('corpus_pmin').mnist(train=False)"),
               ("max_iter=200", "max_iter=20")], support=PMIN_PACKAGE)


RECIPES += [_mnist(m) for m in ("newton-cg", "l-bfgs", "trust-ncg", "cg")]  # (BFGS: a 39,760-square inverse Hessian)
