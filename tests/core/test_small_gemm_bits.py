"""Small float32 matrix products bit for bit as PyTorch's CPU GEMM computes them (``core._small_gemm``).

Oracle tests: the same products in core and torch, compared bitwise (sign of zero included), for the shapes
where core follows MKL's in-order chain: mm, matmul (2-d and a 3-d batch folded into one mm), addmm, linear
with and without a bias, a small Linear's backward, and a few steps of a small training loop."""

import numpy as np
import pytest
import torch

import core
from core import _small_gemm

pytestmark = pytest.mark.skipif(not _small_gemm.ACTIVE, reason="MKL's small-GEMM order was measured on AMD Zen 4 "
                                "and Zen 3 only; on other CPUs core keeps NumPy's GEMM (core/_small_gemm.py)")
# (M, K, N) inside the region of core._small_gemm, for each layout
PLAIN = [(1, 7, 5), (1, 64, 20), (3, 16, 12), (5, 9, 2), (8, 8, 8), (16, 33, 3), (64, 8, 4), (7, 200, 8),
         (10, 5, 7), (33, 4, 11), (2, 40, 16), (100, 3, 6)]
TRANSPOSED_B = [(4, 2, 8), (16, 2, 5), (64, 1, 10), (8, 3, 3), (32, 5, 2), (5, 4, 3), (100, 2, 11)]


def _same_bits(c, t):
    assert c.stride() == t.stride()  # (a (2, 1) result's strides are (1, 1), as torch's)
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype and c.shape == t.shape
    assert np.array_equal(c.view(np.uint32 if c.itemsize == 4 else np.uint64),
                          t.view(np.uint32 if t.itemsize == 4 else np.uint64))


def _pair(shape, seed, dtype=np.float32):
    arr = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return core.tensor(arr), torch.tensor(arr)


@pytest.mark.parametrize("m,k,n", PLAIN)
@pytest.mark.parametrize("seed", range(3))
def test_mm_and_matmul_match_torch_bitwise(m, k, n, seed):
    ca, ta = _pair((m, k), seed)
    cb, tb = _pair((k, n), seed + 100)
    _same_bits(core.mm(ca, cb), torch.mm(ta, tb))
    _same_bits(ca @ cb, ta @ tb)
    ca.requires_grad_(True)
    _same_bits(core.matmul(ca, cb), torch.matmul(ta, tb))


@pytest.mark.parametrize("k,n", [(7, 5), (64, 20), (200, 3), (2, 1)])
def test_vector_times_matrix_matches_torch_bitwise(k, n):
    """PyTorch's matmul of a vector and a matrix is ``mm`` of the vector as one row: M = 1, in order."""
    cv, tv = _pair((k,), 4)
    cb, tb = _pair((k, n), 5)
    _same_bits(cv @ cb, tv @ tb)
    cv.requires_grad_(True)
    _same_bits(core.matmul(cv, cb), torch.matmul(tv, tb))


@pytest.mark.parametrize("m,k,n", PLAIN)
def test_float64_mm_matches_torch_bitwise(m, k, n):
    if n == 3:
        n = 4  # (dgemm adds N = 3 in another order; core keeps NumPy's there)
    ca, ta = _pair((m, k), 7, np.float64)
    cb, tb = _pair((k, n), 8, np.float64)
    _same_bits(core.mm(ca, cb), torch.mm(ta, tb))


@pytest.mark.parametrize("seed", range(3))
def test_folded_batch_matmul_matches_torch_bitwise(seed):
    ca, ta = _pair((3, 5, 9), seed)
    cb, tb = _pair((9, 4), seed + 1)
    _same_bits(ca @ cb, ta @ tb)


@pytest.mark.parametrize("m,k,n", PLAIN)
def test_addmm_bias_matches_torch_bitwise(m, k, n):
    ca, ta = _pair((m, k), 1)
    cb, tb = _pair((k, n), 2)
    cc, tc = _pair((n,), 3)
    _same_bits(core.addmm(cc, ca, cb), torch.addmm(tc, ta, tb))


@pytest.mark.parametrize("m,k,n", TRANSPOSED_B)
@pytest.mark.parametrize("seed", range(3))
def test_linear_with_and_without_bias_matches_torch_bitwise(m, k, n, seed):
    cx, tx = _pair((m, k), seed)
    cw, tw = _pair((n, k), seed + 10)
    cb, tb = _pair((n,), seed + 20)
    _same_bits(core.nn.functional.linear(cx, cw), torch.nn.functional.linear(tx, tw))
    _same_bits(core.nn.functional.linear(cx, cw, cb), torch.nn.functional.linear(tx, tw, tb))


def test_issue_example_linear_3_to_2_on_a_batch_of_4():
    core.manual_seed(0)
    torch.manual_seed(0)
    c_layer, t_layer = core.nn.Linear(3, 2), torch.nn.Linear(3, 2)
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    _same_bits(c_layer(core.tensor(x)), t_layer(torch.tensor(x)))


@pytest.mark.parametrize("batch,features", [(4, (8, 2)), (16, (8, 4)), (64, (3, 8)), (10, (2, 1))])
def test_small_linear_gradients_match_torch_bitwise(batch, features):
    """grad_input = g @ W (K = outputs) and grad_W = g.T @ x (K = batch): MKL's chain in core too."""
    out_f, in_f = features
    cx, tx = _pair((batch, in_f), 5)
    cw, tw = _pair((out_f, in_f), 6)
    cg, tg = _pair((batch, out_f), 7)
    for t in (cx, tx, cw, tw):
        t.requires_grad_(True)
    core.nn.functional.linear(cx, cw).backward(cg)
    torch.nn.functional.linear(tx, tw).backward(tg)
    _same_bits(cx.grad, tx.grad)
    _same_bits(cw.grad, tw.grad)


