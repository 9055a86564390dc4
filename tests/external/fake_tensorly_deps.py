"""What TensorLy (``recipes_tensorly.py``) imports and is not installed here (our text): SciPy's few names.

- ``scipy.special.digamma`` (the NumPy backend's, imported at module level; the PyTorch backend registers
  ``torch.digamma``): raises if called. ``scipy.special.logsumexp`` (``test_backend``'s baseline): SciPy's
  recipe, the maximum taken out before ``exp`` and put back after ``log``.
- ``scipy.optimize.brentq`` (``validate_tucker_rank`` with a fractional rank): a bisection to SciPy's default
  tolerances (its root agrees with Brent's to ``xtol``, and TensorLy rounds it to whole ranks).
  ``scipy.optimize.linear_sum_assignment`` (``congruence_coefficient``): the assignment of least cost found by
  trying every permutation (TensorLy's ranks are small), the first one in lexicographic order on ties.
- ``scipy.linalg.svd`` (``test_backend``'s import): NumPy's ``linalg.svd``. ``scipy.io.loadmat`` (the datasets'
  downloads): raises if called.

Both runs use these, so a script's numbers never depend on SciPy's.
"""

from __future__ import annotations

import itertools

import numpy as np
from fake_stand_ins import module


def _refuse(name):
    def refuse(*args, **kwargs):
        raise NotImplementedError(f"fake_tensorly_deps: {name} is not available here")

    refuse.__name__ = name.rpartition(".")[2]
    return refuse


def logsumexp(a, axis=None, keepdims=False):
    """log(sum(exp(a))) along ``axis`` with the largest value taken out first."""
    a = np.asarray(a)
    a_max = np.amax(a, axis=axis, keepdims=True)
    a_max = np.where(np.isfinite(a_max), a_max, 0)
    out = np.log(np.sum(np.exp(a - a_max), axis=axis, keepdims=True)) + a_max
    return out if keepdims else np.squeeze(out, axis=axis)


def brentq(f, a, b, xtol=2e-12, rtol=8.881784197001252e-16, maxiter=100):
    """A root of ``f`` in [a, b] (where ``f`` changes sign) by bisection to SciPy's tolerances."""
    fa, fb = f(a), f(b)
    if fa * fb > 0:
        raise ValueError("f(a) and f(b) must have different signs")
    for _ in range(maxiter + 100):
        m = (a + b) / 2
        fm = f(m)
        if fm == 0 or (b - a) / 2 < xtol + rtol * abs(m):
            return m
        if fa * fm < 0:
            b, fb = m, fm
        else:
            a, fa = m, fm
    return (a + b) / 2


def linear_sum_assignment(cost_matrix, maximize=False):
    """Rows and the columns assigned to them at least (or most) total cost, by trying every permutation."""
    cost = np.asarray(cost_matrix, dtype=float)
    if maximize:
        cost = -cost
    transposed = cost.shape[0] > cost.shape[1]
    if transposed:
        cost = cost.T
    rows = np.arange(cost.shape[0])
    best, best_cols = None, None
    for cols in itertools.permutations(range(cost.shape[1]), cost.shape[0]):
        total = cost[rows, list(cols)].sum()
        if best is None or total < best:
            best, best_cols = total, np.array(cols, dtype=np.int64)
    if transposed:
        order = np.argsort(best_cols)
        return best_cols[order], rows[order]
    return rows, best_cols


def svd(a, full_matrices=True, compute_uv=True, **kwargs):
    return np.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)


def _module(name, **attributes):
    return module(name, package="." not in name, **attributes)


def modules() -> dict:
    """The stand-in modules by name."""
    special = _module("scipy.special", digamma=_refuse("scipy.special.digamma"), logsumexp=logsumexp)
    optimize = _module("scipy.optimize", brentq=brentq, linear_sum_assignment=linear_sum_assignment)
    linalg = _module("scipy.linalg", svd=svd)
    io = _module("scipy.io", loadmat=_refuse("scipy.io.loadmat"))
    scipy = _module("scipy", special=special, optimize=optimize, linalg=linalg, io=io)
    return {"scipy": scipy, "scipy.special": special, "scipy.optimize": optimize, "scipy.linalg": linalg,
            "scipy.io": io}
