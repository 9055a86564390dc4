"""What ``dir()`` shows of an optimizer and of ``torch.optim.lr_scheduler``, against PyTorch (fast.ai's course22p2
lists both): the optimizer's class attributes ``OptimizerPreHook``/``OptimizerPostHook`` (the step hooks' types) and
``profile_hook_step`` (the wrapper that runs the hooks around ``step``), and the capitalised names the scheduler
module imports (``Any``, ``Tensor``, ``TypedDict``...)."""

from __future__ import annotations

import importlib

import core


def _public(obj):
    return [name for name in dir(obj) if not name.startswith("_")]


def _optimizer_names(lib):
    opt = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=0.1)
    return _public(opt), repr(lib.optim.Optimizer.OptimizerPreHook), repr(lib.optim.Optimizer.OptimizerPostHook)


def test_optimizer_dir_and_hook_types_match_torch(torch):
    assert _optimizer_names(core) == _optimizer_names(torch)


def _scheduler_names(lib):
    module = importlib.import_module(lib.__name__ + ".optim.lr_scheduler")
    return " ".join(o for o in dir(module) if o[0].isupper() and o[1].islower())


def test_lr_scheduler_module_capitalised_names_match_torch(torch):
    assert _scheduler_names(core) == _scheduler_names(torch)


def _profile_hook_step(lib):
    """A step wrapped by ``Optimizer.profile_hook_step`` runs the optimizer's pre and post hooks around it once."""
    log = []

    class Counting(lib.optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, {"lr": 0.5})

        @lib.optim.Optimizer.profile_hook_step
        def step(self, closure=None):
            log.append("step")
            with lib.no_grad():
                for group in self.param_groups:
                    for p in group["params"]:
                        p.sub_(group["lr"] * p.grad)

    w = lib.ones(2, requires_grad=True)
    opt = Counting([w])
    opt.register_step_pre_hook(lambda o, a, k: log.append("pre"))
    opt.register_step_post_hook(lambda o, a, k: log.append("post"))
    (w * w).sum().backward()
    opt.step()
    return log, w.tolist()


def test_profile_hook_step_runs_hooks_around_a_decorated_step(torch):
    assert _profile_hook_step(core) == _profile_hook_step(torch)
