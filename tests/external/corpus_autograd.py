"""Stand-ins and drivers for ``recipes_autograd_material.py`` (our code, committed).

- ``scipy_stand_in()``: xitorch imports ``scipy.sparse.linalg``'s ``LinearOperator`` and ``gmres`` at module level
  for its SciPy-backed solver (its tests take the other methods: the stand-in's ``gmres`` raises);
  tonyduan/normalizing-flows imports SciPy at module level for two calls, ``scipy.linalg.qr``
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


class _SciPyLinearOperator:
    """``scipy.sparse.linalg.LinearOperator``, which xitorch imports to offer its operators to SciPy (unused here)."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


def _gmres(*args, **kwargs):
    raise NotImplementedError("scipy.sparse.linalg.gmres: SciPy is not installed (corpus_autograd's stand-in)")


@contextlib.contextmanager
def scipy_stand_in():
    """``scipy``, ``scipy.linalg`` (qr, lu) and ``scipy.stats`` (a kernel density that plots nothing) while the
    ``with`` body imports; the previous modules (none, or the runner's stubs) come back afterwards."""
    names = ("scipy", "scipy.linalg", "scipy.stats", "scipy.sparse", "scipy.sparse.linalg")
    saved = {name: sys.modules.get(name) for name in names}
    scipy, linalg, stats, sparse, sparse_linalg = (types.ModuleType(name) for name in names)
    linalg.qr, linalg.lu = np.linalg.qr, _lu
    stats.gaussian_kde = lambda data: (lambda points: np.zeros(len(points)))
    sparse_linalg.LinearOperator, sparse_linalg.gmres = _SciPyLinearOperator, _gmres
    scipy.linalg, scipy.stats, scipy.sparse, sparse.linalg = linalg, stats, sparse, sparse_linalg
    sys.modules.update(zip(names, (scipy, linalg, stats, sparse, sparse_linalg)))
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


class Digraph:
    """graphviz's ``Digraph`` as torchviz's ``make_dot`` builds it (``node``, ``edge``, ``body``, ``graph_attr``),
    drawing nothing: its repr (what a notebook shows) lists the nodes and edges in the order they were added, with
    the ``id()`` numbers torchviz names them by replaced by their order of first appearance (``n0``, ``n1``...), so
    the same graph prints the same text in both runs."""

    def __init__(self, name=None, node_attr=None, graph_attr=None, **kwargs):
        self.node_attr, self.graph_attr = dict(node_attr or {}), dict(graph_attr or {})
        self.body: list = []
        self._names: dict = {}

    def _name(self, ident) -> str:
        return self._names.setdefault(str(ident), f"n{len(self._names)}")

    def node(self, name, label=None, **attrs):
        label = "" if label is None else label.replace("\n", "\\n")
        self.body.append(f"{self._name(name)} [label=\"{label}\"{''.join(f' {k}={v}' for k, v in attrs.items())}]")

    def edge(self, tail, head, **attrs):
        self.body.append(f"{self._name(tail)} -> {self._name(head)}{''.join(f' {k}={v}' for k, v in attrs.items())}")

    @property
    def source(self) -> str:
        return "digraph {\n" + "".join(f"\t{line}\n" for line in self.body) + f"}} size={self.graph_attr.get('size')}"

    def __repr__(self) -> str:
        return self.source


@contextlib.contextmanager
def graphviz_stand_in():
    """``graphviz`` (not installed here) as a module holding ``Digraph`` while the ``with`` body imports torchviz."""
    saved = sys.modules.get("graphviz")
    module = types.ModuleType("graphviz")
    module.Digraph = Digraph
    sys.modules["graphviz"] = module
    try:
        yield
    finally:
        if saved is None:
            sys.modules.pop("graphviz", None)
        else:
            sys.modules["graphviz"] = saved


def run_pytest_without_scipy(path, *args):
    """``corpus_pruning.run_pytest`` with ``scipy_stand_in`` while pytest imports and runs the module (xitorch)."""
    with scipy_stand_in():
        __import__("corpus_pruning").run_pytest(path, *args)
