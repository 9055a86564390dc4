"""Tensor attributes PyTorch removed but still answers, with its warnings: ``volatile`` (gone in 0.4; it reads
False and setting it does nothing). 2017 tutorials still write ``x.volatile = True`` and print it."""

from __future__ import annotations

import warnings

from core.autograd.anomaly import user_stacklevel  # (the user's line, also through a dispatching property)

__all__ = ["volatile"]


def _get_volatile(self) -> bool:
    warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, stacklevel=user_stacklevel())
    return False


def _set_volatile(self, value) -> None:
    warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.", UserWarning,
                  stacklevel=user_stacklevel())


volatile = property(_get_volatile, _set_volatile, doc="Removed in PyTorch 0.4: always False, with a warning.")
