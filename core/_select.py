"""``np.where(mask, a, b)`` bit for bit, without NumPy's branch on each element.

NumPy's ``where`` (and ``copyto(..., where=)``) branches on every element of the condition: on a random mask (an
activation's sign, a comparison of noise) the mispredictions cost ~4 ns an element, ~6x a branch-free select
(1M float32: 3.8 ms against 0.65 on the AMD EPYC Zen 4 here; a sorted mask costs both ~0.6). ``where`` here selects
by bits: ``b ^ ((a ^ b) & m)`` on the operands' unsigned-integer views, ``m`` all ones where the mask holds, which
is every bit of ``a`` or of ``b`` (NaN payloads, signed zeros) as NumPy's ``where`` gives them, in the same
broadcast shape, C-contiguous. It is taken for a NumPy boolean mask of at least ``_MIN_SIZE`` elements and two
operands (arrays or NumPy scalars) of one numeric dtype of 2, 4 or 8 bytes; anything else is ``np.where``'s.
"""

from __future__ import annotations

import numpy as np

__all__ = ["where"]

_UINTS = {2: np.uint16, 4: np.uint32, 8: np.uint64}
_MIN_SIZE = 4096  # below it NumPy's where (one call) is as fast as the select's four


def where(mask, a, b):
    """``np.where(mask, a, b)``, by a branch-free select where it can (see the module's note)."""
    if not (type(mask) is np.ndarray and mask.dtype == np.bool_ and mask.size >= _MIN_SIZE and _plain(a)
            and _plain(b) and a.dtype == b.dtype and a.dtype.kind in "fiuc" and a.dtype.itemsize in _UINTS):
        return np.where(mask, a, b)
    uint = _UINTS[a.dtype.itemsize]
    shape = np.broadcast_shapes(mask.shape, np.shape(a), np.shape(b))
    bits_a, bits_b = np.asarray(a).view(uint), np.asarray(b).view(uint)
    out = np.empty(shape, uint)
    np.bitwise_xor(bits_a, bits_b, out=out)
    # NOTE: a NumPy bool is one byte 0 or 1: its negative as the unsigned type is all zeros or all ones
    np.bitwise_and(out, np.negative(mask.view(np.uint8), dtype=uint), out=out)
    np.bitwise_xor(out, bits_b, out=out)
    return out.view(a.dtype)


def _plain(v) -> bool:
    return type(v) is np.ndarray or isinstance(v, np.generic)
