"""``method``: a function written in one of the modules ``Tensor``'s class body is split into reads as the method it
is bound to there.

``core/_tensor.py`` holds the class statement; the methods of each concern (metadata, autograd, Python's protocols,
the other layouts' refusals, conversions, the attribute views) are written in ``core/_tensor_<concern>.py`` and bound
by name in the class body. A function written at module level would name that module and no class, so ``method``
gives it the names it had when written in the class body, ``Tensor.<name>`` of ``core._tensor`` (torch's are
``Tensor.<name>`` of ``torch._tensor``): ``pickle`` finds a method by them, and ``help``, tracebacks' readers and the
tests that compare names with torch's see one class.
"""

from __future__ import annotations

__all__ = ["method"]


def method(obj):
    """``obj`` (a function, or a property: its getter, setter and deleter) named as ``Tensor``'s method."""
    functions = (obj.fget, obj.fset, obj.fdel) if isinstance(obj, property) else (obj,)
    for fn in functions:
        if fn is not None:
            fn.__qualname__ = f"Tensor.{fn.__name__}"
            fn.__module__ = "core._tensor"
    return obj
