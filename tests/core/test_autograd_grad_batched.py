"""``torch.autograd.grad`` with named inputs (a dict in, a dict out) and ``is_grads_batched=True`` (one
vector-Jacobian product per row of the grad_outputs), against torch."""

from __future__ import annotations

import pytest

import core
from tests.core.oracle import assert_same


def _leaves(lib):
    x = lib.tensor([1.0, 2.0, -0.5], requires_grad=True)
    w = lib.tensor([3.0, -1.0, 0.25], requires_grad=True)
    return x, w


def test_grad_of_named_inputs_returns_a_dict_with_the_same_names(torch):
    def run(lib):
        x, w = _leaves(lib)
        return lib.autograd.grad((x * w).sin().sum(), {"weight": w, "input": x})

    ours, theirs = run(core), run(torch)
    assert list(ours) == list(theirs) == ["weight", "input"]
    for name in ours:
        assert_same(ours[name], theirs[name])


def test_batched_grad_outputs_give_one_vector_jacobian_product_per_row(torch):
    def run(lib):
        x, w = _leaves(lib)
        y = x.exp() * w
        return lib.autograd.grad(y, (x, w), lib.eye(3), is_grads_batched=True)

    for ours, theirs in zip(run(core), run(torch)):
        assert_same(ours, theirs)


def test_batched_grad_with_create_graph_can_be_differentiated_again(torch):
    def run(lib):
        x, _ = _leaves(lib)
        jac, = lib.autograd.grad(x ** 3, x, lib.eye(3), is_grads_batched=True, create_graph=True)
        return jac, lib.autograd.grad(jac.sum(), x)[0]

    for ours, theirs in zip(run(core), run(torch)):
        assert_same(ours, theirs)


def test_batched_grad_keeps_an_unused_input_none_and_retains_the_graph_when_asked(torch):
    for lib in (core, torch):
        x, w = _leaves(lib)
        y = x * 2
        gx, gw = lib.autograd.grad(y, (x, w), lib.eye(3), is_grads_batched=True, allow_unused=True,
                                   retain_graph=True)
        assert gw is None and tuple(gx.shape) == (3, 3)
        y.sum().backward()  # the graph was retained
        with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
            z = x * 2
            lib.autograd.grad(z, x, lib.eye(3), is_grads_batched=True)
            z.sum().backward()
