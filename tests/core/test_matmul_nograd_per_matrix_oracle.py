"""A batched ``matmul`` without grad takes PyTorch's per-matrix GEMM order, as ``bmm`` (and ``matmul`` with grad) do.

rasbt/LLMs-from-scratch's chapter 6 bonus experiments evaluate a GPT's attention, ``attn_weights @ values`` of
(8, 2, 40, 40) @ (8, 2, 40, 24), under ``torch.no_grad()``: core's no-grad fast path sent it to NumPy's matmul (20%
of the outputs an ulp off) while ``bmm`` of the same stack was torch's order bit for bit."""

import numpy as np
import pytest

import core
from core import _small_gemm
from tests.core.reference_cpu import blocked_sgemm_measured

pytestmark = [pytest.mark.skipif(not _small_gemm.ACTIVE, reason="MKL's GEMM order was measured on AMD Zen 4 and "
                                 "Zen 3 only; on other CPUs core keeps NumPy's GEMM (core/_small_gemm.py)"),
              pytest.mark.usefixtures("one_thread")]

SHAPES = [(8, 2, 40, 40, 24), (8, 2, 48, 48, 24), (4, 3, 25, 25, 12), (2, 4, 16, 16, 32)]


def _attention(lib, shape, values_view, seed):
    b, h, t, _, d = shape
    rng = np.random.default_rng(seed)
    scores = lib.tensor(rng.standard_normal((b, h, t, t)).astype(np.float32))
    mask = lib.triu(lib.ones(t, t, dtype=lib.bool), diagonal=1)
    weights = lib.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
    if values_view:  # as the book's MultiHeadAttention: (b, t, h, d) viewed as (b, h, t, d)
        values = lib.tensor(rng.standard_normal((b, t, h, d)).astype(np.float32)).transpose(1, 2)
    else:
        values = lib.tensor(rng.standard_normal((b, h, t, d)).astype(np.float32))
    return weights, values


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("values_view", [False, True])
@blocked_sgemm_measured
def test_no_grad_batched_matmul_is_torchs_per_matrix_gemm(shape, values_view, torch):
    with core.no_grad():
        ours = core.matmul(*_attention(core, shape, values_view, 2)).numpy()
    with torch.no_grad():
        theirs = torch.matmul(*_attention(torch, shape, values_view, 2)).numpy()
    np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))


@pytest.mark.parametrize("shape", SHAPES[:2])
def test_no_grad_and_grad_batched_matmul_agree(shape):
    weights, values = _attention(core, shape, True, 3)
    with core.no_grad():
        fast = core.matmul(weights, values)
    slow = core.matmul(weights.requires_grad_(), values)
    np.testing.assert_array_equal(fast.numpy().view(np.uint32), slow.detach().numpy().view(np.uint32))
