"""``core._small_gemm``'s faster dot-kernel route gives the bits of the route it replaced (twenty-fifth session).

The reference below is ``_dot_kernels``/``_dot_lanes`` as they stood before the cut (commit 9d38d74e), kept
verbatim; hypothesis draws shapes, row strides, start offsets and values (signed zeros, ties, wide exponents)
and both must agree bit for bit. The torch oracle tests of the same kernels are ``test_small_gemm_dot_bits.py``."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _small_gemm
from tests.core.small_gemm_operands import SEEDS, values

_FEW_GROUPS = 6
_CONTIGUOUS_FROM = 1024


def _old_dot_kernels(a, b):
    m, k = a.shape
    n = b.shape[1]
    if a.strides[0] == 0:
        a = np.ascontiguousarray(a)
    start, step = a.__array_interface__["data"][0] // 4, a.strides[0] // 4
    period = min(4 // math.gcd(step, 4), m)
    peels = [min(-(start + row * step) % 4, k) for row in range(period)]
    four = n // 4 * 4
    groups = [(cols, lanes) for cols, lanes in ((slice(0, four), 4), (slice(four, n), 8)) if cols.start < cols.stop]
    if all(k - min(peels) < lanes for _, lanes in groups):
        return _small_gemm._chain(a, b, None)
    out = np.empty((m, n), np.float32)
    for row, peel in enumerate(peels):
        rows = slice(row, None, period)
        for cols, lanes in groups:
            out[rows, cols] = _old_dot_lanes(a[rows], b[:, cols], peel, lanes).T
    return out


def _old_dot_lanes(x, b, peel, lanes):
    (m, k), n = x.shape, b.shape[1]
    products = np.empty((k, n, m), np.float32)
    if k * m >= _CONTIGUOUS_FROM:
        x = np.ascontiguousarray(x.T).T
    np.multiply(b[:, :, None], x.T[:, None, :], out=products)
    body = (k - peel) // lanes
    total = products[0].copy() if peel or not body else None
    for i in range(1, peel):
        total += products[i]
    if body:
        if peel:
            products[peel] += total
        groups = products[peel:peel + body * lanes].reshape(body, lanes, n, m)
        if body > _FEW_GROUPS:
            acc = np.add.reduce(groups.reshape(body, -1), 0).reshape(groups.shape[1:])
        else:
            acc = groups[0] + groups[1] if body > 1 else groups[0]
            for i in range(2, body):
                acc += groups[i]
        if lanes == 8:
            acc = acc[:4] + acc[4:]
        total = (acc[0] + acc[2]) + (acc[1] + acc[3])
    for i in range(peel + body * lanes if body or peel else 1, k):
        total += products[i]
    total += 0
    return total


@settings(max_examples=300, deadline=None)
@given(m=st.integers(2, 40), k=st.integers(1, 70), n=st.integers(2, 11), offset=st.integers(0, 3),
       extra=st.integers(0, 5), kind=st.integers(0, 2), seed=SEEDS)
def test_dot_kernels_give_the_old_routes_bits(m, k, n, offset, extra, kind, seed):
    rng = np.random.default_rng(seed)
    buf = values(rng, offset + m * (k + extra) + 4, kind)
    x = np.lib.stride_tricks.as_strided(buf[offset:], (m, k), ((k + extra) * 4, 4))  # rows at any phase
    w = values(rng, (n, k), kind)
    new, old = _small_gemm._dot_kernels(x, w.T), _old_dot_kernels(x, w.T)
    assert new.flags.c_contiguous and new.shape == (m, n)
    assert np.array_equal(new.view(np.uint32), old.view(np.uint32))
