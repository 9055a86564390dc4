"""What torchattacks (``recipes_torchattacks.py``) imports and is not installed here (our text): SciPy.

- ``scipy.optimize``: ``_differential_evolution`` (OnePixel's optimiser, copied from SciPy) imports
  ``OptimizeResult`` (a dict read by attribute) and ``minimize``, which only its ``polish`` step calls (OnePixel
  passes ``polish=False``): the stand-in raises if called.
- ``scipy._lib._util.check_random_state``: ``None`` gives NumPy's global ``RandomState`` (which the runner seeds),
  an int a new seeded one, a ``RandomState`` itself, as SciPy's does.
- ``scipy.stats.norm.pdf``: the Gaussian kernels of TIFGSM and PIFGSM++, ``exp(-x**2/2) / sqrt(2*pi)`` as SciPy's
  ``_norm_pdf`` computes it.

Both runs use these, so a script's numbers never depend on SciPy's.
"""

from __future__ import annotations

import numbers

import numpy as np
from fake_stand_ins import AttrDict, module


class OptimizeResult(AttrDict):
    """SciPy's result: a dict whose keys read as attributes."""


def minimize(*args, **kwargs):
    raise NotImplementedError("fake_torchattacks_deps: scipy.optimize.minimize (differential evolution's polish)")


def check_random_state(seed):
    """A ``numpy.random.RandomState`` from ``seed`` as SciPy's helper gives it."""
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, (numbers.Integral, np.integer)):
        return np.random.RandomState(seed)
    if isinstance(seed, (np.random.RandomState, np.random.Generator)):
        return seed
    raise ValueError(f"{seed!r} cannot be used to seed a numpy.random.RandomState instance")


class _Norm:
    @staticmethod
    def pdf(x):
        x = np.asarray(x, dtype=float)
        return np.exp(-x**2 / 2.0) / np.sqrt(2 * np.pi)


def _module(name, **attributes):
    return module(name, package="." not in name, **attributes)


def modules() -> dict:
    """The stand-in modules by name."""
    optimize = _module("scipy.optimize", OptimizeResult=OptimizeResult, minimize=minimize)
    stats = _module("scipy.stats", norm=_Norm())
    util = _module("scipy._lib._util", check_random_state=check_random_state)
    lib = _module("scipy._lib", _util=util)
    scipy = _module("scipy", optimize=optimize, stats=stats, _lib=lib)
    return {"scipy": scipy, "scipy.optimize": optimize, "scipy.stats": stats, "scipy._lib": lib,
            "scipy._lib._util": util}
