"""TorchScript's type hints in eager code (``jit.annotate``, ``jit.Attribute``, ``jit.Final``) pass their values
through as PyTorch's do: the Time-Series-Library's multiwavelet layers build lists with ``jit.annotate``."""

from __future__ import annotations

from typing import Dict, List, Tuple

import core


def test_annotate_returns_the_value_itself(torch):
    for lib in (torch, core):
        value: list = []
        assert lib.jit.annotate(List[Tuple[lib.Tensor]], value) is value
        assert lib.jit.annotate(Dict[str, int], {"a": 1}) == {"a": 1}


def test_annotated_lists_collect_tensors_as_in_a_forward(torch):
    def run(lib):
        lib.manual_seed(0)
        parts = lib.jit.annotate(List[lib.Tensor], [])
        for _ in range(3):
            parts.append(lib.randn(2))
        return lib.stack(parts).sum(0).tolist()

    assert run(core) == run(torch)


def test_attribute_is_a_named_value_type_pair(torch):
    ours, theirs = core.jit.Attribute(0, int), torch.jit.Attribute(0, int)
    assert repr(ours) == repr(theirs)
    assert (ours.value, ours.type) == (theirs.value, theirs.type) == (0, int)
    assert tuple(ours) == tuple(theirs) and isinstance(ours, tuple)
    assert core.jit.Attribute(value=[], type=List[int]) == torch.jit.Attribute(value=[], type=List[int])


def test_final_is_typings(torch):
    assert core.jit.Final is torch.jit.Final
