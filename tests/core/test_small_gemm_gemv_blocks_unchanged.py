"""``core._small_gemm_gemv._gemv_blocks`` with the products laid out as x is and their groups of 4 transposed as 16-byte
items gives the bits of the version it replaced (issue #23).

The reference below is ``_gemv_blocks`` as it stood before the cut (commit cc4079cd), kept verbatim: x's transpose
copied in blocks, one multiply, then the peel, the 4 lanes and the last products. hypothesis draws shapes, peels,
row strides (padded rows, a single column of a wider array) and float32 values (signed zeros, infinities and NaNs
among them), and both must agree bit for bit; the torch oracle tests are ``test_small_gemm_gemv_bits.py``."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _small_gemm_blocks, _small_gemm_dot, _small_gemm_gemv
from core._cascade_sum import in_order
from tests.core.oracle import assert_float32_bits
from tests.core.small_gemm_operands import SEEDS, SPECIALS, scatter


def _old_gemv_blocks(x, v, peel):
    k = x.shape[1]
    products = _small_gemm_blocks._transposed_copy(x) if x.flags.c_contiguous else x.T
    if np.may_share_memory(products, x):  # (x.T of a single column or a column-major x is a view: not in place)
        products = products * v[:, None]
    else:
        products *= v[:, None]  # (K, M)
    total = products[0].copy()
    for i in range(1, peel):
        total += products[i]
    groups = (k - peel) // 4
    if groups:
        products[peel] += total  # lane 0 starts at the peeled products' sum
        lanes = in_order(products[peel:peel + groups * 4].reshape(groups, 4, -1))
        total = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])
    for i in range(peel + groups * 4, k):  # (at most 3)
        total += products[i]
    total += 0  # NOTE: each lane starts at +0, so products that are all -0 give +0
    return total


def _old_gemv(x, v, c):
    m, k = x.shape
    if x.strides[0] == 0:
        x = np.ascontiguousarray(x)  # (a fresh buffer starts on a 16-byte boundary, as PyTorch's copy)
    out = np.empty(m, np.float32)
    blocks = m // 4 * 4
    if blocks:
        phase = x.__array_interface__["data"][0] // 4 % 4
        out[:blocks] = _old_gemv_blocks(x[:blocks], v[:, 0], min((x.strides[0] // 4 - phase - 1) % 4 + 1, k))
    peel = min(4 - v.__array_interface__["data"][0] // 4 % 4, k)
    cut = peel + (k - peel) // 8 * 8
    for first, lanes in ((blocks, 8), (blocks + 1, 4)):  # (the 1st and 3rd of the last rows, then the 2nd)
        rows = slice(first, m, 2) if lanes == 8 else slice(first, min(first + 1, m))
        if first >= m:
            continue
        total = _small_gemm_dot._dot_lanes(x[rows, :cut], v[:cut], peel, lanes)[0]
        for i in range(cut, k):  # (at most 7)
            total += x[rows, i] * v[i, 0]
        out[rows] = total
    if c is not None:
        out += c
    return out


_values = st.one_of(st.floats(-4, 4, width=32), SPECIALS)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 300), st.one_of(st.integers(1, 40), st.integers(41, 900)), st.integers(1, 4),
       st.integers(0, 5), st.booleans(), SEEDS, st.lists(_values, min_size=1, max_size=8))
def test_gemv_blocks_gives_the_bits_of_the_old_order(m, k, peel, pad, one_column, seed, specials):
    rng = np.random.default_rng(seed)
    peel = min(peel, k)  # (a single column: peel 1)
    width = 1 if one_column else k
    base = rng.standard_normal((m, width + pad)).astype(np.float32)
    vector = rng.standard_normal(width).astype(np.float32)
    scatter(rng, specials, base, vector[None], width)  # (within x's columns)
    x, before = base[:, :width], base.copy()
    new = _small_gemm_gemv._gemv_blocks(x, vector, peel if width > 1 else 1)
    old = _old_gemv_blocks(x, vector, peel if width > 1 else 1)
    assert new.dtype == old.dtype == np.float32 and new.shape == old.shape == (m,)
    assert_float32_bits(new, old)  # (a NaN's sign may differ: inf * 0 met in another order)
    assert np.array_equal(base.view(np.uint32), before.view(np.uint32))  # x is left as it was


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40), st.one_of(st.integers(1, 40), st.integers(41, 900)), st.integers(0, 3), st.integers(0, 3),
       st.integers(0, 5), st.booleans(), SEEDS, st.lists(_values, max_size=6))
def test_gemv_gives_the_bits_of_the_old_order(m, k, x_at, v_at, pad, bias, seed, specials):
    rng = np.random.default_rng(seed)
    base = rng.standard_normal(x_at + m * (k + pad)).astype(np.float32)
    x = base[x_at:].reshape(m, k + pad)[:, :k]  # (x's address and row stride set the blocks' peel)
    vector = rng.standard_normal(v_at + k).astype(np.float32)[v_at:, None]  # (its address, the last rows' peel)
    scatter(rng, specials, x, vector)
    c = rng.standard_normal(m).astype(np.float32) if bias else None
    new, old = _small_gemm_gemv._gemv(x, vector, c), _old_gemv(x, vector, c)
    assert new.dtype == old.dtype == np.float32 and new.shape == old.shape == (m,)
    assert_float32_bits(new, old)  # (a NaN's sign may differ: inf * 0 met in another order)
