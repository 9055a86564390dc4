"""A choice whose name says too little carries a note that says what it means where it is picked, while the value
stored stays the bare choice."""

import pytest

import core
import core.nodegraph.model.nodes  # registers the built-in node types
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


def _dtype_param(type_id: str) -> Param:
    return next(p for p in get_spec(type_id).params if p.name == "dtype")


def test_every_dtype_choice_named_default_says_which_dtype_it_is():
    dtypes = [(s.type_id, p) for s in all_specs() for p in s.params if p.name == "dtype" and "default" in p.choices]
    assert dtypes
    for type_id, p in dtypes:
        assert p.choice_text("default").startswith(f"default ({str(core.get_default_dtype()).split('.')[-1]}"), type_id


@pytest.mark.parametrize("type_id", ["source.randn", "source.zeros", "source.full", "param.parameter"])
def test_a_factorys_default_dtype_is_cores_default_dtype_when_it_is_offered(type_id):
    from core.nodegraph.model.document import Graph, Node
    from core.nodegraph.model.evaluate import evaluate

    dtype, g = _dtype_param(type_id), Graph()
    g.add_node(Node("n1", type_id))
    assert dtype.choice_text("default") == "default (float32)"
    assert evaluate(g)["n1"].dtype == core.float32
    previous = core.get_default_dtype()
    core.set_default_dtype(core.float64)
    try:
        assert dtype.choice_text("default") == "default (float64)"
        assert evaluate(g)["n1"].dtype == core.float64  # what the note says is what the node makes
    finally:
        core.set_default_dtype(previous)
    assert get_spec(type_id).validate_params({"dtype": "default"})["dtype"] == "default"  # the file keeps the bare name


@pytest.mark.parametrize("type_id, values, dtype", [("source.tensor", {"tensor": [1.5, 2.0]}, "float32"),
                                                    ("source.tensor", {"tensor": [1, 2]}, "int64"),
                                                    ("source.arange", {"end": 5.0}, "int64")])
def test_a_literal_or_arange_says_integers_give_int64_as_torch_infers(type_id, values, dtype):
    from core.nodegraph.model.document import Graph, Node
    from core.nodegraph.model.evaluate import evaluate

    assert _dtype_param(type_id).choice_text("default") == "default (float32; ints: int64)"
    g = Graph()
    g.add_node(Node("n1", type_id, params=values))
    assert evaluate(g)["n1"].dtype == getattr(core, dtype)
