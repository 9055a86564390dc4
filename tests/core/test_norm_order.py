"""Float32 2-norms over trailing dims round as PyTorch's CPU kernel does (core._norm_order), bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _pair(torch, shape, seed=0):
    array = np.random.default_rng(seed).standard_normal(shape).astype(np.float32) * 3
    return core.tensor(array), torch.tensor(array)


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 19, 33, 100, 784])
def test_norm_over_the_last_dim_equals_torch_bit_for_bit(torch, width):
    ours, theirs = _pair(torch, (500, width))
    np.testing.assert_array_equal(ours.norm(dim=1).numpy(), theirs.norm(dim=1).numpy())
    np.testing.assert_array_equal(core.linalg.vector_norm(ours, dim=-1, keepdim=True).numpy(),
                                  torch.linalg.vector_norm(theirs, dim=-1, keepdim=True).numpy())


@pytest.mark.parametrize("shape", [(7,), (37,), (30, 40), (300, 301)])
def test_norm_of_a_whole_contiguous_tensor_equals_torch(torch, shape):
    ours, theirs = _pair(torch, shape)
    assert ours.norm().item() == theirs.norm().item()
    assert core.linalg.norm(ours.flatten()).item() == torch.linalg.norm(theirs.flatten()).item()


def test_norm_over_trailing_dims_of_a_3d_tensor_equals_torch(torch):
    ours, theirs = _pair(torch, (6, 5, 11))
    np.testing.assert_array_equal(ours.norm(dim=(1, 2)).numpy(), theirs.norm(dim=(1, 2)).numpy())
    np.testing.assert_array_equal(ours.norm(dim=(-1, -2), keepdim=True).numpy(),
                                  theirs.norm(dim=(-1, -2), keepdim=True).numpy())


def test_normalize_rows_equals_torch_bit_for_bit(torch):
    ours, theirs = _pair(torch, (2000, 3))
    np.testing.assert_array_equal(core.nn.functional.normalize(ours, 2, 1).numpy(),
                                  torch.nn.functional.normalize(theirs, 2, 1).numpy())


def test_norms_of_other_layouts_stay_close_to_torch(torch):
    ours, theirs = _pair(torch, (40, 30))
    np.testing.assert_allclose(ours.t().norm(dim=1).numpy(), theirs.t().norm(dim=1).numpy(), rtol=1e-6)
    np.testing.assert_allclose(ours.norm(dim=0).numpy(), theirs.norm(dim=0).numpy(), rtol=1e-6)
    np.testing.assert_allclose(ours.double().norm(dim=1).numpy(), theirs.double().norm(dim=1).numpy(), rtol=1e-12)


def test_norm_of_empty_rows_is_zero_and_its_gradient_is_torchs(torch):
    ours, theirs = _pair(torch, (3, 0))
    np.testing.assert_array_equal(ours.norm(dim=1).numpy(), theirs.norm(dim=1).numpy())
    a, b = _pair(torch, (4, 6))
    a.requires_grad_(), b.requires_grad_()
    a.norm(dim=1).sum().backward()
    b.norm(dim=1).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-6)


@pytest.mark.parametrize("max_norm", [0.5, 1.0, 1e3])
def test_clip_grad_norm_gives_torchs_total_and_scaled_gradients_bit_for_bit(torch, max_norm):
    rng = np.random.default_rng(1)
    shapes = [(30, 20), (20,), (7, 30), (7,)]
    grads = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    results = []
    for lib in (core, torch):
        params = [lib.zeros(s, requires_grad=True) for s in shapes]
        for p, g in zip(params, grads):
            p.grad = lib.tensor(g)
        total = lib.nn.utils.clip_grad_norm_(params, max_norm)
        results.append((total.item(), [p.grad.numpy() for p in params]))
    (ours, our_grads), (theirs, their_grads) = results
    assert ours == theirs
    for a, b in zip(our_grads, their_grads):
        np.testing.assert_array_equal(a, b)
