"""Assigning a value of the wrong shape into a slice fails with PyTorch's message, which is expand's (its
``copy_to`` expands the value to the slice first): the sizes a learner needs to fix the assignment."""

from __future__ import annotations

import pytest

import core
from tests.core.oracle import raised

CASES = {
    "a column of the wrong length": lambda T, x: x.__setitem__((slice(None), 1), T.tensor([1.0, 2.0, 3.0])),
    "a row of the wrong length": lambda T, x: x.__setitem__(0, T.ones(4)),
    "a row with leading ones": lambda T, x: x.__setitem__(0, T.ones(1, 1, 3)),
    "a value that broadcasts": lambda T, x: x.__setitem__((slice(None), 1), T.tensor([1.0, 2.0])),
}


@pytest.mark.parametrize("name", list(CASES))
def test_setitem_outcome_is_torchs(torch, name):
    outcomes = []
    for T in (core, torch):
        x = T.zeros(3, 4, 2)
        outcomes.append((raised(lambda T=T, x=x: CASES[name](T, x)), x.sum().item()))
    assert outcomes[0] == outcomes[1]
