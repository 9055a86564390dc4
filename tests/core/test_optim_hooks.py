"""Optimizer hooks against PyTorch: step pre/post hooks (an optimizer's and global ones, their order, replaced
arguments, removal), hooks on a user's Optimizer subclass, and state-dict / load-state-dict hooks."""

from __future__ import annotations

import importlib

import pytest

import core


def _step_hooks(lib):
    optimizer_module = importlib.import_module(lib.__name__ + ".optim.optimizer")
    lib.manual_seed(0)
    layer = lib.nn.Linear(2, 1)
    opt = lib.optim.SGD(layer.parameters(), lr=0.1, momentum=0.9)
    log = []
    pre = opt.register_step_pre_hook(lambda o, args, kwargs: log.append(("pre", type(o).__name__, len(args), kwargs)))
    opt.register_step_post_hook(lambda o, args, kwargs: log.append(("post", args[0] is o, kwargs)))
    handles = [optimizer_module.register_optimizer_step_pre_hook(lambda o, a, k: log.append("global pre")),
               optimizer_module.register_optimizer_step_post_hook(lambda o, a, k: log.append("global post"))]
    layer(lib.ones(1, 2)).sum().backward()
    try:
        opt.step()
    finally:
        for handle in handles:
            handle.remove()
    pre.remove()
    opt.step(closure=None)
    return log, layer.weight.tolist()


def test_step_hooks_run_around_step_in_torchs_order_and_stop_when_removed(torch):
    assert _step_hooks(core) == _step_hooks(torch)


def _subclass_hooks(lib):
    class Halving(lib.optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, {"lr": 0.5})

        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    p.data.mul_(group["lr"])
            return closure

    p = lib.nn.Parameter(lib.tensor([4.0]))
    opt = Halving([p])
    seen = []
    opt.register_step_pre_hook(lambda o, args, kwargs: ((args[0], "replaced"), {}))
    opt.register_step_post_hook(lambda o, args, kwargs: seen.append((args[1:], kwargs)))
    returned = opt.step()
    opt.register_step_pre_hook(lambda o, args, kwargs: 3)
    with pytest.raises(RuntimeError, match="must return None or a tuple of \\(new_args, new_kwargs\\), but got 3"):
        opt.step()
    return returned, seen, p.tolist()


def test_a_users_optimizer_subclass_gets_step_hooks_that_may_replace_its_arguments(torch):
    assert _subclass_hooks(core) == _subclass_hooks(torch)


def _state_dict_hooks(lib):
    lib.manual_seed(0)
    opt = lib.optim.Adam(lib.nn.Linear(2, 1).parameters(), lr=0.01)
    log = []
    opt.register_state_dict_pre_hook(lambda o: log.append("pre"))
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    opt.register_state_dict_post_hook(lambda o, sd: log.append(sorted(sd)), prepend=True)
    saved = opt.state_dict()
    opt.register_load_state_dict_pre_hook(lambda o, sd: log.append(sorted(sd)))
    opt.register_load_state_dict_pre_hook(lambda o, sd: {k: v for k, v in sd.items() if k != "extra"}, prepend=True)
    handle = opt.register_load_state_dict_post_hook(lambda o: log.append("loaded"))
    saved["param_groups"][0]["lr"] = 0.5
    opt.load_state_dict(saved)
    handle.remove()
    opt.load_state_dict(saved)
    return log, sorted(saved), opt.param_groups[0]["lr"]


def test_state_dict_hooks_edit_what_is_saved_and_loaded_in_torchs_order(torch):
    assert _state_dict_hooks(core) == _state_dict_hooks(torch)
