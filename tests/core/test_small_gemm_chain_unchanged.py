"""``core._small_gemm_chain._chain`` with short rows of lanes laid out (K, M, N) and summed by einsum's C core gives the
bits of the version it replaced (issue #23).

The reference below is ``_chain`` as it stood before the cut (commit fc22d715), kept verbatim: the products laid out
with the longer of M and N last and added along k by ``np.add.reduce`` (from ``initial=0`` without a start).
hypothesis draws shapes on both sides of ``_BROADCAST_LANES``, transposed and strided operands, a start or none, and
float32 and float64 values (signed zeros, all-zero products, wide exponents, infinities and NaNs among them); both must
agree bit for bit (NaN where NaN: inf * 0 met with the operands in the other order may give the other NaN). The
torch oracle tests of the products that take the chain are ``test_small_gemm_bits.py`` and
``test_small_gemm_gemv_bits.py``."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _small_gemm_chain
from core._cascade_sum import in_order
from tests.core.oracle import assert_float32_bits
from tests.core.small_gemm_operands import FILLS, LAYOUTS, SEEDS, SPECIALS, layout_operands


def _old_chain(a, b, start):
    m, k = a.shape
    n = b.shape[1]
    out = np.empty((m, n), a.dtype)
    rows, lanes, target = (b, a.T, out.T) if m >= n else (a.T, b, out)  # (k, outer), (k, inner), (outer, inner)
    outer, inner = target.shape
    if inner >= _small_gemm_chain._BROADCAST_LANES:
        products = np.empty((k, outer, inner), a.dtype)
        np.multiply(rows[:, :, None], np.ascontiguousarray(lanes)[:, None, :], out=products)
    else:
        products = np.ascontiguousarray(rows).reshape(-1).repeat(inner)  # (the method: np.repeat's wrapper ~0.6 µs)
        products *= np.ascontiguousarray(lanes).repeat(outer, axis=0).reshape(-1)
        products = products.reshape(k, outer, inner)
    if start is not None:
        products[0] += start[:, None] if m >= n else start
    if inner < 2:
        target[...] = in_order(products) if start is not None else in_order(products) + 0
    elif start is not None:
        np.add.reduce(products, 0, out=target)
    else:
        np.add.reduce(products, 0, out=target, initial=0)
    return out


def _same_bits(new, old):
    if new.dtype == np.float32:
        assert_float32_bits(new, old)
    else:
        nan = np.isnan(old)
        assert (np.isnan(new) == nan).all()
        assert np.array_equal(new[~nan].view(np.uint64), old[~nan].view(np.uint64))


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 20), st.one_of(st.integers(1, 8), st.integers(9, 400)), st.integers(1, 20),
       st.sampled_from(["float32", "float64"]), LAYOUTS, st.sampled_from(["none", "values", "zeros"]), FILLS, SEEDS,
       st.lists(SPECIALS, max_size=6))
def test_chain_gives_the_bits_of_the_old_layout(m, k, n, dtype, layout, start_kind, fill, seed, specials):
    # (fill "zeros": every product a signed zero, +0 from the empty start, the start's sign with one)
    a, b, rng = layout_operands(m, k, n, layout, fill, seed, specials, np.dtype(dtype))
    start = None if start_kind == "none" else rng.standard_normal(n).astype(dtype)
    if start_kind == "zeros":
        start[...] = -0.0
    a_before, b_before = a.copy(), b.copy()
    new, old = _small_gemm_chain._chain(a, b, start), _old_chain(a, b, start)
    assert new.dtype == old.dtype == a.dtype and new.shape == old.shape == (m, n) and new.flags.c_contiguous
    _same_bits(new, old)
    assert np.array_equal(a, a_before, equal_nan=True) and np.array_equal(b, b_before, equal_nan=True)
