"""``torch.autograd.grad`` and ``backward`` take any iterable of tensors, as torch's ``tuple(inputs)`` does: the
AMP notes' gradient penalty passes ``model.parameters()``, a generator."""

from __future__ import annotations

import pytest

import core
from tests.core.oracle import assert_same


def _model(lib):
    lib.manual_seed(0)
    return lib.nn.Linear(3, 2), lib.randn(4, 3)


@pytest.mark.parametrize("make", [lambda m: m.parameters(), lambda m: iter([m.weight, m.bias]),
                                  lambda m: dict(m.named_parameters()).values(), lambda m: (p for p in [m.bias])],
                         ids=["parameters", "iterator", "dict_values", "generator"])
def test_grad_takes_any_iterable_of_inputs(make, torch):
    results = []
    for lib in (core, torch):
        model, x = _model(lib)
        loss = model(x).pow(2).sum()
        grads = lib.autograd.grad(loss, make(model), create_graph=True)
        penalty = sum(g.pow(2).sum() for g in grads)
        penalty.backward()
        results.append((grads, model.weight.grad, model.bias.grad))
    assert_same(results[0], results[1])


def test_backward_takes_an_iterator_of_inputs_and_of_grad_tensors(torch):
    results = []
    for lib in (core, torch):
        model, x = _model(lib)
        out = model(x)
        lib.autograd.backward(iter([out]), grad_tensors=iter([lib.ones_like(out)]), inputs=iter([model.weight]))
        results.append((model.weight.grad, model.bias.grad))
    assert_same(results[0], results[1])
