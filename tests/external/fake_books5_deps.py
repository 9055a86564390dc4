"""Stand-ins for what ``recipes_books5.py``'s libraries import and is not installed here (the same in both runs).

Spotlight's ``layers`` and ``cross_validation`` import scikit-learn's ``murmurhash3_32`` (the runner's ``sklearn`` is
``fake_sklearn``, without it): MurmurHash3's x86 32-bit hash of each 4-byte integer, the textbook algorithm. Its
``interactions`` and ``evaluation`` import SciPy for a user-by-item matrix whose rows' ``indices`` they read
(``sparse.coo_matrix(...).tocsr()``) and for ``stats.rankdata`` (average ranks of ties).
"""

from __future__ import annotations

import sys

import numpy as np
from fake_stand_ins import module as _module

_M32 = 0xFFFFFFFF


def _rotl(x, r):
    return ((x << r) | (x >> (32 - r))) & _M32


def murmurhash3_32(key, seed=0, positive=False):
    """MurmurHash3 (x86, 32 bits) of each integer of ``key`` read as 4 little-endian bytes, as scikit-learn hashes an
    int32 array; an int32 result unless ``positive``."""
    scalar = np.isscalar(key)
    k = np.asarray(key).astype(np.int64).astype(np.uint64) & _M32
    h = np.full(k.shape, int(seed) & _M32, dtype=np.uint64)
    k = (k * 0xCC9E2D51) & _M32
    k = _rotl(k, np.uint64(15))
    k = (k * 0x1B873593) & _M32
    h ^= k
    h = _rotl(h, np.uint64(13))
    h = (h * 5 + 0xE6546B64) & _M32
    h ^= np.uint64(4)
    h ^= h >> np.uint64(16)
    h = (h * 0x85EBCA6B) & _M32
    h ^= h >> np.uint64(13)
    h = (h * 0xC2B2AE35) & _M32
    h ^= h >> np.uint64(16)
    out = h.astype(np.uint32) if positive else h.astype(np.uint32).view(np.int32)
    return out.item() if scalar else out


class _Row:
    """One row of a CSR matrix: its sorted column ``indices`` and ``data`` (duplicates summed, as SciPy's)."""

    def __init__(self, indices, data):
        self.indices, self.data = indices, data


class _CSR:
    """Rows of a sparse matrix, as ``enumerate(matrix)`` and ``matrix[i]`` give them."""

    def __init__(self, rows, shape):
        self._rows, self.shape = rows, shape

    def __getitem__(self, i):
        return self._rows[i]

    def __iter__(self):
        return iter(self._rows)

    def __len__(self):
        return self.shape[0]


class coo_matrix:  # (SciPy's name)
    """``coo_matrix((data, (row, col)), shape=...)``: enough for ``tocsr()``."""

    def __init__(self, arg, shape):
        data, (row, col) = arg
        self.data, self.row, self.col, self.shape = np.asarray(data), np.asarray(row), np.asarray(col), shape

    def tocsr(self):
        rows = []
        for r in range(self.shape[0]):
            sel = self.row == r
            cols, inverse = np.unique(self.col[sel], return_inverse=True)
            data = np.zeros(len(cols), dtype=self.data.dtype)
            np.add.at(data, inverse, self.data[sel])
            rows.append(_Row(cols.astype(np.int32), data))
        return _CSR(rows, self.shape)


def rankdata(a):
    """Ranks from 1, ties given their average rank (SciPy's default ``method='average'``)."""
    a = np.ravel(np.asarray(a))
    order = np.argsort(a, kind="mergesort")
    sorted_a = a[order]
    starts = np.r_[True, sorted_a[1:] != sorted_a[:-1]]
    group = np.cumsum(starts) - 1
    bounds = np.r_[np.nonzero(starts)[0], len(a)]
    average = (bounds[:-1] + bounds[1:] + 1) / 2.0
    ranks = np.empty(len(a))
    ranks[order] = average[group]
    return ranks


def install():
    """``sklearn.utils.murmurhash3_32``, ``scipy.sparse`` and ``scipy.stats`` importable, beside whatever ``sklearn``
    the runner gives."""
    scipy, sparse, stats = (_module(n) for n in ("scipy", "scipy.sparse", "scipy.stats"))
    scipy.__path__ = []
    sparse.coo_matrix, stats.rankdata, scipy.sparse, scipy.stats = coo_matrix, rankdata, sparse, stats
    sys.modules.update({"scipy": scipy, "scipy.sparse": sparse, "scipy.stats": stats})
    utils = _module("sklearn.utils")
    utils.murmurhash3_32 = murmurhash3_32
    sys.modules["sklearn.utils"] = utils
    if "sklearn" in sys.modules:
        sys.modules["sklearn"].utils = utils
    else:
        package = _module("sklearn")
        package.__path__ = []
        package.utils = utils
        sys.modules["sklearn"] = package
