"""float32 products bit for bit as torch computes them on the AMD Zen 3 (AVX2): few columns past the chain's limit
(``mm``, ``addmm``, a transposed left operand, a 3-d ``matmul`` folded into one ``mm``) and ``bmm`` through MKL's
batched sgemm (every layout, one column, broadcast and 4-d ``matmul``, gradients): ``core._small_gemm_zen3``.

Oracle tests compare core with torch element for element; they are marked ``xfail_off_zen3`` (the orders were
measured on the Zen 3 only: elsewhere core keeps its other routes). The unchanged test says the route, at an aligned
result, is ``_remainder_rows``' order by the row's index, on any CPU."""

import numpy as np
import pytest
import torch

import core
from core import _small_gemm_chain, _small_gemm_zen3
from tests.core.oracle import assert_float32_bits
from tests.core.reference_cpu import xfail_off_zen3

ZEN3 = xfail_off_zen3("MKL's remainder kernel past LIMIT and its batched sgemm measured on the AMD Zen 3 (AVX2) only")


def _arrays(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


# (M, K, N) past LIMIT (2^16 multiply-adds): the (100, 100) @ (100, 10), a 10-class head's x @ W by hand on a
# batch, odd K and M across blocks of rows, and 2 or 3 rows of many columns
PAST_LIMIT = [(100, 100, 10), (31, 387, 6), (256, 784, 10), (1000, 100, 5), (64, 3000, 9), (200, 400, 7),
              (500, 120, 11), (2, 5000, 10), (3, 368, 60), (2, 2000, 40)]


@ZEN3
@pytest.mark.parametrize("m,k,n", PAST_LIMIT)
@pytest.mark.parametrize("form", ["mm", "addmm", "transposed_left"])
def test_products_of_few_columns_past_the_chain_limit_are_torchs(m, k, n, form):
    a, b, bias = _arrays(m * k + n, (m, k), (k, n), (n,))
    if form == "transposed_left":
        a = np.ascontiguousarray(a.T)
    results = []
    for lib in (core, torch):
        x, w, c = (lib.tensor(v) for v in (a, b, bias))
        x = x.T if form == "transposed_left" else x
        results.append((lib.addmm(c, x, w) if form == "addmm" else lib.mm(x, w)).numpy())
    assert_float32_bits(*results)


@ZEN3
def test_a_batch_through_a_hand_written_head_is_torchs():
    x, w = _arrays(3, (8, 50, 100), (100, 10))  # (folded into one (400, 100) @ (100, 10) mm)
    assert_float32_bits(core.matmul(core.tensor(x), core.tensor(w)).numpy(),
                        torch.matmul(torch.tensor(x), torch.tensor(w)).numpy())


# (B, M, K, N): the remainder kernel at each matrix's address (N of 5..11, one row, 2 or 3 rows), the chain (N a
# multiple of 4, one column), the blocked kernel (M >= 4, N >= 12) and 5..11 rows on two threads
STACKS = [(3, 37, 166, 9), (4, 15, 333, 5), (3, 63, 58, 7), (2, 25, 114, 11), (4, 20, 100, 6), (4, 1, 200, 46),
          (3, 3, 172, 33), (3, 50, 161, 1), (4, 8, 100, 8), (3, 10, 187, 13), (3, 40, 96, 64), (2, 7, 300, 20)]


@pytest.fixture(params=[1, 2], ids=["one_thread", "two_threads"])
def threads(request):
    """Both libraries on one, then two threads (MKL's batched sgemm runs each matrix on one thread; ``mm`` splits
    the rows of a 5..11-row product between two); the old counts come back after the test."""
    before = torch.get_num_threads(), core.get_num_threads()
    torch.set_num_threads(request.param)
    core.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before[0])
    core.set_num_threads(before[1])


@ZEN3
@pytest.mark.parametrize("layout", ["rows", "transposed_left", "transposed_right"])
@pytest.mark.parametrize("batch,m,k,n", STACKS)
def test_bmm_is_mkls_batched_order(batch, m, k, n, layout, threads):
    a, b = _arrays(batch + m + k + n, (batch, k, m) if layout == "transposed_left" else (batch, m, k),
                   (batch, n, k) if layout == "transposed_right" else (batch, k, n))
    results = []
    for lib in (core, torch):
        x, y = lib.tensor(a), lib.tensor(b)
        x = x.transpose(1, 2) if layout == "transposed_left" else x
        y = y.transpose(1, 2) if layout == "transposed_right" else y
        results.append(lib.bmm(x, y).numpy())
    assert_float32_bits(*results)


@ZEN3
@pytest.mark.parametrize("op", ["bmm", "matmul", "einsum"])
def test_gradients_of_stacked_products_are_torchs(op):
    a, b, g = _arrays(11, (3, 20, 35), (3, 35, 9), (3, 20, 9))
    grads = []
    for lib in (core, torch):
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        out = lib.einsum("bik,bkj->bij", x, y) if op == "einsum" else getattr(lib, op)(x, y)
        out.backward(lib.tensor(g))
        grads.append([out.detach().numpy(), x.grad.numpy(), y.grad.numpy()])
    for ours, theirs in zip(*grads):
        assert_float32_bits(ours, theirs)


@ZEN3
@pytest.mark.parametrize("left,right", [((3, 4, 10, 100), (3, 4, 100, 9)), ((10, 50), (4, 50, 7)),
                                        ((2, 1, 13, 40), (1, 3, 40, 22)), ((5, 20, 30), (5, 30, 1))])
def test_matmul_of_broadcast_stacks_is_torchs(left, right):
    a, b = _arrays(len(left) + right[-1], left, right)
    with torch.no_grad():
        want = torch.matmul(torch.tensor(a), torch.tensor(b)).numpy()
    assert_float32_bits(core.matmul(core.tensor(a), core.tensor(b)).numpy(), want)


@pytest.mark.parametrize("m,k,n", [(2, 6, 6), (8, 100, 10), (17, 385, 6), (9, 40, 5), (7, 30, 7), (64, 90, 11),
                                   (4, 37, 9), (3, 301, 13), (2, 1000, 14), (3, 50, 23)])
def test_the_route_at_an_aligned_result_is_the_row_index_rule(m, k, n):
    a, b, bias = _arrays(m + n, (m, k), (k, n), (n,))
    for c in (None, bias):
        old = _small_gemm_chain._remainder_rows(a, b, c)
        assert np.array_equal(_small_gemm_zen3.remainder_rows(a, b, c).view(np.uint32), old.view(np.uint32))
