"""The sizes ``Tensor.view`` and ``Tensor.reshape`` take, read as PyTorch's argument parser reads them.

``view(2, 3)``, ``view((2, 3))`` and ``view([2, 3])`` are the same request; an element may be an int, a NumPy
integer or a one-element integer tensor. Anything else raises the parser's ``TypeError``, word for word:

- the parser decides from a list's first element alone whether it has a list of ints: a float there (``h / 2``)
  fails as a type mismatch (``view``, with two overloads, lists both; ``reshape`` names the element's type);
- a bad later element fails while the list is unpacked ("failed to unpack the object at pos 2");
- sizes given one by one count as a list only when the first is an int: otherwise ``reshape`` got too many
  arguments and ``view`` an invalid combination.

A bool is refused first (PyTorch's index check excludes it) but taken later, as 1 or 0.
"""

from __future__ import annotations

import numpy as np

from core._factories import _arg_type as _type_name
from core._factories import _index_like
from core._factory_args import long_long_overflow
from core._tensor import Tensor
from core.ops.arity_words import arity_error

__all__ = ["view_sizes", "reshape_sizes"]

_VIEW_SIGNATURES = (" * (torch.dtype dtype)", " * (tuple of ints size)")


def _sizes(args: tuple, fn: str, arg: str) -> tuple:
    """``fn``'s sizes as a tuple (ints given one by one or as one tuple, list or ``Size``); ``arg``: its name."""
    if not args:  # (x.view(): no size at all, which the parser refuses before anything runs)
        raise arity_error(fn, (), {}) or TypeError(f"{fn}() missing 1 required positional arguments: \"{arg}\"")
    seq = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    for s in seq:
        if type(s) is not int or not -2**63 <= s < 2**63:
            return _checked(args, seq, fn, arg)
    return tuple(seq)


def view_sizes(args: tuple) -> tuple:
    """``view``'s sizes as a tuple (ints given one by one or as one tuple, list or ``Size``)."""
    return _sizes(args, "view", "size")


def reshape_sizes(args: tuple) -> tuple:
    """``reshape``'s sizes as a tuple (ints given one by one or as one tuple, list or ``Size``)."""
    return _sizes(args, "reshape", "shape")


def _as_written(value) -> str:
    """A sequence's element types as the parser's message writes them: ``tuple of (float, int)``."""
    names = ", ".join(_type_name(v) for v in value)
    if isinstance(value, list):
        return f"list of [{names}]"
    return f"tuple of ({names},)" if len(value) == 1 else f"tuple of ({names})"


def _checked(args: tuple, seq, fn: str, name: str) -> tuple:
    one_sequence = seq is not args
    if not one_sequence and len(args) == 1 and not _index_like(args[0]):
        return _bad_whole(args[0], fn, name)
    if seq and not _index_like(seq[0]):
        if not one_sequence:
            if fn == "reshape":
                raise TypeError(f"reshape() takes 1 positional argument but {len(args)} were given")
            got = ", ".join(_type_name(a) for a in args)
            raise TypeError(f"view() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                            + "".join(f"{s}\n" for s in _VIEW_SIGNATURES))
        if fn == "view":
            return _bad_whole(seq, fn, name)
        raise TypeError(f"{fn}(): argument '{name}' (position 1) must be tuple of ints, but found element of type "
                        f"{_type_name(seq[0])} at pos 0")
    out = []
    for i, s in enumerate(seq):
        if isinstance(s, Tensor) and s.numel() == 1 and not s.is_floating_point():
            s = int(s)
        if not isinstance(s, (int, np.integer)):
            raise TypeError(f"{fn}(): argument '{name}' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {_type_name(s)}\"")
        out.append(int(s))
        if not -2**63 <= out[-1] < 2**63:
            raise TypeError(long_long_overflow(fn, name, i + 1))
    return tuple(out)


def _bad_whole(value, fn: str, name: str):
    """One argument that is no list of ints at all (``view(2.5)``, ``view((2.0, 3.0))``, ``reshape(None)``)."""
    if fn == "reshape":
        raise TypeError(f"reshape(): argument 'shape' (position 1) must be tuple of ints, not {_type_name(value)}")
    what = _as_written(value) if isinstance(value, (tuple, list)) else _type_name(value)
    got = type(value).__name__ if isinstance(value, (tuple, list)) else _type_name(value)
    why = f"      didn't match because some of the arguments have invalid types: (!{what}!)\n"
    raise TypeError(f"view() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                    + "".join(f"{s}\n{why}" for s in _VIEW_SIGNATURES))
