"""A choice whose name says too little carries a note that says what it means where it is picked, while the value
stored stays the bare choice."""

import pytest

import core.nodegraph.model.nodes  # noqa: F401 - registers the built-in node types
from core.nodegraph.model.spec import Param, all_specs, get_spec


def test_a_source_offers_context_as_the_toolbars_device_and_stores_context():
    spec = get_spec("source.tensor")
    device = next(p for p in spec.params if p.name == "device")
    assert [device.choice_text(c) for c in device.choices] == ["cpu", "cuda", "context (the toolbar's device)"]
    assert spec.validate_params({"device": "context"})["device"] == "context"


def test_every_device_choice_named_context_has_its_note():
    devices = [p for s in all_specs() for p in s.params if p.kind == "choice" and "context" in p.choices]
    assert devices and all(p.choice_text("context") != "context" for p in devices)


def test_a_note_for_a_choice_that_is_not_offered_is_refused():
    with pytest.raises(ValueError, match="not among"):
        Param("mode", "choice", "a", choices=("a", "b"), choice_notes=(("c", "never offered"),))
