"""torch.set_grad_enabled(...) shows itself as PyTorch's does (a notebook cell that ends with the call prints it)
and tells its mode."""

from __future__ import annotations

import pytest

import core


@pytest.mark.parametrize("mode", [False, True])
def test_set_grad_enabled_repr_and_mode_are_torchs(mode, torch):
    try:
        shown = [(repr(lib.set_grad_enabled(mode)), lib.set_grad_enabled(mode).mode) for lib in (core, torch)]
    finally:
        core.set_grad_enabled(True)
        torch.set_grad_enabled(True)
    assert shown[0] == shown[1]
