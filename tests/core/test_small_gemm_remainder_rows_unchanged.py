"""``core._small_gemm_chain._remainder_rows`` with its running sum's steps built lane by lane (``_block_slabs``), and
``_chain`` summing long rows of lanes by einsum's C core, give the bits of the versions they replaced (issue #23).

The references below are ``_remainder_rows`` and ``_chain`` as they stood before the cut (commit b4c7e0f5), kept
verbatim but for their names. hypothesis draws 2 to 9 rows, K on both sides of the blocks of 4 and 8, N of 5..11 and
13..70 not a multiple of 4 (and multiples of 4 for the chain alone), ``a`` row-major, transposed or strided, a bias or
none, and float32 values (signed zeros, all-zero products, wide exponents, infinities and NaNs among them); old and new
must agree bit for bit. The torch oracle tests of these products are ``test_small_gemm_remainder_rows_bits.py`` and
``test_small_gemm_few_rows_wide_bits.py`` (on the CPU they were measured on)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _small_gemm_chain
from core._cascade_sum import in_order
from core._small_gemm_chain import _BROADCAST_LANES, _KMN, _MN, _einsum
from tests.core.oracle import assert_float32_bits
from tests.core.small_gemm_operands import FILLS, LAYOUTS, SEEDS, SPECIALS, layout_operands


def _old_chain(a, b, start):
    m, k = a.shape
    n = b.shape[1]
    out = np.empty((m, n), a.dtype)
    if max(m, n) < _BROADCAST_LANES:
        products = np.ascontiguousarray(a.T).reshape(-1).repeat(n)  # (the method: np.repeat's wrapper ~0.6 µs)
        products *= np.ascontiguousarray(b).repeat(m, axis=0).reshape(-1)
        products = products.reshape(k, m, n)
        target = out
        if start is not None:
            products[0] += start
        elif m * n > 1:
            _einsum(products, _KMN, _MN, out=out)  # NOTE: out zeroed first, so -0 products give +0 (initial=0)
            return out
    else:
        rows, lanes, target = (b, a.T, out.T) if m >= n else (a.T, b, out)  # (k, outer), (k, inner), (outer, inner)
        products = np.empty((k, *target.shape), a.dtype)
        np.multiply(rows[:, :, None], np.ascontiguousarray(lanes)[:, None, :], out=products)
        if start is not None:
            products[0] += start[:, None] if m >= n else start
    if m * n < 2:
        target[...] = in_order(products) if start is not None else in_order(products) + 0
    elif start is not None:
        np.add.reduce(products, 0, out=target)
    else:
        np.add.reduce(products, 0, out=target, initial=0)
    return out


def _old_remainder_rows(a, b, c):
    out = _old_chain(a, b, c)
    r, k = b.shape[1] % 4, a.shape[1]
    for q in range(1, 4):
        cols = {1: int(q == 3) if b.shape[1] == 5 else 4 - q, 2: 2 * (q % 2), 3: q}[r]
        rows = a[q::4]
        if not cols or not rows.shape[0]:
            continue
        products = np.multiply(np.ascontiguousarray(rows.T)[:, :, None], b[:, None, :cols])  # (k, rows, cols)
        blocks = k // 4
        grouped = products[:blocks * 4].reshape(blocks, 4, *products.shape[1:])
        odd = grouped[1::2]
        sums = odd[:, 0] + odd[:, 1]
        sums += odd[:, 2]
        sums += odd[:, 3]
        steps = [grouped[i] if i % 2 == 0 else sums[i // 2, None] for i in range(blocks)] + [products[blocks * 4:]]
        slabs = np.concatenate(steps).reshape(-1, rows.shape[0] * cols)
        if c is not None:
            slabs[0] += np.tile(c[:cols], rows.shape[0])
        total = in_order(slabs) if c is not None else in_order(slabs) + 0  # NOTE: from +0 without a bias, as _chain
        out[q::4, :cols] = total.reshape(-1, cols)
    return out


_shapes = (st.integers(2, 9), st.one_of(st.integers(6, 40), st.integers(41, 700)),
           st.one_of(st.sampled_from([5, 6, 7, 9, 10, 11]), st.integers(13, 70).filter(lambda n: n % 4)))
_values = (LAYOUTS, st.sampled_from(["none", "values", "zeros"]), FILLS, SEEDS, st.lists(SPECIALS, max_size=6))


@settings(max_examples=300, deadline=None)
@given(*_shapes, *_values)
def test_remainder_rows_give_the_bits_of_the_old_slabs(m, k, n, layout, bias, fill, seed, specials):
    a, b, rng = layout_operands(m, k, n, layout, fill, seed, specials)
    c = None if bias == "none" else rng.standard_normal(n).astype(np.float32)
    if bias == "zeros":
        c[...] = -0.0
    a_before, b_before = a.copy(), b.copy()
    new, old = _small_gemm_chain._remainder_rows(a, b, c), _old_remainder_rows(a, b, c)
    assert new.shape == old.shape == (m, n) and new.dtype == np.float32 and new.flags.c_contiguous
    assert_float32_bits(new, old)
    assert np.array_equal(a, a_before, equal_nan=True) and np.array_equal(b, b_before, equal_nan=True)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.integers(1, 600), st.integers(1, 70), *_values)
def test_chain_without_a_start_gives_the_bits_of_the_reduction(m, k, n, layout, _bias, fill, seed, specials):
    a, b, _ = layout_operands(m, k, n, layout, fill, seed, specials)
    new, old = _small_gemm_chain._chain(a, b, None), _old_chain(a, b, None)
    assert new.shape == old.shape == (m, n) and new.flags.c_contiguous
    assert_float32_bits(new, old)


def test_the_two_row_weight_gradient_of_a_wide_layer_keeps_its_bits():
    """The product the issue timed, a Linear(50, 2)'s weight gradient g.T @ x on 10,000 samples (2.6 -> 1.2 ms)."""
    rng = np.random.default_rng(7)
    g, x = rng.standard_normal((10000, 2)).astype(np.float32), rng.standard_normal((10000, 50)).astype(np.float32)
    assert_float32_bits(_small_gemm_chain._remainder_rows(g.T, x, None), _old_remainder_rows(g.T, x, None))
