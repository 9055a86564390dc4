"""Fuzzing parameter fields: any text typed into any parameter of any node kind is accepted or refused.

The route is the Inspector's: ``numtext.parse`` reads the typed text, ``Param.validate`` checks it and
``commands.SetParam`` stores it. A refusal is one ``ParamError`` (or a ``GraphError`` from the document) with a
message, and leaves the document exactly as it was; an accepted value runs forward, backward and a training
step with every error kept on a node or in the step's metrics, never raised.
"""

import json

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import core.nodegraph.model.nodes  # noqa: F401 - registers the built-in node types
from core.nodegraph.files import io as files
from core.nodegraph.lessons import texts as lessons
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph, GraphError
from core.nodegraph.model.numtext import parse
from core.nodegraph.model.spec import ParamError, all_specs
from tests.hypothesis_profiles import fuzz_settings
from tests.nodegraph.fuzz_checks import runs_without_raising

FIELDS = [(s.type_id, p) for s in all_specs() if not s.type_id.startswith(("test.", "tt.")) for p in s.params]
EXAMPLES = {p.stem: p.read_text(encoding="utf-8") for p in sorted(lessons.EXAMPLES_DIR.glob("*.json"))}

# texts a person might type: numbers, lists, shapes, huge and odd ones, and anything at all
TYPED = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "0", "-1", "1e999", "-1e999", "nan", "NaN", "inf", "-inf", "Infinity", "1e308",
                     "100000, 100000", "[100000, 100000]", "(2,)", "[2,]", "3,,4", "[[1, 2], [3]]", "[]", "[[]]",
                     "True", "true", "None", "null", "2**64", "18446744073709551615", "18446744073709551616",
                     "-9223372036854775809", "[" * 200 + "]" * 200, "1" * 5000, "[1" + ", 1" * 40 + "]",
                     "0.1", "1e-320", "-0", "0x10", "1_000", "\x00", "\ud800", "[1, 2, 3]", "[[1, 2], [3, 4]]",
                     ", ".join(["2"] * 40), "[0]", "0, 0", "[-1]", "float64", "sum", "x * w", "(x"]),
    st.lists(st.integers(-3, 10 ** 6), max_size=12).map(lambda v: ", ".join(map(str, v))),
    st.recursive(st.floats(allow_nan=False, width=32) | st.integers(-10, 10),
                 lambda c: st.lists(c, max_size=4), max_leaves=12).map(json.dumps),
)


def _first_examples() -> dict[str, tuple[str, str]]:
    """{node type: (the first example's text holding one, that node's id)}."""
    found: dict[str, tuple[str, str]] = {}
    for text in EXAMPLES.values():
        for nd in json.loads(text)["nodes"]:
            found.setdefault(nd["type"], (text, nd["id"]))
    return found


IN_EXAMPLES = _first_examples()


def _graph_with(type_id: str) -> tuple[Graph, str]:
    """An example holding a node of ``type_id`` (its wiring as shipped), else a new document with one."""
    if type_id in IN_EXAMPLES:
        text, nid = IN_EXAMPLES[type_id]
        return files.loads(text), nid
    g = Graph()
    c = cmd.AddNode({"type": type_id})
    c.do(g)
    return g, c.node["id"]



@pytest.mark.parametrize("type_id,param", FIELDS, ids=[f"{t}.{p.name}" for t, p in FIELDS])
@fuzz_settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TYPED)
def test_any_text_in_any_parameter_is_set_or_refused_with_the_document_unchanged(type_id, param, text):
    g, nid = _graph_with(type_id)
    before = files.dumps(g)
    try:
        value = param.validate(parse(param, text))
        cmd.SetParam(nid, param.name, value).do(g)
    except (ParamError, GraphError) as exc:
        assert str(exc) and len(str(exc)) < 1000
        assert files.dumps(g) == before
        return
    assert files.dumps(files.loads(files.dumps(g))) == files.dumps(g)  # as text: a NaN value never equals itself
    runs_without_raising(g)


# ----- escapes the fuzzing found --------------------------------------------------------------------------------
def _expression_fed_by_x_and_w() -> Graph:
    g = Graph()
    for node in ({"id": "a", "type": "source.randn", "params": {"shape": [3]}},
                 {"id": "e", "type": "expr.expression", "params": {"formula": "(x * w).sum()", "inputs": "x, w"}}):
        cmd.AddNode(node).do(g)
    cmd.Connect("a", "out", "e", "x").do(g)
    cmd.Connect("a", "out", "e", "w").do(g)
    return g


def test_expression_inputs_that_drop_a_connected_input_are_refused_and_the_file_still_opens():
    g = _expression_fed_by_x_and_w()
    before = files.dumps(g)
    with pytest.raises(GraphError, match="would remove the input 'w', which an edge feeds; disconnect it first"):
        cmd.SetParam("e", "inputs", "x").do(g)
    assert files.dumps(g) == before
    assert files.loads(files.dumps(g)) == g


def test_expression_inputs_may_rename_an_input_nothing_feeds():
    g = _expression_fed_by_x_and_w()
    cmd.SetParam("e", "inputs", "x, w, bias").do(g)
    assert g.nodes["e"].input_names() == ["x", "w", "bias"]
    cmd.Disconnect("a", "out", "e", "w").do(g)
    cmd.SetParam("e", "inputs", "x").do(g)
    assert files.loads(files.dumps(g)) == g


def test_expression_inputs_with_a_bad_name_are_refused():
    g = _expression_fed_by_x_and_w()
    with pytest.raises(GraphError, match="'1x' is not a valid input name"):
        cmd.SetParam("e", "inputs", "1x, w").do(g)
    assert g.nodes["e"].params["inputs"] == "x, w"


