"""``sorting._head_order`` (topk's head) after the twenty-eighth session's cut gives the indices of the old code.

The reference is ``_head_order`` as it stood before (commit 5a65a8d4), kept verbatim: an ``argpartition`` of the keys,
its head sorted; now a ``partition`` of the values finds the m-th smallest key and the keys at or below it are the
head, rows that tie there taking the full sort as before. Both on the same rows (ties, signed zeros, infinities,
repeated values, any dim, largest or smallest), index for index.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.ops.sorting import _head_order, sort_indices


def _old_head_order(x, dim: int, largest: bool, m: int):
    n = x.shape[dim]
    if x.dtype.kind != "f" or not 0 < 4 * m <= n or np.isnan(x).any():
        return np.take(sort_indices(x, dim, largest), np.arange(m), axis=dim)
    rows = np.moveaxis(x, dim, -1).reshape(-1, n)
    key = -rows if largest else rows
    part = np.sort(np.argpartition(key, m - 1, axis=1)[:, :m], axis=1)
    head_keys = np.take_along_axis(key, part, 1)
    head = np.take_along_axis(part, np.argsort(head_keys, axis=1, kind="stable"), 1)
    tied = np.flatnonzero((key <= head_keys.max(axis=1, keepdims=True)).sum(axis=1) != m)
    if len(tied):
        head[tied] = sort_indices(rows[tied], 1, largest)[:, :m]
    return np.moveaxis(head.reshape(np.moveaxis(x, dim, -1).shape[:-1] + (m,)), -1, dim)


@settings(max_examples=200, deadline=None)
@given(shape=st.lists(st.integers(1, 30), min_size=1, max_size=3), dim=st.integers(0, 2), m=st.integers(1, 12),
       largest=st.booleans(), levels=st.sampled_from([0, 3, 20]), dtype=st.sampled_from([np.float32, np.float64]),
       seed=st.integers(0, 2 ** 32 - 1), specials=st.lists(st.sampled_from([0.0, -0.0, np.inf, -np.inf]),
                                                            max_size=4))
def test_head_order_gives_the_old_indices(shape, dim, m, largest, levels, dtype, seed, specials):
    rng = np.random.default_rng(seed)
    dim = dim % len(shape)
    x = (rng.integers(-levels, levels + 1, shape) if levels else rng.standard_normal(shape)).astype(dtype)
    x.reshape(-1)[rng.integers(0, x.size, len(specials))] = specials
    m = min(m, x.shape[dim])
    old, new = _old_head_order(x, dim, largest, m), _head_order(x, dim, largest, m)
    assert old.shape == new.shape and np.array_equal(old, new)
