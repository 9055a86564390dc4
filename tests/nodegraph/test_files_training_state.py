"""A graph saved after training keeps where training stood (the ``trained`` section's ``"@session"``: step count,
generator, optimizer and schedule state, batch norm running statistics), so the reopened session's next step is
bit for bit the step the unsaved one makes; files without it open as before."""

import json

import numpy as np
import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def _dropout_graph() -> Graph:
    """A minibatch classifier (rows shuffled per epoch) with a dropout drawing from the session's generator."""
    g = classifier_graph("moons", batch_size=32, steps=20)
    g.disconnect(next(e for e in g.edges if e.dst == "n3" and e.dst_port == "input"))
    g.add_node(Node("drop", "nn.dropout", {"p": 0.2}))
    g.connect(Edge("n2", "out", "drop", "x"))
    g.connect(Edge("drop", "out", "n3", "input"))
    return g


def _batch_norm_graph(momentum: float = 0.1) -> Graph:
    """``loss = mse(batch_norm(x @ w) * scale, y)`` with running statistics fed by source nodes."""
    g = Graph()
    g.add_node(Node("x", "source.randn", {"shape": [16, 4], "seed": 1}))
    g.add_node(Node("y", "source.randn", {"shape": [16, 3], "seed": 2}))
    g.add_node(Node("w", "param.parameter", {"name": "w", "shape": [4, 3], "init": "normal", "seed": 3}))
    g.add_node(Node("xw", "linalg.matmul"))
    g.add_node(Node("mean", "source.zeros", {"shape": [3]}))
    g.add_node(Node("var", "source.ones", {"shape": [3]}))
    g.add_node(Node("bn", "nn.batch_norm", {"momentum": momentum}))
    g.add_node(Node("loss", "loss.mse"))
    for e in (("x", "out", "xw", "a"), ("w", "out", "xw", "b"), ("xw", "out", "bn", "x"),
              ("mean", "out", "bn", "running_mean"), ("var", "out", "bn", "running_var"),
              ("bn", "out", "loss", "input"), ("y", "out", "loss", "target")):
        g.connect(Edge(*e))
    g.training.update(loss="loss", optimizer="SGD", optimizer_params={"lr": 0.1, "momentum": 0.9})
    return g


SETTINGS = {
    "Adam": ("Adam", {"lr": 0.02}, None),
    "SGD momentum, StepLR": ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True},
                             {"type": "StepLR", "step_size": 3, "gamma": 0.5}),
    "RMSprop centered": ("RMSprop", {"lr": 0.01, "centered": True}, None),
    "AdamW amsgrad, ExponentialLR": ("AdamW", {"lr": 0.01, "amsgrad": True}, {"type": "ExponentialLR", "gamma": 0.9}),
}


def _graph(name: str) -> Graph:
    g = _dropout_graph()
    optimizer, params, schedule = SETTINGS[name]
    g.training.update(optimizer=optimizer, optimizer_params=params, schedule=schedule)
    return g


def _trained(graph: Graph, steps: int) -> Session:
    s = Session(graph)
    losses = [m["loss"] for m in s.train(steps)]
    assert all(loss is not None for loss in losses)
    return s


def _reopened(s: Session, tmp_path, name: str = "g.json") -> Session:
    path = tmp_path / name
    files.save(s.graph, path, trained=s.trained_values())
    return Session(files.load(path))


def _params(s: Session) -> dict[str, np.ndarray]:
    return {k: t.detach().numpy().copy() for k, t in s.parameters().items()}


def _assert_same_steps(a: Session, b: Session, steps: int = 3) -> None:
    """The next ``steps`` steps give the same losses and parameters, bit for bit."""
    for _ in range(steps):
        (ma,), (mb,) = list(a.train(1)), list(b.train(1))
        assert mb["loss"] == ma["loss"] and mb["lr"] == ma["lr"]
        pa, pb = _params(a), _params(b)
        assert list(pa) == list(pb)
        for k in pa:
            np.testing.assert_array_equal(pb[k], pa[k], err_msg=k)
    assert b.step_count == a.step_count


@pytest.mark.parametrize("name", SETTINGS)
def test_a_reopened_session_steps_on_bit_for_bit(tmp_path, name):
    s = _trained(_graph(name), 7)
    reopened = _reopened(s, tmp_path)
    assert reopened.step_count == 7
    _assert_same_steps(s, reopened)


