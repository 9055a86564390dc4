"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

e3nn and torchsde, two pure-Python libraries, on core (2026-12-05, corpus helper s20 E3NN): e3nn/e3nn at its 0.6.0
release (MIT) with the two pure-Python packages it imports, mariogeiger/opt_einsum_fx (MIT, the newest commit of its
repository, 0.1.3 and a custom ShapeProp) and dgasmith/opt_einsum v3.4.0 (MIT, as ``recipes_pyro``); and
google-research/torchsde at its v0.2.6 release (Apache-2.0). Each script holds the packages beside it (every ``.py``
file of each package at its pin: ``E3NN_PACKAGES``, ``TORCHSDE_PACKAGE``), which the runner loads in both runs
(``runner._fetched_packages``; SciPy's ``find_peaks``, which ``e3nn.io`` imports, and ``trampoline``, which
torchsde's Brownian interval runs on, are ``fake_e3nn_deps.py``). The scripts are e3nn's own test modules run by pytest in
the script's process (``corpus_pruning.run_pytest``: each test's outcome printed; those that check TorchScript
compilation take minutes in torch and are left out), and drivers of ours (``corpus_e3nn.py``) appended to one of
the package's modules run as that module: Irreps, rotations and Wigner matrices, spherical harmonics, tensor
products and their fx codegen, e3nn.nn, math and io; torchsde's solvers, adjoint gradients and Brownian motions.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_pyro import _OPT_EINSUM_MODULES, OPT_EINSUM

RECIPES: list[dict] = []

E3NN = ("e3nn/e3nn", "2aa7f58440a06b15352a2cbce01fa4c26f824969", "MIT")  # the 0.6.0 release
OPT_EINSUM_FX = ("mariogeiger/opt_einsum_fx", "53d836ebf0dd073c00883bdb66d702312b8b52f4", "MIT")  # 0.1.3 + ShapeProp
TORCHSDE = ("google-research/torchsde", "5a63002b0767f629c9bc09e9965a50bf3d583ef8", "Apache-2.0")  # v0.2.6

_E3NN_MODULES = {
    "": "__init__",
    "io": "__init__ _cartesian_tensor _spherical_tensor",
    "math": "__init__ _bessel _linalg _normalize_activation _reduce _soft_one_hot_linspace _soft_unit_step perm",
    "nn": "__init__ _activation _batchnorm _dropout _extract _fc _gate _identity _normact _s2act _so3act",
    "nn/models": "__init__ gate_points_2101 gate_points_2102",
    "nn/models/v2103": "__init__ conv_points_in_out gate_points_message_passing gate_points_networks "
                       "points_convolution voxel_convolution",
    "nn/models/v2104": "__init__ voxel_convolution",
    "nn/models/v2106": "__init__ gate_points_message_passing gate_points_networks points_convolution",
    "nn/models/v2203": "sparse_voxel_convolution",
    "o3": "__init__ _angular_spherical_harmonics _irreps _linear _norm _reduce _rotation _s2grid _so3grid "
          "_spherical_harmonics _spherical_harmonics_generator _wigner",
    "o3/_tensor_product": "__init__ _codegen _instruction _sub _tensor_product",
    "o3/experimental": "__init__ _elementwise_tp _full_tp",
    "o3/irrep": "__init__",
    "util": "__init__ _argtools _context datatypes default_type jit test",
    "util/codegen": "__init__ _mixin",
}
_OPT_EINSUM_FX_MODULES = {"": "__init__ _fuse _opt_ein _script _shape_prop fx_utils"}
_TORCHSDE_MODULES = {
    "": "__init__ settings types",
    "_brownian": "__init__ brownian_base brownian_interval derived",
    "_core": "__init__ adaptive_stepping adjoint adjoint_sde base_sde base_solver better_abc interp misc sdeint",
    "_core/methods": "__init__ euler euler_heun heun log_ode midpoint milstein reversible_heun srk",
    "_core/methods/tableaus": "__init__ sra1 sra2 sra3 srid1 srid2",
}


def _files(modules, root):
    return [f"{root}/{folder}/{name}.py" if folder else f"{root}/{name}.py"
            for folder, names in modules.items() for name in names.split()]


E3NN_PACKAGES = [*((p, p) for p in _files(_E3NN_MODULES, "e3nn")),
                 *(OPT_EINSUM_FX[:2] + (p, p) for p in _files(_OPT_EINSUM_FX_MODULES, "opt_einsum_fx")),
                 *(OPT_EINSUM[:2] + (p, p) for p in _files(_OPT_EINSUM_MODULES, "opt_einsum"))]
