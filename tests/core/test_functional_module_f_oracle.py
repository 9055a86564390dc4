"""``torch.functional.F`` is ``torch.nn.functional``, as in PyTorch (its ``torch/functional.py`` imports it as
``F``): Dennis Müller's German course computes a three-layer network's forward with
``torch.functional.F.sigmoid``, where core raised AttributeError (corpus helper s35 CORPUS)."""

import numpy as np

import core


def test_torch_functional_f_is_the_nn_functional_module(torch):
    assert core.functional.F is core.nn.functional
    assert torch.functional.F is torch.nn.functional


def _three_layers(lib):
    """The course's 2-2-2 sigmoid network: outputs, error and the first layer's gradient."""
    w1 = lib.tensor([[2.5, -2.0], [-1.5, 1.5]], requires_grad=True)
    w2 = lib.tensor([[3.5, -1.5], [-2.5, 2.5]], requires_grad=True)
    w3 = lib.tensor([[4.5, -3.5], [-2.5, 3.5]], requires_grad=True)
    x, y = lib.tensor([0.4, 0.5]), lib.tensor([0.4, 1.0])
    o3 = lib.functional.F.sigmoid(w3 @ lib.functional.F.sigmoid(w2 @ lib.functional.F.sigmoid(w1 @ x)))
    e = lib.mean((o3 - y) ** 2)
    e.backward()
    return o3.detach().numpy(), e.item(), w1.grad.numpy()


def test_a_network_through_torch_functional_f_matches_torch_bit_for_bit(torch):
    ours, theirs = _three_layers(core), _three_layers(torch)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1] == theirs[1]
    np.testing.assert_array_equal(ours[2], theirs[2])


def test_another_missing_name_of_torch_functional_is_refused_as_torch_does(torch):
    for lib in (core, torch):
        try:
            lib.functional.no_such_name  # noqa: B018
        except AttributeError as e:
            assert str(e) == f"module '{lib.__name__}.functional' has no attribute 'no_such_name'"
        else:
            raise AssertionError("no AttributeError")
