"""torch.cdist against torch: both of PyTorch's routes (one matrix product for many Euclidean rows, direct differences
otherwise), their grad_fn names, gradients, batch broadcasting and errors."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _pair(torch, shape1, shape2, seed=0):
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal(shape1).astype(np.float32), rng.standard_normal(shape2).astype(np.float32)
    ours = core.tensor(a, requires_grad=True), core.tensor(b, requires_grad=True)
    theirs = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    return ours, theirs


def _run(lib, x1, x2, weights, **kw):
    out = lib.cdist(x1, x2, **kw)
    (out * lib.tensor(weights)).sum().backward()
    return out


CASES = [((30, 3), (40, 3), {}), ((5, 3), (6, 3), {}), ((2, 30, 3), (2, 40, 3), {}), ((2, 1, 30, 3), (4, 40, 3), {}),
         ((2, 1, 5, 3), (4, 6, 3), {}), ((5, 3), (6, 3), {"compute_mode": "use_mm_for_euclid_dist"}),
         ((30, 3), (40, 3), {"compute_mode": "donot_use_mm_for_euclid_dist"}), ((5, 20), (6, 20), {}),
         ((5, 3), (6, 3), {"p": 1}), ((5, 3), (6, 3), {"p": float("inf")}), ((5, 3), (6, 3), {"p": 3.0}),
         ((5, 3), (6, 3), {"p": 0})]


@pytest.mark.parametrize("shape1, shape2, kw", CASES)
def test_cdist_values_gradients_and_node_match_torch(torch, shape1, shape2, kw):
    (a, b), (ta, tb) = _pair(torch, shape1, shape2)
    weights = np.random.default_rng(1).standard_normal(torch.cdist(ta, tb, **kw).shape).astype(np.float32)
    ours, theirs = _run(core, a, b, weights, **kw), _run(torch, ta, tb, weights, **kw)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.grad_fn.name() == theirs.grad_fn.name()
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5, atol=2e-6)
    np.testing.assert_allclose(a.grad.numpy(), ta.grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_direct_euclidean_distances_equal_torch_bit_for_bit(torch):
    for width in (1, 2, 3, 5, 8, 13):
        (a, b), (ta, tb) = _pair(torch, (20, width), (25, width), seed=width)
        np.testing.assert_array_equal(core.cdist(a, b).detach().numpy(), torch.cdist(ta, tb).detach().numpy())


def test_many_rows_go_through_the_matrix_product_under_a_view(torch):
    (a, b), (ta, tb) = _pair(torch, (30, 2), (40, 2))
    ours, theirs = core.cdist(a, b), torch.cdist(ta, tb)
    assert ours.grad_fn.name() == theirs.grad_fn.name() == "ViewBackward0"
    assert ours.grad_fn.next_functions[0][0].name() == theirs.grad_fn.next_functions[0][0].name()


def test_distance_of_a_row_to_itself_is_zero_and_its_gradient_is_finite(torch):
    for lib in (core, torch):
        x = lib.tensor(np.random.default_rng(2).standard_normal((30, 3)).astype(np.float32), requires_grad=True)
        d = lib.cdist(x, x, compute_mode="donot_use_mm_for_euclid_dist")
        assert d.diagonal().abs().max().item() == 0
        d.sum().backward()
        assert bool(x.grad.isfinite().all())


@pytest.mark.parametrize("call", [
    lambda lib: lib.cdist(lib.ones(3), lib.ones(3, 2)),
    lambda lib: lib.cdist(lib.ones(3, 2), lib.ones(3, 4)),
    lambda lib: lib.cdist(lib.ones(3, 2), lib.ones(3, 2), p=-1),
    lambda lib: lib.cdist(lib.ones(3, 2, dtype=lib.long), lib.ones(3, 2, dtype=lib.long)),
    lambda lib: lib.cdist(lib.ones(3, 2), lib.ones(3, 2, dtype=lib.float64)),
    lambda lib: lib.cdist(lib.ones(2, 3, 2), lib.ones(3, 3, 2)),
    lambda lib: lib.cdist(lib.ones(3, 2), lib.ones(3, 2), compute_mode="fast"),
])
def test_cdist_refuses_what_torch_refuses_with_its_message(torch, call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(Exception) as ours:
        call(core)
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


def test_the_augmented_product_of_many_rows_rounds_as_torchs_matmul(torch):
    from core.ops.cdist import _augmented, _product

    (a, b), (ta, tb) = _pair(torch, (30, 5), (40, 5))
    x1_, x2_ = _augmented(a.detach(), b.detach())
    theirs = torch.tensor(x1_.numpy()).matmul(torch.tensor(x2_.numpy()).mT)
    np.testing.assert_array_equal(_product(x1_, x2_).numpy(), theirs.numpy())
