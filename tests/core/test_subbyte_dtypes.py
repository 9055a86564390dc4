"""torch's sub-byte integer dtypes (uint1..uint7, int1..int7) by name: diffusers' torchao quantizer lists them at
import. core names them (attributes, pickling, iinfo/finfo refusals, promotion with themselves) but stores none."""

from __future__ import annotations

import pickle

import pytest

import core

NAMES = [f"{kind}{bits}" for kind in ("uint", "int") for bits in range(1, 8)]


@pytest.mark.parametrize("name", NAMES)
def test_sub_byte_dtypes_have_torchs_attributes(name, torch):
    seen = []
    for lib in (torch, core):
        d = getattr(lib, name)
        seen.append((repr(d), d.itemsize, d.is_signed, d.is_floating_point, d.is_complex,
                     pickle.loads(pickle.dumps(d)) is d, lib.promote_types(d, d) is d, d == getattr(lib, name)))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("name", ["uint4", "int4", "uint1"])
def test_iinfo_and_finfo_refuse_them_as_torch(name, torch):
    for info in ("iinfo", "finfo"):
        errors = []
        for lib in (torch, core):
            with pytest.raises(TypeError) as caught:
                getattr(lib, info)(getattr(lib, name))
            errors.append(str(caught.value))
        assert errors[0] == errors[1]


def test_core_refuses_to_store_them():
    with pytest.raises(TypeError, match="core has no uint4 tensors"):
        core.zeros(2, dtype=core.uint4)
