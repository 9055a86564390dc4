"""``core._small_gemm_dot._dot_kernels`` of rows at one peel with N > 4 not a multiple of 4 (a 10-class head,
``x @ W.T``) from one (N, K, M) multiply gives the bits of the route it replaced (issue #23).

The reference below is the general branch of ``_dot_kernels`` as it stood before the cut (commit 71808ed6), kept
verbatim: each of W's two kernels (4 lanes, then 8) through ``_dot_lanes`` (unchanged) on its own columns. hypothesis
draws shapes with K past the few-group adds and the one-reduction route, x's address and row stride (a multiple of 4
floats, so every row takes one peel; other strides keep the old branch), and float32 values with signed zeros,
infinities and NaNs; both must agree bit for bit (NaN where NaN). The torch oracle tests of the same kernels are
``test_small_gemm_dot_bits.py``."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _small_gemm_chain, _small_gemm_dot
from tests.core.oracle import assert_float32_bits
from tests.core.small_gemm_operands import SEEDS, SPECIALS, scatter, values


def _old_dot_kernels(a, b):
    m, k = a.shape
    n = b.shape[1]
    if a.strides[0] == 0:
        a = np.ascontiguousarray(a)  # (a fresh buffer starts on a 16-byte boundary, as PyTorch's copy)
    start, step = a.__array_interface__["data"][0] // 4, a.strides[0] // 4
    period = min(4 // math.gcd(step, 4), m)
    peels = [min(-(start + row * step) % 4, k) for row in range(period)]
    four = n // 4 * 4
    groups = [(cols, lanes) for cols, lanes in ((slice(0, four), 4), (slice(four, n), 8)) if cols.start < cols.stop]
    if all(k - min(peels) < lanes for _, lanes in groups):
        return _small_gemm_chain._chain(a, b, None)
    out = np.empty((m, n), np.float32)
    for row, peel in enumerate(peels):
        rows = slice(row, None, period)
        for cols, lanes in groups:
            out[rows, cols] = _small_gemm_dot._dot_lanes(a[rows], b[:, cols], peel, lanes).T
    return out


@settings(max_examples=300, deadline=None)
@given(m=st.integers(2, 80), k=st.one_of(st.integers(1, 40), st.integers(41, 400)),
       n=st.sampled_from([5, 6, 7, 9, 10, 11, 13, 18, 30]), offset=st.integers(0, 3),
       extra=st.sampled_from([0, 4, 8, 12]), kind=st.integers(0, 2), seed=SEEDS,
       specials=st.lists(SPECIALS, max_size=6))
def test_two_kernels_give_the_old_routes_bits(m, k, n, offset, extra, kind, seed, specials):
    rng = np.random.default_rng(seed)
    width = -(-k // 4) * 4 + extra  # (a row stride of a multiple of 4 floats: every row at one peel)
    buf = values(rng, offset + m * width + 4, kind)
    x = np.lib.stride_tricks.as_strided(buf[offset:], (m, k), (width * 4, 4))
    w = values(rng, (n, k), kind)
    scatter(rng, specials, x, w)
    before = buf.copy(), w.copy()
    with np.errstate(all="ignore"):
        new, old = _small_gemm_dot._dot_kernels(x, w.T), _old_dot_kernels(x, w.T)
    assert new.dtype == old.dtype == np.float32 and new.flags.c_contiguous and new.shape == old.shape == (m, n)
    assert_float32_bits(new, old)
    assert np.array_equal(buf.view(np.uint32), before[0].view(np.uint32))  # the operands are left as they were
    assert np.array_equal(w.view(np.uint32), before[1].view(np.uint32))


def test_a_ten_class_head_takes_the_one_multiply_route(monkeypatch):
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((64, 128)).astype(np.float32), rng.standard_normal((10, 128)).astype(np.float32)
    calls = []
    original = _small_gemm_dot._lane_sums

    def counted(products, peel, lanes, total):
        calls.append((products.shape, lanes))
        return original(products, peel, lanes, total)

    monkeypatch.setattr(_small_gemm_dot, "_lane_sums", counted)
    new = _small_gemm_dot._dot_kernels(x, w.T)
    assert calls == [((8, 128, 64), 4), ((2, 128, 64), 8)]
    assert_float32_bits(new, _old_dot_kernels(x, w.T))
