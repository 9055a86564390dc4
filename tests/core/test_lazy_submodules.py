"""``core``'s submodules load on first attribute access as ``torch``'s do, and a name that is no submodule
answers ``hasattr`` with False (an AttributeError), never an import error."""

import core


def test_every_lazily_listed_submodule_imports():
    for name in core._SUBMODULES:
        assert getattr(core, name).__name__ == f"core.{name}"


def test_hasattr_on_a_missing_name_is_false_as_torchs(torch):
    for name in ("data", "no_such_module"):
        assert hasattr(core, name) is hasattr(torch, name) is False


def test_utils_submodules_torch_imports_are_attributes_after_import(torch):
    """``torch.utils.hooks.RemovableHandle`` in an annotation (Captum's) needs no ``import torch.utils.hooks``."""
    import subprocess
    import sys

    code = ("import {lib}; print({lib}.utils.hooks.RemovableHandle.__name__, {lib}.utils.data.Dataset.__name__, "
            "{lib}.utils.checkpoint.checkpoint.__name__)")
    outs = [subprocess.run([sys.executable, "-c", code.format(lib=lib)], capture_output=True, text=True).stdout
            for lib in ("core", "torch")]
    assert outs[0] == outs[1] != ""
