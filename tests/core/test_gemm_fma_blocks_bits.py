"""Float32 matrix products with 4 or more rows and 12 or more columns bit for bit as PyTorch's CPU GEMM computes
them on the AMD CPU ``core._small_gemm`` was measured on: MKL's FMA chains over blocks of k (one block up to
K = 192, two halves up to 384, blocks of 192 beyond), the blocks added in order. A Linear's forward, ``mm``,
``addmm`` and a Linear's gradients, at K on each side of the block edges, on one thread as the corpus runs (with
two, MKL hands the rows past the last multiple of 4 of a small product to its few-row kernels)."""

import numpy as np
import pytest
import torch

import core
from core import _small_gemm
from tests.core.reference_cpu import blocked_sgemm_measured

pytestmark = [blocked_sgemm_measured, pytest.mark.usefixtures("one_thread")]
# (rows, K, columns): one block, two halves (K even and odd), blocks of 192 with a shorter last one
SHAPES = [(4, 64, 12), (16, 128, 16), (8, 192, 32), (5, 193, 17), (16, 256, 256), (6, 301, 40), (12, 384, 13),
          (4, 385, 12), (32, 784, 64), (7, 1000, 100)]


def _same_bits(c, t):
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype and c.shape == t.shape
    assert np.array_equal(c.view(np.uint32), t.view(np.uint32))


def _pair(shape, seed):
    arr = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return core.tensor(arr), torch.tensor(arr)


@pytest.mark.parametrize("m,k,n", SHAPES)
def test_linear_forward_with_and_without_bias_matches_torch_bitwise(m, k, n):
    cx, tx = _pair((m, k), 1)
    cw, tw = _pair((n, k), 2)
    cb, tb = _pair((n,), 3)
    _same_bits(core.nn.functional.linear(cx, cw), torch.nn.functional.linear(tx, tw))
    _same_bits(core.nn.functional.linear(cx, cw, cb), torch.nn.functional.linear(tx, tw, tb))


@pytest.mark.parametrize("m,k,n", SHAPES)
def test_mm_addmm_and_a_transposed_left_operand_match_torch_bitwise(m, k, n):
    ca, ta = _pair((m, k), 4)
    cb, tb = _pair((k, n), 5)
    cc, tc = _pair((n,), 6)
    cat, tat = _pair((k, m), 7)
    _same_bits(core.mm(ca, cb), torch.mm(ta, tb))
    _same_bits(ca @ cb, ta @ tb)
    _same_bits(core.addmm(cc, ca, cb), torch.addmm(tc, ta, tb))
    _same_bits(core.mm(cat.T, cb), torch.mm(tat.T, tb))


@pytest.mark.parametrize("m,k,n", [(16, 256, 256), (200, 50, 30), (300, 20, 16), (8, 400, 24)])
def test_linear_layer_gradients_match_torch_bitwise(m, k, n):
    """The input gradient (g @ W) and the weight gradient (g.T @ x, summed over the batch: two halves for a
    batch of 200 and 300) are the same blocked GEMMs."""
    core.manual_seed(0)
    torch.manual_seed(0)
    clin, tlin = core.nn.Linear(k, n), torch.nn.Linear(k, n)
    cx, tx = _pair((m, k), 8)
    cx.requires_grad_(True)
    tx.requires_grad_(True)
    cy, ty = clin(cx), tlin(tx)
    _same_bits(cy, ty)
    cg, tg = _pair((m, n), 9)
    cy.backward(cg)
    ty.backward(tg)
    _same_bits(cx.grad, tx.grad)
    _same_bits(clin.weight.grad, tlin.weight.grad)


def test_batchnorm_mlp_layer_stds_match_torch_bitwise():
    """The corpus script zxp_bn_and_initialize's loop (Linear(256, 256) on 16 rows, BatchNorm, ReLU): its
    printed standard deviations followed this product's last bits."""
    core.manual_seed(1)
    torch.manual_seed(1)
    cnet = core.nn.Sequential(*[core.nn.Sequential(core.nn.Linear(256, 256, bias=False), core.nn.BatchNorm1d(256),
                                                   core.nn.ReLU()) for _ in range(5)])
    tnet = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(256, 256, bias=False),
                                                     torch.nn.BatchNorm1d(256), torch.nn.ReLU()) for _ in range(5)])
    cx, tx = core.randn(16, 256), torch.randn(16, 256)
    for clayer, tlayer in zip(cnet, tnet):
        cx, tx = clayer(cx), tlayer(tx)
        assert cx.std().item() == tx.std().item()
    _same_bits(cx, tx)


