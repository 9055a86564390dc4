"""``jit.script`` on a module gives PyTorch's ``RecursiveScriptModule``: its repr, the original's own tensors and
state-dict keys, its own training flags, ``save`` and ``jit.load``; oracle tests against torch."""

from __future__ import annotations

import os

import numpy as np
import pytest

import core


def _net(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU(), lib.nn.Dropout(0.5), lib.nn.Linear(3, 2))


def _both(torch, fn):
    return [fn(lib) for lib in (torch, core)]


def test_a_scripted_module_prints_as_torchs_recursive_script_module(torch):
    ours, theirs = _both(torch, lambda lib: (repr(lib.jit.script(_net(lib))), type(lib.jit.script(_net(lib))).__name__))
    assert ours == theirs
    assert "original_name=Sequential" in ours[0]


def test_a_scripted_module_is_a_script_module_and_a_module(torch):
    def kinds(lib):
        scripted = lib.jit.script(_net(lib))
        return isinstance(scripted, lib.jit.ScriptModule), isinstance(scripted, lib.nn.Module), scripted.original_name
    ours, theirs = _both(torch, kinds)
    assert ours == theirs == (True, True, "Sequential")


def test_a_scripted_module_shares_the_originals_parameters_and_state_dict_keys(torch):
    def shared(lib):
        net = _net(lib)
        scripted = lib.jit.script(net)
        same = [p is q for p, q in zip(scripted.parameters(), net.parameters())]
        return same, list(scripted.state_dict()), scripted[0] is net[0], len(scripted)
    ours, theirs = _both(torch, shared)
    assert ours == theirs


def test_eval_on_a_scripted_module_keeps_the_originals_flags_and_runs_in_eval_mode(torch):
    def evaluated(lib):
        net = _net(lib)
        scripted = lib.jit.script(net).eval()
        out = scripted(lib.ones(5, 4)).detach().numpy()
        return scripted.training, net.training, net[2].training, out
    ours, theirs = _both(torch, evaluated)
    assert ours[:3] == theirs[:3] == (False, True, True)
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-6)


def test_a_scripted_module_saved_and_loaded_computes_the_same(torch, tmp_path):
    def round_trip(lib):
        scripted = lib.jit.script(_net(lib)).eval()
        path = os.path.join(tmp_path, f"{lib.__name__}.pt")
        scripted.save(path)
        loaded = lib.jit.load(path)
        return type(loaded).__name__, repr(loaded), loaded.eval()(lib.ones(2, 4)).detach().numpy()
    ours, theirs = _both(torch, round_trip)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)


def test_jit_save_refuses_a_plain_module():
    with pytest.raises(AttributeError):
        core.jit.save(_net(core), "unused.pt")


def test_jit_script_makes_a_function_a_script_function_that_computes_the_same():
    def double(x):
        return x * 2
    scripted = core.jit.script(double)
    assert isinstance(scripted, core.jit.ScriptFunction) and scripted(core.ones(2)).tolist() == [2.0, 2.0]


def _script_module_classes(lib):
    class Net(lib.jit.ScriptModule):
        def __init__(self):
            super().__init__()
            self.net = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3), lib.nn.ReLU())

        @lib.jit.script_method
        def forward(self, x):
            return self.net(x)

    class Wider(Net):
        def __init__(self):
            super().__init__()
            self.head = lib.nn.Linear(3, 1)

        @lib.jit.script_method
        def forward(self, x):
            return self.head(self.net(x))

    return Net, Wider


def test_a_script_module_subclass_scripts_its_submodules_once_made(torch):
    def made(lib):
        lib.manual_seed(0)
        net, wider = (cls() for cls in _script_module_classes(lib))
        return (repr(net), repr(wider), [type(m).__name__ for m in wider.modules()], list(wider.state_dict()),
                isinstance(net, lib.jit.ScriptModule), type(net).__name__)
    ours, theirs = _both(torch, made)
    assert ours == theirs
    assert "(head): RecursiveScriptModule(original_name=Linear)" in ours[1]


def test_a_script_module_subclass_runs_its_methods_and_trains_its_parameters(torch):
    def trained(lib):
        lib.manual_seed(0)
        net = _script_module_classes(lib)[1]()
        opt = lib.optim.SGD(net.parameters(), lr=0.1)
        x = lib.arange(8.0).reshape(4, 2) / 8
        for _ in range(2):
            opt.zero_grad()
            loss = net(x).square().mean()
            loss.backward()
            opt.step()
        net.eval()
        return loss.item(), net(x).detach().numpy(), net.net[1].running_mean.numpy()
    ours, theirs = _both(torch, trained)
    assert ours[0] == pytest.approx(theirs[0], rel=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)
