"""A graph saved after training reopens trained: the file's ``trained`` section holds the session's parameter
values, a new session puts them back, and files without it (every older one) open as the recipe they hold."""

import json

import numpy as np
import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.schema import SESSION_KEY
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.fuzz_checks import assert_a_step_matches_a_fresh_load
from tests.nodegraph.session_graphs import node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")

N_IN = 80  # the layer's weight has more numbers than a file writes inline: it is stored as .npy bytes


def _teacher_graph() -> Graph:
    """``loss = mse(Linear(x) * scale, x @ w_true)``: a layer node and a parameter node, a fixed batch."""
    g = Graph()
    g.add_node(Node("x", "source.randn", {"shape": [16, N_IN], "seed": 1}))
    g.add_node(Node("w_true", "source.randn", {"shape": [N_IN, 1], "seed": 2}))
    g.add_node(Node("y", "linalg.matmul"))
    g.add_node(Node("lin", "layer.linear", {"in_features": N_IN, "out_features": 1, "seed": 0}))
    g.add_node(Node("scale", "param.parameter", {"name": "scale", "shape": [1], "init": "ones"}))
    g.add_node(Node("pred", "math.mul"))
    g.add_node(Node("loss", "loss.mse"))
    for e in (("x", "out", "y", "a"), ("w_true", "out", "y", "b"), ("x", "out", "lin", "x"),
              ("lin", "out", "pred", "a"), ("scale", "out", "pred", "b"),
              ("pred", "out", "loss", "input"), ("y", "out", "loss", "target")):
        g.connect(Edge(*e))
    g.training.update(loss="loss", optimizer="SGD", optimizer_params={"lr": 0.01})
    return g


def _loss(session: Session) -> float:
    session.run_forward()
    return session.value("loss").item()


def _trained_session(steps: int = 5) -> Session:
    s = Session(_teacher_graph())
    for _ in s.train(steps):
        pass
    return s


def test_a_graph_saved_after_training_reopens_with_the_trained_parameters_and_loss(tmp_path):
    s = _trained_session()
    trained_loss = _loss(s)
    untrained_loss = _loss(Session(_teacher_graph()))
    assert trained_loss < untrained_loss
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    reopened = Session(files.load(path))
    assert _loss(reopened) == trained_loss
    for key, t in s.parameters().items():
        np.testing.assert_array_equal(reopened.parameters()[key].detach().numpy(), t.detach().numpy())
        assert reopened.parameters()[key].requires_grad


def test_training_goes_on_from_the_saved_values_as_it_would_have(tmp_path):
    s = _trained_session(3)
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    reopened = Session(files.load(path))
    kept_on = [m["loss"] for m in s.train(2)]
    assert [m["loss"] for m in reopened.train(2)] == kept_on  # SGD without momentum: nothing else to keep


def test_a_reopened_graph_saved_again_before_running_keeps_its_trained_values(tmp_path):
    s = _trained_session()
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    files.save(s.graph, first, trained=s.trained_values())
    graph = files.load(first)
    files.save(graph, second)  # no session: the file's own values
    files.save(graph, tmp_path / "c.json", trained=Session(graph).trained_values())  # a session that never ran
    assert _loss(Session(files.load(second))) == _loss(s)
    assert _loss(Session(files.load(tmp_path / "c.json"))) == _loss(s)


def test_an_untrained_graph_saves_only_its_recipe(tmp_path):
    s = Session(_teacher_graph())
    _loss(s)
    assert s.trained_values() == {}
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    assert "trained" not in json.loads(path.read_text())


def test_a_file_without_trained_values_opens_untrained_as_before(tmp_path):
    path = tmp_path / "g.json"
    files.save(_teacher_graph(), path)
    graph = files.load(path)
    assert graph.trained_values == {}
    assert _loss(Session(graph)) == _loss(Session(_teacher_graph()))


