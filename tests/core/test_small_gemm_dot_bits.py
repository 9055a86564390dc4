"""A small Linear's forward (``x @ W.T``, 2-11 outputs, any K) bit for bit as PyTorch's CPU GEMM computes it on the
AMD CPU ``core._small_gemm`` was measured on: MKL's dot-product kernels, whose order follows each row's address
mod 16 bytes, so views at offsets and column slices are tested as well as fresh tensors."""

import numpy as np
import pytest
import torch

import core
from core import _small_gemm
from tests.core.reference_cpu import blocked_sgemm_measured

pytestmark = pytest.mark.skipif(not _small_gemm.ACTIVE, reason="MKL's small-GEMM order was measured on AMD Zen 4 "
                                "and Zen 3 only; on other CPUs core keeps NumPy's GEMM (core/_small_gemm.py)")
# (batch, in_features, out_features): outputs in groups of 4 and a remainder, K past the in-order region
SHAPES = [(2, 6, 5), (4, 10, 2), (32, 784, 10), (8, 7, 3), (3, 33, 11), (16, 17, 4), (5, 100, 8), (64, 9, 6),
          (2, 50, 40), (3, 12, 100), (7, 6, 7), (20, 64, 9)]


def _same_bits(c, t):
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype and c.shape == t.shape
    assert np.array_equal(c.view(np.uint32), t.view(np.uint32))


def _pair(shape, seed):
    arr = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return core.tensor(arr), torch.tensor(arr)


@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("seed", range(2))
def test_linear_forward_with_and_without_bias_matches_torch_bitwise(m, k, n, seed):
    cx, tx = _pair((m, k), seed)
    cw, tw = _pair((n, k), seed + 10)
    cb, tb = _pair((n,), seed + 20)
    _same_bits(core.nn.functional.linear(cx, cw), torch.nn.functional.linear(tx, tw))
    _same_bits(core.nn.functional.linear(cx, cw, cb), torch.nn.functional.linear(tx, tw, tb))
    _same_bits(cx @ cw.T, tx @ tw.T)


@pytest.mark.parametrize("offset", range(4))
@pytest.mark.parametrize("m,k,n", [(6, 6, 5), (5, 10, 2), (4, 29, 9)])
def test_linear_of_a_view_at_an_offset_matches_torch_bitwise(offset, m, k, n):
    """The rows' addresses shift by ``offset`` floats: each row's first products are added one by one until
    it reaches a 16-byte boundary, in torch as in core."""
    cflat, tflat = _pair((m * k + 4,), 3)
    cx, tx = cflat[offset:offset + m * k].view(m, k), tflat[offset:offset + m * k].view(m, k)
    cw, tw = _pair((n, k), 4)
    cb, tb = _pair((n,), 5)
    _same_bits(core.nn.functional.linear(cx, cw, cb), torch.nn.functional.linear(tx, tw, tb))


@pytest.mark.parametrize("start", range(3))
def test_linear_of_a_column_slice_matches_torch_bitwise(start):
    """Rows of a wider matrix: MKL reads them in place (the row stride is not K)."""
    cwide, twide = _pair((12, 20), 6)
    cw, tw = _pair((5, 13), 7)
    _same_bits(core.nn.functional.linear(cwide[:, start:start + 13], cw),
               torch.nn.functional.linear(twide[:, start:start + 13], tw))


@pytest.mark.parametrize("k,n,m", [(10, 5, 6), (7, 3, 5), (33, 9, 4)])
def test_linear_of_an_expanded_row_matches_torch_bitwise(k, n, m):
    """One row expanded over a batch (rows 0 apart): PyTorch hands BLAS a contiguous copy, whose rows start at
    their own offsets; core sums as over that copy."""
    cx, tx = _pair((1, k), 14)
    cw, tw = _pair((n, k), 15)
    cb, tb = _pair((n,), 16)
    _same_bits(core.nn.functional.linear(cx.expand(m, k), cw, cb),
               torch.nn.functional.linear(tx.expand(m, k), tw, tb))


