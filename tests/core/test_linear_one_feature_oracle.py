"""``Linear(1, n)`` on a batch rounds as PyTorch's MKL kernel does: ``x w + b`` in one fused multiply-add.

Regression tutorials start with ``nn.Linear(1, hidden)``. With one input feature, one output or one row, PyTorch's
sgemm rounds the product and then adds the bias (NumPy's order); with several rows and outputs it adds the bias to
the exact product and rounds once. The two differ in the last bit on a few percent of elements, which training then
amplifies (the backward GEMMs still sum in NumPy's order)."""

import numpy as np
import pytest

import core


def _both(torch, x, w, b):
    ours = core.nn.functional.linear(core.tensor(x), core.tensor(w), core.tensor(b)).numpy()
    theirs = torch.nn.functional.linear(torch.tensor(x), torch.tensor(w), torch.tensor(b)).numpy()
    return ours, theirs


@pytest.mark.parametrize("rows, outputs", [(2, 2), (10, 200), (64, 3), (1, 50), (50, 1), (1, 1), (33, 17)])
def test_one_input_feature_rounds_bit_for_bit_as_torch(torch, rows, outputs):
    rng = np.random.default_rng(rows * 100 + outputs)
    for _ in range(20):
        x = (rng.standard_normal((rows, 1)) * 3).astype(np.float32)
        w = rng.standard_normal((outputs, 1)).astype(np.float32)
        b = rng.standard_normal(outputs).astype(np.float32)
        ours, theirs = _both(torch, x, w, b)
        assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)


def test_a_module_on_3d_input_takes_the_same_rounding(torch):
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((4, 5, 1)) * 3).astype(np.float32)
    theirs = torch.nn.Linear(1, 7)
    ours = core.nn.Linear(1, 7)
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    assert np.array_equal(ours(core.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy())
