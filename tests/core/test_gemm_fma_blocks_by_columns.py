"""``core._small_gemm``'s blocked FMA products of a Linear's forward with the batch as the GEMMs' columns (``W @ x.T``
per block, issue #23) give the bits of the column-major route they replaced.

The reference below is ``_fma_blocks`` as it stood before the cut (commit dfec033e), kept verbatim. hypothesis
draws batches, K (one block, two halves even and odd, blocks of 192 with a short last one), outputs and values,
with and without a bias; both must agree bit for bit (the small-matrix kernels' region included, where the new
route keeps the old call). The torch oracle tests are ``test_gemm_fma_blocks_bits.py``."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _small_gemm

# NOTE: the reference is NumPy's own GEMM, MKL's chains only with OpenBLAS's SkylakeX kernel (AVX-512); on an AVX2 CPU
# ``_fma_blocks`` takes ``core._openblas_chains`` instead (test_openblas_chains.py), and this route is not run
pytestmark = pytest.mark.skipif(not _small_gemm.FMA_BLOCKS or _small_gemm.PADDED_CHAINS,
                                reason="the route under test is taken on the AMD Zen 4 (AVX-512) only")


def _old_fma_blocks(a, b, c):
    k = a.shape[1]
    a = np.asfortranarray(a)
    if not (b.flags.c_contiguous or b.flags.f_contiguous):
        b = np.asfortranarray(b)
    if k <= 192:
        blocks, last = [(0, k)], None
    elif k <= 2 * 192:
        half = k // 2
        blocks, last = [(0, half), (half, 2 * half)], (2 * half if k % 2 else None)
    else:
        blocks, last = [(s, min(s + 192, k)) for s in range(0, k, 192)], None
    out = None if c is None else np.array(np.broadcast_to(c, (a.shape[0], b.shape[1])), order="C")
    for start, stop in blocks:
        part = a[:, start:stop] @ b[start:stop]
        if out is None:
            out = part
        else:
            out += part
    if last is not None:
        out += a[:, last, None] * b[last]
    return out if out.flags.c_contiguous else np.ascontiguousarray(out)


def _assert_same(m, k, n, bias, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((n, k)).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32) if bias else None
    got, want = _small_gemm._fma_blocks(x, w.T, c), _old_fma_blocks(x, w.T, c)
    assert got.flags.c_contiguous and got.shape == (m, n)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("m,k,n", [(64, 784, 256), (64, 256, 128), (32, 784, 256), (64, 385, 512), (4, 1000, 300),
                                   (128, 383, 256), (16, 100, 1000), (64, 1299, 700)])
def test_a_linears_forward_by_columns_gives_the_old_bits(m, k, n):
    for bias in (False, True):
        _assert_same(m, k, n, bias, m * k + n)


@settings(max_examples=120, deadline=None)
@given(st.integers(4, 130), st.integers(1, 1300), st.integers(0, 900), st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_random_forward_products_give_the_old_bits(m, k, extra, bias, seed):
    n = 2 * m + extra  # (the route's batch: at most half the outputs)
    if m * n * k > _small_gemm.FMA_BLOCKS_LIMIT // 8:
        return
    _assert_same(m, k, n, bias, seed)