@pytest.mark.parametrize("k,n", [(8, 2), (11, 3), (6, 2), (4, 4), (9, 3)])
def test_one_row_times_a_transposed_weight_matches_torch_bitwise(k, n):
    """A single row against W.T with 2 or 3 outputs (K up to 11) or 4 (K up to 4) is MKL's in-order chain without
    FMA, W at any offset: the backward of a vector @ (N, K) matrix (corpus graphnets_deepwalk's skip-gram), a
    Linear on one sample."""
    cflat, tflat = _pair((n * k + 3,), 11)
    cg, tg = _pair((1, k), 12)
    cb, tb = _pair((n,), 13)
    for offset in range(4):
        cw, tw = cflat[offset:offset + n * k].view(n, k), tflat[offset:offset + n * k].view(n, k)
        _same_bits(cg @ cw.T, tg @ tw.T)
        _same_bits(core.nn.functional.linear(cg, cw, cb), torch.nn.functional.linear(tg, tw, tb))
    ch, th = _pair((n,), 14)
    cw, tw = _pair((n, k), 15)
    ch.requires_grad_(True)
    th.requires_grad_(True)
    core.matmul(ch, cw).sum().backward()
    torch.matmul(th, tw).sum().backward()
    _same_bits(ch.grad, th.grad)


@pytest.mark.parametrize("m,k", [(20, 2), (50, 3), (7, 4), (3, 11), (2, 7), (1, 9)])
def test_matrix_times_vector_matches_torch_bitwise(m, k):
    """``mv`` (a 2-d @ 1-d matmul) with K <= 4, or 3 rows or fewer with K <= 11, is MKL's sgemv adding each row's
    products in order without FMA: Pyro's ``x @ weight`` in corpus pyro_mcmc_hmc_nuts (20 rows, K = 2)."""
    ca, ta = _pair((m, k), 16)
    cv, tv = _pair((k,), 17)
    _same_bits(ca @ cv, ta @ tv)
    _same_bits(core.mv(ca, cv), torch.mv(ta, tv))
    _same_bits(ca.T.contiguous().T @ cv, ta.T.contiguous().T @ tv)
    cv.requires_grad_(True)
    tv.requires_grad_(True)
    _same_bits(ca @ cv, ta @ tv)


@pytest.mark.parametrize("m,k,n", [(24, 16, 6), (30, 20, 5), (16, 24, 8)])
def test_gradient_of_a_transposed_operand_is_formed_as_torch_forms_it(m, k, n):
    """PyTorch's mm backward gives a column-major operand (``W.t()``) its gradient as ``(g.t() @ a).t()`` and
    ``(b @ g.t()).t()``: a product with 12+ columns (MKL's blocked FMA order) where ``a.t() @ g`` would have N < 12."""
    ca, ta = _pair((m, k), 18)
    cb, tb = _pair((n, k), 19)
    cg, tg = _pair((m, n), 20)
    cat, tat = _pair((k, m), 21)
    cc, tc = _pair((n,), 22)
    for t in (ca, ta, cb, tb, cat, tat, cc, tc):
        t.requires_grad_(True)
    core.mm(ca, cb.t()).backward(cg)
    torch.mm(ta, tb.t()).backward(tg)
    core.addmm(cc, cat.t(), cb.t()).backward(cg)
    torch.addmm(tc, tat.t(), tb.t()).backward(tg)
    for c, t in ((ca, ta), (cb, tb), (cat, tat), (cc, tc)):
        _same_bits(c.grad, t.grad)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8])
def test_short_float32_dot_matches_torch_bitwise(n):
    """MKL's sdot: up to 3 products in order, 4, 5 and 8 (fresh vectors) in 4 lanes added in halves: Pyro's HMC
    kinetic energy ``r.dot(r)`` of a 4-dimensional momentum (corpus pyro_mcmc_hmc_nuts)."""
    for seed in range(20):
        cx, tx = _pair((n,), 30 + seed)
        cy, ty = _pair((n,), 60 + seed)
        _same_bits(core.dot(cx, cy), torch.dot(tx, ty))
        _same_bits(cx @ cy, tx @ ty)
    cflat, tflat = _pair((n + 3,), 99)
    for offset in range(4 if n <= 5 else 0):  # (x at any offset up to 5 products; up to 3, y too)
        _same_bits(core.dot(cflat[offset:offset + n], cy), torch.dot(tflat[offset:offset + n], ty))
        if n <= 3:
            _same_bits(core.dot(cx, cflat[offset:offset + n]), torch.dot(tx, tflat[offset:offset + n]))


def test_a_product_beyond_the_blocks_limit_keeps_numpys_one_gemm():
    """Above ``FMA_BLOCKS_LIMIT`` multiply-adds a float32 product is NumPy's one GEMM (MKL's blocks, one GEMM each
    and a sum, took 1.7x its time on a 1024-cube product: issue #23's matmul row), so its bits are NumPy's."""

    m, k, n = 512, 512, 520
    assert m * k * n > _small_gemm.FMA_BLOCKS_LIMIT
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal(s).astype(np.float32) for s in ((m, k), (k, n)))
    assert np.array_equal((core.tensor(a) @ core.tensor(b)).numpy(), a @ b)
