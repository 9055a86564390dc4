"""Float32 products of 5..11 rows (M not a multiple of 4) and 12 or more columns with both libraries on two threads,
bit for bit as PyTorch's CPU GEMM computes them on the AMD CPU ``core._small_gemm`` was measured on: MKL then hands
the last ``M % 4`` rows to its few-row kernels (the dot kernels for ``x @ W.T``, else the in-order chain, some first
columns in blocks of 4), the rest to its blocked FMA kernel. The weight gradient of a 10-class head, ``g.T @ x``, is
such a product: 10 rows."""

import numpy as np
import pytest
import torch

import core
from tests.core.reference_cpu import blocked_sgemm_measured

pytestmark = blocked_sgemm_measured


@pytest.fixture
def two_threads():
    """Both libraries on two threads; the old counts come back after the test."""
    before = torch.get_num_threads(), core.get_num_threads()
    torch.set_num_threads(2)
    core.set_num_threads(2)
    yield
    torch.set_num_threads(before[0])
    core.set_num_threads(before[1])


def _same_bits(c, t):
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype and c.shape == t.shape
    assert np.array_equal(c.view(np.uint32), t.view(np.uint32))


def _pair(shape, seed):
    arr = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return core.tensor(arr), torch.tensor(arr)


@pytest.mark.parametrize("batch,features,classes", [(64, 512, 10), (256, 1024, 10), (100, 784, 10), (32, 100, 9),
                                                    (50, 300, 11), (128, 64, 6), (16, 20, 7)])
def test_classification_head_gradients_match_torch_bitwise(two_threads, batch, features, classes):
    core.manual_seed(0)
    torch.manual_seed(0)
    clin, tlin = core.nn.Linear(features, classes), torch.nn.Linear(features, classes)
    cx, tx = _pair((batch, features), 1)
    cx.requires_grad_(True)
    tx.requires_grad_(True)
    cy, ty = clin(cx), tlin(tx)
    _same_bits(cy, ty)
    cg, tg = _pair((batch, classes), 2)
    cy.backward(cg)
    ty.backward(tg)
    _same_bits(clin.weight.grad, tlin.weight.grad)
    _same_bits(clin.bias.grad, tlin.bias.grad)
    _same_bits(cx.grad, tx.grad)


@pytest.mark.parametrize("m", [5, 6, 7, 9, 10, 11])
@pytest.mark.parametrize("k,n", [(17, 12), (5, 20), (2, 101), (64, 13), (200, 14), (300, 15), (1000, 40)])
def test_products_of_five_to_eleven_rows_match_torch_bitwise(two_threads, m, k, n):
    """``mm``, ``addmm``, a transposed left operand and ``x @ W.T`` (a Linear on a batch of 5..11), on each side of
    the sizes where MKL splits the rows (N over 100, K over 4 with N over 16, K over 16)."""
    ca, ta = _pair((m, k), 3)
    cb, tb = _pair((k, n), 4)
    cc, tc = _pair((n,), 5)
    cat, tat = _pair((k, m), 6)
    cw, tw = _pair((n, k), 7)
    _same_bits(ca @ cb, ta @ tb)
    _same_bits(core.addmm(cc, ca, cb), torch.addmm(tc, ta, tb))
    _same_bits(cat.T @ cb, tat.T @ tb)
    _same_bits(ca @ cw.T, ta @ tw.T)
    _same_bits(core.nn.functional.linear(ca, cw, cc), torch.nn.functional.linear(ta, tw, tc))


@pytest.mark.parametrize("k,n", [(16, 12), (4, 40), (3, 100)])
def test_products_below_the_split_stay_in_the_blocks(two_threads, k, n):
    """Smaller products of 5..11 rows stay in MKL's blocked kernel on two threads as on one."""
    for m in (5, 10):
        ca, ta = _pair((m, k), 8)
        cb, tb = _pair((k, n), 9)
        _same_bits(ca @ cb, ta @ tb)
