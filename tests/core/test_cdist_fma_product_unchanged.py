"""``cdist``'s float32 FMA-chain product after the twenty-eighth session's cut gives the bits of the loop it replaced.

The reference is ``_product``'s loop as it stood before (commit 5a65a8d4), kept verbatim: each step cast a column to
float64, multiplied, added the float32 sum and rounded, in new arrays; now the features are float64 rows once and
each step multiplies into one float64 buffer, adds the sum in place and rounds into the float32 sum. Compared bit
for bit on random shapes (batches that broadcast), values and specials.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core.ops.cdist import _product


def _old_product(x, y):
    k = x.shape[-1]
    acc = np.zeros(x.shape[:-1] + (y.shape[-2],), np.float32)
    for i in range(k):
        acc = (x[..., :, i, None].astype(np.float64) * y[..., None, :, i] + acc).astype(np.float32)
    return acc


_SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 3e38, 1e-45]


@settings(max_examples=100, deadline=None)
@given(m=st.integers(8, 40), n=st.integers(16, 40), k=st.integers(1, 64), batch=st.sampled_from([(), (2,), (3, 1)]),
       other=st.sampled_from([(), (1,), (2,)]), seed=st.integers(0, 2 ** 32 - 1),
       specials=st.lists(st.sampled_from(_SPECIAL), max_size=3), scale=st.sampled_from([1.0, 1e-3, 1e20]))
def test_fma_product_gives_the_old_loops_bits(m, n, k, batch, other, seed, specials, scale):
    rng = np.random.default_rng(seed)
    if len(other) and len(batch) and batch[-1] != other[-1] and 1 not in (batch[-1], other[-1]):
        other = (1,)
    x = (rng.standard_normal(batch + (m, k)) * scale).astype(np.float32)
    y = (rng.standard_normal(other + (n, k)) * scale).astype(np.float32)
    x.reshape(-1)[rng.integers(0, x.size, len(specials))] = specials
    with np.errstate(all="ignore"):
        old, new = _old_product(x, y), _product(core.tensor(x), core.tensor(y)).numpy()
    assert old.shape == new.shape and old.dtype == new.dtype
    assert np.array_equal(old.view(np.uint32), new.view(np.uint32))
