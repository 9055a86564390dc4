"""``copy.deepcopy`` of a tensor, as PyTorch 2.13's: only graph leaves can be deep-copied.

A tensor with a ``grad_fn`` (``p.clone()`` of a parameter under autograd) refuses with PyTorch's RuntimeError, so a
library that deep-copies its state (fadel's ExponentialMovingAverage ``load_state_dict`` after ``store()``) stops
where it stops in PyTorch; leaves, tensors made under ``no_grad`` and detached ones copy, keeping ``requires_grad``.
"""

import copy

import pytest

import core


def _deepcopy_error(value):
    try:
        copy.deepcopy(value)
    except RuntimeError as error:
        return str(error)
    return None


@pytest.mark.parametrize("make", ["p * 2", "p.clone()", "p[0]", "p.view(2, 2)"])
def test_a_tensor_with_a_grad_fn_refuses_deepcopy_as_in_torch(torch, make):
    messages = []
    for lib in (core, torch):
        p = lib.ones(4, requires_grad=True)
        t = eval(make, {"p": p})
        messages.append(_deepcopy_error({"state": [t]}))
    assert messages[0] is not None
    assert messages[0] == messages[1]


def test_leaves_detached_and_no_grad_tensors_copy_as_in_torch(torch):
    results = []
    for lib in (core, torch):
        p = lib.ones(3, requires_grad=True)
        with lib.no_grad():
            made = p * 2
        copies = copy.deepcopy([p, p.detach() + 1, made, p.clone().detach()])
        results.append([(c.requires_grad, c.is_leaf, c.tolist()) for c in copies] + [copies[0] is not p])
    assert results[0] == results[1]
