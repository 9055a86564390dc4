"""Module.register_backward_hook, PyTorch's legacy module backward hook, against torch itself.

The hook sees the gradients of the one autograd node that made the module's output (for a Conv2d: its input,
weight and bias), and PyTorch warns with a FutureWarning when that is not the whole module; core does the same.
NOTE: for nn.Linear torch's node is addmm(bias, x, W.t()) behind a TBackward0 node, so its third grad_input is
W's gradient transposed; core's linear is one node and hands W's gradient itself.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core


def _run(lib, make, x0, returns=None):
    lib.manual_seed(0)
    module = make(lib)
    seen = []

    def hook(mod, grad_input, grad_output):
        seen.append(([None if g is None else g.detach().numpy().copy() for g in grad_input],
                     [g.detach().numpy().copy() for g in grad_output]))
        return returns(grad_input) if returns else None

    module.register_backward_hook(hook)
    x = lib.tensor(x0, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module(x).sum().backward()
    return seen, x.grad.numpy(), [str(w.message) for w in caught if w.category is FutureWarning]


_MODULES = {
    "conv": (lambda L: L.nn.Conv2d(2, 3, 3), (1, 2, 5, 5)),
    "relu": (lambda L: L.nn.ReLU(), (2, 4)),
    "sequential": (lambda L: L.nn.Sequential(L.nn.Linear(4, 3), L.nn.Tanh()), (2, 4)),
}


@pytest.mark.parametrize("name", list(_MODULES))
def test_legacy_backward_hook_sees_the_output_nodes_gradients_and_warns_as_torch(torch, name):
    make, shape = _MODULES[name]
    x0 = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    (ours, our_grad, our_warnings), (theirs, their_grad, their_warnings) = _run(core, make, x0), _run(torch, make, x0)
    assert len(ours) == len(theirs) == 1
    for a, b in zip(ours[0][0] + ours[0][1], theirs[0][0] + theirs[0][1]):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(our_grad, their_grad, rtol=1e-5, atol=1e-6)
    assert our_warnings == their_warnings


def test_legacy_backward_hook_can_replace_grad_input(torch):
    make, shape = _MODULES["conv"]
    x0 = np.ones(shape, np.float32)
    grads = [_run(lib, make, x0, returns=lambda gi: tuple(None if g is None else g * 0 for g in gi))[1]
             for lib in (core, torch)]
    np.testing.assert_array_equal(grads[0], grads[1])
    assert not grads[0].any()


def test_legacy_and_full_backward_hooks_cannot_share_a_module(torch):
    messages = []
    for lib in (core, torch):
        layer = lib.nn.Linear(2, 2)
        layer.register_full_backward_hook(lambda *a: None)
        with pytest.raises(RuntimeError) as info:
            layer.register_backward_hook(lambda *a: None)
        other = lib.nn.Linear(2, 2)
        other.register_backward_hook(lambda *a: None)
        with pytest.raises(RuntimeError):
            other.register_full_backward_hook(lambda *a: None)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
