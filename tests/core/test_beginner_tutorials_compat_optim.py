"""What tutorials print of optimizers (print(optimizer), optimizer.state_dict()), checked against PyTorch."""

from __future__ import annotations

import pytest

import core

_OPTIMIZERS = {
    "SGD": {"lr": 0.1, "momentum": 0.9, "nesterov": True},
    "Adam": {"lr": 0.01, "amsgrad": True},
    "AdamW": {},
    "RMSprop": {"lr": 0.01, "momentum": 0.5, "centered": True},
    "Adagrad": {},
    "Adadelta": {},
    "Adamax": {},
    "NAdam": {},
    "RAdam": {},
    "ASGD": {},
    "Rprop": {},
}


def _stepped(lib, name):
    lib.manual_seed(0)
    layer = lib.nn.Linear(2, 1)
    opt = getattr(lib.optim, name)(layer.parameters(), **_OPTIMIZERS[name])
    for _ in range(2):
        opt.zero_grad()
        layer(lib.ones(3, 2)).pow(2).sum().backward()
        opt.step()
    return opt


@pytest.mark.parametrize("name", list(_OPTIMIZERS))
def test_optimizer_state_dicts_list_keys_in_torchs_order(torch, name):
    ours, theirs = _stepped(core, name), _stepped(torch, name)
    assert repr(ours) == repr(theirs)  # print(optimizer): its groups' settings
    a, b = ours.state_dict(), theirs.state_dict()
    assert [list(s) for s in a["state"].values()] == [list(s) for s in b["state"].values()]  # "step" first
    assert [list(g) for g in a["param_groups"]] == [list(g) for g in b["param_groups"]]


def test_a_generator_reprs_as_torchs_c_extension_class(torch):
    # a notebook cell ending in torch.manual_seed(42) shows the generator it returns
    ours, theirs = repr(core.manual_seed(42)), repr(torch.manual_seed(42))
    assert ours.split(" at 0x")[0] == theirs.split(" at 0x")[0] == "<torch._C.Generator object"
    assert repr(core.Generator()).startswith("<torch._C.Generator object at 0x")


@pytest.mark.parametrize("case", [
    lambda L: L.autograd.grad(L.ones(2, requires_grad=True) * 2, L.ones(1)),  # non-scalar output: its error first
    lambda L: L.autograd.grad(L.ones(2) * 2, L.ones(1)),
    lambda L: L.autograd.grad((L.ones(2, requires_grad=True) * 2).sum(), L.ones(1)),
])
def test_autograd_grad_checks_its_outputs_before_its_inputs_as_torch_does(torch, case):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            case(lib)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
