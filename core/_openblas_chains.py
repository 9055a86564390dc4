"""In-order float32 FMA chains from NumPy's OpenBLAS on an AVX2 CPU: the blocks of MKL's blocked sgemm off AVX-512.

MKL's float32 kernel for M >= 4, N >= 12 (``core._small_gemm._fma_blocks``) makes each output an in-order chain of
fused multiply-adds over a block of k, the blocks added in order. On an AMD Zen 3 (AVX2) torch 2.13's MKL takes that
same order as on the Zen 4 (AVX-512): measured bit for bit against an exact emulation of the chains (each step one
rounding of ``a * b + acc``), 60 random products (M 4..39, N 12..79, K 1..899, ``a`` row-major or transposed, ``b``
row-major or W.T, with and without a bias, one thread) and the shapes of ``benchmarks/probe_avx2_sgemm.py``.

What differs is NumPy's side. On the Zen 4 OpenBLAS's SkylakeX kernel computes each block's chain; on an AVX2 CPU its
Haswell kernel (``sgemm_kernel_8x4_haswell_2.c``, OpenBLAS's ZEN and HASWELL cores) does for most tiles but not all:
with C = A @ B seen column-major (OpenBLAS's m = our N columns, its n = our M rows), its 8-wide tiles at the edges of
a panel (``COMPUTE_H_m8n6``, ``COMPUTE_T_m8n6``: the first 8 columns of the first 6 of each 12 rows, the last 8
columns of one half; and ``COMPUTE_m8n4``: rows in groups of 4 past the groups of 12) keep two accumulators, the
even k in one and the odd k in the other, added at the end. So each block here is one GEMM of operands padded so that
those tiles hold only zeros: the rows to a multiple of 12 (every kernel call then has groups of 12 rows, never 4), 8
zero columns before the real ones and 8 or more after (the panel's first and last 8 columns), at most ``_PANEL``
columns a panel (OpenBLAS's ``SGEMM_DEFAULT_P`` on Zen: a wider B is cut into panels, each with its own edge tiles,
so a wider product spreads its columns over those panels, ``_spread_plan``), one BLAS thread (OpenBLAS's threads
split the columns into panels of their own). Measured bit for bit
against the emulated chains: 450 random products (M 1..79, N 1..299, K 1..192) and (M, N) up to (700, 50),
(12, 304); 312 columns and more in one call are 2% off, as the rule says. ``chains_hold()`` checks the rule once
against the emulation, so a NumPy with another BLAS or kernel keeps NumPy's GEMM rather than guess.
"""

from __future__ import annotations

import functools

import numpy as np

from core import _blas_threads, _fused, _openblas_sgemm
from core._thread_scratch import kept_per_thread

__all__ = ["fma_blocks", "chains_hold"]

_ROWS = 12  # rows of the kernel's widest tiles (n12): padded to a multiple of it, no 4-row groups are left
_EDGE = 8  # columns of a panel's first and last tiles (m8), padded with zeros on both sides
_PANEL = 320  # columns of one kernel panel (OpenBLAS's SGEMM_DEFAULT_P on Zen): one GEMM's padded width at most
_WIDTH = _PANEL - 2 * _EDGE - 8  # real columns of one GEMM (with up to 7 more to round to 8 and the last edge)
_ROW_CHUNK = _ROWS * 1024  # rows of one GEMM (OpenBLAS cuts more into GEMM_R panels that need not be 12s)
_KEPT = 16  # zero-padded buffers kept per thread (``_zeroed``)
_KEPT_FLOATS = 1 << 20  # floats (4 MiB) above which a buffer is not kept


