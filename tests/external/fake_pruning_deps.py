"""What geoopt imports and is not installed here, for ``recipes_pruning.py``'s scripts (our text).

- ``scipy.optimize._linesearch``: ``geoopt.optim.rlinesearch`` imports SciPy's ``scalar_search_armijo`` and
  ``scalar_search_wolfe2`` at module level (``geoopt/__init__`` imports it through ``geoopt.optim``). Only
  ``RiemannianLineSearch`` calls them, and no script does: each raises ``NotImplementedError`` if called.

Torch-Pruning needs nothing that is not installed (torch and NumPy).
"""

from __future__ import annotations

import importlib

_module = importlib.import_module("fake_lightning_deps")._module


def _not_here(name):
    def search(*args, **kwargs):
        raise NotImplementedError(f"scipy.optimize's {name} is a stand-in here (SciPy is not installed)")

    search.__name__ = name
    return search


def modules() -> dict:
    """The stand-in modules by name."""
    linesearch = _module("scipy.optimize._linesearch", scalar_search_armijo=_not_here("scalar_search_armijo"),
                         scalar_search_wolfe2=_not_here("scalar_search_wolfe2"))
    optimize = _module("scipy.optimize", _linesearch=linesearch)
    scipy = _module("scipy", optimize=optimize, __version__="1.16.3")
    return {"scipy": scipy, "scipy.optimize": optimize, "scipy.optimize._linesearch": linesearch}
