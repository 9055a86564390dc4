"""``core._small_gemm``'s blocked FMA products that add the bias into the first block's fresh product (``c + part`` in
place, no broadcast copy of the bias, issue #23) give the bits of the route they replaced, in every layout.

The reference is ``_fma_blocks`` before the blocks by columns (``test_gemm_fma_blocks_by_columns._old_fma_blocks``,
kept verbatim there: the bias broadcast into a new array, then each block added). hypothesis draws the layouts
(a row-major or transposed ``a``, ``b`` row-major or a transposed weight, so both routes), K over one block, two
halves even and odd, and blocks of 192 with a short last one, and float32 values with special values in the bias and
the operands; both must agree bit for bit (NaN where NaN). The torch oracle tests are
``test_gemm_fma_blocks_bits.py``."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _small_gemm
from tests.core.oracle import assert_float32_bits
from tests.core.test_gemm_fma_blocks_by_columns import _old_fma_blocks

# NOTE: the reference is NumPy's own GEMM, MKL's chains only with OpenBLAS's SkylakeX kernel (AVX-512); on an AVX2 CPU
# ``_fma_blocks`` takes ``core._openblas_chains`` instead (test_openblas_chains.py), and this route is not run
pytestmark = pytest.mark.skipif(not _small_gemm.FMA_BLOCKS or _small_gemm.PADDED_CHAINS,
                                reason="the route under test is taken on the AMD Zen 4 (AVX-512) only")

_SPECIALS = st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 3e38, -3e38])


@settings(max_examples=150, deadline=None)
@given(m=st.integers(4, 100), k=st.one_of(st.integers(1, 200), st.integers(190, 400), st.integers(380, 1000)),
       n=st.integers(12, 300), a_transposed=st.booleans(), b_transposed=st.booleans(), bias=st.booleans(),
       seed=st.integers(0, 2 ** 32 - 1), specials=st.lists(_SPECIALS, max_size=6))
def test_blocks_from_the_bias_give_the_old_bits(m, k, n, a_transposed, b_transposed, bias, seed, specials):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((k, m) if a_transposed else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if b_transposed else (k, n)).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32) if bias else None
    for i, value in enumerate(specials):  # a few special values in the bias and the operands
        target = (a, b, c if c is not None else a)[i % 3]
        target.reshape(-1)[rng.integers(target.size)] = value
    a, b = (a.T if a_transposed else a), (b.T if b_transposed else b)
    saved = [t.copy() for t in (a, b, c) if t is not None]
    with np.errstate(all="ignore"):
        got, want = _small_gemm._fma_blocks(a, b, c), _old_fma_blocks(a, b, c)
    assert got.dtype == np.float32 and got.flags.c_contiguous and got.shape == want.shape == (m, n)
    assert_float32_bits(got, want)
    for before, after in zip(saved, (t for t in (a, b, c) if t is not None)):  # the operands are left as they were
        assert np.array_equal(before.view(np.uint32), after.view(np.uint32))