def test_without_the_optimizer_state_the_next_step_would_differ(tmp_path):
    """What the saved state is for: Adam's moments and step counts change the step (the old files' case)."""
    s = _trained(_graph("Adam"), 7)
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    data = json.loads(path.read_text())
    del data["trained"]["@session"]["optimizer"]
    path.write_text(json.dumps(data))
    stateless = Session(files.load(path))
    (ma,), (mb,) = list(s.train(1)), list(stateless.train(1))
    assert mb["loss"] == ma["loss"]  # the same parameters, batch and dropout mask before the step
    assert any(not np.array_equal(_params(s)[k], _params(stateless)[k]) for k in _params(s))


def test_the_saved_state_is_exact_in_the_file(tmp_path):
    s = _trained(_graph("Adam"), 5)
    opt = s.current_optimizer
    graph = files.load(_save(s, tmp_path))
    saved = graph.trained_values["@session"]
    assert saved["step"] == 5
    np.testing.assert_array_equal(saved["generator"], s.generator.get_state().numpy())
    assert saved["optimizer"]["type"] == "Adam"
    assert saved["optimizer"]["param_groups"][0]["params"] == list(s.parameters())
    for key, t in s.parameters().items():
        for name, value in opt.state[t].items():
            arr = saved["optimizer"]["state"][key][name]
            assert arr.dtype == value.numpy().dtype and arr.shape == tuple(value.shape)
            np.testing.assert_array_equal(arr, value.numpy())


def _save(s: Session, tmp_path, name: str = "g.json"):
    path = tmp_path / name
    files.save(s.graph, path, trained=s.trained_values())
    return path


def test_batch_norm_running_statistics_are_kept(tmp_path):
    s = _trained(_batch_norm_graph(), 6)
    mean = s.value("mean").numpy().copy()
    assert not np.array_equal(mean, np.zeros(3, np.float32))  # training moved them
    reopened = _reopened(s, tmp_path)
    for session in (s, reopened):
        session.run_forward()  # a forward pass in training mode updates them once more
    assert not np.array_equal(s.value("mean").numpy(), mean)
    np.testing.assert_array_equal(reopened.value("mean").numpy(), s.value("mean").numpy())
    np.testing.assert_array_equal(reopened.value("var").numpy(), s.value("var").numpy())
    _assert_same_steps(s, reopened)
    np.testing.assert_array_equal(reopened.value("mean").numpy(), s.value("mean").numpy())
    np.testing.assert_array_equal(reopened.value("var").numpy(), s.value("var").numpy())


def test_running_statistics_of_imported_code_are_kept(tmp_path):
    from core.nodegraph.files.code_import import import_here

    text = ("import core as torch\nfrom core import nn\ntorch.manual_seed(0)\nx = torch.randn(8, 3)\n"
            "y = torch.randn(8, 1)\nbn = nn.BatchNorm1d(3)\nlin = nn.Linear(3, 1)\n"
            "loss = ((lin(bn(x)) - y) ** 2).mean()\n")
    s = _trained(import_here(text).graph, 4)
    stats = {nid: s.value(nid).numpy().copy() for nid in s.trained_values()["@session"]["buffers"]}
    assert len(stats) == 2  # the running mean and variance
    reopened = _reopened(s, tmp_path)
    _assert_same_steps(s, reopened, 2)
    for nid in stats:
        np.testing.assert_array_equal(reopened.value(nid).numpy(), s.value(nid).numpy())


def test_a_file_without_the_training_state_opens_at_step_zero(tmp_path):
    s = _trained(_graph("Adam"), 3)
    path = _save(s, tmp_path)
    data = json.loads(path.read_text())
    del data["trained"]["@session"]
    path.write_text(json.dumps(data))
    graph = files.load(path)
    assert "@session" not in graph.trained_values
    reopened = Session(graph)
    assert reopened.step_count == 0
    reopened.run_forward()
    for k, v in _params(s).items():
        np.testing.assert_array_equal(_params(reopened)[k], v)


def test_an_untrained_session_saves_no_training_state(tmp_path):
    s = Session(_graph("Adam"))
    s.run_forward()
    assert s.trained_values() == {}
    assert "trained" not in json.loads(_save(s, tmp_path).read_text())


def test_reset_forgets_the_saved_training_state(tmp_path):
    reopened = _reopened(_trained(_graph("SGD momentum, StepLR"), 4), tmp_path)
    before = reopened.trained_revision
    reopened.reset()
    assert reopened.trained_revision > before
    assert reopened.step_count == 0 and reopened.trained_values() == {}
    fresh = Session(_graph("SGD momentum, StepLR"))
    _assert_same_steps(fresh, reopened, 2)


