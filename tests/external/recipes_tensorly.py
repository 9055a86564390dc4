"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

TensorLy on core (2026-12-06, corpus helper s26 TENSORLY): tensorly/tensorly at its 0.9.0 release (2024-11-12,
BSD-3-Clause) on its PyTorch backend (``tensorly.set_backend("pytorch")``: every array a torch tensor, so its
decompositions run on core's linear algebra). Its package is fetched beside each script and loaded in both runs
(``runner._fetched_packages``); SciPy's few names are ``fake_tensorly_deps.py``. Kinds of script:
- ``tensorly_test_*``: its own test modules through pytest (``corpus_tensorly.run_tests``), one recipe per module;
- ``tensorly_drive_*``: ``examples/plot_tensor.py`` with drivers of ours appended (``corpus_tensorly.py``):
  decompositions, tensor algebra in both tenalg backends, SVD routes and autograd through them, in float64 and
  float32;
- ``tensorly_ex_*``: its gallery examples (``examples/``), ``TENSORLY_BACKEND=pytorch`` set first, smaller
  sizes and fewer restarts, wall-clock times taken out, and the numbers they plot printed with every digit.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

TENSORLY = ("tensorly/tensorly", "7401f09e05812a0c4c3d673bbaf8419acd7b33b7", "BSD-3-Clause")
_MODULES = (
    "__init__ _factorized_tensor base cp_tensor parafac2_tensor plugins preprocessing testing tr_tensor tt_matrix "
    "tt_tensor tucker_tensor backend/__init__ backend/core backend/cupy_backend backend/jax_backend "
    "backend/numpy_backend backend/paddle_backend backend/pytorch_backend backend/tensorflow_backend "
    "contrib/__init__ contrib/decomposition/__init__ contrib/decomposition/_tt_cross contrib/decomposition/tt_TTOI "
    "datasets/__init__ datasets/data_imports datasets/synthetic decomposition/__init__ "
    "decomposition/_base_decomposition decomposition/_cmtf_als decomposition/_constrained_cp decomposition/_cp "
    "decomposition/_cp_power decomposition/_nn_cp decomposition/_parafac2 decomposition/_symmetric_cp "
    "decomposition/_tr_als decomposition/_tr_svd decomposition/_tt decomposition/_tucker "
    "decomposition/robust_decomposition metrics/__init__ metrics/entropy metrics/factors metrics/leverage_scores "
    "metrics/regression metrics/similarity random/__init__ random/base regression/__init__ regression/cp_plsr "
    "regression/cp_regression regression/tucker_regression solvers/__init__ solvers/admm solvers/nnls "
    "solvers/penalizations tenalg/__init__ tenalg/base_tenalg tenalg/core_tenalg/__init__ "
    "tenalg/core_tenalg/_batched_tensordot tenalg/core_tenalg/_khatri_rao tenalg/core_tenalg/_kronecker "
    "tenalg/core_tenalg/_tt_matrix tenalg/core_tenalg/generalised_inner_product tenalg/core_tenalg/moments "
    "tenalg/core_tenalg/mttkrp tenalg/core_tenalg/n_mode_product tenalg/core_tenalg/outer_product "
    "tenalg/einsum_tenalg/__init__ tenalg/einsum_tenalg/_batched_tensordot tenalg/einsum_tenalg/_khatri_rao "
    "tenalg/einsum_tenalg/_kronecker tenalg/einsum_tenalg/_tt_matrix tenalg/einsum_tenalg/generalised_inner_product "
    "tenalg/einsum_tenalg/moments tenalg/einsum_tenalg/mttkrp tenalg/einsum_tenalg/n_mode_product "
    "tenalg/einsum_tenalg/outer_product tenalg/proximal tenalg/svd tenalg/tenalg_utils utils/__init__ "
    "utils/backend_specific utils/deprecation").split()
TENSORLY_PACKAGE = [(f"tensorly/{m}.py", f"tensorly/{m}.py") for m in _MODULES]

# the first line of each test module (the run goes above it), where it is not "import numpy as np"
_FIRST = {"contrib/decomposition/tests/test_mps_decomposition_cross": "import tensorly as tl",
          "contrib/decomposition/tests/test_tt_TTOI": "#!/usr/bin/env python3",
          "datasets/tests/test_synthetic": "import tensorly as tl", "decomposition/tests/test_cp_power": "import tensorly as tl",
          "decomposition/tests/test_parafac2": "import pytest", "decomposition/tests/test_symmetric_cp": "import tensorly as tl",
          "decomposition/tests/test_tr_als": "import pytest", "decomposition/tests/test_tr_svd": "import pytest",
          "decomposition/tests/test_tt_decomposition": "import tensorly as tl", "decomposition/tests/test_tucker": "import pytest",
          "metrics/tests/test_entropy": "import pytest", "metrics/tests/test_factors": "import itertools",
          "metrics/tests/test_leverage_scores": "import pytest", "tenalg/tests/test_batched_tensordot": "import tensorly as tl",
          "tenalg/tests/test_n_mode_product": "import itertools", "tenalg/tests/test_outer_product": "import tensorly as tl",
          "tenalg/tests/test_svd": "import pytest", "tenalg/tests/test_tenalg_utils": "from ...testing import assert_",
          "tests/test_backend": "from concurrent.futures import ThreadPoolExecutor", "tests/test_preprocessing": "import pytest",
          "tests/test_testing": "import pytest", "tests/test_tt_matrix": "import tensorly as tl",
          "utils/tests/test_backend_specific": "import pytest",
          "utils/tests/test_deprecation": "from ..deprecation import deprecated, DefineDeprecated"}


def _test(module, deselect="", xfail=None):
    """tensorly/MODULE.py, one of its test modules, through pytest on the PyTorch backend (``-k`` ``deselect``).
    The script is the module itself, which only starts the run: pytest imports the package's copy beside it
    (``tensorly.<dir>.tests.test_x``), whose relative imports need the package."""
    first = _FIRST.get(module, "import numpy as np") + "\n"
    args = f", '-k', {deselect!r}" if deselect else ""
    run = (first, "if __name__ == '__main__':  # (pytest imports the package's copy of this module)\n"
           f"    __import__('corpus_tensorly').run_tests(__file__, 'tensorly/{module}.py'{args})\n"
           "    raise SystemExit\n" + first)
    tests = module.rpartition("/")[0]
    parents = {f"tensorly/{tests}/__init__.py"}
    support = TENSORLY_PACKAGE + [(p, p) for p in sorted(parents)] + [(f"tensorly/{module}.py",) * 2]
    name = "tensorly_test_" + module.replace("/tests/test_", "_").replace("tests/test_", "").replace("/", "_")
    return _r(name, TENSORLY, f"tensorly/{module}.py", [run], support=support, xfail=xfail)


RECIPES += [_test(f"tests/test_{m}") for m in (
    "backend", "core", "cp_tensor", "parafac2_tensor", "preprocessing", "testing", "tr_tensor", "tt_matrix",
    "tt_tensor", "tucker_tensor")]
RECIPES += [_test(f"decomposition/tests/test_{m}") for m in (
    "cmtf_als", "constrained_parafac", "cp_power", "parafac2", "robust_decomposition", "symmetric_cp", "tr_als",
    "tr_svd", "tt_decomposition", "tucker")]
# (deselected: test_parafac's 128 parametrised fits, minutes in either library on the busy machine; the other PARAFAC
# tests of the module run, masked, line search, non-negative, HALS, sampled Khatri-Rao and randomised)
RECIPES += [_test("decomposition/tests/test_cp", "not test_parafac[")]
RECIPES += [_test(f"tenalg/tests/test_{m}") for m in (
    "batched_tensordot", "generalised_inner_product", "khatri_rao", "kronecker", "n_mode_product", "outer_product",
    "proximal", "svd", "tenalg_utils", "unfolding_dot_khatri_rao")]
RECIPES += [_test(f"regression/tests/test_{m}") for m in ("cp_plsr", "cp_regression", "tucker_regression")]
RECIPES += [_test(f"metrics/tests/test_{m}") for m in ("entropy", "factors", "leverage_scores", "regression",
                                                         "similarity")]
RECIPES += [_test(f"solvers/tests/test_{m}") for m in ("admm", "nnls", "penalizations")]
RECIPES += [_test("random/tests/test_base"), _test("datasets/tests/test_synthetic")]
RECIPES += [_test(f"contrib/decomposition/tests/test_{m}") for m in ("mps_decomposition_cross", "tt_TTOI")]
RECIPES += [_test(f"utils/tests/test_{m}") for m in ("backend_specific", "deprecation")]

SET = ('"""', '__import__("os").environ["TENSORLY_BACKEND"] = "pytorch"  # (as its CI sets it)\n"""')


def _ex(name, path, edits=(), xfail=None):
    """examples/PATH, a gallery example on the PyTorch backend, with ``edits``."""
    return _r(f"tensorly_ex_{name}", TENSORLY, f"examples/{path}", [SET, *edits], support=TENSORLY_PACKAGE,
              xfail=xfail)


def _show(*names):
    """A line of ours appended after ``plt.show()``: each name's value with every digit."""
    return ("plt.show()", "plt.show()\nce = __import__('corpus_tensorly')\n"
            + "".join(f"ce.show({n!r}, {n})\n" for n in names))


RECIPES += [
    _ex("tensor", "plot_tensor.py"),
    _ex("cp_line_search", "decomposition/plot_cp_line_search.py", [
        ("tol = np.logspace(-1, -9)", "tol = np.logspace(-1, -9, 5)"),
        ("n_iter_max=2000000, tol=1.0e-15", "n_iter_max=300, tol=1.0e-15"),
        ("CP(rank=3, n_iter_max=2000000, tol=toll, linesearch=False)",
         "CP(rank=3, n_iter_max=300, tol=toll, linesearch=False)"),
        ("CP(rank=3, n_iter_max=2000000, tol=toll, linesearch=True)",
         "CP(rank=3, n_iter_max=300, tol=toll, linesearch=True)"),
        ("err_min = tl.norm(", "err_min = float(tl.norm("), ("fac) - tensor)\n", "fac) - tensor))\n"),  # (a tensor
        _show("err", "err_ls", "err_min")],  # minus an array: fails in torch too)
        xfail="float64 ALS: the first CP fit's error differs in the last bit (2.1119065727729764 vs 2.111906572772977: "
        "its dgemm and solves, MKL's in torch, OpenBLAS's in core); 300 sweeps with line search at tol 1e-15 "
        "accept other jumps near convergence, and the converged error prints 3.27e-07 (core) or 3.05e-08 (torch)"),
    _ex("nn_tucker", "decomposition/plot_nn_tucker.py", [
        ("size=(10, 30, 40)", "size=(6, 10, 12)"), ('dtype="float")', "dtype=tl.float64)"),  # (NumPy's name)
        ('print("time for tensorly nntucker:" + " " + str(f"{time_mu:.2f}"))\n', ""),  # wall-clock times
        ('print("time for HALS with fista:" + " " + str(f"{time_fista:.2f}"))\n', ""),
        ('print("time for HALS with as:" + " " + str(f"{time_as:.2f}"))\n', ""),
        ('"Error for each iteration")',
         '"Error for each iteration")\n__import__("corpus_tensorly").show("errors", [error_mu, error_fista, '
         'error_as])')]),
    _ex("parafac2", "decomposition/plot_parafac2.py", [
        ("I, J, K = 30, 40, 20", "I, J, K = 10, 12, 8"),  # and the NumPy data as a tensor:
        ("tensor += noise\n", "tensor += noise\ntensor = tl.tensor(tensor)\n"), ("for run in range(10):", "for run in range(3):"),
        ("n_iter_max=500,", "n_iter_max=100,"), _show("err")]),
    _ex("permute_factors", "decomposition/plot_permute_factors.py", [
        ("shape = (30, 40, 50)", "shape = (6, 7, 8)"),
        ("print(permutation)", "print(permutation)\n__import__('corpus_tensorly').show('cp_tensors', cp_tensors)")]),
    _ex("cp_regression", "regression/plot_cp_regression.py", [
        ("ranks = [1, 2, 3, 4, 5]", "ranks = [1, 3]"), ("size=(1000, image_height", "size=(200, image_height"),
        ("image_height = 25\nimage_width = 25", "image_height = 12\nimage_width = 12"),
        ("estimator.fit(X, y)\n", "estimator.fit(X, y)\n        __import__('corpus_tensorly').show(pattern + str(rank), "
         "estimator.weight_tensor_)\n")]),
    _ex("tucker_regression", "regression/plot_tucker_regression.py", [
        ("ranks = [1, 2, 3, 4, 5]", "ranks = [1, 3]"), ("size=(1000, image_height", "size=(200, image_height"),
        ("image_height = 25\nimage_width = 25", "image_height = 12\nimage_width = 12"),
        ("estimator.fit(X, y)\n", "estimator.fit(X, y)\n        __import__('corpus_tensorly').show(pattern + str(rank), "
         "estimator.weight_tensor_)\n")]),
    _ex("image_compression", "applications/plot_image_compression.py", [
        ("from scipy.misc import face\nfrom scipy.ndimage import zoom\n",  # a seeded stand-in for SciPy's raccoon
         "face = __import__('corpus_tensorly').face\nzoom = __import__('corpus_tensorly').zoom\n"),
        ('dtype="float64")', "dtype=tl.float64)"), ("cp_rank = 25", "cp_rank = 8"),  # (NumPy's dtype name) ("tucker_rank = [100, 100, 2]", "tucker_rank = [12, 12, 2]"),
        _show("cp_reconstruction", "tucker_reconstruction")]),
]

LAST = "    assert_array_equal(folded, tensor)\n"


def _drive(name, *calls, xfail=None):
    """examples/plot_tensor.py (the basic example) with driver ``calls`` of ours appended (``corpus_tensorly``)."""
    body = LAST + "import torch\nct = __import__('corpus_tensorly')\n" + "".join(f"ct.{c}\n" for c in calls)
    return _r(f"tensorly_drive_{name}", TENSORLY, "examples/plot_tensor.py", [SET, (LAST, body)],
              support=TENSORLY_PACKAGE, xfail=xfail)


RECIPES += [
    _drive("decompositions", "decompositions(tl)"),
    _drive("decompositions_f32", "decompositions(tl, torch.float32)", xfail=(
        "float32 ALS: its SVD initialisation (torch.linalg.svd: MKL's LAPACK sgesdd in torch, NumPy's OpenBLAS LAPACK "
        "in core) and its solves and products differ in the last bits; 30 sweeps grow that to the 6th digit of the "
        "first printed error (0.0034613970 vs 0.0034613954); the float64 run matches")),
    _drive("tenalg", "tenalg(tl)"),
    _drive("tenalg_f32", "tenalg(tl, torch.float32)", xfail=(
        "float32 SVDs: the products before them match, then torch.linalg.svd and eigh (MKL's LAPACK sgesdd/ssyevd in "
        "torch, NumPy's OpenBLAS LAPACK in core) give singular values and vectors a few ulps apart (2.5629327 vs 2.5629323); "
        "the float64 run matches")),
    _drive("grads", "grads(tl)"),
    _drive("grads_f32", "grads(tl, torch.float32)"),
]
