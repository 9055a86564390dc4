"""core._blas_threads: NumPy's BLAS on one thread inside a block, the previous count restored after it."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from core import _blas_threads
from tests.core.reference_cpu import assert_bits_where_blocked

# NOTE: where core follows MKL's blocked sgemm (tests.core.reference_cpu: the AMD Zen 4 and Zen 3) these products are
# its bits in either orientation and on any thread count; elsewhere NumPy's, whose kernels (OpenBLAS's Haswell ones,
# measured on a Zen 3) round (W @ x.T).T and multithreaded products otherwise: within 6 ulps of each array's largest
# magnitude (4 of these 7 shapes differ)
OPENBLAS_AVX2_ULP = 6


def _count():
    funcs = _blas_threads._funcs()
    return funcs[0]() if funcs else None


def test_single_threaded_blocks_nest_and_restore_the_thread_count():
    before = _count()
    with _blas_threads.single_threaded():
        with _blas_threads.single_threaded():
            assert _count() == (1 if _blas_threads.available() else None)
        assert _count() == (1 if _blas_threads.available() else None)
        a = np.ones((64, 64), np.float32)
        assert (a @ a == 64).all()
    assert _count() == before


def test_concurrent_single_threaded_blocks_restore_the_count_once_the_last_one_leaves():
    before = _count()
    inside, release = threading.Barrier(2), threading.Event()

    def worker():
        with _blas_threads.single_threaded():
            inside.wait()
            release.wait()

    thread = threading.Thread(target=worker)
    thread.start()
    with _blas_threads.single_threaded():
        inside.wait()
    assert _count() == (1 if _blas_threads.available() else None)  # the worker is still inside
    release.set()
    thread.join()
    assert _count() == before


def test_run_single_threaded_calls_on_one_thread_and_restores_the_count():
    before = _count()
    seen = _blas_threads.run_single_threaded(_count)
    assert seen == (1 if _blas_threads.available() else None)
    assert _count() == before


def _one_thread_product(a, b, c=None):
    """``a @ b`` (+ ``c``) as core computes it on one thread: ``core._small_gemm``'s MKL order where its route
    holds on this CPU (the AMD Zen 4's and Zen 3's blocked FMA kernel for 4+ rows and 12+ columns), else NumPy's
    GEMM."""
    from core import _small_gemm

    with _blas_threads.single_threaded():
        got = _small_gemm.mkl_gemm(a, b, c)
        if got is None:
            got = a @ b if c is None else a @ b + c
    return got


def test_a_small_linear_gives_the_one_thread_blas_bits_whatever_the_thread_count():
    """nn.Linear's GEMMs up to ``_ONE_THREAD_GEMM`` multiply-adds run on one BLAS thread (OpenBLAS's threads
    made a training step wait on them; for some shapes they also round otherwise), so its output, input and
    weight gradients are the single-threaded products' bits."""
    import core
    from core.nn.functional import misc

    rng = np.random.default_rng(0)
    x, w, g = (rng.standard_normal(s).astype(np.float32) for s in ((64, 2000), (256, 2000), (64, 256)))
    assert 64 * 2000 * 256 <= misc._ONE_THREAD_GEMM
    want = (_one_thread_product(x, w.T), _one_thread_product(g, w), _one_thread_product(g.T, x))
    xt, wt = core.tensor(x, requires_grad=True), core.tensor(w, requires_grad=True)
    out = core.nn.functional.linear(xt, wt)
    out.backward(core.tensor(g))
    for got, expected in zip((out, xt.grad, wt.grad), want):
        assert_bits_where_blocked(got.detach().numpy(), expected, OPENBLAS_AVX2_ULP, of_largest=True)


@pytest.mark.parametrize("m, k, n", [(64, 784, 256), (32, 784, 256), (1, 5, 7), (1, 300, 6), (65, 100, 128),
                                     (256, 512, 512), (64, 256, 12)])
def test_a_linear_forward_gives_numpys_bits_in_either_gemm_orientation(m, k, n):
    """A batch of at most half the outputs is computed as (W @ xᵀ)ᵀ, faster on OpenBLAS: the same dot products,
    so the output (and its layout) is the one-thread product's ``x @ Wᵀ + b``, bit for bit: NumPy's GEMM, or
    where ``core._small_gemm``'s route holds on this CPU (on the AMD Zen 4: MKL's blocked FMA order for 4+ rows
    and 12+ outputs, its dot kernels' for 2-3 rows or fewer outputs) that route's."""
    import core

    rng = np.random.default_rng(m * k * n)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((m, k), (n, k), (n,)))
    want = _one_thread_product(x, w.T)
    got = core.nn.functional.linear(core.tensor(x), core.tensor(w), core.tensor(b)).numpy()
    assert got.flags.c_contiguous
    assert_bits_where_blocked(got, _one_thread_product(x, w.T, b), OPENBLAS_AVX2_ULP, of_largest=True)
    assert_bits_where_blocked(core.nn.functional.linear(core.tensor(x), core.tensor(w)).numpy(), want,
                              OPENBLAS_AVX2_ULP, of_largest=True)


def test_set_num_threads_sets_numpys_blas_count_as_torchs_sets_its_own(torch):
    """``torch.set_num_threads(1)`` puts torch's BLAS and LAPACK on one thread; core's puts NumPy's there (inside a
    ``single_threaded`` block, as the count the block restores), and a Cholesky factor and product come out as
    NumPy's on one thread, bit for bit (BoTorch's get_sampler tests factor a 22000 x 22000 covariance)."""
    import core

    if not _blas_threads.available():
        pytest.skip("no OpenBLAS found in this process: NumPy's BLAS keeps its own thread count")
    before, threads, one = _count(), core.get_num_threads(), _blas_threads._state["one"]
    torch_threads = torch.get_num_threads()
    rng = np.random.default_rng(5)
    a = rng.standard_normal((700, 700))
    spd = a @ a.T / 700 + np.eye(700)
    try:
        core.set_num_threads(1)
        torch.set_num_threads(1)
        assert (_count(), core.get_num_threads()) == (1, torch.get_num_threads())
        want = np.linalg.cholesky(spd), a @ a
        factor = core.linalg.cholesky(core.tensor(spd))
        assert np.array_equal(factor.numpy(), want[0]) and np.array_equal((core.tensor(a) @ core.tensor(a)).numpy(),
                                                                           want[1])
        core.set_num_threads(2)
        with _blas_threads.single_threaded():
            assert _count() == 1
            core.set_num_threads(3)
            assert _count() == 1
        assert _count() == 3
    finally:
        torch.set_num_threads(torch_threads)
        core.set_num_threads(threads)
        _blas_threads.set_threads(before)
        _blas_threads._state["one"] = one
    assert _count() == before
