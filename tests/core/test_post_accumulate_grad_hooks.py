"""``Tensor.register_post_accumulate_grad_hook`` (an optimizer step per parameter inside backward, as PyTorch's
optimizer-in-backward tutorial does) and ``torch.utils.hooks.RemovableHandle``, against torch."""

from __future__ import annotations

import importlib

import pytest

import core
from tests.core.oracle import assert_same


def _train_in_backward(lib, steps=2, remove_first=False):
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    optimizers = {p: lib.optim.SGD([p], lr=0.1) for p in model.parameters()}
    seen = []

    def hook(p):
        seen.append(tuple(p.shape))
        optimizers[p].step()
        optimizers[p].zero_grad()

    handles = [p.register_post_accumulate_grad_hook(hook) for p in model.parameters()]
    if remove_first:
        handles[0].remove()
    x = lib.randn(4, 3)
    for _ in range(steps):
        model(x).pow(2).sum().backward()
    return model, seen


def test_a_hook_per_parameter_steps_its_optimizer_during_backward_as_torch(torch):
    (ours, our_seen), (theirs, their_seen) = _train_in_backward(core), _train_in_backward(torch)
    assert our_seen == their_seen  # torch's order: the bias's gradient is accumulated first
    assert_same(ours.weight, theirs.weight)
    assert ours.weight.grad is None and theirs.weight.grad is None  # zeroed (set to None) by the hook


def test_a_removed_hook_no_longer_runs(torch):
    (ours, our_seen), (theirs, their_seen) = [_train_in_backward(lib, remove_first=True) for lib in (core, torch)]
    assert our_seen == their_seen == [(2,), (2,)]
    assert_same(ours.weight.grad, theirs.weight.grad)


@pytest.mark.parametrize("make, message", [
    (lambda lib: lib.ones(2), "cannot register a hook on a tensor that doesn't require gradient"),
    (lambda lib: lib.ones(2, requires_grad=True) * 2, "post accumulate grad hooks cannot be registered on non-leaf"),
])
def test_only_leaves_that_require_grad_take_the_hook_as_in_torch(torch, make, message):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match=message):
            make(lib).register_post_accumulate_grad_hook(lambda p: None)


def test_torch_utils_hooks_has_the_removable_handle_hooks_return():
    handle = core.ones(1, requires_grad=True).register_hook(lambda g: g)
    assert isinstance(handle, importlib.import_module("core.utils.hooks").RemovableHandle)
