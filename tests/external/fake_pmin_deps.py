"""What pytorch-minimize, TorchJD and julius (``recipes_pmin.py``, ``recipes_torchjd.py``, ``recipes_julius.py``)
import and is not installed here (our text).

- SciPy, which ``torchmin`` imports throughout: ``OptimizeResult`` (a dict read by attribute, printed as SciPy
  prints it), ``Bounds`` (its ``lb``/``ub``/``keep_feasible``), ``LinearOperator`` (a class to test and build),
  ``linear_sum_assignment`` (Frank-Wolfe's vertex of the Birkhoff polytope: the cheapest permutation, found by
  trying each one of up to 8 rows, the first in lexicographic order on ties), ``eigsh`` (Newton's smallest Hessian
  eigenvalue when the Hessian is not positive definite: NumPy's ``eigh``, exact where ARPACK iterates to ``tol``),
  ``svds`` (Frank-Wolfe's top singular pair: NumPy's SVD), and the least-squares progress lines of
  ``scipy.optimize._lsq.common``. ``minimize`` (trust-constr, ``ScipyMinimizer``), ``minimize_scalar``,
  ``get_lapack_funcs`` and ``eigh_tridiagonal`` (trust-krylov) raise if called.
- ``qpsolvers.solve_qp``: TorchJD's projection onto the dual cone (UPGrad, DualProj) solves
  ``min 1/2 v'Pv + q'v`` subject to ``Gv <= h``, always with ``G = -I`` (a lower bound ``v >= -h``) and a
  positive semi-definite ``P`` (a Gramian). The stand-in solves that bound-constrained problem exactly by an active
  set method (Lawson and Hanson's NNLS steps on ``s = v + h >= 0``) in float64; quadprog is a dual method, so the
  last bits of its answers are not these.
- ``resampy``: julius' resampling test compares with it; the stand-in raises if called (those tests are left out).

Both runs use these, so a script's numbers never depend on the stand-ins' last bits.
"""

from __future__ import annotations

import itertools

import numpy as np
from fake_stand_ins import AttrDict, module


class OptimizeResult(AttrDict):
    """SciPy's result: a dict whose keys read as attributes, printed one ``key: value`` a line, keys aligned."""

    def __repr__(self):
        if not self:
            return self.__class__.__name__ + "()"
        width = max(map(len, self)) + 1
        return "\n".join(k.rjust(width) + ": " + repr(v) for k, v in self.items())

    def __dir__(self):
        return list(self.keys())


class Bounds:
    """SciPy's ``Bounds(lb, ub, keep_feasible)``: the three attributes as arrays (torchmin reads them)."""

    def __init__(self, lb=-np.inf, ub=np.inf, keep_feasible=False):
        self.lb, self.ub = np.asarray(lb, dtype=float), np.asarray(ub, dtype=float)
        self.keep_feasible = np.asarray(keep_feasible, dtype=bool)

    def __repr__(self):
        return f"Bounds({self.lb!r}, {self.ub!r})"


class LinearOperator:
    """SciPy's ``LinearOperator(shape, matvec, rmatvec)``: the products it was given."""

    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=float, rmatmat=None):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        self._matvec, self._rmatvec = matvec, rmatvec

    def matvec(self, x):
        return self._matvec(x)

    def rmatvec(self, x):
        return self._rmatvec(x)

    def dot(self, x):
        return self._matvec(x)


def _missing(what):
    def call(*args, **kwargs):
        raise NotImplementedError(f"fake_pmin_deps: {what} is not installed here")
    call.__name__ = what.rpartition(".")[2]
    return call


def eigsh(a, k=6, which="LM", tol=0, **kwargs):
    """The ``k`` smallest (``which="SA"``) or largest algebraic eigenpairs of a dense symmetric matrix."""
    if which not in ("SA", "LA"):
        raise NotImplementedError(f"fake_pmin_deps: eigsh(which={which!r})")
    values, vectors = np.linalg.eigh(np.asarray(a))
    pick = slice(0, k) if which == "SA" else slice(len(values) - k, None)
    return values[pick], vectors[:, pick]


def svds(a, k=6, **kwargs):
    """The ``k`` largest singular triplets in SciPy's order (ascending singular values)."""
    u, s, vh = np.linalg.svd(np.asarray(a), full_matrices=False)
    return u[:, :k][:, ::-1], s[:k][::-1], vh[:k][::-1]


