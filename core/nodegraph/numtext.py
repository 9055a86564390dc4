"""Numbers as the chapter prints them (``[1.5, -0.5]``, ``1``), for text the headless layer writes.

``keep(array)`` is what a recorder stores: a copy of a small NumPy/CuPy array, or for a big one only
its shape, dtype and first numbers (``Summary``), so recording never keeps or copies big tensors.
``text(value)`` writes a number, a short vector or matrix in full, anything bigger as its shape and a
few numbers (``(64, 10) [0.1, -0.2, 0.3, …]``). The GUI has its own formatter; this one never imports it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

__all__ = ["KEEP_NUMEL", "SHORT_NUMEL", "Summary", "keep", "host", "number", "shape_text", "text"]

KEEP_NUMEL = 4096  # arrays up to this many elements are copied whole
SHORT_NUMEL = 6  # vectors and matrices up to this many elements are written in full
HEAD = 3  # how many numbers a big tensor shows


class Summary(NamedTuple):
    """A big array's shape, dtype and first ``HEAD`` numbers (host NumPy)."""

    shape: tuple
    dtype: Any
    head: Any

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1

    @property
    def ndim(self) -> int:
        return len(self.shape)


def host(a):
    """A NumPy view/copy of a NumPy or CuPy array (CuPy arrays have ``.get()``)."""
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def keep(a):
    """What to store of ``a`` (an array, a Python number or None): a copy when small, else a ``Summary``."""
    if a is None:
        return None
    if isinstance(a, (bool, int, float)):
        return np.asarray(a)
    if a.size <= KEEP_NUMEL:
        return a.copy()
    return Summary(tuple(a.shape), a.dtype, host(a.reshape(-1)[:HEAD]).copy())


def number(v) -> str:
    """``2``, ``1.5``, ``0.3333``: four significant digits, no trailing ``.0``."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, complex):
        return format(v, ".4g")
    return format(float(v), ".4g")


def shape_text(shape) -> str:
    """``(2,)`` written ``(2)``, ``(2, 3)`` as it is: the way ``ones(2)`` reads."""
    return "(" + ", ".join(str(int(n)) for n in shape) + ")"


def _nested(v) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_nested(x) for x in v) + "]"
    return number(v)


def text(a) -> str:
    """A number, a short vector/matrix in full, or a big one's shape and first numbers; '—' for None."""
    if a is None:
        return "—"
    if isinstance(a, (bool, int, float, np.number)):
        return number(a)
    if isinstance(a, Summary):
        return _big(a.shape, a.head)
    a = host(a)
    if a.ndim == 0:
        return number(a.item())
    if a.size <= SHORT_NUMEL and a.ndim <= 2:
        return _nested(a.tolist())
    return _big(a.shape, a.reshape(-1)[:HEAD])


def _big(shape, head) -> str:
    return f"{shape_text(shape)} [" + ", ".join(number(x) for x in head.tolist()) + ", …]"