def test_a_reopened_session_saved_again_before_stepping_keeps_its_state(tmp_path):
    s = _trained(_graph("Adam"), 4)
    once = _reopened(s, tmp_path, "a.json")
    for session in (s, once):
        session.run_forward()  # parameters restored, no optimizer built yet; the dropout draws from the generator
    twice = _reopened(once, tmp_path, "b.json")
    _assert_same_steps(s, twice, 2)


def test_the_trained_revision_follows_what_a_save_would_write():
    s = Session(_graph("Adam"))
    s.run_forward()
    assert s.trained_revision == 0  # a forward pass changes no parameter
    list(s.train(2))
    assert s.trained_revision == 2
    s.forward()
    assert s.trained_revision == 2
    s.reset()
    assert s.trained_revision == 3
    s.reset()
    assert s.trained_revision == 3  # nothing trained to forget


def test_stepping_back_over_an_optimizer_step_changes_the_revision():
    s = Session(_graph("Adam"))
    s.forward()
    s.backward()
    s.optimizer_step()
    seen = s.trained_revision
    assert s.history.step_back()
    assert s.step_count == 0 and s.trained_revision > seen


def test_a_node_called_like_the_state_entry_keeps_its_parameters(tmp_path):
    g = _batch_norm_graph()
    g.add_node(Node("@session", "param.parameter", {"name": "s", "shape": [1], "init": "ones"}))
    g.add_node(Node("scaled", "math.mul"))
    g.disconnect(next(e for e in g.edges if e.dst == "loss" and e.dst_port == "input"))
    for e in (("bn", "out", "scaled", "a"), ("@session", "out", "scaled", "b"), ("scaled", "out", "loss", "input")):
        g.connect(Edge(*e))
    s = _trained(g, 3)
    reopened = _reopened(s, tmp_path)
    assert reopened.step_count == 0  # no room for the training state in this file: it opens as older ones do
    reopened.run_forward()
    np.testing.assert_array_equal(reopened.value("@session", "s").detach().numpy(),
                                  s.value("@session", "s").detach().numpy())


@pytest.mark.parametrize("state, reason", [
    ({"step": -1}, "trained.@session.step: must be in"),
    ({"step": "3"}, "trained.@session.step: must be an integer"),
    ({"generator": [1, 2]}, "trained.@session.generator: must be an object"),
    ({"optimizer": {"param_groups": []}}, "trained.@session.optimizer.type: missing field"),
    ({"optimizer": {"type": "SGD", "param_groups": [{"lr": {"x": 1}}]}},
     "trained.@session.optimizer.param_groups[0].lr: must be a number"),
    ({"optimizer": {"type": "SGD", "param_groups": [], "state": {"w.w": {"momentum_buffer": {"npy_base64": "x"}}}}},
     "trained.@session.optimizer.state.w.w.momentum_buffer: damaged tensor data"),
    ({"buffers": {"nope": {}}}, "trained.@session.buffers.nope: no node has this id"),
])
def test_a_damaged_training_state_is_refused_naming_the_field(state, reason):
    data = json.loads(files.dumps(_batch_norm_graph()))
    data["trained"] = {"@session": state}
    with pytest.raises(files.LoadError, match=reason.replace(".", r"\.").replace("[", r"\[")):
        files.loads(json.dumps(data))


def test_a_large_optimizer_state_goes_to_the_sidecar_and_reads_back(tmp_path):
    g = Graph()
    g.add_node(Node("x", "source.randn", {"shape": [8, 600], "seed": 1}))
    g.add_node(Node("lin", "layer.linear", {"in_features": 600, "out_features": 600, "seed": 0}))
    g.add_node(Node("loss", "reduce.mean"))
    g.connect(Edge("x", "out", "lin", "x"))
    g.connect(Edge("lin", "out", "loss", "x"))
    g.training.update(loss="loss", optimizer="Adam", optimizer_params={"lr": 0.01})
    s = _trained(g, 3)
    path = _save(s, tmp_path)
    assert len(files.sidecar_paths(path)) == 1  # Adam's moments of the 600x600 weight: over a MiB each
    assert path.stat().st_size < 100_000
    _assert_same_steps(s, Session(files.load(path)), 1)
