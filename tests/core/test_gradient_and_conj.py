"""``torch.gradient`` (central differences, one-sided edges, uniform steps or coordinates) and ``conj`` of real
tensors, against PyTorch."""

import numpy as np
import pytest

import core

SAMPLES = np.arange(20, dtype=np.float32).reshape(4, 5) ** 2 / 7


@pytest.mark.parametrize("kw", [{}, {"spacing": 2.0}, {"edge_order": 2}, {"dim": 1},
                                {"dim": [0, 1], "spacing": [0.5, 3]}, {"dim": -1, "edge_order": 2, "spacing": 0.25}])
def test_gradient_with_uniform_steps_equals_torch(kw, torch):
    ours = core.gradient(core.tensor(SAMPLES), **kw)
    theirs = torch.gradient(torch.tensor(SAMPLES), **kw)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_with_coordinates_equals_torch(edge_order, torch):
    coords = [0.0, 0.5, 2.0, 2.5, 4.0]
    ours = core.gradient(core.tensor(SAMPLES), dim=1, spacing=[core.tensor(coords)], edge_order=edge_order)
    theirs = torch.gradient(torch.tensor(SAMPLES), dim=1, spacing=[torch.tensor(coords)], edge_order=edge_order)
    np.testing.assert_allclose(ours[0].numpy(), theirs[0].numpy(), rtol=1e-6)


def test_gradient_is_differentiable_and_refuses_what_torch_refuses(torch):
    x = core.tensor([1.0, 4.0, 9.0], requires_grad=True)
    core.gradient(x)[0].sum().backward()
    tx = torch.tensor([1.0, 4.0, 9.0], requires_grad=True)
    torch.gradient(tx)[0].sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="only supports edge_order=1 and edge_order=2"):
            lib.gradient(lib.ones(5), edge_order=3)
        with pytest.raises(RuntimeError, match="at least edge_order\\+1"):
            lib.gradient(lib.ones(2), edge_order=2)


def test_conj_of_a_real_tensor_is_the_tensor_itself(torch):
    for lib in (core, torch):
        x = lib.ones(2, requires_grad=True)
        assert lib.conj(x) is x and x.conj() is x and lib.conj_physical(x) is x and not x.is_conj()
