"""``Linear(1, n)`` and ``Linear(2, n)`` on a batch round as PyTorch's MKL kernel does.

Regression tutorials start with ``nn.Linear(1, hidden)``, 2-D classification ones with ``nn.Linear(2, hidden)``.
With one input feature PyTorch's sgemm adds the bias to the exact product and rounds once on Intel CPUs (with one
row or one output, or on an AMD CPU, Zen 3 or Zen 4, it rounds the product first, NumPy's order); with two features
and 12 or more rows and outputs it rounds ``fma(x1, w1, x0 w0)`` and then adds the bias. NumPy's order differs in
the last bit on a few percent of elements, which training then amplifies (the backward GEMMs still sum in NumPy's
order)."""

import numpy as np
import pytest

import core


def _both(torch, x, w, b):
    ours = core.nn.functional.linear(core.tensor(x), core.tensor(w), core.tensor(b)).numpy()
    theirs = torch.nn.functional.linear(torch.tensor(x), torch.tensor(w), torch.tensor(b)).numpy()
    return ours, theirs


SHAPES = [(1, 2, 2), (1, 10, 200), (1, 64, 3), (1, 1, 50), (1, 50, 1), (1, 1, 1), (1, 33, 17), (1, 256, 128),
          (2, 12, 12), (2, 100, 64), (2, 256, 128), (2, 13, 300)]  # (features, rows, outputs)


@pytest.mark.parametrize("features, rows, outputs", SHAPES)
def test_one_or_two_input_features_round_bit_for_bit_as_torch(torch, features, rows, outputs):
    rng = np.random.default_rng(rows * 100 + outputs)
    for _ in range(20):
        x = (rng.standard_normal((rows, features)) * 3).astype(np.float32)
        w = rng.standard_normal((outputs, features)).astype(np.float32)
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