def _tanh_mlp_losses(lib, sizes, x, y, steps):
    lib.manual_seed(0)
    layers = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [lib.nn.Linear(a, b), lib.nn.Tanh()]
    model = lib.nn.Sequential(*layers[:-1])
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    xs, ys = lib.tensor(x), lib.tensor(y)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(xs) - ys) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def test_small_tanh_mlp_training_losses_match_torch_bitwise():
    """A 2-3-2 tanh MLP trained 20 SGD steps: every layer's forward and backward product is in the region."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 2)).astype(np.float32)
    y = rng.standard_normal((8, 2)).astype(np.float32)
    assert _tanh_mlp_losses(core, (2, 3, 2), x, y, 20) == _tanh_mlp_losses(torch, (2, 3, 2), x, y, 20)


def test_products_that_are_all_negative_zero_sum_to_positive_zero():
    a, b = np.zeros((4, 3), np.float32), -np.ones((3, 2), np.float32)
    _same_bits(core.mm(core.tensor(a), core.tensor(b)), torch.mm(torch.tensor(a), torch.tensor(b)))
    _same_bits(core.nn.functional.linear(core.tensor(a[:, :2]), core.tensor(b.T[:, :2])),
               torch.nn.functional.linear(torch.tensor(a[:, :2]), torch.tensor(b.T[:, :2])))


@pytest.mark.parametrize("m,k,n", [(144, 72, 8), (64, 512, 4), (1000, 300, 2), (3, 30000, 3), (256, 1000, 8),
                                   (2, 20000, 4)])
def test_narrow_products_past_the_small_region_match_torch_bitwise(m, k, n):
    """2, 3, 4 or 8 columns past ``LIMIT`` multiply-adds are still MKL's in-order chain (core takes it a block of
    rows at a time): ``x @ W`` by hand, a narrow layer's weight gradient ``g.T @ x``, einsum's bmm (corpus
    lucid2_lambda_global's ``einsum('n m k u, b u v m -> b n k v')``, one (144, 72) @ (72, 8) matrix)."""
    assert m * k * n > _small_gemm.LIMIT
    ca, ta = _pair((m, k), 31)
    cb, tb = _pair((k, n), 32)
    cc, tc = _pair((n,), 33)
    cat, tat = _pair((k, m), 34)
    _same_bits(ca @ cb, ta @ tb)
    _same_bits(core.addmm(cc, ca, cb), torch.addmm(tc, ta, tb))
    _same_bits(cat.T @ cb, tat.T @ tb)


def test_narrow_layer_weight_gradient_on_a_large_batch_matches_torch_bitwise():
    """Linear(4, 8) on a batch of 4096: W's gradient g.T @ x is (8, 4096) @ (4096, 4), past ``LIMIT``."""
    core.manual_seed(0)
    torch.manual_seed(0)
    clin, tlin = core.nn.Linear(4, 8), torch.nn.Linear(4, 8)
    cx, tx = _pair((4096, 4), 35)
    cg, tg = _pair((4096, 8), 36)
    clin(cx).backward(cg)
    tlin(tx).backward(tg)
    _same_bits(clin.weight.grad, tlin.weight.grad)


def test_einsum_lowered_to_a_narrow_bmm_matches_torch_bitwise():
    cr, tr = _pair((36, 36, 4, 2), 37)
    cv, tv = _pair((2, 2, 4, 36), 38)
    _same_bits(core.einsum("nmku,buvm->bnkv", cr, cv), torch.einsum("nmku,buvm->bnkv", tr, tv))


@pytest.mark.parametrize("k", [3, 5, 8, 17, 100, 1000, 4096, 50000])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_one_row_times_one_column_matches_torch_bitwise(k, dtype):
    """``(1, K) @ (K, 1)``: MKL adds the products in order, from the bias for ``addmm``, at any offset and for a
    column of a wider matrix: a ``Linear(1, 1)``'s weight gradient ``g.T @ x``."""
    cflat, tflat = _pair((k + 3,), 41, dtype)
    cwide, twide = _pair((k + 3, 5), 42, dtype)
    cb, tb = _pair((1,), 43, dtype)
    for offset in range(4):
        crow, trow = cflat[offset:offset + k].view(1, k), tflat[offset:offset + k].view(1, k)
        ccol, tcol = cwide[offset:offset + k, offset:offset + 1], twide[offset:offset + k, offset:offset + 1]
        _same_bits(crow @ ccol, trow @ tcol)
        _same_bits(core.addmm(cb, crow, ccol.contiguous()), torch.addmm(tb, trow, tcol.contiguous()))
    core.manual_seed(0)
    torch.manual_seed(0)
    clin, tlin = core.nn.Linear(1, 1).to(getattr(core, np.dtype(dtype).name)), \
        torch.nn.Linear(1, 1).to(getattr(torch, np.dtype(dtype).name))
    cx, tx = _pair((k, 1), 44, dtype)
    cg, tg = _pair((k, 1), 45, dtype)
    clin(cx).backward(cg)
    tlin(tx).backward(tg)
    _same_bits(clin.weight.grad, tlin.weight.grad)
