"""Oracle tests for what MONAI's package (tests/external/recipes_monai.py) found missing or different in core."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core


@pytest.mark.parametrize("lib", [core, torch], ids=["core", "torch"])
def test_backend_flags_freeze_as_torch(lib):
    """MONAI's set_determinism asks flags_frozen() and sets the module's flag name, which unfreezes nothing in torch
    (torch.backends is a wrapper module: the assignment shadows the name there)."""
    assert lib.backends.flags_frozen() is False
    assert lib.backends.__allow_nonbracketed_mutation_flag is True
    lib.backends.disable_global_flags()
    try:
        assert lib.backends.flags_frozen() is True
        assert lib.backends.__allow_nonbracketed_mutation_flag is False
        with lib.backends.__allow_nonbracketed_mutation():
            assert lib.backends.flags_frozen() is False
            lib.backends.cudnn.benchmark = True
        lib.backends.cudnn.set_flags(_benchmark=False)
        assert lib.backends.flags_frozen() is True
        with pytest.raises(RuntimeError, match="not allowed to set torch.backends.cudnn flags"):
            lib.backends.cudnn.benchmark = True
        with pytest.raises(RuntimeError, match="please use flags"):
            lib.backends.mkldnn.enabled = False
        with lib.backends.cudnn.flags(enabled=True, deterministic=True):
            assert lib.backends.cudnn.deterministic is True
        assert lib.backends.cudnn.deterministic is False
        lib.backends.__allow_nonbracketed_mutation_flag = True
        assert lib.backends.flags_frozen() is True
    finally:  # the module's own flag, which only disable_global_flags and the context manager set
        del lib.backends.__allow_nonbracketed_mutation_flag
        flag = next(n for n in lib.backends.flags_frozen.__code__.co_names if "allow" in n)
        lib.backends.flags_frozen.__globals__[flag] = True
    assert lib.backends.flags_frozen() is False
    lib.backends.cudnn.deterministic = True
    assert lib.backends.cudnn.deterministic is True
    lib.backends.cudnn.deterministic = False


def test_collate_string_array_pattern_as_torch():
    """MONAI's image reader tests arrays with collate's np_str_obj_array_pattern."""
    from torch.utils.data._utils import collate as theirs

    from core.utils.data._utils import collate as ours

    for array in (np.array(["a"]), np.array([b"a"]), np.array([object()]), np.zeros(2), np.array([1], "<U3")):
        assert (ours.np_str_obj_array_pattern.search(array.dtype.str) is None) == (
            theirs.np_str_obj_array_pattern.search(array.dtype.str) is None)
    for mod in (ours, theirs):
        with pytest.raises(TypeError, match="default_collate: batch must contain"):
            mod.default_collate([np.array(["a"]), np.array(["b"])])
