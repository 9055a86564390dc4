"""``t.item()`` while exporting: the number comes back as a traced scalar that remembers its ``aten.item`` node, so
``x * x.sum().item()`` records ``mul.Tensor(x, item)`` as torch's export does (torch's unbacked ``u0``/``zuf0``).

The scalar acts as its number inside core's own code; in the model's code, branching on it, comparing it, doing
arithmetic with it or turning it into an ``int``/``float``/index raises torch's ``GuardOnDataDependentSymNode``:
its value is not known to the program (torch would record symbolic arithmetic; core does not)."""

from __future__ import annotations

import os
import sys

__all__ = ["TracedFloat", "TracedInt", "traced_scalar"]

_CORE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _guard(name: str):
    def method(self, *args):
        if sys._getframe(1).f_code.co_filename.startswith(_CORE):  # core's kernels read the number as it is
            return getattr(self._base, name)(self._plain(), *args)
        from core.export._trace import data_dependent_error

        raise data_dependent_error(self.symbol)
    method.__name__ = name
    return method


_GUARDED = ("__bool__", "__int__", "__float__", "__index__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__",
            "__ne__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
            "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__pow__", "__rpow__", "__neg__", "__abs__",
            "__round__", "__trunc__", "__floor__", "__ceil__")


def _traced_type(base: type) -> type:
    namespace = {name: _guard(name) for name in _GUARDED if hasattr(base, name)}
    namespace.update(_base=base, __hash__=base.__hash__, _plain=lambda self: base(base.__repr__(self)) if base is int
                     else base.__float__(self))
    return type(f"Traced{base.__name__.title()}", (base,), namespace)


TracedFloat = _traced_type(float)
TracedInt = _traced_type(int)


def traced_scalar(value, node, symbol):
    """``value`` (a Python number) as a traced scalar of ``node``; bools and complex numbers stay as they are."""
    kind = TracedInt if type(value) is int else TracedFloat if type(value) is float else None
    if kind is None:
        return value
    scalar = kind(value)
    scalar.node, scalar.symbol = node, symbol
    return scalar
