"""Helpers torch.nn and torch.nn.functional make public that third-party modules call against torch:
``nn.factory_kwargs`` (a module's device/dtype keywords as one dict, with torch's TypeErrors),
``F.has_torch_function*``/``F.handle_torch_function`` (imported through torch.nn.functional) and
``F.assert_int_or_pair``."""

from __future__ import annotations

import pytest

import core


def test_factory_kwargs_merges_and_builds_as_torch(torch):
    def run(lib):
        kw = lib.nn.factory_kwargs({"device": "cpu", "factory_kwargs": {"dtype": lib.float64}})
        return sorted((k, str(v)) for k, v in kw.items()), lib.nn.factory_kwargs(None), lib.empty(2, **kw).dtype

    assert str(run(core)) == str(run(torch))


@pytest.mark.parametrize("bad", [{"devic": "cpu"}, {"dtype": "float32", "factory_kwargs": {"dtype": "float64"}}])
def test_factory_kwargs_refuses_as_torch(torch, bad):
    def run(lib):
        with pytest.raises(TypeError) as info:
            lib.nn.factory_kwargs(bad)
        return str(info.value)

    assert run(core) == run(torch)


def test_functional_reaches_the_torch_function_helpers(torch):
    def run(lib):
        class Logged(lib.Tensor):
            pass

        F = lib.nn.functional
        x, y = lib.ones(2), lib.ones(2).as_subclass(Logged)
        return (F.has_torch_function_unary(x), F.has_torch_function_unary(y), F.has_torch_function((x, y)),
                F.has_torch_function_variadic(x, x), callable(F.handle_torch_function))

    assert run(core) == run(torch)


def test_assert_int_or_pair(torch):
    def run(lib):
        lib.nn.functional.assert_int_or_pair((3, 4), "kernel_size", "{} must be int or pair")
        with pytest.raises(AssertionError) as info:
            lib.nn.functional.assert_int_or_pair([1, 2, 3], "kernel_size", "{} must be int or pair")
        return str(info.value)

    assert run(core) == run(torch)
