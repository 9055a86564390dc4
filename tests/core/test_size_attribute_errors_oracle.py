"""``torch.Size``'s AttributeErrors name it ``'torch.Size'`` (its C type's name), as torch's do (oracle: torch)."""

from __future__ import annotations

import pytest

import core

ACCESSES = {
    "read a missing attribute": lambda s: s.shape_of,
    "read a missing dunder": lambda s: s.__array_interface__,
    "set a new attribute": lambda s: setattr(s, "rank", 2),
    "set a read-only method": lambda s: setattr(s, "count", 1),
    "delete a missing attribute": lambda s: delattr(s, "rank"),
    "delete a method": lambda s: delattr(s, "numel"),
}


def _error(lib, access):
    with pytest.raises(AttributeError) as info:
        access(lib.Size([2, 3]))
    error = info.value
    return str(error), error.name, error.obj is not None


@pytest.mark.parametrize("what", sorted(ACCESSES))
def test_size_attribute_errors_as_torch(what, torch):
    assert _error(core, ACCESSES[what]) == _error(torch, ACCESSES[what])


def test_size_attributes_that_exist_and_defaults_as_torch(torch):
    def probe(lib):
        s = lib.Size([2, 3])
        return hasattr(s, "numel"), hasattr(s, "rank"), getattr(s, "rank", None), s.numel(), s.count(3)

    assert probe(core) == probe(torch)
