"""nn.utils: gradient clipping and parameter vectors give PyTorch's numbers."""

import numpy as np
import pytest

import core
import core.nn as nn


def _pair(torch, grads):
    ours, theirs = [], []
    for g in grads:
        p = nn.Parameter(core.zeros(g.shape, dtype=core.float64))
        p.grad = core.tensor(g)
        q = torch.nn.Parameter(torch.zeros(g.shape, dtype=torch.float64))
        q.grad = torch.tensor(g)
        ours.append(p)
        theirs.append(q)
    return ours, theirs


@pytest.mark.parametrize("norm_type, max_norm", [(2.0, 1.0), (1.0, 0.5), (float("inf"), 0.3), (3, 100.0)])
def test_clip_grad_norm_returns_the_total_norm_and_scales_like_torch(torch, norm_type, max_norm):
    rng = np.random.default_rng(0)
    grads = [rng.standard_normal((3, 4)), rng.standard_normal(5)]
    ours, theirs = _pair(torch, grads)
    total = nn.utils.clip_grad_norm_(ours, max_norm, norm_type)
    expected = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type)
    assert isinstance(total, core.Tensor) and total.ndim == 0
    assert float(total) == pytest.approx(float(expected), rel=1e-12)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-12)


def test_clip_grad_norm_with_no_grads_and_with_a_single_tensor():
    assert float(nn.utils.clip_grad_norm_([nn.Parameter(core.zeros(2))], 1.0)) == 0.0
    p = nn.Parameter(core.zeros(2))
    p.grad = core.tensor([3.0, 4.0])
    assert float(nn.utils.clip_grad_norm_(p, 1.0)) == pytest.approx(5.0)
    assert np.allclose(p.grad.numpy(), [0.6, 0.8], atol=1e-6)


def test_clip_grad_norm_error_if_nonfinite():
    p = nn.Parameter(core.zeros(2))
    p.grad = core.tensor([float("inf"), 1.0])
    with pytest.raises(RuntimeError, match="is non-finite, so it cannot be clipped"):
        nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)


def test_clip_grad_value_clamps_in_place(torch):
    rng = np.random.default_rng(1)
    grads = [rng.standard_normal((3, 4)) * 3]
    ours, theirs = _pair(torch, grads)
    assert nn.utils.clip_grad_value_(ours, 0.5) is None
    torch.nn.utils.clip_grad_value_(theirs, 0.5)
    np.testing.assert_array_equal(ours[0].grad.numpy(), theirs[0].grad.numpy())


def test_parameters_to_vector_and_back():
    lin = nn.Linear(3, 2)
    vec = nn.utils.parameters_to_vector(lin.parameters())
    assert tuple(vec.shape) == (8,)
    assert np.allclose(vec.detach().numpy()[:6], lin.weight.detach().numpy().reshape(-1))
    nn.utils.vector_to_parameters(core.arange(8.0), lin.parameters())
    assert lin.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and lin.bias.tolist() == [6.0, 7.0]
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        nn.utils.vector_to_parameters([1.0], lin.parameters())
