"""A reduction called on an object that is not a tensor raises PyTorch's TypeError (the extending notes call
``torch.mean`` on a plain class), and a tensor-like without ``dtype`` gets the call through ``__torch_function__``."""

from __future__ import annotations

import pytest

import core

NAMES = ["sum", "mean", "prod", "amax", "amin", "argmax", "argmin"]


class Plain:
    pass


@pytest.mark.parametrize("name", NAMES)
def test_a_reduction_of_a_plain_object_raises_torchs_type_error(name, torch):
    messages = []
    for lib in (core, torch):
        with pytest.raises(TypeError) as info:
            getattr(lib, name)(Plain())
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("name", NAMES)
def test_a_reduction_of_a_tensor_like_without_dtype_goes_through_its_torch_function(name, torch):
    from tests.core.tensor_likes import Mean
    assert getattr(core, name)(Mean()) == getattr(torch, name)(Mean()) == name
