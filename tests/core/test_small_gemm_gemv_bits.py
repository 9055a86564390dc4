"""Products with one output per row (a regression head ``nn.Linear(h, 1)``, ``x @ w``, ``mv``) or one row
(``w @ x.T``) bit for bit as PyTorch's CPU BLAS computes them (``core._small_gemm``'s ``_gemv``: MKL's gemv, x's
rows 4 at a time with a peel that follows x's address, the last rows one at a time with a peel that follows the
vector's), and a ``Linear(K, 1)``'s gradients.

Oracle tests: the same products in core and torch, operands at every address mod 16 bytes, compared bitwise."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core import _small_gemm

pytestmark = pytest.mark.skipif(not _small_gemm.ACTIVE, reason="MKL's small-GEMM order was measured on AMD Zen 4 "
                                "and Zen 3 only; on other CPUs core keeps NumPy's GEMM (core/_small_gemm.py)")

_rows = st.integers(1, 300)
_inner = st.one_of(st.integers(1, 40), st.integers(41, 2000))
_offset = st.integers(0, 3)


def _same_bits(c, t):
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype and c.shape == t.shape
    assert np.array_equal(c.view(np.uint32), t.view(np.uint32))


def _pair(shape, seed, offset=0):
    """The same float32 values in core and torch, starting ``offset`` floats past a 16-byte boundary in both."""
    size = int(np.prod(shape))
    arr = np.random.default_rng(seed).standard_normal(size + 4).astype(np.float32)
    cflat, tflat = core.tensor(arr), torch.tensor(arr)
    return cflat[offset:offset + size].view(*shape), tflat[offset:offset + size].view(*shape)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(m=_rows, k=_inner, x_offset=_offset, w_offset=_offset)
def test_linear_with_one_output_matches_torch_bitwise(m, k, x_offset, w_offset):
    cx, tx = _pair((m, k), m + k, x_offset)
    cw, tw = _pair((1, k), k, w_offset)
    cb, tb = _pair((1,), 1)
    _same_bits(core.nn.functional.linear(cx, cw), torch.nn.functional.linear(tx, tw))
    _same_bits(core.nn.functional.linear(cx, cw, cb), torch.nn.functional.linear(tx, tw, tb))
    _same_bits(cx @ cw.T, tx @ tw.T)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(m=_rows, k=_inner, x_offset=_offset, w_offset=_offset)
def test_matrix_times_a_vector_matches_torch_bitwise(m, k, x_offset, w_offset):
    cx, tx = _pair((m, k), m * k, x_offset)
    cv, tv = _pair((k,), k + 1, w_offset)
    _same_bits(torch_mv := core.mv(cx, cv), torch.mv(tx, tv))
    _same_bits(cx @ cv, tx @ tv)
    assert torch_mv.shape == (m,)
    if m > 1:  # (one row times a contiguous column is another order: core keeps NumPy's there)
        cb, tb = _pair((1,), 2)
        _same_bits(cx @ cv.view(k, 1), tx @ tv.view(k, 1))
        _same_bits(core.addmm(cb, cx, cv.view(k, 1)), torch.addmm(tb, tx, tv.view(k, 1)))


@settings(max_examples=60, derandomize=True, deadline=None)
@given(m=_rows, k=_inner, x_offset=_offset, w_offset=_offset)
def test_one_row_times_a_transposed_matrix_matches_torch_bitwise(m, k, x_offset, w_offset):
    cx, tx = _pair((m, k), m + 2 * k, x_offset)
    cw, tw = _pair((1, k), k + 2, w_offset)
    cb, tb = _pair((m,), 3)
    _same_bits(cw @ cx.T, tw @ tx.T)
    _same_bits(core.addmm(cb, cw, cx.T), torch.addmm(tb, tw, tx.T))


@pytest.mark.parametrize("start", range(4))
def test_linear_with_one_output_of_a_column_slice_matches_torch_bitwise(start):
    """Rows of a wider matrix (the row stride is not K): every block of 4 rows starts at the same address mod 16
    bytes, the first row's."""
    cwide, twide = _pair((23, 40), 4)
    cw, tw = _pair((1, 29), 5)
    _same_bits(core.nn.functional.linear(cwide[:, start:start + 29], cw),
               torch.nn.functional.linear(twide[:, start:start + 29], tw))


