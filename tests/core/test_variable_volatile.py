"""A tensor's ``volatile`` against PyTorch: removed in 0.4, it reads False and setting it does nothing, each with
torch's warning (2017 tutorials still write ``x.volatile = True`` and print ``x.volatile``)."""

from __future__ import annotations

import pytest

import core


def test_reading_and_setting_volatile_warn_as_torch_and_change_nothing(torch):
    seen = []
    for lib in (core, torch):
        x = lib.ones(2, requires_grad=True)
        with pytest.warns(UserWarning) as caught:
            x.volatile = True
            value = x.volatile
        seen.append((value, x.requires_grad, [str(w.message) for w in caught]))
    assert seen[0] == seen[1]
