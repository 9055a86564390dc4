"""A Linear whose weight is frozen and whose input needs no gradient still gives its bias PyTorch's gradient:
the node then keeps neither factor (PyTorch's rule saves each only for the other's gradient)."""

import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("rows", [1, 3, 64])
@pytest.mark.parametrize("create_graph", [False, True])
def test_bias_only_gradient_matches_torch(rows, create_graph):
    rng = np.random.default_rng(rows)
    x = rng.standard_normal((rows, 5)).astype(np.float32)
    w = rng.standard_normal((4, 5)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    grads = []
    for lib in (core, torch):
        lin = lib.nn.Linear(5, 4)
        with lib.no_grad():
            lin.weight.copy_(lib.tensor(w))
            lin.bias.copy_(lib.tensor(b))
        lin.weight.requires_grad_(False)
        loss = (lin(lib.tensor(x)) ** 2).sum()
        loss.backward(create_graph=create_graph)
        assert lin.weight.grad is None
        grads.append(lin.bias.grad.detach().numpy())
    np.testing.assert_array_equal(grads[0], grads[1])
