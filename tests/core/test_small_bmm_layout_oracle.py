"""A small ``bmm`` of permuted operands returns PyTorch's contiguous result, so what reads it next in memory order
sums as PyTorch's does.

PyTorch's ``bmm`` writes into a new contiguous tensor whatever its operands' strides. Core's small-product kernel
(k * n * m < 400) built its result with NumPy's broadcasting multiply, which follows the operands' memory order:
einsum's ``'b n d, n d -> b n'`` (x-transformers' NeoMLP output head) bmm's a permuted view, so core's result came
out with strides (3, 1) where PyTorch's has (1, 4), the same values in another layout; ``mse_loss``'s mean then
added them in another order and the loss differed in the last bit."""

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy

RNG = np.random.default_rng(5)


def _permuted_operands(b, n, k, m, dtype):
    """A (b, n, k) operand that is a permuted view of an (n, b, k) array and a (b, k, m) one of a (m, b, k) array."""
    x = RNG.standard_normal((n, b, k)).astype(dtype)
    y = RNG.standard_normal((m, b, k)).astype(dtype)
    return x, y


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("b, n, k, m", [(3, 4, 16, 1), (2, 5, 8, 3), (4, 3, 40, 2), (6, 1, 7, 5)])
def test_small_bmm_of_permuted_operands_is_contiguous_as_torch(torch, b, n, k, m, dtype):
    x, y = _permuted_operands(b, n, k, m, dtype)
    ours = core.bmm(core.tensor(x).permute(1, 0, 2), core.tensor(y).permute(1, 2, 0))
    theirs = torch.bmm(torch.tensor(x).permute(1, 0, 2), torch.tensor(y).permute(1, 2, 0))
    assert ours.stride() == theirs.stride()
    assert ours.is_contiguous() and theirs.is_contiguous()
    assert np.array_equal(to_numpy(ours), to_numpy(theirs))


def test_einsum_output_head_then_mse_loss_sums_as_torch(torch):
    """NeoMLP's output head (``einsum('b n d, n d -> b n')`` on a slice of the token embeddings, plus a bias) and the
    mean squared error against targets: the einsum's strides and the loss's bits are torch's."""
    a = RNG.standard_normal((4, 16, 16)).astype(np.float32)
    w, bias = RNG.standard_normal((3, 16)).astype(np.float32), RNG.standard_normal(3).astype(np.float32)
    target = RNG.standard_normal((4, 3)).astype(np.float32)
    results = []
    for lib in (core, torch):
        out = lib.einsum("bnd,nd->bn", lib.tensor(a)[:, -3:], lib.tensor(w)) + lib.tensor(bias)
        loss = lib.nn.functional.mse_loss(out, lib.tensor(target))
        results.append((out.stride(), loss.item()))
    assert results[0] == results[1]
