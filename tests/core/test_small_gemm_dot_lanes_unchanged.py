"""``core._small_gemm_dot``'s dot kernels of one kernel (N a multiple of 4, or N < 4) and of rows at several
peels, each lane's rounded products added by one two-operand einsum (issue #23), give the bits of the route they
replaced.

The references below are ``_dot_kernels`` and ``_dot_lanes`` as they stood before the cut (commit 43babafb), kept
verbatim: the products laid out (K, N, M) by one broadcast multiply, then each lane's in-order sums. hypothesis
draws the edge sizes of the MLP rows (1, 7, 8, 9, 15, 16, 17, 63, 64, 65 ... 257 rows, K up to 1024), x's address
and row stride (rows at one peel or at several), W as the transposed view of its own array or of a wider one, and
float32 values with signed zeros, infinities and NaNs; both must agree bit for bit (NaN where NaN). The torch
oracle tests of the same kernels are ``test_small_gemm_dot_bits.py``."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _small_gemm_dot
from core._numpy_c import data_address
from core._small_gemm_chain import _chain
from tests.core.oracle import assert_float32_bits
from tests.core.small_gemm_operands import SEEDS, SPECIALS, scatter, values

_FEW_GROUPS = 6
_CONTIGUOUS_FROM = 1024
EDGES = [1, 2, 3, 7, 8, 9, 15, 16, 17, 63, 64, 65, 255, 256, 257]


def _old_dot_kernels(a, b):
    m, k = a.shape
    n = b.shape[1]
    if a.strides[0] == 0:
        a = np.ascontiguousarray(a)  # (a fresh buffer starts on a 16-byte boundary, as PyTorch's copy)
    start, step = data_address(a) // 4, a.strides[0] // 4
    if not step % 4 and (not n % 4 or n < 4):  # (one kind of row, one kernel: the usual Linear)
        peel = min(-start % 4, k)
        if k - peel < (4 if n >= 4 else 8):
            return _chain(a, b, None)
        return np.ascontiguousarray(_old_dot_lanes(a, b, peel, 4 if n >= 4 else 8).T)
    if not step % 4:  # (one kind of row, both kernels: a 10-class head)
        peel = min(-start % 4, k)
        return _chain(a, b, None) if k - peel < 4 else _small_gemm_dot._two_kernels(a, b, peel)
    period = min(4 // math.gcd(step, 4), m)
    peels = [min(-(start + row * step) % 4, k) for row in range(period)]
    four = n // 4 * 4
    groups = [(cols, lanes) for cols, lanes in ((slice(0, four), 4), (slice(four, n), 8)) if cols.start < cols.stop]
    if all(k - min(peels) < lanes for _, lanes in groups):
        return _chain(a, b, None)
    out = np.empty((m, n), np.float32)
    for row, peel in enumerate(peels):
        rows = slice(row, None, period)
        for cols, lanes in groups:
            out[rows, cols] = _old_dot_lanes(a[rows], b[:, cols], peel, lanes).T
    return out


def _old_dot_lanes(x, b, peel, lanes):
    (m, k), n = x.shape, b.shape[1]
    products = np.empty((k, n, m), np.float32)
    if k * m >= _CONTIGUOUS_FROM:  # (x.T's rows contiguous: its strided multiply took 37 µs for 64x128x8, 24)
        x = np.ascontiguousarray(x.T).T
    np.multiply(b[:, :, None], x.T[:, None, :], out=products)
    body = (k - peel) // lanes
    total = products[0].copy() if peel or not body else None
    for i in range(1, peel):
        total += products[i]
    if body:
        if peel:
            products[peel] += total  # lane 0 starts at the peeled products' sum
        groups = products[peel:peel + body * lanes].reshape(body, lanes, n, m)
        if body > _FEW_GROUPS:
            acc = np.add.reduce(groups.reshape(body, -1), 0).reshape(groups.shape[1:])  # in order (_chain)
        else:
            acc = groups[0] + groups[1] if body > 1 else groups[0]
            for i in range(2, body):
                acc += groups[i]
        if lanes == 8:
            acc = acc[:4] + acc[4:]
        acc = acc[:2] + acc[2:]  # (lanes 0 + 2 and 1 + 3 in one call)
        total = acc[0] + acc[1]
    for i in range(peel + body * lanes if body or peel else 1, k):
        total += products[i]
    total += 0  # NOTE: each lane starts at +0, so products that are all -0 give +0
    return total


def _operands(data, m, k, n):
    """x (m, k) at a drawn address and row stride, W.T (k, n) of its own array or of a wider one, with values
    (normal, small integers with signed zeros, or scaled over 2^+-30) and specials scattered in both."""
    rng = np.random.default_rng(data.draw(SEEDS))
    kind, offset = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 3))
    width = k + data.draw(st.sampled_from([0, 1, 2, 3, 4, 8]))
    buf = values(rng, offset + m * width + 4, kind)
    x = np.lib.stride_tricks.as_strided(buf[offset:], (m, k), (width * 4, 4))
    w = values(rng, (n, k + data.draw(st.sampled_from([0, 3]))), kind)[:, :k]
    scatter(rng, data.draw(st.lists(SPECIALS, max_size=6)), x, w)
    return x, w.T


@settings(max_examples=250, deadline=None)
@given(data=st.data(), m=st.sampled_from(EDGES), k=st.one_of(st.sampled_from(EDGES), st.integers(1, 1024)),
       n=st.sampled_from([1, 2, 3, 4, 8, 12, 16]), peel=st.integers(0, 3), lanes=st.sampled_from([4, 8]))
def test_one_kind_of_rows_lanes_give_the_old_routes_bits(data, m, k, n, peel, lanes):
    x, wt = _operands(data, m, k, n)
    peel = min(peel, k)
    with np.errstate(all="ignore"):
        new, old = _small_gemm_dot._dot_lanes(x, wt, peel, lanes), _old_dot_lanes(x, wt, peel, lanes)
    assert new.dtype == np.float32 and new.shape == old.shape == (n, m)
    assert_float32_bits(new, old)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), m=st.sampled_from(EDGES[1:]), k=st.one_of(st.sampled_from(EDGES), st.integers(1, 1024)),
       n=st.sampled_from([2, 3, 4, 8, 12, 5, 9, 10]))
def test_dot_kernels_of_one_kernel_or_several_peels_give_the_old_routes_bits(data, m, k, n):
    x, wt = _operands(data, m, k, n)
    with np.errstate(all="ignore"):
        new, old = _small_gemm_dot._dot_kernels(x, wt), _old_dot_kernels(x, wt)
    assert new.dtype == np.float32 and new.flags.c_contiguous and new.shape == old.shape == (m, n)
    assert_float32_bits(new, old)


def test_a_single_output_of_few_products_gives_the_old_routes_bits():
    rng = np.random.default_rng(7)
    for k in range(1, 24):
        for peel in range(min(k, 3) + 1):
            for lanes in (4, 8):
                x, w = values(rng, (1, k), 2), values(rng, (1, k), 2)
                new = _small_gemm_dot._dot_lanes(x, w.T, peel, lanes)
                assert_float32_bits(new, _old_dot_lanes(x, w.T, peel, lanes))


def test_numpys_two_operand_einsum_adds_rounded_products_in_order_here():
    assert _small_gemm_dot.einsum_holds()
