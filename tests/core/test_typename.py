"""``core.typename`` prints what ``torch.typename`` prints, for tensors, modules, classes and builtins."""

from __future__ import annotations

import importlib
import inspect

import core

NAMESPACES = ["", ".nn", ".optim", ".optim.lr_scheduler", ".distributions", ".distributions.constraints",
              ".distributions.transforms", ".utils.data", ".autograd", ".nn.parameter"]


def test_typename_of_a_module_instance_is_torchs_full_class_path(torch):
    assert core.typename(core.nn.Linear(2, 3)) == torch.typename(torch.nn.Linear(2, 3)) \
        == "torch.nn.modules.linear.Linear"
    assert core.typename(core.nn.Sequential()) == "torch.nn.modules.container.Sequential"


def test_typename_of_tensors_and_builtins_matches_torch(torch):
    for make in (lambda lib: lib.zeros(2), lambda lib: lib.zeros(2, dtype=lib.int64),
                 lambda lib: lib.nn.Parameter(lib.ones(1)), lambda lib: 3, lambda lib: "s", lambda lib: int):
        assert core.typename(make(core)) == torch.typename(make(torch))


def test_typename_of_every_public_class_matches_torch(torch):
    mismatches = []
    for suffix in NAMESPACES:
        ours, theirs = importlib.import_module("core" + suffix), importlib.import_module("torch" + suffix)
        for name in dir(ours):
            a, b = getattr(ours, name), getattr(theirs, name, None)
            if inspect.isclass(a) and inspect.isclass(b) and a.__module__.startswith("core"):
                if core.typename(a) != torch.typename(b):
                    mismatches.append((core.typename(a), torch.typename(b)))
    assert not mismatches
