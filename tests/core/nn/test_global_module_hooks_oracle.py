"""``torch.nn.modules.module.register_module_forward_pre_hook``/``register_module_forward_hook``: hooks every
module runs on each call, before its own hooks, removable by their handles; against torch."""

from __future__ import annotations

import importlib

import numpy as np

import core


def _run(lib):
    hooks = importlib.import_module(lib.__name__ + ".nn.modules.module")
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 2))
    log = []

    def pre(module, args):
        log.append(("global pre", type(module).__name__))
        return (args[0] * 2,) if isinstance(module, lib.nn.ReLU) else None

    def post(module, args, output):
        log.append(("global post", type(module).__name__, tuple(output.shape)))
        return output + 1 if isinstance(module, lib.nn.Sequential) else None

    def post_kwargs(module, args, kwargs, output):
        log.append(("global post kwargs", type(module).__name__, sorted(kwargs)))

    model[2].register_forward_pre_hook(lambda module, args: log.append(("own pre", type(module).__name__)))
    model[2].register_forward_hook(lambda module, args, output: log.append(("own post", type(module).__name__)))
    handles = [hooks.register_module_forward_pre_hook(pre), hooks.register_module_forward_hook(post),
               hooks.register_module_forward_hook(post_kwargs, with_kwargs=True)]
    x = lib.tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    hooked = model(x)
    for handle in handles:
        handle.remove()
    plain = model(x)
    return log, hooked, plain


def test_global_forward_hooks_run_around_every_module_as_torch(torch):
    (log, hooked, plain), (tlog, thooked, tplain) = _run(core), _run(torch)
    assert log == tlog
    np.testing.assert_allclose(hooked.detach().numpy(), thooked.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(plain.detach().numpy(), tplain.detach().numpy(), rtol=1e-6)
