"""Stand-ins for what BoTorch imports and is not installed here (``recipes_botorch``).

The runner installs these (``modules()``) in both runs while a script whose folder holds ``botorch`` runs, and takes
them out afterwards (GPyTorch's own stand-ins, ``fake_gpytorch_deps``, come with them: BoTorch's scripts hold
GPyTorch's package too):

- ``scipy``: BoTorch imports SciPy's optimizers at module level (``gen_candidates_scipy``, ``fit_gpytorch_mll_scipy``
  and its batched L-BFGS-B port), ``scipy.stats.norm`` and ``scipy.optimize.brentq`` (max-value entropy search),
  ``scipy.special.gamma`` (a DTLZ problem's max hypervolume) and ``scipy.spatial``'s ``Delaunay`` and
  ``HalfspaceIntersection`` (sampling from a polytope's vertices). The recipes take BoTorch's torch paths
  (``fit_gpytorch_mll_torch``, ``gen_candidates_torch``), so the optimizers only need to exist: calling one raises.
  ``OptimizeResult`` and ``Bounds`` are the small containers BoTorch builds; ``special.gamma`` is ``math.gamma``
  over an array; ``__version__`` is 1.16.0 (BoTorch checks it to pick its L-BFGS-B code).
- ``threadpoolctl.threadpool_limits``: a context manager that limits nothing (the runs use one BLAS thread already).
- ``pyre_extensions``: ``none_throws`` and ``assert_is_instance``, the two checks BoTorch calls.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import math
import sys
import types

import numpy as np
from fake_stand_ins import AttrDict


def _not_installed(name):
    def refuse(*args, **kwargs):
        raise ImportError(f"scipy is not installed here: {name} needs it")

    refuse.__name__ = name.rpartition(".")[2]
    return refuse


class OptimizeResult(AttrDict):
    """SciPy's result: a dict whose keys read as attributes."""


class Bounds:
    """SciPy's ``Bounds(lb, ub, keep_feasible)``."""

    def __init__(self, lb=-np.inf, ub=np.inf, keep_feasible=False):
        self.lb, self.ub, self.keep_feasible = lb, ub, keep_feasible


class _Norm:
    """``scipy.stats.norm``'s standard normal functions on arrays."""

    @staticmethod
    def cdf(x):
        return 0.5 * (1.0 + np.vectorize(math.erf)(np.asarray(x, dtype=float) / math.sqrt(2.0)))

    @staticmethod
    def pdf(x):
        x = np.asarray(x, dtype=float)
        return np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)

    @staticmethod
    def logcdf(x):
        return np.log(_Norm.cdf(x))


def _gamma(x):
    return np.vectorize(math.gamma)(np.asarray(x, dtype=float))[()]


def _module(made, name, **attrs):
    module = types.ModuleType(name)
    module.__path__ = []
    module.__dict__.update(attrs)
    made[name] = module
    parent, _, child = name.rpartition(".")
    if parent in made:
        setattr(made[parent], child, module)
    return module


def modules() -> dict:
    """The stand-in modules by name (GPyTorch's with them), those not in ``sys.modules`` yet."""
    made = dict(importlib.import_module("fake_gpytorch_deps").modules())
    scipy = made.get("scipy") or _module(made, "scipy", __version__="1.16.0")
    made["scipy"] = scipy
    optimize = {"OptimizeResult": OptimizeResult, "Bounds": Bounds}
    for name in ("minimize", "linprog", "brentq", "fmin_l_bfgs_b"):
        optimize[name] = _not_installed(f"scipy.optimize.{name}")
    _module(made, "scipy.optimize", **optimize)
    _module(made, "scipy.optimize._lbfgsb", setulb=_not_installed("scipy.optimize._lbfgsb.setulb"))
    _module(made, "scipy.optimize._constraints", old_bound_to_new=_not_installed("old_bound_to_new"))
    _module(made, "scipy.optimize._lbfgsb_py", LbfgsInvHessProduct=type("LbfgsInvHessProduct", (), {}))
    _module(made, "scipy.optimize._optimize", OptimizeResult=OptimizeResult,
            _call_callback_maybe_halt=_not_installed("_call_callback_maybe_halt"),
            _check_unknown_options=_not_installed("_check_unknown_options"),
            _wrap_callback=_not_installed("_wrap_callback"))
    _module(made, "scipy.stats", norm=_Norm())
    _module(made, "scipy.special", gamma=_gamma)
    _module(made, "scipy.spatial", Delaunay=_not_installed("scipy.spatial.Delaunay"),
            HalfspaceIntersection=_not_installed("scipy.spatial.HalfspaceIntersection"))

    class _Limits:
        def __init__(self, limits=None, user_api=None):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    _module(made, "threadpoolctl", threadpool_limits=_Limits)

    def none_throws(value, message="Unexpected `None`"):
        if value is None:
            raise AssertionError(message)
        return value

    def assert_is_instance(value, cls):
        if not isinstance(value, cls):
            raise TypeError(f"obj is not an instance of cls: obj={value} cls={cls}")
        return value

    _module(made, "pyre_extensions", none_throws=none_throws, assert_is_instance=assert_is_instance)
    for name, module in made.items():  # (torch asks importlib.util.find_spec whether some packages exist)
        module.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=hasattr(module, "__path__"))
    return {name: module for name, module in made.items() if name not in sys.modules}
