"""Keeps PySide6 6.12 from crashing the app on Python 3.11.

PySide6 6.12 is built for Pythons whose ``None``/``True``/``False`` are immortal (3.12+): every call of
a Qt method that returns nothing (``setText``, ``processEvents``, ``QTimer.start``...) drops one
reference to ``None`` (or a bool) without having taken it. On 3.11 the count reaches zero after a few
thousand calls and the interpreter aborts ("none_dealloc: deallocating None"), e.g. seconds into a
training run that redraws plots. ``pin_singletons()`` adds a huge count to those singletons, which is
what immortality means on 3.12, so the missing references never matter. It does nothing on 3.12+.
"""

from __future__ import annotations

import ctypes
import sys

__all__ = ["pin_singletons"]

_PIN = 1 << 40
_done = False


def pin_singletons() -> None:
    """Make None, True, False, Ellipsis and NotImplemented effectively immortal (once per process)."""
    global _done
    if _done or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    for obj in (None, True, False, Ellipsis, NotImplemented):
        ctypes.c_ssize_t.from_address(id(obj)).value += _PIN
    _done = True
