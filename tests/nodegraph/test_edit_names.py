"""A parameter edit is named for a learner, not as code: "w: dtype set to float64" (the node by its title, the value as
its field holds it), in the undo history, the status bar, and after Undo and Redo alike."""

from __future__ import annotations

import numpy as np
import pytest

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.files.examples import default_graph
from core.nodegraph.model import commands
from core.nodegraph.model.numtext import param_text

# the chapter's graph: x n1, w n2, b n3, s n5 (a sum)


@pytest.mark.parametrize(("node", "param", "value", "text"), [
    ("n2", "dtype", "float64", "w: dtype set to float64"),
    ("n1", "tensor", [4.0, 5.0], "x: tensor set to [4.0, 5.0]"),
    ("n3", "tensor", 0.5, "b: tensor set to 0.5"),
    ("n1", "requires_grad", False, "x: requires_grad set to False"),
    ("n5", "keepdim", True, "s: keepdim set to True"),
    ("n5", "dim", [0], "s: dim set to [0]"),
    ("n5", "dim", None, "s: dim set to None"),
])
def test_a_parameter_edit_says_which_node_what_and_the_value_it_set(node, param, value, text):
    graph = default_graph()
    cmd = commands.SetParam(node, param, value)
    cmd.do(graph)
    assert cmd.text == text
    cmd.undo(graph)
    assert cmd.text == text, "Undo and Redo name the same edit"


def test_a_parameter_edit_names_the_value_as_stored_not_as_passed():
    graph = default_graph()
    cmd = commands.SetParam("n1", "tensor", (4, 5))  # validated: the field then holds [4, 5]
    cmd.do(graph)
    assert cmd.text == f"x: tensor set to {param_text(graph.node('n1').params['tensor'])}" == "x: tensor set to [4, 5]"


def test_a_long_value_is_cut_and_a_large_literal_named_by_its_shape():
    graph = default_graph()
    cmd = commands.SetParam("n1", "tensor", [float(i) for i in range(40)])
    cmd.do(graph)
    assert cmd.text.startswith("x: tensor set to [0.0, 1.0, 2.0") and cmd.text.endswith("…")
    assert len(cmd.text) == len("x: tensor set to ") + 40
    assert param_text(np.zeros((300, 400))) == "(300, 400) values"


def test_a_renamed_node_is_named_by_its_new_title():
    graph = default_graph()
    commands.SetNodeAttr("n2", "title", "weight").do(graph)
    cmd = commands.SetParam("n2", "dtype", "float16")
    cmd.do(graph)
    assert cmd.text == "weight: dtype set to float16"


def _lesson_six():
    from core.nodegraph.files import io
    from core.nodegraph.lessons.texts import list_lessons

    return io.load(next(x for x in list_lessons() if x.key == "06-training-step").file)


@pytest.mark.parametrize(("key", "value", "text"), [
    ("steps", 300, "Training: steps set to 300"),
    ("optimizer", "Adam", "Training: optimizer set to Adam"),
    ("optimizer_params", {"lr": 0.1}, "Training: lr set to 0.1"),  # the one that changed, not a dict
    ("loss", "n5", "Training: loss set to loss"),  # the node by its title
    ("schedule", {"type": "StepLR", "step_size": 10, "gamma": 0.5}, "Training: schedule set to StepLR"),
    ("stop", {"loss_below": 0.01, "patience": None, "stop_on_nan": True},
     "Training: loss_below set to 0.01, stop_on_nan set to True"),
])
def test_a_training_setting_is_named_as_a_parameter_edit_is(key, value, text):
    graph = _lesson_six()
    cmd = commands.SetTraining(key, value)
    cmd.do(graph)
    assert cmd.text == text
    cmd.undo(graph)
    assert cmd.text == text


def test_a_schedules_setting_changed_is_named_alone():
    graph = _lesson_six()
    commands.SetTraining("schedule", {"type": "StepLR", "step_size": 10, "gamma": 0.5}).do(graph)
    cmd = commands.SetTraining("schedule", {"type": "StepLR", "step_size": 20, "gamma": 0.5})
    cmd.do(graph)
    assert cmd.text == "Training: step_size set to 20"


def test_renaming_a_node_to_a_name_another_node_has_is_refused_and_changes_nothing():
    from core.nodegraph.model.document import GraphError

    graph = default_graph()
    before = graph.to_dict()
    with pytest.raises(GraphError, match="another node is named x already: .*; try x_2$"):
        commands.SetNodeAttr("n2", "title", "x").do(graph)
    assert graph.to_dict() == before
    commands.AddNode({"type": "source.randn", "params": {}}).do(graph)  # untitled: it reads "randn"
    with pytest.raises(GraphError, match="another node is named randn already"):
        commands.SetNodeAttr("n2", "title", "randn").do(graph)
    commands.SetNodeAttr("n2", "title", "x_2").do(graph)  # a free name is taken
    commands.SetNodeAttr("n2", "title", None).do(graph)  # and an empty one gives back the type's name
    assert graph.node("n2").title is None