def test_a_parameter_whose_shape_changed_keeps_its_new_initial_values(tmp_path):
    s = _trained_session()
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    graph = files.load(path)
    graph.nodes["scale"].params["shape"] = [16, 1]
    reopened = Session(graph)
    reopened.run_forward()
    np.testing.assert_array_equal(reopened.parameters()["scale.scale"].detach().numpy(), np.ones((16, 1)))
    np.testing.assert_array_equal(reopened.parameters()["lin.weight"].detach().numpy(),
                                  s.parameters()["lin.weight"].detach().numpy())


def test_reset_starts_again_from_the_initial_values(tmp_path):
    s = _trained_session()
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    reopened = Session(files.load(path))
    _loss(reopened)
    reopened.reset()
    assert _loss(reopened) == _loss(Session(_teacher_graph()))
    assert reopened.trained_values() == {}


@pytest.mark.parametrize("trained, reason", [
    ({"nope": {"w": [1.0]}}, "trained.nope: no node has this id"),
    ({"lin": {"weight": "abc"}}, "trained.lin.weight: must be a list of numbers"),
    ({"lin": {"weight": [[1.0], [1.0, 2.0]]}}, "trained.lin.weight: must be a rectangular list of numbers"),
    ({"lin": [1.0]}, "trained.lin: must be"),
])
def test_a_damaged_trained_section_is_refused_naming_the_field(tmp_path, trained, reason):
    data = json.loads(files.dumps(_teacher_graph()))
    data["trained"] = trained
    with pytest.raises(files.LoadError, match=reason.replace(".", r"\.").replace("[", r"\[")):
        files.loads(json.dumps(data))


# ----- a layer edited after training and saved before it ran again --------------------------------------------------
def _trained_then_reseeded() -> tuple[Graph, Session]:
    """The teacher graph trained three Adam steps, then its layer's seed set (the layer has not run since)."""
    g = _teacher_graph()
    g.training.update(optimizer="Adam", optimizer_params={"lr": 0.01})
    s = Session(g)
    for _ in s.train(3):
        pass
    g.set_param("lin", "seed", 5)
    return g, s


def test_a_layer_reseeded_after_training_reopens_with_the_weights_its_next_run_builds():
    g, s = _trained_then_reseeded()
    reopened = Session(files.loads(files.dumps(g, trained=s.trained_values())))
    untrained = Session(files.loads(files.dumps(g)))
    for session in (s, reopened, untrained):
        session.new_pass()
        session.forward()
    for name, weight in s.node_parameters("lin").items():  # the seed's weights, live and reopened
        assert np.array_equal(weight.detach().numpy(), untrained.node_parameters("lin")[name].detach().numpy())
        assert np.array_equal(weight.detach().numpy(), reopened.node_parameters("lin")[name].detach().numpy())
    trained_scale = s.node_parameters("scale")["scale"].detach().numpy()  # the parameter not edited stays trained
    assert np.array_equal(reopened.node_parameters("scale")["scale"].detach().numpy(), trained_scale)
    assert not np.array_equal(untrained.node_parameters("scale")["scale"].detach().numpy(), trained_scale)


def test_a_layer_reseeded_after_training_trains_on_as_its_reopened_file_with_the_other_parameters_momentum():
    g, s = _trained_then_reseeded()
    assert_a_step_matches_a_fresh_load(s)  # the same loss, weights and optimizer state after the next step
    state = s.trained_values()[SESSION_KEY]["optimizer"]["state"]
    assert float(state["scale.scale"]["step"]) == 4  # Adam's moments of the scale carried on; the layer's restarted
    assert float(state["lin.weight"]["step"]) == 1


def test_a_reopened_layer_that_fails_on_its_input_keeps_the_files_trained_values_in_the_next_save():
    g = _teacher_graph()
    s = Session(g)
    for _ in s.train(3):
        pass
    saved = s.trained_values()["lin"]
    reopened = Session(files.loads(files.dumps(g, trained=s.trained_values())))
    reopened.graph.set_param("x", "shape", (16, 3))  # the layer is built, then its matmul fails
    reopened.forward()
    assert "lin" in reopened.errors and reopened.node_parameters("lin")
    for name, values in reopened.trained_values()["lin"].items():  # not its seed's values
        assert np.array_equal(values, saved[name])
        assert np.array_equal(reopened.node_parameters("lin")[name].detach().numpy(), saved[name])
