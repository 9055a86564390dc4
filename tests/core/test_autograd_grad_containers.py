"""``autograd.grad`` and ``backward(inputs=...)`` take any iterable of tensors as PyTorch's ``tuple(inputs)`` does:
an ``nn.ParameterList`` (MAML's functional learner returns one from ``parameters()``), a deque, a generator."""

from __future__ import annotations

import collections

import core


def _learner(lib):
    lib.manual_seed(0)
    return lib.nn.ParameterList([lib.nn.Parameter(lib.randn(3, 2)), lib.nn.Parameter(lib.randn(3))])


def _loss(lib, params, x):
    return lib.nn.functional.linear(x, params[0], params[1]).tanh().sum()


def _grads(lib, wrap):
    params = _learner(lib)
    x = lib.ones(4, 2)
    found = lib.autograd.grad(_loss(lib, params, x), wrap(params), create_graph=True)
    second = lib.autograd.grad(sum(g.square().sum() for g in found), wrap(params))
    return [g.detach().numpy().tolist() for g in (*found, *second)]


def test_grad_with_respect_to_a_parameter_list(torch):
    assert _grads(core, lambda p: p) == _grads(torch, lambda p: p)


def test_grad_with_respect_to_a_deque_and_a_generator(torch):
    for wrap in (collections.deque, lambda p: (t for t in p)):
        assert _grads(core, wrap) == _grads(torch, wrap)


def test_backward_inputs_may_be_a_parameter_list(torch):
    def run(lib):
        params = _learner(lib)
        _loss(lib, params, lib.ones(4, 2)).backward(inputs=params)
        return [p.grad.numpy().tolist() for p in params]

    assert run(core) == run(torch)
