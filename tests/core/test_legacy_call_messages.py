"""Old spellings that tutorials still carry give PyTorch's messages: a non-bool mask, ``Variable(volatile=True)``."""

from __future__ import annotations

import warnings

import pytest

import core


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"])
def test_masked_fill_with_a_non_bool_mask_names_its_c_type_as_torch(torch, dtype):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            lib.ones(2).masked_fill(lib.ones(2, dtype=getattr(lib, dtype)), 0.0)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_variable_with_volatile_warns_that_it_has_no_effect_as_torch(torch):
    caught = []
    for lib in (core, torch):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            v = lib.autograd.Variable(lib.ones(2), volatile=True)
        caught.append(([str(w.message) for w in record], v.requires_grad))
    assert caught[0] == caught[1]
    assert "volatile was removed" in caught[0][0][0]
