"""A ``TorchFunctionMode`` sees the calls torch hands it, and not the public functions torch writes in Python
without ``handle_torch_function`` (``broadcast_shapes``, ``F.assert_int_or_pair``): a mode that logs or counts
calls (GPyTorch's and BoTorch's shape helpers call ``broadcast_shapes`` often) logs the same list in both."""

from __future__ import annotations

import core


def _seen(lib):
    names = []

    class Logging(lib.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            names.append(func.__name__)
            return func(*args, **(kwargs or {}))

    with Logging():
        shape = lib.broadcast_shapes((3, 1), (1, 2))
        x = lib.ones(shape)
        lib.nn.functional.assert_int_or_pair((2, 2), "kernel_size", "{} must be int or pair")
        y = lib.broadcast_tensors(x, lib.zeros(2))[1]
        total = (x + y).sum()
    return names, tuple(shape), float(total)


def test_a_mode_sees_the_calls_torch_hands_it(torch):
    assert _seen(core) == _seen(torch)


def _functional_calls(lib):
    """What a logging mode sees of ``F.sigmoid``/``F.tanh`` (torch's call ``input.sigmoid()``: the mode sees the
    method) next to ``torch.sigmoid``/``F.relu`` (which reach it as themselves)."""
    seen = []

    class Logging(lib.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            F = lib.nn.functional
            where = next(pre for pre, ns in (("F.", F), ("Tensor.", lib.Tensor), ("torch.", lib))
                         if getattr(ns, func.__name__, None) is func)
            seen.append(where + func.__name__)
            return func(*args, **(kwargs or {}))

    x = lib.linspace(-2.0, 2.0, 5)
    with Logging():
        out = [lib.nn.functional.sigmoid(x), lib.nn.functional.tanh(x), lib.sigmoid(x), lib.nn.functional.relu(x)]
    return seen, [[round(v, 6) for v in t.tolist()] for t in out]


def test_functional_sigmoid_and_tanh_reach_a_mode_as_the_tensor_methods(torch):
    assert _functional_calls(core) == _functional_calls(torch)


def test_functional_sigmoid_and_tanh_are_ignored_by_the_overrides_tables(torch):
    for lib in (core, torch):
        F = lib.nn.functional
        overridable = lib.overrides.get_overridable_functions()[F]
        assert (F.sigmoid in overridable, F.tanh in overridable, F.relu in overridable) == (False, False, True)
        assert F.sigmoid in lib.overrides.get_ignored_functions()
