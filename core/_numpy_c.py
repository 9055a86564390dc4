"""NumPy's C functions without their ``__array_function__`` dispatchers, for the hot paths' small calls.

``np.copyto`` and ``np.concatenate`` first call a Python dispatcher (the ``__array_function__`` protocol: it lists
the arguments a duck array could override), ~0.35 µs a call, a third to a half of the whole call on the arrays of a
small training step (SLEEF's exp on a sigmoid's 192 values makes five copies). The C functions below are what
those wrappers call once no argument overrides them, so on plain ``ndarray`` arguments they do the same thing.

NOTE: only for arrays core made itself (kernels' scratch and results, parameters' and gradients' ``_data``); a
duck array or an ``ndarray`` subclass with its own ``__array_function__`` must go through ``np.copyto``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["copyto", "concatenate"]

try:  # (NumPy 2's module; the public functions where it is missing)
    from numpy._core._multiarray_umath import concatenate, copyto
except ImportError:  # pragma: no cover - older NumPy layouts
    copyto, concatenate = np.copyto, np.concatenate