def test_opaque_op_tensor_count_below_a_connected_input_is_refused():
    g = Graph()
    cmd.AddNode({"id": "a", "type": "source.randn", "params": {"shape": [3]}}).do(g)
    args = '{"args": [{"$in": 0}, {"$in": 1}], "kwargs": {}}'
    cmd.AddNode({"id": "op", "type": "code.op", "params": {"op": "add", "tensors": 2, "args": args}}).do(g)
    cmd.Connect("a", "out", "op", "in1").do(g)
    with pytest.raises(GraphError, match="would remove the input 'in1'"):
        cmd.SetParam("op", "tensors", 1).do(g)
    assert files.loads(files.dumps(g)) == g


def test_a_text_parameter_with_a_lone_surrogate_is_refused_so_the_document_still_saves(tmp_path):
    g = _expression_fed_by_x_and_w()
    with pytest.raises(GraphError, match=r"parameter 'formula' holds a lone surrogate \(\\ud800 at character 2\)"):
        cmd.SetParam("e", "formula", "x\ud800").do(g)
    files.save(g, tmp_path / "g.json")
    assert files.load(tmp_path / "g.json") == g


def test_a_title_with_a_lone_surrogate_is_refused_so_the_document_still_saves(tmp_path):
    g = _expression_fed_by_x_and_w()
    with pytest.raises(GraphError, match="lone surrogate"):
        cmd.SetNodeAttr("e", "title", "loss\udc80").do(g)
    assert g.nodes["e"].title is None
    files.save(g, tmp_path / "g.json")
    assert files.load(tmp_path / "g.json") == g


# ----- training settings (the Train dock's fields): refused when the file could not reopen ------------------------
TRAINING_KEYS = ["loss", "optimizer", "optimizer_params", "schedule", "steps", "seed", "device", "val_every", "stop"]
SETTING_VALUES = st.one_of(
    st.sampled_from(["abc", "", -5, 0, 1, 300, 2 ** 70, 1.5, float("nan"), True, None, [], {}, "LBFGS", "Adam",
                     "SGD", "Nope", "gpu", "cpu", "cuda:0", {"lr": -1}, {"lr": 0.1, "momentum": 0.9}, {"lr": "x"},
                     {"type": "StepLR", "step_size": 5}, {"type": "ReduceLROnPlateau"}, {"type": "Nope"},
                     {"betas": [2.0, 0.9]}, "x\ud800", "n5"]),
    st.integers(), st.text(max_size=10))


@fuzz_settings(max_examples=60, deadline=None)
@given(key=st.sampled_from(TRAINING_KEYS), value=SETTING_VALUES)
def test_any_training_setting_is_set_or_refused_and_the_document_always_reopens(key, value):
    g = files.loads(EXAMPLES["06-training-step"])
    before = files.dumps(g)
    try:
        cmd.SetTraining(key, value).do(g)
    except GraphError as exc:
        assert str(exc) and files.dumps(g) == before
        return
    files.loads(files.dumps(g))  # a LoadError here: an edit made a document that can't be reopened


@pytest.mark.parametrize("key,value,reason", [
    ("steps", "abc", "training.steps: must be an integer"), ("steps", -5, "training.steps: must be in [1, "),
    ("optimizer", "LBFGS", "needs a closure"), ("optimizer_params", {"lr": -1}, "optimizer_params.lr: must be in"),
    ("device", "gpu", "unknown device 'gpu'"), ("schedule", {"type": "Nope"}, "training.schedule"),
    ("steps", None, "training.steps: must be an integer"), ("optimizer", None, "training.optimizer"),
    ("loss", "x\ud800", "training.loss: holds a lone surrogate")])
def test_a_training_setting_the_file_could_not_reopen_is_refused_when_set(key, value, reason):
    g = files.loads(EXAMPLES["06-training-step"])
    with pytest.raises(GraphError) as err:
        cmd.SetTraining(key, value).do(g)
    assert reason in str(err.value)
    assert files.loads(files.dumps(g)) == g


def test_a_very_long_bad_input_name_is_refused_with_a_short_message():
    g = _expression_fed_by_x_and_w()
    with pytest.raises(GraphError, match=r"is not a valid input name") as err:
        cmd.SetParam("e", "inputs", "x, w, " + "1" * 5000).do(g)
    assert len(str(err.value)) < 300 and "(5000 characters)" in str(err.value)


INT_FIELDS = [(t, p) for t, p in FIELDS if p.kind in ("int", "dims", "shape")]


@pytest.mark.parametrize("type_id,param", INT_FIELDS, ids=[f"{t}.{p.name}" for t, p in INT_FIELDS])
@pytest.mark.parametrize("text", ["99999999999999999999999", "1e308", "[0, 99999999999999999999999]",
                                  "-9223372036854775809"])
def test_an_integer_past_64_bits_is_refused_at_its_field_as_torch_refuses_it(type_id, param, text, torch):
    # 1e23 typed as a dim, a k, a groups or a correction ran (an IndexError on the node, or silently: std's
    # correction, diff's n, matrix_power's n, cross_entropy's ignore_index) where torch refuses the argument
    with pytest.raises((ValueError, TypeError, OverflowError, RuntimeError)):
        torch.sum(torch.ones(2), dim=10 ** 23)
    try:
        value = parse(param, text)
    except ParamError:
        return  # (a list where the field takes one integer)
    with pytest.raises(ParamError, match=f"parameter '{param.name}'"):  # (or a list, a negative size: its message)
        param.validate(value)
