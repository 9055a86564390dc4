"""``core._openblas_chains`` adding its blocks of k inside ``cblas_sgemm`` (beta = 1, ``core._openblas_sgemm``) and
spreading a product wider than one panel over one GEMM's panels gives the bits of the route it replaced: one NumPy
matmul a block and a ``_WIDTH`` of columns, the blocks added with ``+=`` (2026-12-07, #23).

The reference below is ``_panel`` as it stood before the change (commit 4be4e713), kept verbatim; hypothesis draws
shapes across the kernel's edges (12-row groups, 8-column edge tiles, 320-column panels), K up to 1024 (one block,
two halves with an odd last k, blocks of 192), operands row-major, transposed or strided, a bias or none, and
special values; both must agree bit for bit. The torch oracle tests of the same route are
``test_openblas_chains.py`` and ``test_gemm_fma_blocks_bits.py``."""

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _openblas_chains, _openblas_sgemm, _small_gemm
from core._small_gemm_blocks import _fma_blocks
from tests.core.small_gemm_operands import FILLS, LAYOUTS, SEEDS, SPECIALS, layout_operands

pytestmark = pytest.mark.skipif(not _small_gemm.PADDED_CHAINS,
                                reason="the padded chains are NumPy's route only on an AVX2 CPU (PADDED_CHAINS)")

_EDGES = [1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 255, 256, 257]
_EDGE = 8


def _old_panel(padded, m, b, start, blocks):
    k, n = b.shape
    width = _EDGE + -(-n // 8) * 8 + _EDGE
    if b.strides[0] == 4 and b.strides[1] != 4:
        wide = _openblas_chains._zeroed(("W", n, k), (width, k))
        wide[_EDGE:_EDGE + n] = b.T
        wide = wide.T
    else:
        wide = _openblas_chains._zeroed(("b", k, n), (k, width))
        wide[:, _EDGE:_EDGE + n] = b
    acc = None
    for first, stop in blocks:
        part = padded[:, first:stop] @ wide[first:stop]
        if acc is None:
            acc = part
            if start is not None:
                real = acc[:m, _EDGE:_EDGE + n]
                np.add(start, real, out=real)
        else:
            acc += part
    return acc[:m, _EDGE:_EDGE + n]


def _b_laid_out(b, layout):
    """B (K, N) as it lies: its own rows, a W.T (the transposed view of a row-major (N, K) W), or every other
    column of a wider array."""
    if layout == "W.T":
        return np.ascontiguousarray(b.T).T
    if layout == "strided":
        wider = np.zeros((b.shape[0], 2 * b.shape[1]), np.float32)
        wider[:, ::2] = b
        return wider[:, ::2]
    return b


def _both(a, b, c):
    """(this route's ``a @ b + c``, the old route's)."""
    new = _fma_blocks(a, b, c)
    with mock.patch.object(_openblas_chains, "_panel", _old_panel), \
            mock.patch.object(_openblas_chains, "spread_holds", lambda: False):
        old = _fma_blocks(a, b, c)
    return new, old


@settings(max_examples=80, deadline=None)
@given(m=st.sampled_from(_EDGES) | st.integers(4, 300),
       n=st.sampled_from(_EDGES + [296, 297, 319, 320, 700, 784, 1001]) | st.integers(12, 700),
       k=st.sampled_from([1, 2, 191, 192, 193, 383, 384, 385, 576, 784, 1024]) | st.integers(1, 1024),
       a_layout=LAYOUTS, b_layout=st.sampled_from(["rows", "W.T", "strided"]), fill=FILLS, bias=st.booleans(),
       seed=SEEDS, specials=st.lists(SPECIALS, max_size=4))
def test_blocks_added_inside_the_gemm_give_the_old_bits(m, n, k, a_layout, b_layout, fill, bias, seed,
                                                         specials):
    a, b, rng = layout_operands(m, k, n, a_layout, fill, seed, specials)
    b = _b_laid_out(b, b_layout)
    c = rng.standard_normal(n).astype(np.float32) if bias else None
    new, old = _both(a, b, c)
    assert new.shape == (m, n) and new.flags.c_contiguous
    assert np.array_equal(new.view(np.int32), old.view(np.int32))


def test_a_linear_forward_of_several_blocks_takes_the_gemm_with_beta_one(monkeypatch):
    """The check has teeth: a 784-input Linear's forward (five blocks of k) goes through ``add_blocks``, and its
    bits are the old route's, the bias included; a second call reuses the kept sums and still gives them."""
    calls = []
    real = _openblas_sgemm.add_blocks
    monkeypatch.setattr(_openblas_sgemm, "add_blocks", lambda *args: calls.append(args[3]) or real(*args))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 784)).astype(np.float32)
    w = rng.standard_normal((256, 784)).astype(np.float32)
    bias = rng.standard_normal(256).astype(np.float32)
    for _ in range(2):
        new, old = _both(x, w.T, bias)
        assert np.array_equal(new.view(np.int32), old.view(np.int32))
    assert calls and len(calls[0]) == 5


def test_without_cblas_sgemm_the_blocks_are_numpys_matmuls(monkeypatch):
    """Where NumPy's BLAS has no ILP64 ``cblas_sgemm``, ``add_blocks`` says so and the panel keeps NumPy's matmul,
    with the same bits."""
    monkeypatch.setitem(_openblas_sgemm._state, "ready", True)
    monkeypatch.setitem(_openblas_sgemm._state, "sgemm", None)
    assert not _openblas_sgemm.available()
    rng = np.random.default_rng(1)
    a = rng.standard_normal((20, 500)).astype(np.float32)
    b = rng.standard_normal((500, 40)).astype(np.float32)
    new, old = _both(a, b, None)
    assert np.array_equal(new.view(np.int32), old.view(np.int32))


@pytest.mark.parametrize("n", [297, 2 * 296 - 3, 784, 1001, 1500])
@pytest.mark.parametrize("m", [2, 13, 24, 64])
def test_columns_spread_over_the_panels_of_one_gemm_are_the_in_order_fma_chains(m, n):
    """The spread route against the exact chains themselves (each step ``a * b + acc`` rounded once), not only the
    old route: OpenBLAS's panels of 320 columns, and the halves it cuts the last 320..640 into, each between zero
    edges."""
    assert _openblas_chains.spread_holds()
    rng = np.random.default_rng(m * n)
    a = rng.standard_normal((m, 30)).astype(np.float32)
    b = rng.standard_normal((30, n)).astype(np.float32)
    got = _openblas_chains.fma_blocks(a, b, None, [(0, 30)], None)
    assert np.array_equal(got.view(np.int32), _openblas_chains._emulated_chains(a, b).view(np.int32))
