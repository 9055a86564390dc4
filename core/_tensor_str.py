"""``torch._tensor_str``: where torch keeps ``get_printoptions``, ``printoptions`` and ``PRINT_OPTS`` (only
``set_printoptions`` is in torch's namespace), and the printer's pieces libraries call: ``_tensor_str(t, indent)``
(the bracketed values alone: PyTorch Geometric writes OFF files with it), ``_add_suffixes`` (a repr's closing
``, key=value`` list) and ``_str(t)`` (``repr``). core's printer
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


def _add_suffixes(tensor_str: str, suffixes, indent: int, force_newline: bool) -> str:
    """``tensor_str`` with ``, suffix`` for each suffix and the closing parenthesis, a suffix that would pass the
    line width (or the first, with ``force_newline``) on a new line ``indent`` columns in."""
    parts = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if force_newline or last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
            force_newline = False
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
