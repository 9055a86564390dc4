"""A leaf's existing ``.grad`` is added to in place outside create_graph, as PyTorch's AccumulateGrad does whenever
grad mode is off, even when that ``.grad`` requires grad itself (an earlier ``backward(create_graph=True)`` made it):
the learner's second derivative ``g = x.grad; g.backward()`` then sees ``f' + f''`` in ``g`` (arkeodev's dynamic
computation graph notebook)."""

from __future__ import annotations

import core
from tests.core.oracle import assert_same


def _second_derivative_through_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x ** 4 - x ** 2).sum().backward(create_graph=True)
    first = x.grad
    first.sum().backward()
    return x, first


def test_backward_of_a_grad_made_under_create_graph_adds_into_that_same_grad_as_torch(torch):
    (ours, our_first), (theirs, their_first) = _second_derivative_through_grad(core), \
        _second_derivative_through_grad(torch)
    assert (our_first is ours.grad) == (their_first is theirs.grad)
    assert_same(our_first.detach(), their_first.detach())
    assert_same(ours.grad.detach(), theirs.grad.detach())
    assert our_first.grad_fn.name() == their_first.grad_fn.name()
    assert our_first.requires_grad == their_first.requires_grad


def _accumulate_into_grad_requiring_grad(lib):
    w = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w.grad = lib.ones(3, requires_grad=True)
    kept = w.grad
    (w * w).sum().backward()
    return w, kept


def test_a_grad_set_by_hand_that_requires_grad_is_added_to_in_place_as_torch(torch):
    (ours, our_kept), (theirs, their_kept) = _accumulate_into_grad_requiring_grad(core), \
        _accumulate_into_grad_requiring_grad(torch)
    assert (our_kept is ours.grad) == (their_kept is theirs.grad)
    assert_same(our_kept.detach(), their_kept.detach())
    assert our_kept._version == their_kept._version
