"""How an op function becomes its own dispatching wrapper at activation (``core._torch_function.activate``).

A function keeps its identity, as torch's do: ``activate()`` turns the function object itself into the wrapper (it
takes the dispatching code, ``core._torch_function._DISPATCHING_BODY``, which stays there: it is compiled as that
file's lines, which tracebacks show and ``core.export``'s frame walk skips, and calls a private copy of the op,
``_copy``), so a ``from torch import add`` taken before, a ``{torch.lt: ...}`` table or an fx node's target still is
``torch.add`` and dispatches. core's own modules call the ops as before: the names they imported from the modules
that define the ops are pointed at the copies, so an op's implementation does not hand its inner calls to handlers
(torch's C++ ops do not either). The module that defines a function keeps it under its name, where ``pickle`` looks
it up, so calls within that module take the dispatch check. A function object that serves two public names
(``torch.abs`` and ``torch.absolute``, ``torch.abs_`` and ``Tensor.abs_``) stays the first name's; the others get
wrappers of their own, as torch's are distinct functions.
"""

from __future__ import annotations

import sys
import types

from core._torch_function_names import _NAMESPACES


def _copy(fn: types.FunctionType) -> types.FunctionType:
    """A second function object running ``fn``'s code: the op once ``fn`` itself dispatches."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = dict(fn.__kwdefaults__) if fn.__kwdefaults__ else None
    copy.__dict__.update(fn.__dict__)
    copy.__qualname__, copy.__module__, copy.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    copy.__annotations__ = fn.__annotations__
    return copy


def _point_at_ops(ops: dict) -> None:
    """core's modules (but the public namespaces) call the ops they imported, as before activation: their
    names for a function that now dispatches name its op copy. The module that defines a function keeps it
    under its own name, where ``pickle`` looks it up (``core.ops.math_unary.tanh`` for ``torch.tanh``)."""
    for module_name, module in list(sys.modules.items()):
        if not (module_name == "core" or module_name.startswith("core.")) or module_name in _NAMESPACES:
            continue
        names = getattr(module, "__dict__", None)
        if not isinstance(names, dict):
            continue
        for name, value in list(names.items()):
            entry = ops.get(id(value)) if type(value) is types.FunctionType else None
            if entry is not None and entry[0] is value and (name, module_name) != (value.__qualname__,
                                                                                   value.__module__):
                names[name] = entry[1]
