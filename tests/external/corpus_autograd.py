"""Stand-ins and drivers for ``recipes_autograd_material.py`` (our code, committed).

- ``scipy_stand_in()``: tonyduan/normalizing-flows imports SciPy at module level for two calls, ``scipy.linalg.qr``
  and ``scipy.linalg.lu`` (its invertible 1x1 convolution's initial weight, in NumPy), and its 1-D example imports
  ``scipy.stats`` for a plot's kernel density; SciPy is not installed here. The stand-in gives NumPy's QR and a
  partial-pivoting LU (``A = P @ L @ U``, SciPy's convention) while the script imports, then leaves ``sys.modules``
  as it found it. Both runs compute the same NumPy arrays, so what they agree on is unaffected by its last bits.
"""

from __future__ import annotations

import contextlib
import sys
import types

import numpy as np


def _lu(a):
    """``scipy.linalg.lu``: P, L, U with ``a = P @ L @ U`` by Doolittle elimination with partial pivoting."""
    u = np.array(a, dtype=np.float64)
    n = u.shape[0]
    perm, low = np.eye(n), np.zeros((n, n))
    for k in range(n):
        pivot = k + int(np.argmax(np.abs(u[k:, k])))
        for m in (u, perm, low):
            m[[k, pivot]] = m[[pivot, k]]
        low[k + 1:, k] = u[k + 1:, k] / u[k, k]
        u[k + 1:] -= np.outer(low[k + 1:, k], u[k])
    return perm.T, low + np.eye(n), np.triu(u)


@contextlib.contextmanager
def scipy_stand_in():
    """``scipy``, ``scipy.linalg`` (qr, lu) and ``scipy.stats`` (a kernel density that plots nothing) while the
    ``with`` body imports; the previous modules (none, or the runner's stubs) come back afterwards."""
    names = ("scipy", "scipy.linalg", "scipy.stats")
    saved = {name: sys.modules.get(name) for name in names}
    scipy, linalg, stats = (types.ModuleType(name) for name in names)
    linalg.qr, linalg.lu = np.linalg.qr, _lu
    stats.gaussian_kde = lambda data: (lambda points: np.zeros(len(points)))
    scipy.linalg, scipy.stats = linalg, stats
    sys.modules.update(zip(names, (scipy, linalg, stats)))
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
