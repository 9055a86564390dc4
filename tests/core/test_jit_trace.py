"""``jit.trace`` on a module gives PyTorch's ``TopLevelTracedModule``: its repr (each submodule under its class name),
the original's tensors and state-dict keys, its own training flags, no Python attributes, and ``save``/``jit.load``
as a scripted module; a traced function is the function; oracle tests against torch."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core


def _net_class(lib):
    """A module class per library, reachable by name in this module (core's save pickles the original module)."""
    name = f"_Net_{lib.__name__}"
    if name not in globals():
        globals()[name] = _define_net(lib, name)
    return globals()[name]


def _define_net(lib, name):
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.body = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU())
            self.head = lib.nn.Linear(3, 1)
            self.scale = 2

        def forward(self, x):
            return self.head(self.body(x)) * self.scale

    Net.__qualname__ = name
    return Net


def _traced(lib):
    lib.manual_seed(0)
    net = _net_class(lib)()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's tracer warnings
        return net, lib.jit.trace(net, lib.ones(1, 2))


def _both(torch, fn):
    return [fn(lib) for lib in (core, torch)]


def test_a_traced_module_prints_each_submodule_under_its_class_name(torch):
    def printed(lib):
        _, traced = _traced(lib)
        return repr(traced), repr(traced.body), type(traced).__name__, type(traced.body).__name__
    ours, theirs = _both(torch, printed)
    assert ours == theirs
    assert ours[2:] == ("TopLevelTracedModule", "TracedModule")


def test_a_traced_module_computes_as_the_original_and_shares_its_parameters(torch):
    def computed(lib):
        net, traced = _traced(lib)
        x = lib.arange(6.0).reshape(3, 2)
        same = all(a is b for a, b in zip(net.parameters(), traced.parameters()))
        kinds = isinstance(traced, lib.jit.ScriptModule), isinstance(traced, lib.nn.Module)
        return traced(x).detach().numpy(), list(traced.state_dict()), same, kinds, traced.original_name
    ours, theirs = _both(torch, computed)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    assert ours[1:] == theirs[1:]


def test_a_traced_module_keeps_its_own_training_flags(torch):
    def flags(lib):
        net, traced = _traced(lib)
        traced.eval()
        return traced.training, traced.body.training, net.training, net.body.training
    ours, theirs = _both(torch, flags)
    assert ours == theirs == (False, False, True, True)


def test_a_traced_module_has_no_python_attributes(torch):
    def missing(lib):
        _, traced = _traced(lib)
        with pytest.raises(AttributeError) as error:
            getattr(traced, "scale")  # noqa: B009 (an attribute read that must raise)
        return str(error.value), hasattr(traced.head, "in_features"), tuple(traced.head.weight.shape)
    ours, theirs = _both(torch, missing)
    assert ours == theirs


def test_a_saved_traced_module_loads_as_a_scripted_one(torch, tmp_path):
    def reloaded(lib):
        _, traced = _traced(lib)
        path = str(tmp_path / f"{lib.__name__}.pt")
        traced.save(path)
        loaded = lib.jit.load(path)
        return type(loaded).__name__, repr(loaded), loaded(lib.ones(1, 2)).detach().numpy()
    ours, theirs = _both(torch, reloaded)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)


def test_a_traced_function_still_computes_as_the_function(torch):
    def traced_fn(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn = lib.jit.trace(lambda a: a * 2 + 1, lib.ones(2))
        return fn(lib.arange(3.0)).tolist()
    ours, theirs = _both(torch, traced_fn)
    assert ours == theirs
