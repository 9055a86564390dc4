"""``Module.set_submodule`` against PyTorch: replacing and adding modules at dotted paths, and its errors."""

from __future__ import annotations

import core


def _run(lib):
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Sequential(nn.Linear(1, 1)), nn.ReLU())
    model.set_submodule("0.0", nn.Linear(2, 2))
    outcomes = []
    for target, module, strict in [("", nn.ReLU(), False), ("0.extra", nn.Tanh(), False), ("1.0", nn.ReLU(), False),
                                   ("0.0", 5, False), ("9.1", nn.ReLU(), False), ("0.7", nn.ReLU(), True)]:
        try:
            model.set_submodule(target, module, strict=strict)
            outcomes.append("ok")
        except (ValueError, AttributeError) as e:
            outcomes.append(f"{type(e).__name__}: {e}")
    holder = nn.Module()
    holder.w = nn.Parameter(lib.ones(1))
    try:
        holder.set_submodule("w", nn.ReLU())
    except AttributeError as e:
        outcomes.append(str(e))
    return repr(model), outcomes


def test_set_submodule_replaces_adds_and_refuses_as_torch(torch):
    assert _run(core) == _run(torch)
