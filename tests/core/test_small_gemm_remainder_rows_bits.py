"""Products ``x @ W`` with W of 5, 6, 7, 9, 10 or 11 columns bit for bit as PyTorch's CPU GEMM computes them
(``core._small_gemm``'s ``_remainder_rows``: MKL adds some of the first N % 4 columns, by the row's index mod 4, in
blocks of 4).

Oracle tests: the same products in core and torch, compared bitwise: mm, addmm, a transposed left operand (a weight
gradient), and the "Learning PyTorch with Examples" two-layer network trained by hand and with autograd."""

import numpy as np
import pytest
import torch

import core
from core import _small_gemm
from tests.core.reference_cpu import blocked_sgemm_measured

pytestmark = pytest.mark.skipif(not _small_gemm.ACTIVE, reason="MKL's small-GEMM order was measured on AMD Zen 4 "
                                "and Zen 3 only; on other CPUs core keeps NumPy's GEMM (core/_small_gemm.py)")

# (M, K, N): odd and even M, K below, at and past the blocks of 4 and 8, up to the chain's limit of multiply-adds
SHAPES = [(2, 6, 6), (2, 8, 10), (3, 13, 6), (4, 16, 10), (5, 23, 6), (8, 100, 10), (64, 100, 10), (17, 385, 6),
          (2, 3000, 10), (101, 64, 10), (4, 9, 5), (9, 40, 5), (8, 40, 7), (7, 30, 7), (64, 90, 11), (33, 20, 11),
          (2, 6, 9), (4, 37, 9), (7, 100, 9), (64, 100, 9), (3, 2000, 9)]


def _same_bits(c, t):
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype and c.shape == t.shape
    assert np.array_equal(c.view(np.uint32), t.view(np.uint32))


def _pair(shape, seed):
    arr = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return core.tensor(arr), torch.tensor(arr)


@pytest.mark.parametrize("m,k,n", SHAPES)
def test_mm_with_five_to_eleven_columns_matches_torch_bitwise(m, k, n):
    ca, ta = _pair((m, k), m + k)
    cb, tb = _pair((k, n), n + k)
    _same_bits(core.mm(ca, cb), torch.mm(ta, tb))
    _same_bits(ca @ cb, ta @ tb)


@pytest.mark.parametrize("m,k,n", SHAPES)
def test_addmm_bias_with_five_to_eleven_columns_matches_torch_bitwise(m, k, n):
    ca, ta = _pair((m, k), 1)
    cb, tb = _pair((k, n), 2)
    cc, tc = _pair((n,), 3)
    _same_bits(core.addmm(cc, ca, cb), torch.addmm(tc, ta, tb))


@pytest.mark.parametrize("m,k,n", SHAPES)
def test_transposed_left_operand_matches_torch_bitwise(m, k, n):
    """``h.t().mm(g)``: the hand-written backward's weight gradient, ``a`` a transposed view."""
    ca, ta = _pair((k, m), 4)
    cb, tb = _pair((k, n), 5)
    _same_bits(ca.t().mm(cb), ta.t().mm(tb))


def _two_layer_losses(lib, autograd, steps=40):
    lib.manual_seed(0)
    x, y = lib.randn(64, 1000), lib.randn(64, 10)
    w1 = lib.randn(1000, 100, requires_grad=autograd)
    w2 = lib.randn(100, 10, requires_grad=autograd)
    losses = []
    for _ in range(steps):
        if autograd:
            loss = (x.mm(w1).clamp(min=0).mm(w2) - y).pow(2).sum()
            loss.backward()
            with lib.no_grad():
                w1 -= 1e-6 * w1.grad
                w2 -= 1e-6 * w2.grad
                w1.grad.zero_()
                w2.grad.zero_()
        else:
            h = x.mm(w1)
            h_relu = h.clamp(min=0)
            y_pred = h_relu.mm(w2)
            loss = (y_pred - y).pow(2).sum()
            grad_y_pred = 2.0 * (y_pred - y)
            grad_w2 = h_relu.t().mm(grad_y_pred)
            grad_h = grad_y_pred.mm(w2.t())
            grad_h[h < 0] = 0
            w1 -= 1e-6 * x.t().mm(grad_h)
            w2 -= 1e-6 * grad_w2
        losses.append(loss.item())
    return losses, w2.detach()


@pytest.mark.parametrize("autograd", [False, True])
@blocked_sgemm_measured
def test_learning_pytorch_with_examples_two_layer_net_matches_torch_bitwise(autograd):
    core_losses, core_w2 = _two_layer_losses(core, autograd)
    torch_losses, torch_w2 = _two_layer_losses(torch, autograd)
    assert core_losses == torch_losses
    _same_bits(core_w2, torch_w2)