@settings(max_examples=40, derandomize=True, deadline=None)
@given(batch=_rows, features=st.one_of(st.integers(2, 40), st.integers(41, 2000)))
def test_linear_with_one_output_trains_with_torch_gradients_bitwise(batch, features):
    """A regression head under mse_loss: the output, the loss and the gradients of W (``g.T @ x``, one row times
    x: the in-order chain), the bias and x. (One feature makes W's gradient one row times one column, an order
    ``core._small_gemm`` does not know: NumPy's there.)"""
    rng = np.random.default_rng(batch + features)
    x, y = (rng.standard_normal(shape).astype(np.float32) for shape in ((batch, features), (batch, 1)))
    w, b = rng.standard_normal((1, features)).astype(np.float32), rng.standard_normal(1).astype(np.float32)
    results = []
    for lib in (core, torch):
        tensors = [lib.tensor(v, requires_grad=True) for v in (x, w, b)]
        out = lib.nn.functional.linear(*tensors)
        loss = lib.nn.functional.mse_loss(out, lib.tensor(y))
        loss.backward()
        results.append([out, loss] + [t.grad for t in tensors])
    for c, t in zip(*results):
        _same_bits(c, t)


@pytest.mark.parametrize("batch,features", [(200, 8), (64, 32), (100, 50), (1000, 64), (256, 17), (64, 1000)])
def test_issue_19_regression_heads_match_torch_bitwise(batch, features):
    """The shapes of issue #19's probe: most rows differed before (110 of 200 at K = 8)."""
    core.manual_seed(0)
    torch.manual_seed(0)
    c_layer, t_layer = core.nn.Linear(features, 1), torch.nn.Linear(features, 1)
    x = np.random.default_rng(batch).standard_normal((batch, features)).astype(np.float32)
    _same_bits(c_layer(core.tensor(x)), t_layer(torch.tensor(x)))


@pytest.mark.parametrize("batch,outputs", [(900, 200), (2000, 64), (500, 7)])
@pytest.mark.skipif(not _small_gemm.FMA_BLOCKS, reason="the layers' forward (K = 1, 12 or more outputs) is the "
                    "blocked FMA kernel's region, measured on the AMD Zen 4 only")
def test_weight_gradient_of_one_input_feature_matches_torch_bitwise(batch, outputs):
    """``g.T @ x`` with x one column (a ``Linear(1, N)``'s, or an ``LSTM(input_size=1)``'s input weights): the
    in-order chain, also past the small products' limit of multiply-adds; and addmm of it from a bias."""
    cg, tg = _pair((batch, outputs), batch)
    cx, tx = _pair((batch, 1), outputs)
    cb, tb = _pair((1,), 7)
    _same_bits(cg.T @ cx, tg.T @ tx)
    _same_bits(core.addmm(cb, cg.T, cx), torch.addmm(tb, tg.T, tx))
    layers = []
    for lib, x in ((core, cx), (torch, tx)):
        lib.manual_seed(0)
        layer = lib.nn.Linear(1, outputs)
        layer(x).square().sum().backward()
        layers.append(layer.weight.grad)
    _same_bits(*layers)


@settings(max_examples=30, derandomize=True, deadline=None)
@given(m=st.integers(2, 1000), k=st.integers(1, 500))
def test_transposed_matrix_times_a_vector_matches_torch_bitwise(m, k):
    """``mv(x.T, g)``, mv's gradient of its vector: the in-order chain over x's rows."""
    cx, tx = _pair((m, k), m + 3 * k)
    cg, tg = _pair((m,), 8)
    _same_bits(core.mv(cx.T, cg), torch.mv(tx.T, tg))
    _same_bits(cx.T @ cg, tx.T @ tg)
