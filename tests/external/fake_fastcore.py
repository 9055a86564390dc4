"""fastcore's stand-in for the corpus (not installed here): the names fast.ai's course22p2 notebooks and its ``miniai``
package use, as ``fastcore.all``, ``fastcore.test`` and ``fastcore.basics`` (the runner installs this module under
those names). Each follows fastcore's behaviour for what the course calls: ``test_close`` compares tensors, arrays,
sequences and numbers to ``eps``; ``store_attr`` stores the caller's arguments on ``self``; ``L`` is a list with
``range`` and ``map``; ``delegates`` only forwards signatures there, so here it returns the function unchanged.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
import types

__all__ = ["IN_NOTEBOOK", "defaults", "noop", "test_close", "test_eq", "test_ne", "store_attr", "L", "delegates",
           "patch", "hasattrs", "filter_ex", "risinstance", "chunked"]

IN_NOTEBOOK = False
defaults = types.SimpleNamespace(cpus=min(os.cpu_count() or 1, 8))


def noop(x=None, *args, **kwargs):
    return x


def _is_close(a, b, eps):
    if hasattr(a, "__array__") or hasattr(b, "__array__"):
        return bool((abs(a - b) < eps).all())
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return builtins.all(_is_close(x, y, eps) for x, y in zip(a, b))
    return abs(a - b) < eps


def test_close(a, b, eps=1e-5):
    assert _is_close(a, b, eps), f"close:\n{a}\n{b}"


def test_eq(a, b):
    same = (a == b).all() if hasattr(a, "__array__") else a == b
    assert bool(same), f"==:\n{a}\n{b}"


def test_ne(a, b):
    assert not bool(a == b), f"!=:\n{a}\n{b}"


def store_attr(names=None, but="", cast=False, **attrs):
    """The calling function's arguments (or ``names``, a comma-separated string) as attributes of its first one."""
    frame = sys._getframe(1)
    code = frame.f_code
    args = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    self = frame.f_locals[args[0]]
    skip = set(re.split(", *", but)) if but else set()
    names = re.split(", *", names) if isinstance(names, str) else (names or [a for a in args[1:] if a not in skip])
    for name in names:
        setattr(self, name, frame.f_locals[name])
    for name, value in attrs.items():
        setattr(self, name, value)


class L(list):
    """fastcore's ``L``: ``None`` is empty, a single item is a one-item list."""

    def __init__(self, items=None, *rest):
        if rest:
            items = [items, *rest]
        elif items is None:
            items = []
        elif isinstance(items, (str, bytes, dict)) or not hasattr(items, "__iter__"):
            items = [items]
        super().__init__(items)

    @classmethod
    def range(cls, a, b=None, step=None):
        a = len(a) if hasattr(a, "__len__") else a
        return cls(range(a) if b is None else range(a, b, step or 1))

    def map(self, f, *args, **kwargs):
        return L([f(x, *args, **kwargs) for x in self])

    def filter(self, f):
        return L([x for x in self if f(x)])

    def __add__(self, other):
        return L(list(self) + list(L(other)))

    def __radd__(self, other):
        return L(list(L(other)) + list(self))


def delegates(to=None, keep=False, but=None):
    return lambda f: f


def patch(f):
    """Adds ``f`` to the class its first argument is annotated with (a string under postponed annotations)."""
    cls = next(iter(f.__annotations__.values()))
    if isinstance(cls, str):
        cls = eval(cls, f.__globals__)
    setattr(cls, f.__name__, f)
    return f


def hasattrs(o, attrs):
    return builtins.all(hasattr(o, a) for a in attrs)


def filter_ex(iterable, f=noop):
    return L([x for x in iterable if f(x)])


def risinstance(types_):
    return lambda x: isinstance(x, types_)


def chunked(it, chunk_sz=None, drop_last=False, n_chunks=None):
    it, chunk = iter(it), []
    for x in it:
        chunk.append(x)
        if len(chunk) == chunk_sz:
            yield chunk
            chunk = []
    if chunk and not drop_last:
        yield chunk



all = test = basics = sys.modules[__name__]  # ``import fastcore.all as fc`` reads the package's attribute
