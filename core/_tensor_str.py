"""``torch._tensor_str``: where torch keeps ``get_printoptions``, ``printoptions`` and ``PRINT_OPTS`` (only
``set_printoptions`` is in torch's namespace), and the printer's pieces libraries call: ``_tensor_str(t, indent)``
(the bracketed values alone: PyTorch Geometric writes OFF files with it) and ``_str(t)`` (``repr``). core's printer
is ``core._printing``."""

from __future__ import annotations

import numpy as np

from core import _backend, _printing
from core._printing import PRINT_OPTS, get_printoptions, printoptions, set_printoptions

__all__ = ["PRINT_OPTS", "get_printoptions", "printoptions", "set_printoptions"]


def _tensor_str(self, indent: int) -> str:
    """The values of ``self`` as ``repr`` lays them out, without ``tensor(`` and the suffixes; ``indent`` columns
    before each continuation line."""
    arr = _backend.to_numpy_array(self.detach()._data)
    if arr.dtype.kind == "V":  # bfloat16, float8 (ml_dtypes): PyTorch formats their values as float32
        arr = arr.astype(np.float32)
    return _printing._tensor_str(arr, indent)


def _str(self, *, tensor_contents=None) -> str:
    """``repr(self)``."""
    return _printing.tensor_repr(self)
