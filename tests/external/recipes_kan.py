"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

pykan on core (2026-12-07, corpus helper s30 KAN, second library): KindXiaoming/pykan at its v0.2.8 release
(2024-11-14, MIT), Kolmogorov-Arnold networks (``MultKAN``: B-spline activations, grid updates by
``torch.linalg.lstsq``, symbolic fitting through SymPy, pruning, its own LBFGS), its package fetched beside each
script and loaded in both runs (``runner._fetched_packages``); yaml, tqdm and scikit-learn's ``LinearRegression`` are
``fake_kan_deps.py``'s, matplotlib the runner's stub (``plot`` draws nothing). Two kinds of script:
- ``kan_tutorial_*``: ten of its tutorial notebooks (``tutorials/API_demo``, ``Interp``), run cell by cell, each
  training shortened to a few steps (edits listed per recipe); a KAN saves checkpoints in the script's folder
  (``./model``) as it does for its users;
- ``kan_drive_*``: ``kan/__init__.py`` run as a script beside the package with drivers of ours (``corpus_kan.py``):
  B-spline bases, ``curve2coef``, KANLayer's outputs and gradients, grid updates and refinement, each regulariser,
  symbolic fixing, pruning, and KANs trained by LBFGS and Adam, their losses and parameters printed in full.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

KAN = ("KindXiaoming/pykan", "00a9077100b9783304b1df95de47b7344e3e1eec", "MIT")
KAN_PACKAGE = [(f"kan/{m}.py", f"kan/{m}.py") for m in (
    "__init__ KANLayer LBFGS MLP MultKAN Symbolic_KANLayer compiler experiment feynman hypothesis spline "
    "utils").split()]


def _n(old, new, times):
    """``old`` -> ``new`` at its first ``times`` occurrences (an edit replaces one)."""
    return [(old, new)] * times


def _tut(name, path, edits=(), xfail=None):
    """tutorials/PATH.ipynb, cell by cell, beside the package."""
    return _r(f"kan_tutorial_{name}", KAN, f"tutorials/{path}.ipynb", list(edits), support=KAN_PACKAGE,
              keep_going=True, xfail=xfail)


# (measured on the AMD EPYC Zen 4 of 2026-12-07) every KANLayer starts from curve2coef's torch.linalg.lstsq on
# B-spline bases: gelsy, MKL's in torch and OpenBLAS's in core (600bdfd4), which round the full-rank solutions apart
LSTSQ = ("KANLayer's initial spline coefficients come from linalg.lstsq's gelsy (curve2coef), MKL's in torch and "
         "OpenBLAS's in core: the same rank and zeros, but solutions rounded apart in the last bits (a coefficient "
         "-2.0900628e-05 vs -2.0892563e-05 beside ones of 0.07: the residual's cancellation), so every KAN's "
         "outputs, gradients and training losses drift from the first step")
S20 = ("steps=20", "steps=3")
# (its other tutorials (Example_*, training_hyperparameter, pruning, device...) take minutes of core each here: left
# out this session, as the corpus runs 250 scripts a process in 30 minutes)
RECIPES += [
    _tut("indexing", "API_demo/API_1_indexing"),
    _tut("plotting", "API_demo/API_2_plotting", [S20], xfail=LSTSQ),
    _tut("extract_activations", "API_demo/API_3_extract_activations"),
    _tut("initialization", "API_demo/API_4_initialization"),
    _tut("grid", "API_demo/API_5_grid"),
    _tut("regularization", "API_demo/API_8_regularization", [S20], xfail=LSTSQ),
    _tut("create_dataset", "API_demo/API_11_create_dataset"),
    _tut("checkpoint", "API_demo/API_12_checkpoint_save_load_model", [S20], xfail=LSTSQ),
    _tut("hessian", "Interp/Interp_10_hessian", xfail=LSTSQ),
    _tut("sparse_init", "Interp/Interp_11_sparse_init"),
]

KAN_INIT = "from .MultKAN import *\nfrom .utils import *\n"


def _drive(name, *calls, xfail=None):
    """kan/__init__.py run as a script beside its package (``import kan`` loads the package; absolute imports), with
    driver ``calls`` (``corpus_kan as ck``) appended."""
    body = ("import torch\nimport kan\nfrom kan import *\nck = __import__('corpus_kan')\n"
            + "\n".join(f"ck.{c}" for c in calls) + "\n")
    return _r(f"kan_drive_{name}", KAN, "kan/__init__.py", [(KAN_INIT, body)], support=KAN_PACKAGE, xfail=xfail)


RECIPES += [
    _drive("splines", "splines(kan)", xfail=LSTSQ),
    _drive("layer", "layer(kan)", "layer(kan, base_fun=torch.nn.Tanh(), sp_trainable=False, sb_trainable=False)",
           "layer(kan, sparse_init=True, grid_eps=1.0)", xfail=LSTSQ),
    _drive("model", "model(kan)", "model(kan, width=(3, 4, 2), base_fun='identity')", xfail=LSTSQ),
    _drive("train_lbfgs", "train(kan)", "train(kan, lamb=0.01, update_grid=False)", xfail=LSTSQ),
    _drive("train_adam", "train(kan, opt='Adam', steps=10, lr=0.01)",
           "train(kan, opt='Adam', steps=6, lr=0.01, lamb=0.001, reg_metric='edge_backward', batch=64)", xfail=LSTSQ),
    _drive("train_losses", "train(kan, steps=3, lamb=0.01, lamb_coef=1.0, lamb_coefdiff=1.0)",
           "train(kan, steps=3, loss_fn=torch.nn.SmoothL1Loss())", "train(kan, steps=3, singularity_avoiding=True)",
           xfail=LSTSQ),
    _drive("grids", "grids(kan)", xfail=LSTSQ),
    _drive("symbolic", "symbolic(kan)", xfail=LSTSQ),
    _drive("prune", "prune(kan)", xfail=LSTSQ),
    _drive("mult", "mult(kan)", xfail=LSTSQ),
    _drive("hessian", "hessian(kan)"),
]
