"""Stand-ins for what GPyTorch's notebooks import and is not installed here (``recipes_gpytorch``).

The runner installs these (``modules()``) in both runs while a script whose folder holds ``gpytorch`` or
``linear_operator`` runs, and takes them out afterwards:

- ``scipy`` and ``scipy.io``: the notebooks on the UCI elevators data import ``loadmat`` at the top; with
  ``smoke_test = True`` (the recipes' edit, as GPyTorch's own CI runs them) they never read the file and train on
  seeded random data of the same shape, so ``loadmat`` only needs to exist: it raises.
- ``sklearn.neighbors.NearestNeighbors``: GPyTorch's nearest-neighbour search (``gpytorch.utils.nearest_neighbors``,
  the VNNGP notebook) uses it where faiss is not installed; a brute-force search on squared distances (ties in index
  order), so its neighbours, not its code. The runner's own ``fake_sklearn`` is out of the way meanwhile.
- ``tqdm`` (with ``tqdm.auto`` and ``tqdm.notebook``): the notebooks wrap a DataLoader in a bar and call
  ``set_postfix`` on it each step; the runner's own stand-in returns the DataLoader itself. Here every bar iterates
  what it wraps and takes ``set_postfix``, ``update``, ``close`` as no-ops (the real one draws on stderr).
"""

from __future__ import annotations

import importlib.machinery
import sys
import types

import numpy as np
from fake_stand_ins import Bar


def _loadmat(path, *args, **kwargs):
    raise FileNotFoundError(f"scipy is not installed here: cannot read {path!r}")


class _NearestNeighbors:
    """scikit-learn's ``NearestNeighbors(n_neighbors).fit(x).kneighbors(q)``, brute force."""

    def __init__(self, n_neighbors=5, algorithm="auto", **kwargs):
        self.n_neighbors = n_neighbors

    def fit(self, x):
        self.x = np.asarray(x)
        return self

    def kneighbors(self, queries=None, n_neighbors=None, return_distance=True):
        k = n_neighbors or self.n_neighbors
        squared = ((np.asarray(queries)[:, None, :] - self.x[None]) ** 2).sum(-1)
        index = np.argsort(squared, axis=1, kind="stable")[:, :k]
        distance = np.sqrt(np.take_along_axis(squared, index, axis=1))
        return (distance, index) if return_distance else index


def modules() -> dict:
    """The stand-in modules by name, those not in ``sys.modules`` yet."""
    scipy = types.ModuleType("scipy")
    scipy.__path__ = []
    scipy.__version__ = "1.16.0"
    scipy.io = types.ModuleType("scipy.io")
    scipy.io.loadmat = _loadmat
    made = {"scipy": scipy, "scipy.io": scipy.io}
    for name in ("sklearn", "sklearn.neighbors"):
        made[name] = types.ModuleType(name)
        made[name].__path__ = []
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(made[parent], child, made[name])
    made["sklearn.neighbors"].NearestNeighbors = _NearestNeighbors
    tqdm = made["tqdm"] = types.ModuleType("tqdm")
    tqdm.__path__ = []
    tqdm.tqdm = tqdm.tqdm_notebook = Bar
    tqdm.trange = Bar.trange
    for part in ("auto", "notebook"):
        made[f"tqdm.{part}"] = types.ModuleType(f"tqdm.{part}")
        made[f"tqdm.{part}"].tqdm, made[f"tqdm.{part}"].trange = Bar, Bar.trange
        setattr(tqdm, part, made[f"tqdm.{part}"])
    for name, module in made.items():  # (torch asks importlib.util.find_spec whether some packages exist)
        module.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=hasattr(module, "__path__"))
    return {name: module for name, module in made.items() if name not in sys.modules}
