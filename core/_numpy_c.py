"""NumPy's C functions without their ``__array_function__`` dispatchers, and an array's address without a dict,
for the hot paths' small calls.

``np.copyto`` and ``np.concatenate`` first call a Python dispatcher (the ``__array_function__`` protocol: it lists
the arguments a duck array could override), ~0.35 µs a call, a third to a half of the whole call on the arrays of a
small training step (SLEEF's exp on a sigmoid's 192 values makes five copies). The C functions below are what
those wrappers call once no argument overrides them, so on plain ``ndarray`` arguments they do the same thing.

NOTE: only for arrays core made itself (kernels' scratch and results, parameters' and gradients' ``_data``); a
duck array or an ``ndarray`` subclass with its own ``__array_function__`` must go through ``np.copyto``.
"""

from __future__ import annotations

import ctypes

import numpy as np

__all__ = ["copyto", "concatenate", "data_address"]

try:  # (NumPy 2's module; the public functions where it is missing)
    from numpy._core._multiarray_umath import concatenate, copyto
except ImportError:  # pragma: no cover - older NumPy layouts
    copyto, concatenate = np.copyto, np.concatenate


_addressof, _char_over = ctypes.addressof, ctypes.c_char.from_buffer


def data_address(a: np.ndarray) -> int:
    """The address of an ndarray's first element: ``a.__array_interface__["data"][0]``.

    NOTE: ``__array_interface__`` builds a dict of six entries on every read (~1.5 µs quiet, ~2.7 at load 3) and
    ``ndarray.ctypes.data`` a ``_ctypes`` object (~2.5 µs); for a writable, C-contiguous, non-empty array, ctypes'
    view of its buffer (a ``c_char`` laid over it) gives the same address in about a third of the time. The MKL-order
    dot and gemv kernels (``core._small_gemm``) read it on every call of a Linear's product, since their order
    follows a row's address mod 16 bytes. Anything else (a strided view, a read-only array) reads the interface."""
    if a.flags.writeable and a.flags.c_contiguous and a.size:
        return _addressof(_char_over(a))
    return a.__array_interface__["data"][0]
