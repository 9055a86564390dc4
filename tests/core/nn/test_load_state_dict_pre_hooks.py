"""Load-state-dict pre hooks against PyTorch: ``register_load_state_dict_pre_hook`` (and the private form lazy
modules use) run before a module's entries load, so a lazy module takes a checkpoint's shapes; and a lazy module
registers the same hooks as torch's (hook handle ids, which scripts print in ``_forward_pre_hooks``, advance alike)."""

from __future__ import annotations

import core


def _pre_hook_calls(lib):
    seen = []
    inner = lib.nn.Linear(2, 2)
    handle = inner.register_load_state_dict_pre_hook(
        lambda module, state, prefix, meta, strict, missing, unexpected, errors:
        seen.append((type(module).__name__, prefix, sorted(state), strict)))
    model = lib.nn.Sequential(inner)
    model.load_state_dict(lib.nn.Sequential(lib.nn.Linear(2, 2)).state_dict())
    handle.remove()
    model.load_state_dict(lib.nn.Sequential(lib.nn.Linear(2, 2)).state_dict())
    return seen


def test_a_load_state_dict_pre_hook_sees_the_state_dict_and_the_modules_prefix(torch):
    assert _pre_hook_calls(core) == _pre_hook_calls(torch)


def _lazy_load(lib):
    lib.manual_seed(0)
    source = lib.nn.Linear(4, 3)
    lazy = lib.nn.LazyLinear(3)
    lazy.load_state_dict(source.state_dict())
    before = (repr(lazy), tuple(lazy.weight.shape), lazy.weight.tolist() == source.weight.tolist())
    out = lazy(lib.ones(2, 4))
    return before, type(lazy).__name__, out.tolist() == source(lib.ones(2, 4)).tolist()


def test_loading_a_checkpoint_into_a_lazy_module_materialises_its_parameters(torch):
    assert _lazy_load(core) == _lazy_load(torch)


def _handle_steps(lib):
    layer = lib.nn.Linear(1, 1)
    first = layer.register_forward_pre_hook(lambda m, a: None).id
    lazy = lib.nn.LazyLinear(2)
    after_lazy = layer.register_forward_pre_hook(lambda m, a: None).id
    lazy(lib.ones(1, 3))
    after_forward = layer.register_forward_pre_hook(lambda m, a: None).id
    return after_lazy - first, after_forward - after_lazy, dict(lazy._forward_pre_hooks)


def test_a_lazy_module_uses_as_many_hook_handles_as_torchs(torch):
    assert _handle_steps(core) == _handle_steps(torch)
