"""``core._lane_sum.lane_row_sum`` of many short rows, summed on their transposed copy (lanes as rows, issue #23),
gives the bits of the route it replaced.

The reference below is ``lane_row_sum`` as it stood before the change (commit 47d21f4c), kept verbatim: the lanes'
chunks, the partial last chunk and the tree added on (rows, n) slices. hypothesis draws row counts across the edges
(1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 255, 256, 257, in one or two leading dims), row lengths 1..40 (shorter than
a vector, one or several vectors, a partial last one), 8 or 16 lanes, contiguous or strided rows, and float32
values with signed zeros (rows of -0 only too), infinities and NaNs; both must agree bit for bit. The torch
oracle tests of the sums are the softmax, log_softmax and cross-entropy oracle tests."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _lane_sum
from core._cascade_sum import in_order
from tests.core.oracle import assert_float32_bits
from tests.core.small_gemm_operands import SEEDS, SPECIALS, scatter, values

EDGES = [1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 255, 256, 257]


def _old_lane_row_sum(e, lanes):
    n = e.shape[-1]
    if n < lanes:
        if e.ndim > 1 and _lane_sum._short_rows(e):
            return np.add.reduce(_lane_sum._columns(e), axis=0, initial=np.float32(-0.0)).reshape(*e.shape[:-1], 1)
        return np.add.accumulate(e, axis=-1)[..., -1:]
    full, rest = divmod(n, lanes)
    acc = in_order(_lane_sum._to_front(e[..., :full * lanes].reshape(*e.shape[:-1], full, lanes), -2))
    if rest:
        acc[..., :rest] += e[..., full * lanes:]
    half = lanes // 2
    while half:
        acc = acc[..., :half] + acc[..., half:2 * half]
        half //= 2
    return acc


@settings(max_examples=300, deadline=None)
@given(rows=st.sampled_from(EDGES), lead=st.sampled_from([(), (2,), (3,)]), n=st.integers(1, 40),
       lanes=st.sampled_from([8, 16]), strided=st.booleans(), kind=st.integers(0, 2), seed=SEEDS,
       zero_rows=st.integers(0, 3), specials=st.lists(SPECIALS, max_size=6))
def test_short_rows_summed_side_by_side_give_the_old_bits(rows, lead, n, lanes, strided, kind, seed, zero_rows,
                                                          specials):
    rng = np.random.default_rng(seed)
    wide = values(rng, (*lead, rows, 2 * n if strided else n), kind)
    e = wide[..., ::2] if strided else wide
    flat = e.reshape(-1, n) if not strided else None
    for r in rng.integers(0, rows, zero_rows):
        e[..., r, :] = np.float32(-0.0)  # (a row of -0s: its sum's sign is the order's)
    if flat is not None:
        scatter(rng, specials, flat, flat)
    before = e.copy()
    with np.errstate(all="ignore"):
        new, old = _lane_sum.lane_row_sum(e, lanes), _old_lane_row_sum(e, lanes)
    assert new.shape == old.shape == (*lead, rows, 1) and new.dtype == np.float32
    assert_float32_bits(new, old)
    assert np.array_equal(e.view(np.uint32), before.view(np.uint32))  # the input is left as it was
