"""``_pool._window_sums`` (adaptive average pooling's sums) after the twenty-eighth session's cut gives the old bits.

The reference is ``_window_sums`` as it stood before (commit 5a65a8d4), kept verbatim: one advanced-indexing gather
per offset inside the largest window and a ``where`` for the windows shorter than it; now each offset is one
``take`` along the flattened spatial dims, a shorter window reading a zero placed after them. Both add the same
elements in the same order from +0; compared bit for bit on random sizes, 1-3 spatial dims, specials included.
"""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.nn.functional._pool import _window_sums, adaptive_bins


def _old_window_sums(a, bins):
    xp = np
    k = len(bins)
    spatial = a.shape[-k:]
    acc = xp.zeros(a.shape[:-k] + tuple(len(starts) for starts, _ in bins), a.dtype)
    for offsets in itertools.product(*(range(int(lens.max())) for _, lens in bins)):
        index, valid = [], np.ones((1,) * k, bool)
        for d, ((starts, lens), off) in enumerate(zip(bins, offsets)):
            shape = [1] * k
            shape[d] = -1
            index.append(xp.asarray(np.minimum(starts + off, spatial[d] - 1)).reshape(shape))
            valid = valid & (off < lens).reshape(shape)
        term = a[(Ellipsis, *index)]
        acc += term if valid.all() else xp.where(xp.asarray(valid), term, a.dtype.type(0))
    return acc


_SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 3e38, 1e-45]


@settings(max_examples=150, deadline=None)
@given(sizes=st.lists(st.integers(1, 12), min_size=1, max_size=3), outs=st.lists(st.integers(1, 8), min_size=3,
       max_size=3), lead=st.lists(st.integers(1, 3), min_size=0, max_size=2),
       dtype=st.sampled_from([np.float32, np.float64]), seed=st.integers(0, 2 ** 32 - 1),
       specials=st.lists(st.sampled_from(_SPECIAL), max_size=3), channels_last=st.booleans())
def test_window_sums_give_the_old_gathers_bits(sizes, outs, lead, dtype, seed, specials, channels_last):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(tuple(lead) + tuple(sizes)).astype(dtype)
    a.reshape(-1)[rng.integers(0, a.size, len(specials))] = specials
    if channels_last and a.ndim == 4:  # (a strided input, as a channels-last image)
        a = np.ascontiguousarray(a.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    bins = [adaptive_bins(n, o) for n, o in zip(sizes, outs)]
    with np.errstate(all="ignore"):
        old, new = _old_window_sums(a, bins), _window_sums(a, bins)
    assert old.dtype == new.dtype and old.shape == new.shape
    assert np.array_equal(np.ascontiguousarray(old).view(np.uint8), np.ascontiguousarray(new).view(np.uint8))
