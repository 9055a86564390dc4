"""A function ``fx.wrap`` registers for ``test_fx_oracle``'s traces, in both libraries. ``wrap`` must run at a
module's top level, and ``core.fx``'s import turns core's ``__torch_function__`` dispatch on for the process, so it
lives here, imported by the tests that trace (collection leaves dispatch off: tests/conftest.py)."""

from __future__ import annotations

import importlib.util

import core


def _scaled_sum(x, y):
    return x * 2 + y


core.fx.wrap("_scaled_sum")
if importlib.util.find_spec("torch") is not None:
    import torch as _torch_module

    _torch_module.fx.wrap("_scaled_sum")
