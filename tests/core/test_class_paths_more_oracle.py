"""More public classes on PyTorch's module paths and names (``type(x).__module__``, ``__qualname__``, the class's
repr): ``optim.Adafactor``/``Muon`` (``torch.optim``), ``OneHotCategoricalStraightThrough``
(``distributions.one_hot_categorical``), ``autograd.graph.Node``/``GradientEdge``, ``autograd.function``'s
``FunctionCtx``/``BackwardCFunction``, ``linalg.LinAlgError`` (``torch._C._LinAlgError``), ``nn.attention.SDPBackend``
(``_SDPBackend``), ``jit.Attribute`` (``jit._script``) and ``torch.layout``. Each is found where its module path
says, so pickles of the classes load."""

import importlib
import pickle

import pytest

import core

CLASSES = [("optim", "Adafactor"), ("optim", "Muon"), ("distributions", "OneHotCategoricalStraightThrough"),
           ("autograd.graph", "Node"), ("autograd.graph", "GradientEdge"), ("autograd.function", "FunctionCtx"),
           ("autograd.function", "BackwardCFunction"), ("linalg", "LinAlgError"), ("nn.attention", "SDPBackend"),
           ("jit", "Attribute"), ("", "layout")]


def _module(lib, where):
    return importlib.import_module(lib.__name__ + ("." + where if where else ""))


@pytest.mark.parametrize(("where", "name"), CLASSES, ids=[f"{w}.{n}" for w, n in CLASSES])
def test_a_class_has_torchs_module_qualname_and_repr(torch, where, name):
    ours, theirs = getattr(_module(core, where), name), getattr(_module(torch, where), name)
    assert ours.__module__ == theirs.__module__.replace("torch", "core", 1)
    assert ours.__qualname__ == theirs.__qualname__
    assert repr(ours) == repr(theirs).replace("torch", "core", 1)
    assert getattr(importlib.import_module(ours.__module__), ours.__qualname__, None) is ours or name == "SDPBackend"


@pytest.mark.parametrize(("where", "name"), [c for c in CLASSES if c[1] not in ("SDPBackend", "Node")],
                         ids=[f"{w}.{n}" for w, n in CLASSES if n not in ("SDPBackend", "Node")])
def test_a_class_pickles_to_itself(where, name):
    cls = getattr(_module(core, where), name)
    assert pickle.loads(pickle.dumps(cls)) is cls


def test_straight_through_draws_and_old_module_path_still_work(torch):
    from core.distributions.straight_through import OneHotCategoricalStraightThrough

    assert OneHotCategoricalStraightThrough is core.distributions.OneHotCategoricalStraightThrough
    grads, modules = [], []
    for lib in (core, torch):
        probs = lib.tensor([0.2, 0.3, 0.5], requires_grad=True)
        d = lib.distributions.OneHotCategoricalStraightThrough(probs=probs)
        (d.rsample((4,)) * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        grads.append(probs.grad.tolist())
        modules.append(type(d).__module__.replace("torch", "core", 1))
    assert grads[0] == grads[1]
    assert modules[0] == modules[1]


def test_an_adafactor_optimizer_pickles_with_its_state():
    w = core.nn.Parameter(core.ones(3, 2))
    opt = core.optim.Adafactor([w], lr=0.1)
    w.sum().backward()
    opt.step()
    again = pickle.loads(pickle.dumps(opt))
    assert type(again) is core.optim.Adafactor
    assert again.state_dict()["param_groups"] == opt.state_dict()["param_groups"]


def test_a_lin_alg_error_is_torchs_class_and_pickles(torch):
    with pytest.raises(core.linalg.LinAlgError) as info:
        core.linalg.cholesky(-core.eye(2))
    assert type(info.value).__module__ == "core._C"
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is core._C._LinAlgError and str(again) == str(info.value)
