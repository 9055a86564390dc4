"""``torch.autograd.graph``'s two CUDA stream settings exist in core as in torch 2.13 (a script that sets them runs):
a bool is taken and the call returns None; anything else is refused with torch's RuntimeError and words."""

from __future__ import annotations

import pytest

import core

NAMES = ["set_warn_on_accumulate_grad_stream_mismatch", "set_override_stale_capture_stream"]


def _outcome(fn, value):
    try:
        return ("ok", fn(value))
    except Exception as exc:  # (the oracle: whatever torch raises, core must raise the same)
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", [True, False, "x", 1, None, 0.0])
def test_stream_settings_take_a_bool_as_torchs(torch, name, value):
    theirs = _outcome(getattr(torch.autograd.graph, name), value)
    ours = _outcome(getattr(core.autograd.graph, name), value)
    getattr(torch.autograd.graph, name)(name == NAMES[0])  # (torch's defaults back)
    assert ours == theirs


def test_graph_all_lists_torchs_names(torch):
    assert set(torch.autograd.graph.__all__) <= set(core.autograd.graph.__all__)
