"""A module's extra state and state-dict hooks against PyTorch: ``get_extra_state``/``set_extra_state`` saved
and loaded under ``_extra_state`` (missing and unexpected keys as torch reports them), and
``register_state_dict_pre_hook`` / ``register_state_dict_post_hook`` / ``_register_state_dict_hook``."""

from __future__ import annotations

import pytest

import core


def _counter_class(lib):
    class Counter(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = lib.nn.Linear(1, 1)
            self.count = 3

        def get_extra_state(self):
            return {"count": self.count}

        def set_extra_state(self, state):
            self.count = state["count"]

    return Counter


def _extra_state(lib):
    counter = _counter_class(lib)
    lib.manual_seed(0)
    saved = counter().state_dict()
    fresh = counter()
    fresh.count = 0
    loaded = str(fresh.load_state_dict(saved)), fresh.count
    del saved["_extra_state"]
    lenient = str(counter().load_state_dict(saved, strict=False))
    with pytest.raises(RuntimeError) as missing:
        counter().load_state_dict(saved)
    plain = lib.nn.Linear(1, 1).load_state_dict({"weight": lib.ones(1, 1), "bias": lib.ones(1), "_extra_state": 1},
                                                strict=False)
    return list(counter().state_dict()), loaded, lenient, str(missing.value), str(plain)


def test_extra_state_is_saved_and_loaded_under_torchs_key(torch):
    assert _extra_state(core) == _extra_state(torch)


def test_the_base_modules_extra_state_methods_raise_torchs_error(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="Module.get_extra_state\\(\\) that should never be called"):
            lib.nn.Linear(1, 1).get_extra_state()
        with pytest.raises(RuntimeError, match="Module.set_extra_state\\(\\) that should never be called"):
            lib.nn.Linear(1, 1).set_extra_state({})


def _hooks(lib):
    seen = []
    layer = lib.nn.Linear(1, 1)
    layer.register_state_dict_pre_hook(lambda module, prefix, keep_vars: seen.append(("pre", prefix, keep_vars)))
    layer.register_state_dict_post_hook(lambda module, state, prefix, meta: seen.append(("post", list(state),
                                                                                         prefix, meta)))
    keys = list(lib.nn.Sequential(layer).state_dict(keep_vars=True))
    layer.register_state_dict_post_hook(lambda module, state, prefix, meta: {})
    with pytest.raises(RuntimeError, match="state_dict post-hook must return None"):
        layer.state_dict()
    replaced = lib.nn.Linear(1, 1)
    replaced._register_state_dict_hook(lambda module, state, prefix, meta: {"x": 1})
    return seen, keys, replaced.state_dict()


def test_state_dict_hooks_run_in_torchs_order_with_its_arguments(torch):
    assert _hooks(core) == _hooks(torch)
