"""``core._small_gemm``'s blocked FMA products run on one BLAS thread up to 2^26 multiply-adds (issue #23), with
the bits OpenBLAS's own threads give: its threads split rows and columns, never k, so each element's chains are
the same. Checked with the BLAS on two threads (where core can set its count), products above OpenBLAS's own
threading threshold, every operand layout a Linear's GEMMs take, with and without a bias."""

import numpy as np
import pytest

import core
from core import _blas_threads, _small_gemm

pytestmark = pytest.mark.skipif(not (_small_gemm.FMA_BLOCKS and _blas_threads.available()),
                                reason="the blocks are taken on the AMD Zen 4 only, and the BLAS's thread count must "
                                "be settable (OpenBLAS) to run them on two")

# (rows, K, columns, layout): a 784-256-128-10 MLP's forward and gradient products, one block to blocks of 192
SHAPES = [(64, 784, 256, "x @ W.T"), (64, 256, 128, "x @ W.T"), (64, 128, 256, "g @ W"), (128, 64, 256, "g.T @ h"),
          (256, 64, 784, "g.T @ x"), (300, 385, 500, "x @ W.T"), (97, 1000, 130, "g @ W")]


def _operands(m, k, n, layout, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    if layout == "x @ W.T":
        b = np.ascontiguousarray(b.T).T
    elif layout.startswith("g.T"):
        a = np.ascontiguousarray(a.T).T
    return a, b, rng.standard_normal(n).astype(np.float32)


@pytest.fixture
def two_blas_threads():
    before = core.get_num_threads()
    core.set_num_threads(2)
    yield
    core.set_num_threads(before)


@pytest.mark.parametrize("m,k,n,layout", SHAPES)
def test_blocks_on_one_thread_give_the_bits_of_the_blas_on_two(two_blas_threads, m, k, n, layout):
    a, b, c = _operands(m, k, n, layout, m + k + n)
    threads = _blas_threads._funcs()[0]()
    for bias in (None, c):
        routed = _small_gemm.mkl_gemm(a, b, bias)  # (the blocks, on one BLAS thread)
        threaded = _small_gemm._fma_blocks(a, b, bias)  # (the same blocks on the BLAS's two threads)
        assert np.array_equal(routed.view(np.uint32), threaded.view(np.uint32))
    assert _blas_threads._funcs()[0]() == threads  # (the BLAS's count comes back after each product)
