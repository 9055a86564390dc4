"""Under ``create_graph`` a Linear bias's gradient is the batch summed with keepdim and viewed back to the bias's
shape, as PyTorch's engine reduces a broadcast gradient (``at::sum_to``): its ``grad_fn`` is ``ViewBackward0`` over
``SumBackward1`` (``torch.func.grad`` of a ``functional_call``, the functorch migration page, prints it), and the
second-order gradients are torch's."""

from __future__ import annotations

import pytest

import core
from tests.core.oracle import assert_same


def _nodes(t):
    names, node = [], t.grad_fn
    while node is not None:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


@pytest.mark.parametrize("shape", [(4, 3), (2, 4, 3)], ids=["2d", "3d"])
def test_a_bias_gradient_with_create_graph_is_a_view_of_a_keepdim_sum(shape, torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        m = lib.nn.Linear(3, 2)
        gb, gw = lib.autograd.grad(m(lib.randn(*shape)).pow(2).sum(), [m.bias, m.weight], create_graph=True)
        (gb.pow(2).sum() + gw.sum()).backward()
        results.append((_nodes(gb)[:2], gb, m.bias.grad, m.weight.grad))
    assert results[0][0] == results[1][0]
    assert_same(results[0][1:], results[1][1:])


def test_func_grad_of_a_functional_call_names_the_bias_gradient_as_torch(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        model, x, y = lib.nn.Linear(3, 3), lib.randn(8, 3), lib.randn(8, 3)
        params = dict(model.named_parameters())

        def loss(p, model=model, lib=lib, x=x, y=y):
            return lib.nn.functional.mse_loss(lib.func.functional_call(model, p, (x,)), y)

        grads = lib.func.grad(loss)(params)
        results.append(({k: v.grad_fn.name() for k, v in grads.items()}, [grads["weight"], grads["bias"]]))
    assert results[0][0] == results[1][0]
    assert_same(results[0][1], results[1][1])
