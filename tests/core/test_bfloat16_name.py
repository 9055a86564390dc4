"""``core.bfloat16`` is a name only: scripts can name, compare and print it as torch's (LLM training scripts
keep it in their dtype tables), and making or casting a tensor to it raises a TypeError, since NumPy has no
bfloat16 type to store one."""

from __future__ import annotations

import pickle

import pytest

import core


def test_bfloat16_prints_and_describes_itself_as_torchs(torch):
    ours, theirs = core.bfloat16, torch.bfloat16
    assert repr(ours) == repr(theirs) == "torch.bfloat16"
    assert (ours.is_floating_point, ours.is_complex, ours.is_signed, ours.itemsize) == \
        (theirs.is_floating_point, theirs.is_complex, theirs.is_signed, theirs.itemsize)


def test_a_dtype_table_naming_bfloat16_picks_by_key_and_compares_by_identity():
    table = {"float32": core.float32, "bfloat16": core.bfloat16, "float16": core.float16}
    assert table["bfloat16"] is core.bfloat16
    assert core.bfloat16 != core.float32 and core.bfloat16 != core.float16
    assert pickle.loads(pickle.dumps(core.bfloat16)) is core.bfloat16


@pytest.mark.parametrize("make", [
    lambda: core.zeros(2, dtype=core.bfloat16),
    lambda: core.tensor([1.0], dtype=core.bfloat16),
    lambda: core.ones(2).to(core.bfloat16),
    lambda: core.ones(2).to(dtype=core.bfloat16),
    lambda: core.ones(2).type(core.bfloat16),
    lambda: core.promote_types(core.bfloat16, core.float32),
    lambda: core.set_default_dtype(core.bfloat16),
], ids=["zeros", "tensor", "to", "to_dtype_keyword", "type", "promote_types", "set_default_dtype"])
def test_making_or_casting_a_bfloat16_tensor_raises_a_type_error_that_says_why(make):
    with pytest.raises(TypeError, match="core has no bfloat16 tensors"):
        make()
    assert core.get_default_dtype() is core.float32
