"""``torch.utils.backcompat``'s switches: the broadcasting page sets ``broadcast_warning.enabled``; they are off by
default, keep what is set, and change no result."""

from __future__ import annotations

import warnings

import pytest

import core


@pytest.mark.parametrize("name", ["broadcast_warning", "keepdim_warning"])
def test_a_backcompat_switch_is_off_by_default_and_keeps_what_is_set(name, torch):
    for lib in (core, torch):
        switch = getattr(lib.utils.backcompat, name)
        assert switch.enabled is False
        try:
            switch.enabled = True
            assert switch.enabled is True
        finally:
            switch.enabled = False


def test_the_broadcast_switch_changes_no_result_and_warns_nothing(torch):
    shapes = []
    for lib in (core, torch):
        lib.utils.backcompat.broadcast_warning.enabled = True
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                shapes.append(tuple(lib.add(lib.ones(4, 1), lib.ones(4)).shape))
        finally:
            lib.utils.backcompat.broadcast_warning.enabled = False
    assert shapes[0] == shapes[1] == (4, 4)


def test_the_pages_misspelt_switch_raises_torchs_attribute_error(torch):
    messages = []
    for lib in (core, torch):
        with pytest.raises(AttributeError) as info:
            lib.utils.backcompat.broadcast.warning.enabled = True
        messages.append(str(info.value).replace("core.", "torch."))
    assert messages[0] == messages[1]
