"""Sparse gradients: ``nn.Embedding(sparse=True)``'s weight gradient and how a leaf's ``.grad`` accumulates it.

PyTorch's sparse embedding backward gives a COO tensor whose indices are the looked-up rows in lookup order
(the padding row's lookups left out) and whose values are the matching rows of the output gradient, uncoalesced.
Accumulating into ``.grad`` follows PyTorch's AccumulateGrad: the first sparse gradient is stored as it is; a
second is merged in (``sparse_add``); a dense ``.grad`` adds it densely.
"""

from __future__ import annotations

import numpy as np

from core._backend import to_numpy_array
from core._sparse_coo import _make

__all__ = ["embedding_sparse_grad", "accumulate_sparse", "sparse_add", "clear_sparse"]


def embedding_sparse_grad(g, idx, padding_idx, num: int, scale=None):
    """The (num, features) COO gradient of an embedding lookup with indices ``idx`` and output gradient ``g``."""
    values = to_numpy_array(g._data)
    index = to_numpy_array(idx).reshape(-1).astype(np.int64)
    if scale is not None:  # scale_grad_by_freq: each lookup's row over its count in the batch
        values = values * to_numpy_array(scale).reshape(scale.shape + (1,) * (values.ndim - scale.ndim))
    features = values.shape[idx.ndim:]
    values = values.reshape((index.shape[0],) + features).astype(g._data.dtype, copy=False)
    if padding_idx is not None:
        keep = index != padding_idx
        index, values = index[keep], values[keep]
    return _make(index.reshape(1, -1), np.ascontiguousarray(values), (num,) + features, coalesced=False)


def accumulate_sparse(leaf, g) -> None:
    """Add the sparse gradient ``g`` into ``leaf``'s ``.grad`` as PyTorch's AccumulateGrad does."""
    old = leaf._grad
    if old is None:
        leaf._grad = g
    elif old.is_sparse:
        leaf._grad = sparse_add(old, g)
    else:
        old._data += g._data.astype(old._data.dtype, copy=False)
        old._vc[0] += 1


def sparse_add(a, b):
    """``a + b`` of two COO tensors as PyTorch's CPU kernel adds them: one merge pass over both entry lists.

    NOTE: the pass takes the entry with the smaller index (compared row-major) and sums two equal ones, as if
    both lists were sorted. On uncoalesced inputs that leaves PyTorch's particular order and duplicates; the
    result is coalesced only when both inputs are.
    """
    keys_a, keys_b = (np.ravel_multi_index(tuple(t._sp_indices), t.shape[:t.sparse_dim()]) for t in (a, b))
    values = np.result_type(a._sp_values, b._sp_values)
    picked, out = [], []
    i = j = 0
    while i < len(keys_a) and j < len(keys_b):
        if keys_a[i] < keys_b[j]:
            picked.append(keys_a[i]), out.append(a._sp_values[i])
            i += 1
        elif keys_a[i] > keys_b[j]:
            picked.append(keys_b[j]), out.append(b._sp_values[j])
            j += 1
        else:
            picked.append(keys_a[i]), out.append(a._sp_values[i] + b._sp_values[j])
            i, j = i + 1, j + 1
    picked += list(keys_a[i:]) + list(keys_b[j:])
    out += list(a._sp_values[i:]) + list(b._sp_values[j:])
    shape = a.shape[:a.sparse_dim()]
    indices = np.stack(np.unravel_index(np.asarray(picked, dtype=np.int64), shape)).astype(np.int64)
    stacked = np.array(out, dtype=values).reshape((len(out),) + a._sp_values.shape[1:])
    return _make(indices.reshape(len(shape), -1), stacked, a.shape, a.is_coalesced() and b.is_coalesced())


def clear_sparse(g) -> None:
    """Empty the sparse tensor ``g`` in place (no entries, same sparse and dense dims), as ``zero_()`` does."""
    g._sp_indices = g._sp_indices[:, :0]
    g._sp_values = g._sp_values[:0]
    g._sp_coalesced = True
