"""A module pickles through its own ``__getstate__`` (its dict, less a compiled forward), as PyTorch's: pickling or
deep-copying one leaves its class's ``dir()`` as it was (no ``__slotnames__`` cached by copyreg), so a dir check
passes whatever ran before it."""

from __future__ import annotations

import copy
import pickle

import pytest

import core
from tests.core.oracle import module_dir

MODULES = ["Sequential", "ModuleList", "ModuleDict", "ReLU", "Linear"]


def _make(lib, name):
    return getattr(lib.nn, name)(1, 1) if name == "Linear" else getattr(lib.nn, name)()


@pytest.mark.parametrize("name", MODULES)
@pytest.mark.parametrize("how", [pickle.dumps, copy.deepcopy])
def test_pickling_a_module_leaves_its_class_dir_as_torchs(torch, name, how):
    for lib in (core, torch):
        how(_make(lib, name))
    assert ("__slotnames__" in vars(getattr(core.nn, name))) == ("__slotnames__" in vars(getattr(torch.nn, name)))
    assert ("__slotnames__" in dir(_make(core, name))) == ("__slotnames__" in dir(_make(torch, name)))


@pytest.mark.parametrize("name", ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"])
def test_a_containers_dir_is_torchs_after_pickling_one(torch, name):
    for lib in (core, torch):
        pickle.loads(pickle.dumps(_make(lib, name)))
    assert module_dir(_make(core, name)) == module_dir(_make(torch, name))


def test_getstate_gives_the_dict_without_a_compiled_forward(torch):
    states = []
    for lib in (core, torch):
        module = lib.nn.Linear(2, 2)
        module._compiled_call_impl = len  # what compile() leaves (a callable that need not pickle)
        state = module.__getstate__()
        states.append(sorted(k for k in state if not k.startswith("_compiled")))
        assert "_compiled_call_impl" not in state and state is not module.__dict__
    assert states[0] == states[1]
