"""``core._small_gemm.mkl_gemm`` with the route of each layout kept (``_PLANS``) gives what the dispatch it replaced
gave, bit for bit, None where it gave None (issue #23).

The reference below is ``mkl_gemm`` as it stood before the cut (commit 8c670935), kept verbatim: every call asked
every check. hypothesis draws shapes on both sides of the routes' limits, operands laid out as rows, transposed,
strided, expanded (a zero stride) or at an offset of 1..3 floats, biases of the result's width, of another shape or
dtype, or a number, float32 and float64 values with special values among them, and ``nested``. Each layout is
multiplied three times (the first call plans it, the next two take the kept route) with its operands at another
address in between, since the dot kernels' and gemv's orders follow the rows' addresses, which the kept route must
still read per call."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _small_gemm
from core._small_gemm import (
    _DTYPES,
    _NARROW,
    _ONE_THREAD_BLOCKS,
    ACTIVE,
    CHAIN_LIMIT,
    DOT_LIMIT,
    FMA_BLOCKS,
    FMA_BLOCKS_LIMIT,
    GEMV_LIMIT,
    LIMIT,
    _blas_threads,
    _chain,
    _chain_by_rows,
    _dot_kernels,
    _dot_kernels_by_rows,
    _dot_region,
    _fma_blocks,
    _gemv,
    _gemv_region,
    _in_order_region,
    _remainder_region,
    _remainder_rows,
    _small_gemm_zen3,
    _split_blocks,
    _split_rows,
    blas_ready,
    gemm_bf16,
    takes_bf16_order,
)
from tests.core.small_gemm_operands import SEEDS, SPECIALS


def _old_mkl_gemm(a, b, c=None, *, nested=False):
    if takes_bf16_order(a, b) and a.ndim == 2 and b.ndim == 2 \
            and (c is None or type(c) is np.ndarray and c.dtype is a.dtype and c.shape == b.shape[1:]):
        return gemm_bf16(a, b, c)  # bfloat16: oneDNN's order (core._bf16_gemm)
    a, b = blas_ready(a), blas_ready(b)
    if not ACTIVE or type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype is not b.dtype \
            or a.dtype not in _DTYPES or a.ndim != 2 or b.ndim != 2:
        return None
    (m, k), n = a.shape, b.shape[1]
    if not (1 if c is None else 0) < k or b.shape[0] != k:
        return None  # (K = 1 without a bias: one rounded product each, NumPy's too)
    size = a.itemsize
    a_transposed = a.strides[1] != size and a.strides[0] == size and m > 1
    b_transposed = b.strides[1] != size and b.strides[0] == size and (n > 1 or k > 1 and not a_transposed)
    if c is not None and (type(c) is not np.ndarray or c.dtype is not a.dtype or c.shape != (n,)):
        return None
    if size == 4 and (n == 1 and m > 1 or m == 1 and b_transposed) and m * n * k <= GEMV_LIMIT:
        x, v = (b.T, a.T) if m == 1 else (a, b)
        if _gemv_region(x, v):
            out = _gemv(x, v, c)
            return out.reshape(1, -1) if m == 1 else out.reshape(-1, 1)  # (torch's strides: [None] made a 0)
    if m == n == 1 and not b_transposed and k <= GEMV_LIMIT:
        return _chain(a, b, c)
    if size == 4 and (m == 1 and n > 1 and not b_transposed or n == 1 and a_transposed) and m * n * k <= GEMV_LIMIT:
        return _chain(a, b, c)
    if m >= 4 and n >= 12 and size == 4 and not FMA_BLOCKS:
        return None  # (NumPy's BLAS does not give the blocks' chains here: FMA_BLOCKS)
    if m >= 4 and n >= 12 and size == 4 and m * n * k <= FMA_BLOCKS_LIMIT:
        if not nested and _split_rows(m, k, n) \
                and (not b_transposed or a.strides[1] == size and a.strides[0] >= k * size):
            return _split_blocks(a, b, c, b_transposed)
        if m * n * k <= _ONE_THREAD_BLOCKS:
            return _blas_threads.run_single_threaded(_fma_blocks, a, b, c)
        return _fma_blocks(a, b, c)
    if size == 4 and not b_transposed and n in _NARROW and m >= 2 and LIMIT < m * n * k <= CHAIN_LIMIT:
        return _chain_by_rows(a, b, c)
    if size == 4 and _small_gemm_zen3.remainder_past_limit(m, k, n, b_transposed):
        return _small_gemm_zen3.remainder_rows(a, b, c)  # (N of 5..11 past LIMIT: measured on the Zen 3)
    if k > LIMIT // (m * n or LIMIT) \
            or not _in_order_region(m, k, n, a_transposed, b_transposed, a.itemsize == 8, c is not None):
        if _remainder_region(m, k, n, b_transposed, size):
            return _remainder_rows(a, b, c)
        if not (b_transposed and _dot_region(m, k, n, a, size)):
            return None
        out = _dot_kernels(a, b) if m * n * k <= DOT_LIMIT else _dot_kernels_by_rows(a, b)
        if c is not None:
            out += c
        return out
    start = c if c is not None and not b_transposed else None
    out = _chain(a, b, start)
    if c is not None and b_transposed:
        out += c
    return out


_LAYOUTS = st.sampled_from(["rows", "transposed", "strided", "expanded", "offset"])


def _laid_out(rng, rows, cols, layout, dtype, phase):
    """A (rows, cols) operand of ``dtype`` laid out as ``layout`` says; ``phase`` moves an "offset" one's start by
    that many elements (the same strides, another address)."""
    if layout == "rows":
        return rng.standard_normal((rows, cols)).astype(dtype)
    if layout == "transposed":
        return rng.standard_normal((cols, rows)).astype(dtype).T
    if layout == "strided":
        return rng.standard_normal((rows, 2 * cols + 1)).astype(dtype)[:, 1::2]
    if layout == "expanded":
        return np.broadcast_to(rng.standard_normal((1, cols)).astype(dtype), (rows, cols))
    flat = rng.standard_normal(rows * cols + 8).astype(dtype)
    return flat[1 + phase:1 + phase + rows * cols].reshape(rows, cols)


def _operands(seed, m, k, n, dtype, a_layout, b_layout, bias, specials, phase):
    rng = np.random.default_rng(seed)
    a, b = _laid_out(rng, m, k, a_layout, dtype, phase), _laid_out(rng, k, n, b_layout, dtype, 2 - phase)
    for i, value in enumerate(specials):
        target = b if i % 2 else a
        if target.flags.writeable:
            target[rng.integers(target.shape[0]), rng.integers(target.shape[1])] = value
    c = {"none": None, "bias": rng.standard_normal(n).astype(dtype), "row": rng.standard_normal((1, n)).astype(dtype),
         "other dtype": rng.standard_normal(n).astype(np.float64 if dtype == np.float32 else np.float32),
         "number": 0.5}[bias]
    return a, b, c


def _same(new, old):
    if old is None:
        assert new is None
        return
    assert new.shape == old.shape and new.dtype == old.dtype and new.strides == old.strides
    assert new.tobytes() == old.tobytes()  # (the same routes: NaN payloads too)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.integers(1, 12), st.integers(13, 300)), st.one_of(st.integers(1, 12), st.integers(13, 300)),
       st.one_of(st.integers(1, 12), st.integers(13, 40)), st.sampled_from([np.float32, np.float64]), _LAYOUTS,
       _LAYOUTS, st.sampled_from(["none", "bias", "row", "other dtype", "number"]), st.booleans(), SEEDS,
       st.lists(SPECIALS, max_size=4))
def test_kept_routes_give_the_old_dispatchs_bits(m, k, n, dtype, a_layout, b_layout, bias, nested, seed, specials):
    _small_gemm._PLANS.clear()
    for phase in (0, 1, 2):  # (the first call plans the layout, the next two take the kept route)
        a, b, c = _operands(seed + phase, m, k, n, dtype, a_layout, b_layout, bias, specials, phase)
        with np.errstate(all="ignore"):
            _same(_small_gemm.mkl_gemm(a, b, c, nested=nested), _old_mkl_gemm(a, b, c, nested=nested))


def test_a_layout_seen_before_takes_its_kept_route():
    rng = np.random.default_rng(0)
    x, w, bias = (rng.standard_normal(s).astype(np.float32) for s in ((200, 8), (8, 8), (8,)))
    _small_gemm._PLANS.clear()
    first = _small_gemm.mkl_gemm(x, w.T, bias)
    assert len(_small_gemm._PLANS) == 1
    _same(_small_gemm.mkl_gemm(x, w.T, bias), first)
    assert len(_small_gemm._PLANS) == 1
