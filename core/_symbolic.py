"""PyTorch's symbolic-shape names as they act on plain Python numbers (core has no tracer, so no symbols).

Model code written for ``torch.compile`` calls ``torch.sym_int(n)``, ``torch.sym_max(a, b)``... on sizes and
checks ``isinstance(n, torch.SymInt)``: eagerly these are Python's ``int``, ``max``... and no value is a
``SymInt``, as in an eager PyTorch run.
"""

from __future__ import annotations

import math

__all__ = ["SymInt", "SymFloat", "SymBool", "sym_int", "sym_float", "sym_max", "sym_min", "sym_not", "sym_sqrt",
           "sym_ite", "sym_sum"]


class _Symbolic:
    """A symbolic size under tracing; never made eagerly (so ``isinstance`` checks are False)."""

    def __init__(self, node=None):
        raise TypeError(f"core has no symbolic shapes: {type(self).__name__} is made only while tracing")


class SymInt(_Symbolic):
    """Like an int (including magic methods), but redirects all operations on the wrapped node."""


class SymFloat(_Symbolic):
    """Like a float (including magic methods), but redirects all operations on the wrapped node."""


class SymBool(_Symbolic):
    """Like a bool (including magic methods), but redirects all operations on the wrapped node."""


for _cls in (SymInt, SymFloat, SymBool):
    _cls.__module__ = "core"
del _cls


def sym_int(a) -> int:
    """``int(a)``, truncating a float toward zero."""
    return int(a)


def sym_float(a) -> float:
    return float(a)


def sym_max(a, b):
    """The larger; a float if either is a float (PyTorch's promotion for sizes)."""
    larger = max(a, b)
    return float(larger) if isinstance(a, float) or isinstance(b, float) else larger


def sym_min(a, b):
    """The smaller; a float if either is a float."""
    smaller = min(a, b)
    return float(smaller) if isinstance(a, float) or isinstance(b, float) else smaller


def sym_not(a) -> bool:
    return not a


def sym_sqrt(a) -> float:
    return math.sqrt(a)


def sym_ite(b, t, f):
    """``t if b else f``."""
    return t if b else f


def sym_sum(args):
    """The sum of an iterable of sizes."""
    return sum(args)
