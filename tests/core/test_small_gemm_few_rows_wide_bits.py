"""Products of 2 or 3 rows times W of 13 or more columns, not a multiple of 4, bit for bit as PyTorch's CPU GEMM
computes them (``core._small_gemm``'s ``_remainder_rows``: the last N % 4 columns' kernel, some of the first
columns of the rows 1 and 2 in blocks of 4): a ``Linear(N, 2)`` or ``Linear(N, 3)`` layer's weight gradient
``g.t().mm(x)``.

Oracle tests: the same random products in core and torch on one thread, compared bitwise, ``a`` row-major or a
transposed view, with and without addmm's bias; 4 to 7 rows too (``_fma_blocks``, its last M % 4 rows included).

NOTE: both libraries on one thread: with core on two and torch on one, products of 5..11 rows differ in the last
M % 4 rows (MKL on two threads hands them to its few-row kernels, ``_split_blocks``), which is not a bug."""

import numpy as np
import pytest
import torch

import core
from core import _small_gemm
from tests.core.reference_cpu import blocked_sgemm_measured

pytestmark = pytest.mark.skipif(not _small_gemm.ACTIVE, reason="MKL's small-GEMM order was measured on AMD Zen 4 "
                                "and Zen 3 only; on other CPUs core keeps NumPy's GEMM (core/_small_gemm.py)")


@pytest.fixture
def one_thread():
    before_torch, before_core = torch.get_num_threads(), core.get_num_threads()
    torch.set_num_threads(1)
    core.set_num_threads(1)
    yield
    torch.set_num_threads(before_torch)
    core.set_num_threads(before_core)


def _random_shape(rng):
    n = int(rng.integers(12, 131))
    return int(rng.integers(2, 8)), int(rng.integers(6, 2001)), n + 1 if n % 4 == 0 else n


@pytest.mark.parametrize("seed", range(6))
@blocked_sgemm_measured
def test_few_rows_times_wide_w_matches_torch_bitwise(one_thread, seed):
    rng = np.random.default_rng(seed)
    for case in range(8):
        m, k, n = _random_shape(rng)
        transposed, bias = case % 2 == 1, case // 2 % 2 == 1
        a = rng.standard_normal((k, m) if transposed else (m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        c = rng.standard_normal(n).astype(np.float32)
        ca, ta = core.tensor(a), torch.tensor(a)
        if transposed:
            ca, ta = ca.t(), ta.t()
        cb, tb = core.tensor(b), torch.tensor(b)
        got = core.addmm(core.tensor(c), ca, cb) if bias else ca.mm(cb)
        want = torch.addmm(torch.tensor(c), ta, tb) if bias else ta.mm(tb)
        got, want = got.numpy(), want.numpy()
        assert got.shape == want.shape == (m, n)
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), (m, k, n, transposed, bias)


def test_linear_weight_gradient_of_two_outputs_matches_torch_bitwise(one_thread):
    """The corpus' case: a ``Linear(50, 2)``'s weight gradient over a long batch."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4000, 50)).astype(np.float32)
    w = rng.standard_normal((2, 50)).astype(np.float32)
    grads = []
    for lib in (core, torch):
        weight = lib.tensor(w, requires_grad=True)
        (lib.tensor(x) @ weight.t()).square().sum().backward()
        grads.append(weight.grad.numpy())
    assert np.array_equal(grads[0].view(np.uint32), grads[1].view(np.uint32))