@pytest.mark.parametrize("features", [(6, 5), (10, 2), (784, 10), (20, 7)])
def test_linear_layer_forward_on_a_small_batch_matches_torch_bitwise(features):
    core.manual_seed(0)
    torch.manual_seed(0)
    c_layer, t_layer = core.nn.Linear(*features), torch.nn.Linear(*features)
    x = np.random.default_rng(1).standard_normal((16, features[0])).astype(np.float32)
    _same_bits(c_layer(core.tensor(x)), t_layer(torch.tensor(x)))


def test_folded_batch_linear_matches_torch_bitwise():
    """A 3-d input is folded into one (batch * rows, K) product, as in torch."""
    cx, tx = _pair((3, 5, 9), 8)
    cw, tw = _pair((6, 9), 9)
    cb, tb = _pair((6,), 10)
    _same_bits(core.nn.functional.linear(cx, cw, cb), torch.nn.functional.linear(tx, tw, tb))


@blocked_sgemm_measured
def test_small_classifier_training_losses_match_torch_bitwise():
    """A 20-16-3 tanh MLP (the 16 -> 3 head in the dot kernels, the 20 -> 16 layer in NumPy's FMA chain)
    trained 15 SGD steps on a batch of 24."""
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((24, 20)).astype(np.float32), rng.standard_normal((24, 3)).astype(np.float32)

    def losses(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(20, 16), lib.nn.Tanh(), lib.nn.Linear(16, 3))
        opt = lib.optim.SGD(model.parameters(), lr=0.05)
        xs, ys, out = lib.tensor(x), lib.tensor(y), []
        for _ in range(15):
            opt.zero_grad()
            loss = ((model(xs) - ys) ** 2).mean()
            loss.backward()
            opt.step()
            out.append(loss.item())
        return out

    assert losses(core) == losses(torch)


@pytest.mark.parametrize("x_shape,y_shape", [((10, 5), (4, 5, 10)), ((10, 20), (4, 20, 3)), ((8, 12), (3, 12, 8)),
                                             ((3, 6), (2, 5, 6, 4))])
@pytest.mark.parametrize("grad", [False, True])
def test_matrix_times_a_batch_matches_torch_bitwise(x_shape, y_shape, grad):
    """``W @ batch``: without grad PyTorch runs bmm on W expanded over the batch (MKL's GEMM per matrix); a W that
    requires grad folds the batch into one ``mm`` of batch.mT against W.T, a Linear-like product in the dot
    kernels. (W's gradient there is a GEMM of a transposed operand core does not reproduce: core._small_gemm.)"""
    cx, tx = _pair(x_shape, 11)
    cy, ty = _pair(y_shape, 12)
    cx.requires_grad_(grad)
    tx.requires_grad_(grad)
    _same_bits(cx @ cy, tx @ ty)


# (batch, in_features, classes) above DOT_LIMIT: a classification head on a training batch, K odd (rows at 4 phases)
HEADS = [(64, 512, 10), (256, 1024, 10), (100, 784, 10), (128, 512, 9), (64, 1024, 11), (300, 1000, 8),
         (201, 999, 10), (1024, 1024, 5)]


@pytest.mark.parametrize("m,k,n", HEADS)
def test_classification_head_forward_above_the_small_products_matches_torch_bitwise(m, k, n):
    """A 10-class head on a batch of 64-256 (2^18 or more multiply-adds) is still MKL's dot kernels in PyTorch:
    core takes them a block of rows at a time (each row's order is its own)."""
    assert m * k * n > _small_gemm.DOT_LIMIT
    cx, tx = _pair((m, k), 21)
    cw, tw = _pair((n, k), 22)
    cb, tb = _pair((n,), 23)
    _same_bits(core.nn.functional.linear(cx, cw, cb), torch.nn.functional.linear(tx, tw, tb))
    _same_bits(cx @ cw.T, tx @ tw.T)
    _same_bits(cx[1:] @ cw.T, tx[1:] @ tw.T)  # (a view one row in: each row at another address)
