"""``core._openblas_chains``: NumPy's OpenBLAS made to compute in-order float32 FMA chains on an AVX2 CPU, so that
``mm``, ``addmm`` and a Linear's products of 4+ rows and 12+ columns keep MKL's bits off AVX-512 too.

Each block's chain is checked against an exact emulation of the chain (each step ``a * b + acc`` rounded once), in
every layout and at sizes that cross the kernel's edge tiles (12-row groups, 8-column edges, 320-column panels);
whole products (blocks, a bias, rows and columns past one GEMM's) against torch's, bit for bit."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core import _openblas_chains, _small_gemm
from tests.core.oracle import assert_float32_bits

pytestmark = pytest.mark.skipif(not _openblas_chains.chains_hold(),
                                reason="NumPy's BLAS here does not give the padded chains (chains_hold)")


@settings(max_examples=60, deadline=None)
@given(m=st.integers(1, 80), k=st.integers(1, 192), n=st.integers(1, 700), a_transposed=st.booleans(),
       b_transposed=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_one_block_is_the_in_order_fma_chain(m, k, n, a_transposed, b_transposed, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((k, m) if a_transposed else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if b_transposed else (k, n)).astype(np.float32)
    a, b = (a.T if a_transposed else a), (b.T if b_transposed else b)
    got = _openblas_chains.fma_blocks(a, b, None, [(0, k)], None)
    assert got.flags.c_contiguous and got.shape == (m, n)
    assert_float32_bits(got, _openblas_chains._emulated_chains(a, b))


@pytest.mark.parametrize("m,k,n", [(13000, 3, 12), (5, 700, 1000), (70, 385, 650), (64, 784, 256), (256, 64, 784),
                                   (40, 1000, 305)])
@pytest.mark.parametrize("layout", ["a @ b", "x @ W.T", "g.T @ x"])
def test_products_past_one_gemm_match_torch_bitwise(one_thread, m, k, n, layout):
    """Rows past ``_ROW_CHUNK``, columns past one panel, K in blocks of 192 and two halves, with and without a bias:
    ``mm`` and ``addmm`` through ``core._small_gemm``."""
    assert _small_gemm.FMA_BLOCKS
    rng = np.random.default_rng(m + k + n)
    a = rng.standard_normal((k, m) if layout == "g.T @ x" else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if layout == "x @ W.T" else (k, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    ta, tb = torch.tensor(a), torch.tensor(b)
    ca, cb = core.tensor(a), core.tensor(b)
    if layout == "x @ W.T":
        ta, tb, ca, cb = ta, tb.T, ca, cb.T
    elif layout == "g.T @ x":
        ta, ca = ta.T, ca.T
    assert_float32_bits(core.mm(ca, cb).numpy(), torch.mm(ta, tb).numpy())
    assert_float32_bits(core.addmm(core.tensor(bias), ca, cb).numpy(), torch.addmm(torch.tensor(bias), ta, tb).numpy())


def test_an_unpadded_gemm_is_not_the_chain_where_the_padding_is_needed():
    """The check has teeth: on an AVX2 CPU NumPy's own GEMM of the same operands differs from the chains (its edge
    tiles keep two accumulators), so ``chains_hold`` tells the two apart."""
    if not _small_gemm.PADDED_CHAINS:
        pytest.skip("NumPy's own GEMM gives the chains here (OpenBLAS's SkylakeX kernel)")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((13, 20)).astype(np.float32)
    b = rng.standard_normal((20, 325)).astype(np.float32)
    plain = np.asarray(a @ b)
    chains = _openblas_chains._emulated_chains(a, b)
    assert not np.array_equal(plain.view(np.int32), chains.view(np.int32))
    assert_float32_bits(_openblas_chains.fma_blocks(a, b, None, [(0, 20)], None), chains)
