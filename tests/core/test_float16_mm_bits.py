"""float16 ``mm``/``matmul`` bit for bit as PyTorch's CPU computes them where oneDNN does not take float16 (as on
an AMD Zen 4): ATen's own GEMM (``gemm_notrans_``) keeps four float32 partial sums (``core.ops._float32_compute
.mm_float16``). Products of cancelling values, so that the order of the float32 sums shows after rounding."""

import numpy as np
import pytest
import torch

import core
from core import _cpu

pytestmark = pytest.mark.skipif(_cpu.onednn_takes_half("float16"), reason="oneDNN takes float16 GEMMs on this CPU: "
                                "PyTorch's order there was not measured (core keeps NumPy's)")


def _cancelling(shape, seed, ones=False):
    """float16 values of two scales (+-1024/2048 and within +-0.05) so that the partial sums' order shows."""
    rng = np.random.default_rng(seed)
    if ones:
        return np.where(rng.random(shape) < 0.5, 1, -1).astype(np.float16)
    big = rng.choice([2048, -2048, 1024, -1024], size=shape)
    return np.where(rng.random(shape) < 0.5, big, rng.uniform(-0.05, 0.05, shape)).astype(np.float16)


def _same_bits(c, t):
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype == np.float16 and c.shape == t.shape
    assert np.array_equal(c.view(np.uint16), t.view(np.uint16))


@pytest.mark.parametrize("m,k,n", [(4, 9, 5), (6, 13, 3), (1, 12, 6), (5, 40, 1), (8, 64, 8), (3, 7, 2)])
@pytest.mark.parametrize("grad", [False, True])
def test_float16_mm_and_matmul_match_torch_bitwise(m, k, n, grad):
    a, b = _cancelling((m, k), m + k, ones=True), _cancelling((k, n), k + n)
    ca, cb, ta, tb = core.tensor(a), core.tensor(b), torch.tensor(a), torch.tensor(b)
    ca.requires_grad_(grad)
    ta.requires_grad_(grad)
    _same_bits(core.mm(ca, cb), torch.mm(ta, tb))
    _same_bits(ca @ cb, ta @ tb)


def test_float16_matmul_of_a_stack_folded_into_one_mm_matches_torch_bitwise():
    a, b = _cancelling((3, 4, 11), 1, ones=True), _cancelling((11, 6), 2)
    _same_bits(core.tensor(a) @ core.tensor(b), torch.tensor(a) @ torch.tensor(b))


def test_float16_vector_times_matrix_matches_torch_bitwise():
    a, b = _cancelling((15,), 3, ones=True), _cancelling((15, 7), 4)
    _same_bits(core.tensor(a) @ core.tensor(b), torch.tensor(a) @ torch.tensor(b))
