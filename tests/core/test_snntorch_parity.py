"""Parity with torch for what snnTorch 0.9.4's own code needs (#19, the snnTorch corpus, recipes_snntorch.py)."""

from __future__ import annotations

import pytest

import core


@pytest.mark.parametrize("name", ["Value", "Node", "Block"])
def test_torchscript_ir_classes_import_from_torch_C_and_refuse_construction(torch, name):
    """snnTorch's ``functional/loss.py`` starts ``from torch._C import Value`` (and never uses it)."""
    ours, theirs = getattr(core._C, name), getattr(torch._C, name)
    assert getattr(core, name) is ours and getattr(torch, name) is theirs
    assert (ours.__name__, ours.__module__.replace("core", "torch")) == (theirs.__name__, theirs.__module__)
    with pytest.raises(TypeError, match=f"^torch._C.{name}: No constructor defined!$"):
        theirs()
    with pytest.raises(TypeError, match=f"^torch._C.{name}: No constructor defined!$"):
        ours()
