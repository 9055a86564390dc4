"""Stand-ins for the data of ``recipes_more_text.py``'s scripts (our code, committed; a recipe's edit calls them).

``flow_datasets`` is what ikostrikov/pytorch-flows' ``main.py`` imports as ``datasets`` (its own package would clash
with the runner's Hugging Face stand-in of that name): ``MOONS()`` splits two moons 80/10/10 into ``trn``, ``val``
and ``tst`` (each ``.x``, float32, and ``.N``) as the repository's ``datasets/moons.py`` does, from 1250 points
(fake_sklearn's ``make_moons`` on NumPy's global generator, which the runner seeds) instead of 30000.
``scipy_lu()`` is a context in which ``import scipy`` gives a stand-in whose ``linalg.lu`` is Doolittle's LU with
partial pivoting in NumPy (``A = P @ L @ U``, SciPy's convention; SciPy is not installed), for the flows module's
``LUInvertibleMM``; it leaves no ``scipy`` in ``sys.modules`` behind.
"""

from __future__ import annotations

import contextlib
import sys
import types

import numpy as np
from fake_sklearn import make_moons


class _Split:
    def __init__(self, x):
        self.x = x.astype(np.float32)
        self.N = self.x.shape[0]


class MOONS:
    def __init__(self, n_samples: int = 1250):
        x = make_moons(n_samples=n_samples, shuffle=True, noise=0.05)[0]
        cut, end = n_samples * 8 // 10, n_samples * 9 // 10
        self.trn, self.val, self.tst = _Split(x[:cut]), _Split(x[cut:end]), _Split(x[end:])
        self.n_dims = self.trn.x.shape[1]


flow_datasets = types.SimpleNamespace(MOONS=MOONS)


def _lu(a):
    u = np.array(a, dtype=np.float64)
    n = u.shape[0]
    perm, lower = np.arange(n), np.eye(n)
    for k in range(n - 1):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        u[[k, p]], perm[[k, p]], lower[[k, p], :k] = u[[p, k]], perm[[p, k]], lower[[p, k], :k]
        if u[k, k] != 0:
            lower[k + 1:, k] = u[k + 1:, k] / u[k, k]
            u[k + 1:] -= np.outer(lower[k + 1:, k], u[k])
    dtype = np.result_type(a, np.float32)
    return np.eye(n, dtype=dtype)[perm].T, lower.astype(dtype), np.triu(u).astype(dtype)


@contextlib.contextmanager
def scipy_lu():
    linalg = types.ModuleType("scipy.linalg")
    linalg.lu = _lu
    scipy = types.ModuleType("scipy")
    scipy.linalg = linalg
    saved = {name: sys.modules.pop(name) for name in ("scipy", "scipy.linalg") if name in sys.modules}
    sys.modules.update({"scipy": scipy, "scipy.linalg": linalg})
    try:
        yield
    finally:
        del sys.modules["scipy"], sys.modules["scipy.linalg"]
        sys.modules.update(saved)