def fma_blocks(a, b, c, blocks, last):
    """``a @ b`` (+ ``c``, broadcast to the result) for float32 2-d ``a`` (M, K) and ``b`` (K, N): each block
    ``(start, stop)`` of k an in-order FMA chain, the blocks added in order to ``c`` (or to the first block), then
    the product of k = ``last`` (when not None) rounded and added. A new C-contiguous (M, N) array.

    NOTE: the GEMMs run on one BLAS thread through ``run_single_threaded``: where NumPy's BLAS started on one
    (``OPENBLAS_NUM_THREADS=1``, as the benchmarks and torch's one-thread comparisons run) no lock and no two calls
    into the BLAS a product (~3.5 µs of a (64, 128) @ (128, 256)'s ~80, seven such products a 784-256-128-10 step)."""
    out = _blas_threads.run_single_threaded(_blocks, a, b, c, blocks)
    if last is not None:
        out += a[:, last, None] * b[last]  # NOTE: an odd K's last product, rounded, then added: not fused
    return out


def _blocks(a, b, c, blocks):
    """``fma_blocks`` but for the last odd k, on the BLAS thread(s) as called: one padded panel where the product
    fits one, else blocks of ``_ROW_CHUNK`` rows, each one GEMM of columns spread over OpenBLAS's panels
    (``_spread_plan``) or, where ``spread_holds()`` is False, one GEMM a ``_WIDTH`` of columns."""
    m, n = a.shape[0], b.shape[1]
    start = _start(c, m, n)
    if m <= _ROW_CHUNK and n <= _WIDTH:
        return np.ascontiguousarray(_panel(_padded_rows(a), m, b, start, blocks))
    out = np.empty((m, n), np.float32)
    spread = n > _WIDTH and spread_holds()
    for row in range(0, m, _ROW_CHUNK):
        rows = slice(row, min(row + _ROW_CHUNK, m))
        padded = _padded_rows(a[rows])
        part = None if start is None else start if start.shape[0] == 1 else start[rows]
        if spread:
            _spread_panels(padded, out[rows], b, part, blocks)
            continue
        for col in range(0, n, _WIDTH):
            cols = slice(col, min(col + _WIDTH, n))
            out[rows, cols] = _panel(padded, rows.stop - row, b[:, cols], None if part is None else part[:, cols],
                                     blocks)
    return out


def _start(c, m, n):
    """The bias ``c`` as a 2-d array of ``n`` columns and 1 or ``m`` rows, which every write of its columns
    broadcasts to the ``m`` rows (None for None).

    NOTE: a Linear's bias, ``(n,)``, is a view of one row: ``np.broadcast_to`` (~8 µs a call, its Python wrapper and
    iterator) cost more than the bias's own copy into the sums (~3 µs for 64 x 256), twice a 784-256-128-10 step."""
    if c is None:
        return None
    if type(c) is np.ndarray and c.shape[-1:] == (n,) and (c.ndim == 1 or c.ndim == 2 and c.shape[0] in (1, m)):
        return c if c.ndim == 2 else c[None]
    return np.broadcast_to(c, (m, n))