def linear_sum_assignment(cost):
    """``row_ind, col_ind`` of the permutation of least total cost of a square matrix of up to 8 rows."""
    cost = np.asarray(cost)
    n = cost.shape[0]
    if cost.shape != (n, n) or n > 8:
        raise NotImplementedError(f"fake_pmin_deps: linear_sum_assignment of a {cost.shape} matrix")
    rows = np.arange(n)
    best = min(itertools.permutations(range(n)), key=lambda p: cost[rows, list(p)].sum())
    return rows, np.array(best)


def print_header_nonlinear():
    print("{:^15}{:^15}{:^15}{:^15}{:^15}{:^15}".format(
        "Iteration", "Total nfev", "Cost", "Cost reduction", "Step norm", "Optimality"))


def print_iteration_nonlinear(iteration, nfev, cost, cost_reduction, step_norm, optimality):
    cost_reduction = " " * 15 if cost_reduction is None else f"{cost_reduction:^15.2e}"
    step_norm = " " * 15 if step_norm is None else f"{step_norm:^15.2e}"
    print(f"{iteration:^15}{nfev:^15}{cost:^15.4e}{cost_reduction}{step_norm}{optimality:^15.2e}")


def solve_qp(P, q, G=None, h=None, A=None, b=None, lb=None, ub=None, solver=None, **kwargs):
    """``argmin 1/2 v'Pv + q'v`` subject to ``Gv <= h`` where ``G`` is ``-I`` (TorchJD's only form): ``v >= -h``.

    With ``s = v + h >= 0`` it is ``min 1/2 s'Ps + c's``, ``c = q - Ph``, solved by the NNLS active-set steps."""
    P, q = np.asarray(P, dtype=float), np.asarray(q, dtype=float)
    m = len(q)
    if A is not None or lb is not None or ub is not None or not np.array_equal(np.asarray(G), -np.eye(m)):
        raise NotImplementedError("fake_pmin_deps: solve_qp with constraints other than G = -I")
    low = -np.asarray(h, dtype=float)
    c = q + P @ low
    s = np.zeros(m)
    free = np.zeros(m, dtype=bool)
    tol = 1e-12 * max(1.0, np.abs(P).max(), np.abs(c).max())
    for _ in range(3 * m + 10):
        w = -(P @ s + c)  # minus the gradient
        candidates = np.where(~free & (w > tol))[0]
        if not len(candidates):
            break
        free[candidates[np.argmax(w[candidates])]] = True
        while True:
            z = np.zeros(m)
            idx = np.where(free)[0]
            z[idx] = np.linalg.lstsq(P[np.ix_(idx, idx)], -c[idx], rcond=None)[0]
            if np.all(z[idx] > 0):
                s = z
                break
            neg = idx[z[idx] <= 0]
            alpha = np.min(s[neg] / (s[neg] - z[neg]))
            s = s + alpha * (z - s)
            free &= s > tol
            s[~free] = 0.0
    return s + low


def _module(name, **attributes):
    return module(name, package=True, **attributes)


def modules() -> dict:
    """The stand-in modules by name."""
    lsq_common = _module("scipy.optimize._lsq.common", print_header_nonlinear=print_header_nonlinear,
                         print_iteration_nonlinear=print_iteration_nonlinear)
    lsq = _module("scipy.optimize._lsq", common=lsq_common)
    optimize = _module("scipy.optimize", OptimizeResult=OptimizeResult, Bounds=Bounds, _lsq=lsq,
                       linear_sum_assignment=linear_sum_assignment,
                       minimize=_missing("scipy.optimize.minimize"),
                       minimize_scalar=_missing("scipy.optimize.minimize_scalar"),
                       NonlinearConstraint=_missing("scipy.optimize.NonlinearConstraint"))
    sparse_linalg = _module("scipy.sparse.linalg", LinearOperator=LinearOperator, eigsh=eigsh, svds=svds)
    sparse = _module("scipy.sparse", linalg=sparse_linalg)
    linalg = _module("scipy.linalg", get_lapack_funcs=_missing("scipy.linalg.get_lapack_funcs"),
                     eigh_tridiagonal=_missing("scipy.linalg.eigh_tridiagonal"))
    scipy = _module("scipy", optimize=optimize, sparse=sparse, linalg=linalg)
    qpsolvers = _module("qpsolvers", solve_qp=solve_qp)
    resampy = _module("resampy", resample=_missing("resampy.resample"))
    return {"scipy": scipy, "scipy.optimize": optimize, "scipy.optimize._lsq": lsq,
            "scipy.optimize._lsq.common": lsq_common, "scipy.sparse": sparse, "scipy.sparse.linalg": sparse_linalg,
            "scipy.linalg": linalg, "qpsolvers": qpsolvers, "resampy": resampy}
