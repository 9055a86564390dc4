"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

kymatio on core (2026-12-06, corpus helper s27 SCI): kymatio/kymatio at its 0.3.0 release (2022-09-05, BSD-3-Clause),
wavelet scattering transforms (1D, 2D, 3D solid harmonic) on its torch frontend and backends (FFTs on complex
tensors, modulus, subsampling in Fourier, padding), its own package fetched beside each script and loaded in both
runs (``runner._fetched_packages``). Its filter banks are built in NumPy with SciPy's ``fft`` and ``sph_harm``,
which are ``fake_sci_deps.py``'s (the same filters go to both runs). Three kinds of script:
- ``kymatio_test_*``: its torch test modules through pytest (``corpus_pruning.run_pytest``), with their reference
  data (``test_data_*.npz``) beside them; CUDA and the skcuda backend are absent, as on a CPU-only CI;
- ``kymatio_example_*``: its 1D signal reconstruction by gradient descent through Scattering1D, shortened (a
  2**10-sample signal, 20 iterations, the loss printed every second one as the example prints it, to 2 decimals;
  its ``torch.cuda.is_available`` called, which it names without calling and so always picks CUDA);
- ``kymatio_drive_*``: ``kymatio/torch.py`` run as a script beside the package with drivers of ours
  (``corpus_kymatio.py``): each transform's coefficients and input gradients at several settings, float64, list
  outputs, a 1D classifier and a 2D hybrid network trained a few steps on scattering features. They run in float64
  and print 10 significant digits: torch's CPU FFTs are MKL's DFTI, not reproduced (see ``corpus_kymatio``).
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

KYMATIO = ("kymatio/kymatio", "25af7dc4a0c8997d6624d55385d29b1750a74161", "BSD-3-Clause")
KYMATIO_PACKAGE = [(f"kymatio/{m}.py", f"kymatio/{m}.py") for m in (
    "__init__ caching datasets numpy sklearn torch version backend/__init__ backend/numpy_backend "
    "backend/torch_backend frontend/__init__ frontend/base_frontend frontend/entry frontend/numpy_frontend "
    "frontend/torch_frontend").split() + [
    f"{d}/{m}" for d in ("scattering1d", "scattering2d", "scattering3d") for m in (
        "__init__", "backend/__init__", "backend/numpy_backend", "backend/torch_backend", "core/__init__",
        f"core/{d}", "filter_bank", "frontend/__init__", "frontend/base_frontend", "frontend/entry",
        "frontend/numpy_frontend", "frontend/torch_frontend", "utils")]]

DOCSTRING = '""" This script will test the submodules used by the scattering module"""\n'
TESTS = {  # name: (path, its first line, its reference data)
    "general_backend": ("tests/general/test_torch_backend.py", "import torch\n", None),
    "s1d": ("tests/scattering1d/test_torch_scattering1d.py", "import pytest\n", "tests/scattering1d/test_data_1d.npz"),
    "s1d_backend": ("tests/scattering1d/test_torch_backend_1d.py", "import pytest\n", None),
    "s2d": ("tests/scattering2d/test_torch_scattering2d.py", DOCSTRING, "tests/scattering2d/test_data_2d.npz"),
    "s2d_backend": ("tests/scattering2d/test_torch_backend_2d.py", DOCSTRING, None),
    "s2d_frontend": ("tests/scattering2d/test_frontend_scattering2d.py", "import pytest\n", None),
    "s3d": ("tests/scattering3d/test_torch_scattering3d.py", DOCSTRING, "tests/scattering3d/test_data_3d.npz"),
    "s3d_utils": ("tests/scattering3d/test_utils_scattering3d.py",
                  "from kymatio.scattering3d.utils import sqrt\n", None),
}


# test_gradients: gradcheck of a J=2 Scattering2D on an 8x8 input, unfinished in core after 50 s of CPU (5 minutes
# at this machine's load): gradcheck's many passes through its FFTs; the other 2D tests run
LEFT_OUT = {"s2d": ("-k", "not test_gradients")}


def _test(name, xfail=None):
    """One of kymatio's torch test modules through pytest, its reference data beside it."""
    path, first, data = TESTS[name]
    args = "".join(f", {a!r}" for a in LEFT_OUT.get(name, ()))
    run = (first, "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{args})\n    raise SystemExit\n" + first)
    support = [*KYMATIO_PACKAGE, *([(data, data.rpartition("/")[2])] if data else [])]
    return _r(f"kymatio_test_{name}", KYMATIO, path, [run], support=support, xfail=xfail)


RECIPES += [_test(name) for name in TESTS]

RECIPES += [
    _r("kymatio_example_reconstruct", KYMATIO, "examples/1d/reconstruct_torch.py",
       [('torch.device("cuda" if torch.cuda.is_available else "cpu")',  # (the function, always true: CUDA)
         'torch.device("cuda" if torch.cuda.is_available() else "cpu")'), ("T = 2 ** 13", "T = 2 ** 10"), ("n_iterations = 200", "n_iterations = 20"),
        ("if k % 10 == 0:", "if k % 2 == 0:")],
       support=KYMATIO_PACKAGE),
]

TORCH_LAST = "__all__ = ['Scattering1D', 'Scattering2D', 'HarmonicScattering3D']"


def _drive(name, *calls, xfail=None):
    """kymatio/torch.py run as a script beside its package (its relative imports made absolute), with driver
    ``calls`` (``corpus_kymatio as ck``, the module's names as ``kt``) appended."""
    body = (TORCH_LAST + "\nimport torch\nkt = __import__('kymatio.torch').torch\nck = __import__('corpus_kymatio')\n"
            + "\n".join(f"ck.{c}" for c in calls) + "\n")
    edits = [("from .scattering1d", "from kymatio.scattering1d"), ("from .scattering2d", "from kymatio.scattering2d"),
             ("from .scattering3d", "from kymatio.scattering3d"), (TORCH_LAST, body)]
    return _r(f"kymatio_drive_{name}", KYMATIO, "kymatio/torch.py", edits, support=KYMATIO_PACKAGE, xfail=xfail)


RECIPES += [
    _drive("s1d", "scattering1d(kt)", "scattering1d(kt, J=3, Q=4, n=128)", "scattering1d(kt, J=5, Q=8, n=512)"),
    _drive("s1d_settings", "scattering1d(kt, J=4, Q=2, T=8, n=256)", "scattering1d(kt, max_order=1, n=128)",
           "scattering1d(kt, average=False, n=128, J=3)", "scattering1d(kt, out_type='list', n=128, J=3)",
           "scattering1d(kt, oversampling=1, n=128, J=3)"),
    _drive("s1d_classify", "classify1d(kt)"),
    _drive("s2d", "scattering2d(kt)", "scattering2d(kt, J=3, n=32, L=8)", "scattering2d(kt, max_order=1, L=6)"),
    _drive("s2d_settings", "scattering2d(kt, J=2, n=24, L=3)", "scattering2d(kt, out_type='list')",
           "scattering2d(kt, J=1, n=8, L=2, batch=3)"),
    _drive("s2d_hybrid", "hybrid2d(kt)"),
    _drive("h3d", "harmonic3d(kt)", "harmonic3d(kt, max_order=1, integral_powers=(1.0,))"),
    _drive("h3d_settings", "harmonic3d(kt, rotation_covariant=False, L=1, integral_powers=(1.0, 2.0))",
           "harmonic3d(kt, J=1, n=12, sigma_0=0.8, integral_powers=(1.0, 2.0))"),
]