def _padded_rows(a):
    """``a`` with rows to a multiple of ``_ROWS`` (zeros below) where 4 or more are past the last 12, row- or
    column-major as it lies (``g.T`` stays column-major: a contiguous copy, the same chains): a kernel call's last
    1..3 rows take its one- and two-row tiles, chains too (a single row is padded to two)."""
    m, k = a.shape
    column_major = a.flags.f_contiguous and not a.flags.c_contiguous
    if 1 < m and m % _ROWS < 4 and (a.flags.c_contiguous or column_major):
        return a
    rows = -(-m // _ROWS) * _ROWS if m % _ROWS >= 4 else max(m, 2)  # (one row would take OpenBLAS's gemv)
    if column_major:
        padded = _zeroed(("columns", m, k), (k, rows)).T
    else:
        padded = _zeroed(("rows", m, k), (rows, k))
    padded[:m] = a
    return padded


def _panel(padded, m, b, start, blocks):
    """The blocks' chains of ``padded`` (rows padded) times ``b`` (at most ``_WIDTH`` columns), added in order to
    ``start`` (the bias's (M, N) part, or one row of it broadcast: the first block's sum is ``c + part``, as MKL's)
    or to the first block: a view of the result's M real rows (the caller copies it out).

    NOTE: ``b`` goes into a zeroed buffer kept for its shape, its ``_EDGE`` zero columns on each side (``_wide``)."""
    k, n = b.shape
    width = _EDGE + -(-n // 8) * 8 + _EDGE
    pieces = ((_EDGE, 0, n),)
    wide = _wide(b, ("W", n, k), ("b", k, n), width, pieces)
    return _sums(padded, m, wide, pieces, start, blocks)[:m, _EDGE:_EDGE + n]


def _sums(padded, m, wide, pieces, start, blocks):
    """``padded @ wide``'s blocks added in order, from ``start`` (the (M, N) bias part, each piece ``(at, col,
    count)`` of ``wide``'s columns holding ``start``'s columns ``col:col + count``) or from the first block: a
    (rows, width) array, kept for this thread where the GEMM adds the blocks (the caller copies its pieces out).

    NOTE: two or more blocks are added inside the GEMM (``core._openblas_sgemm.add_blocks``, beta = 1) into a buffer
    kept for this thread, the bias written there first: no product array and no separate add a block (a
    Linear(784, 256)'s forward on 64 rows, five blocks: ~5% less time). One block stays NumPy's matmul, whose call
    costs less than ctypes' (~1.5 against ~4 µs)."""
    if len(blocks) > 1 and _openblas_sgemm.available():
        acc = _kept_sums((padded.shape[0], wide.shape[1]))
        if start is not None:
            for at, col, count in pieces:
                acc[:m, at:at + count] = start[:, col:col + count]
        if _openblas_sgemm.add_blocks(padded, wide, acc, blocks, 0.0 if start is None else 1.0):
            return acc
    acc = None
    for first, stop in blocks:
        part = padded[:, first:stop] @ wide[first:stop]
        if acc is None:
            acc = part
            for at, col, count in () if start is None else pieces:
                real = acc[:m, at:at + count]
                np.add(start[:, col:col + count], real, out=real)
        else:
            acc += part
    return acc


def _wide(b, w_key, b_key, width, pieces):
    """``b`` (K, N) in a kept zeroed (K, width) buffer (a view of one (width, K) buffer for a W.T), each piece
    ``(at, col, count)`` its columns ``col:col + count`` at ``at``; zeros elsewhere.

    NOTE: a W.T (rows of W contiguous) goes in as W's rows, one contiguous copy (a transposed copy takes ~3x the
    time)."""
    k = b.shape[0]
    if b.strides[0] == 4 and b.strides[1] != 4:
        wide = _zeroed(w_key, (width, k))
        for at, col, count in pieces:
            wide[at:at + count] = b.T[col:col + count]
        return wide.T
    wide = _zeroed(b_key, (k, width))
    for at, col, count in pieces:
        wide[:, at:at + count] = b[:, col:col + count]
    return wide


def _spread_panels(padded, out, b, start, blocks):
    """``out`` (M, N) = the blocks' chains of ``padded`` times ``b`` (added to ``start`` where given) in one GEMM a
    block: ``b``'s columns spread over OpenBLAS's panels of columns, each between zero edges (``_spread_plan``).

    NOTE: where a product is wider than one panel, a GEMM a ``_WIDTH`` of columns each with its own 16 zero columns
    took ~1.2x NumPy's flops (a 784-256 Linear's weight gradient on 64 rows: 936 columns for 784); spread over one
    GEMM's own panels it takes 832 (~10% less time, the same chains: each column still lies in a tile of its
    panel's single-accumulator kind)."""
    m = out.shape[0]
    k, n = b.shape
    width, pieces = _spread_plan(n)
    acc = _sums(padded, m, _wide(b, ("spread W", n, k), ("spread b", k, n), width, pieces), pieces, start, blocks)
    for at, col, count in pieces:
        out[:, col:col + count] = acc[:m, at:at + count]


@functools.lru_cache(maxsize=256)
def _spread_plan(n: int) -> tuple:
    """``(width, pieces)`` for ``n`` columns in one GEMM: the narrowest width (a multiple of 8) whose OpenBLAS panels
    hold them all, each piece ``(at, col, count)`` the columns ``col:col + count`` at ``at``, ``_EDGE`` zero columns
    on both sides of each panel.

    NOTE: OpenBLAS's level-3 driver cuts a GEMM's m (our columns) into panels as its ``min_i`` rule says: ``_PANEL``
    where 2 ``_PANEL`` or more are left, else half of what is left rounded up to a multiple of 8 (its
    ``SGEMM_UNROLL_M``) where more than one ``_PANEL`` is, else the rest (measured: the edge tiles of NumPy's GEMMs of
    13 to 264 rows and 330 to 2000 columns lie where this rule puts them). ``spread_holds()`` checks it once."""
    width = -(-(n + 2 * _EDGE) // 8) * 8
    while True:
        pieces, at, col, left = [], 0, 0, width
        while left > 0:
            panel = _PANEL if left >= 2 * _PANEL else (-(-(left // 2) // 8) * 8 if left > _PANEL else left)
            count = min(max(panel - 2 * _EDGE, 0), n - col)
            if count > 0:
                pieces.append((at + _EDGE, col, count))
            at, col, left = at + panel, col + count, left - panel
        if col >= n:
            return width, tuple(pieces)
        width += 8


def _zeroed(key, shape):
    """A float32 array of ``shape`` kept for this thread under ``key`` (the region callers write): zeros outside
    that region, so a product's padding is zero without a new zeroed buffer (~100 µs of page faults for a 784 x
    272 one). At most ``_KEPT`` are kept, the oldest dropped; one over ``_KEPT_FLOATS`` is a new one each time
    (``core._thread_scratch``)."""
    return _kept_zeros((key, shape))


_kept_zeros = kept_per_thread(lambda key: np.zeros(key[1], np.float32), up_to=_KEPT_FLOATS, sizes=_KEPT,
                              size_of=lambda key: key[1][0] * key[1][1])
# the (rows, width) sums of ``_panel``, kept per thread and shape (zeroed once: a padding row or column only ever
# has +0 products added to it)
_kept_sums = kept_per_thread(lambda shape: np.zeros(shape, np.float32), up_to=_KEPT_FLOATS, sizes=_KEPT,
                             size_of=lambda shape: shape[0] * shape[1])


def _emulated_chains(a, b):
    """``a @ b`` as in-order float32 FMA chains from +0, each step ``a * b + acc`` rounded once
    (``core._fused.fma``, the exact fused multiply-add the elementwise kernels use)."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for i in range(a.shape[1]):
        acc = _fused.fma(np, a[:, i, None], b[i], acc)
    return acc


@functools.cache
def spread_holds() -> bool:
    """Whether one GEMM of columns spread over OpenBLAS's panels (``_spread_panels``) gives the chains here: two
    products of 13 rows whose columns cross two and four panels (K = 20) against the emulated chains, bit for bit
    (~5 ms, once); where it fails, products wider than one panel take one GEMM a ``_WIDTH`` of columns."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal((13, 20)).astype(np.float32)
    for n in (2 * _WIDTH - 3, 3 * _PANEL + 41):
        b = rng.standard_normal((20, n)).astype(np.float32)
        got = np.empty((13, n), np.float32)
        _blas_threads.run_single_threaded(_spread_panels, _padded_rows(a), got, b, None, [(0, 20)])
        if not (got.view(np.int32) == _emulated_chains(a, b).view(np.int32)).all():
            return False
    return True


@functools.cache
def chains_hold() -> bool:
    """Whether NumPy's GEMM gives ``fma_blocks`` its chains here: one product with every kind of edge tile above
    (13 rows, two panels of columns, K = 20: the kernel's loop of 8 k and its tail) against the emulated chains,
    bit for bit (~3 ms, once)."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((13, 20)).astype(np.float32)
    b = rng.standard_normal((20, _WIDTH + 21)).astype(np.float32)
    got = fma_blocks(a, b, None, [(0, 20)], None)
    return bool((got.view(np.int32) == _emulated_chains(a, b).view(np.int32)).all())
