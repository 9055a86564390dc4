"""The dense array a sparse tensor keeps beside its entries, for ``core._sparse_coo`` and ``core._sparse_compressed``.

A COO or compressed tensor holds PyTorch's description (indices and values) and also the dense array those entries
make, in ``Tensor``'s own ``_data`` slot, which every op computes with. A write through ``values()`` (or an index
getter) moves the shared version counter without touching that array, so ``DenseMirror`` stands in for ``_data``
on the sparse classes and brings the two back in step (the class's sync method) before handing the array out.
"""

from __future__ import annotations

import numpy as np

from core._tensor import Tensor

__all__ = ["DENSE_SLOT", "DenseMirror", "same"]

DENSE_SLOT = Tensor.__dict__["_data"]  # (Tensor's own slot: the dense array, read and written without syncing)


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two arrays hold the same shape and elements (NaN equal to NaN): the entries a sync compares with
    their last snapshot."""
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))


class DenseMirror:
    """``_data`` of a sparse tensor: the dense array its entries make, brought up to date first, by the method named
    ``sync``, when a write moved the version counter past the attribute named ``synced`` (the version last synced)."""

    __slots__ = ("synced", "sync")

    def __init__(self, synced: str, sync: str):
        self.synced, self.sync = synced, sync

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        if obj._vc[0] != getattr(obj, self.synced):
            getattr(obj, self.sync)()
        return DENSE_SLOT.__get__(obj, cls)

    def __set__(self, obj, value) -> None:
        DENSE_SLOT.__set__(obj, value)
