"""``bmm`` of small stacks bit for bit as PyTorch's CPU bmm computes them above its small-product loop: MKL's GEMM
per matrix (torch.bmm equals torch.mm of each matrix), so where core knows one matrix's order (a transposed
operand, the FMA-blocked kernel of 4 or more rows and 12 or more columns) it knows the stack's: einsum's and
attention's products, and their gradients, which multiply by a transposed operand."""

import numpy as np
import pytest

import core
from core import _small_gemm
from tests.core.reference_cpu import blocked_sgemm_measured

pytestmark = [pytest.mark.skipif(not _small_gemm.ACTIVE, reason="MKL's GEMM order was measured on AMD Zen 4 and "
                                 "Zen 3 only; on other CPUs core keeps NumPy's GEMM (core/_small_gemm.py)"),
              pytest.mark.usefixtures("one_thread")]

STACKS = {  # (batch, rows, K, columns), which operand is a transposed view
    "blocked_kernel_one_matrix": ((1, 48, 256, 16), None),
    "blocked_kernel_batch": ((3, 8, 64, 12), None),
    "transposed_right": ((2, 40, 6, 3), "right"),
    "transposed_right_one_matrix": ((1, 48, 256, 16), "right"),
}

BLOCKED = {name: shape[1] >= 4 and shape[3] >= 12 for name, (shape, _) in STACKS.items()}  # (rows, columns)


def _stack(lib, shape, transposed, seed):
    (b, m, k, n) = shape
    rng = np.random.default_rng(seed)
    left = lib.tensor(rng.standard_normal((b, m, k)).astype(np.float32))
    right = rng.standard_normal((b, n, k) if transposed == "right" else (b, k, n)).astype(np.float32)
    right = lib.tensor(right)
    return left, right.transpose(1, 2) if transposed == "right" else right


@pytest.mark.parametrize("name", [pytest.param(name, marks=[blocked_sgemm_measured] if BLOCKED[name] else [])
                                  for name in sorted(STACKS)])
def test_bmm_of_a_small_stack_is_torchs_per_matrix_gemm(name, torch):
    shape, transposed = STACKS[name]
    ours = core.bmm(*_stack(core, shape, transposed, 1)).numpy()
    theirs = torch.bmm(*_stack(torch, shape, transposed, 1)).numpy()
    np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))


def test_bmm_gradient_by_a_transposed_operand_is_torchs(torch):
    grads = []
    for lib in (core, torch):
        left, right = (t.requires_grad_() for t in _stack(lib, (2, 40, 6, 8), None, 2))
        out = lib.bmm(left, right)
        out.backward(lib.tensor(np.random.default_rng(3).standard_normal((2, 40, 8)).astype(np.float32)))
        grads.append(left.grad.numpy())
    np.testing.assert_array_equal(grads[0].view(np.uint32), grads[1].view(np.uint32))