TORCHSDE_PACKAGE = [(p, p) for p in _files(_TORCHSDE_MODULES, "torchsde")]


def _pytest_run(first, args):
    """The edit that makes a test module run itself through pytest (which imports it again) and stop there."""
    run = (f"if __name__ == '__main__':  # the module run by pytest, which imports it again\n"
           f"    __import__('corpus_pruning').run_pytest(__file__, *{args!r})\n    raise SystemExit\n")
    return [(first, run + first)]


def _e3nn_test(name, path, first, *args, **kw):
    """tests/PATH, one of e3nn's own test modules, run by pytest with e3nn's ``tests/conftest.py`` beside it (its
    autouse fixture seeds torch, NumPy and ``random`` before each test); ``args``: pytest's, a ``-k`` selection where
    the whole module takes more than a second or two."""
    return _r(f"e3nn_test_{name}", E3NN, f"tests/{path}", _pytest_run(first, args),
              support=[*E3NN_PACKAGES, ("tests/conftest.py", "conftest.py")], **kw)


RECIPES += [
    _e3nn_test("defaults", "defaults_test.py", "import e3nn"),
    _e3nn_test("bessel", "math/bessel_test.py", "import torch"),
    _e3nn_test("normalize_activation", "math/normalize_activation_test.py", "import torch"),
    _e3nn_test("perm", "math/perm_test.py", "import math"),
    _e3nn_test("soft_one_hot", "math/soft_one_hot_test.py", "import pytest"),
    _e3nn_test("soft_unit_step", "math/soft_unit_step_test.py", "import torch"),
    _e3nn_test("extract", "nn/extract_test.py", "import pytest"),
    _e3nn_test("angular_sh", "o3/angular_spherical_harmonics_test.py", "import math"),
    _e3nn_test("cartesian_sh", "o3/cartesian_spherical_harmonics_test.py", "import math"),
    _e3nn_test("irreps", "o3/irreps_test.py", "import pytest"),
    _e3nn_test("rotation", "o3/rotation_test.py", "import torch"),
    _e3nn_test("s2", "o3/s2_test.py", "import torch"),
    _e3nn_test("wigner", "o3/wigner_test.py", "import pytest"),
]


DRIVERS = "import torch\nce = __import__('corpus_e3nn')"


def _e3nn(name, *calls):
    """e3nn/__init__.py (no relative imports) with the drivers' ``calls`` appended."""
    last = "    return dict(_OPT_DEFAULTS)"
    return _r(f"e3nn_{name}", E3NN, "e3nn/__init__.py", [(last, "\n".join([last, "", DRIVERS, *calls, ""]))],
              support=E3NN_PACKAGES)


def _torchsde(name, *calls, **kw):
    """torchsde/__init__.py run as the package's module (``__package__`` set), the drivers' ``calls`` appended."""
    first, last = "# Copyright 2020 Google LLC", "__version__ = '0.2.6'"
    return _r(f"torchsde_{name}", TORCHSDE, "torchsde/__init__.py",
              [(first, f"__package__ = 'torchsde'  # run as the package's module\n{first}"),
               (last, "\n".join([last, "", DRIVERS, *calls, ""]))], support=TORCHSDE_PACKAGE, **kw)


RECIPES += [
    _e3nn("irreps", "ce.e3nn_irreps()"),
    _e3nn("rotations", "ce.e3nn_rotations()"),
    _e3nn("spherical_harmonics", "ce.e3nn_spherical_harmonics()"),
    _e3nn("tensor_products", "ce.e3nn_tensor_products()"),
    _e3nn("nn", "ce.e3nn_nn()"),
    _e3nn("math_io", "ce.e3nn_math_io()"),
    _e3nn("equivariance", "ce.e3nn_equivariance()"),
    _e3nn("fx_codegen", "ce.e3nn_fx_codegen()"),
    _torchsde("methods", "ce.sde_methods()"),
    _torchsde("adaptive", "ce.sde_methods(adaptive=True)",
              xfail="torch's float32 sqrt (its vectorised kernel) rounds the step-doubling error estimate's RMS, "
                    "sqrt(0x1.1de8aap+0), one ulp below the correctly rounded 1.0568025 core gives; the adaptive "
                    "controller then accepts a different step and the paths part in the 4th digit (and torch's run "
                    "shows sdeint's adaptive-Euler warning twice, core's once: not yet looked into)"),
    _torchsde("gradients", "ce.sde_gradients()"),
    _torchsde("brownian", "ce.sde_brownian()"),
]
