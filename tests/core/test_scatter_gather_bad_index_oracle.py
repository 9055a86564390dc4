"""scatter/gather name the first out-of-bounds index in the index tensor's order, as PyTorch's kernel does (core
named the largest, or the most negative): a top-p sampler that scatters along the wrong dim says "index 7" in torch
and said "index 49" in core."""

from __future__ import annotations

import pytest

import core
from tests.core.oracle import raised

INDEX = [[0, 5, 1], [9, 1, 7]]
CASES = {
    "scatter_dim0": lambda lib: lib.zeros(2, 3).scatter(0, lib.tensor(INDEX), lib.ones(2, 3)),
    "scatter_dim1": lambda lib: lib.zeros(2, 3).scatter(1, lib.tensor(INDEX), 1.0),
    "scatter_add": lambda lib: lib.zeros(2, 3).scatter_add(0, lib.tensor(INDEX), lib.ones(2, 3)),
    "gather_dim0": lambda lib: lib.zeros(2, 3).gather(0, lib.tensor(INDEX)),
    "gather_dim1": lambda lib: lib.zeros(2, 3).gather(1, lib.tensor(INDEX)),
    "negative_after_large": lambda lib: lib.zeros(3, 3).scatter(0, lib.tensor([[0, 1, 1], [2, 1, -4], [6, 1, 1]]), 1.0),
    "later_row_first": lambda lib: lib.zeros(3, 3).gather(0, lib.tensor([[0, 1, 1], [4, 3, 2], [6, 1, 1]])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_out_of_bounds_index_is_named_as_in_torch(name, torch):
    ours, theirs = raised(lambda: CASES[name](core)), raised(lambda: CASES[name](torch))
    assert theirs is not None and ours == theirs
