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
