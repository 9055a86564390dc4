"""The watch list: pinned ports recorded per step (value and gradient summaries), bounded, cleared on
reset, saved in the document's view, and invisible to training's results; and the image grid's data."""

import math

import numpy as np
import pytest

import core
from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from core.nodegraph.run.session import Session
from core.nodegraph.training.trainview import image_selection, prediction_view
from core.nodegraph.training.watch import WatchList, summarize, valid_key
from tests.nodegraph.session_graphs import chapter_graph, linear_mse_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")

CONVNET = EXAMPLES_DIR / "playground-convnet.json"


def _watched(graph, *keys, capacity=2000):
    session = Session(graph)
    watch = WatchList(graph, capacity)
    watch.attach(session)
    for key in keys:
        assert watch.add(key) is None
    return session, watch


def test_summaries_are_the_value_itself_for_one_element_and_mean_or_norm_otherwise():
    assert summarize(core.tensor(2.5)) == (2.5, "value")
    assert summarize(core.tensor([[-4.0]]), grad=True) == (-4.0, "grad")
    assert summarize(core.tensor([1.0, 2.0, 6.0])) == (3.0, "mean")
    value, kind = summarize(core.tensor([3.0, 4.0]), grad=True)
    assert kind == "norm" and value == pytest.approx(5.0)
    assert summarize(core.tensor([1, 2], dtype=core.int64)) == (1.5, "mean")
    assert summarize(7) == (7.0, "value")
    for nothing in (None, core.zeros(0), "text"):
        value, kind = summarize(nothing)
        assert math.isnan(value) and kind == ""


def test_keys_are_node_dot_port_and_unknown_nodes_are_refused():
    watch = WatchList(chapter_graph())
    assert valid_key("w.out") and valid_key("lin.weight") and not valid_key("w") and not valid_key(3)
    assert "node.port" in watch.add("nodot")
    assert "no node 'ghost'" in watch.add("ghost.out")
    assert watch.add("w.out") is None and watch.keys == ["w.out"]


def test_each_training_step_records_one_point_with_the_loss_and_the_weight_summaries():
    g = linear_mse_graph()
    g.training["optimizer"] = "Adam"
    session, watch = _watched(g, "loss.out", "lin.weight")
    metrics = list(session.train(12))
    steps, values, grads = watch.series("loss.out")
    assert steps.tolist() == [m["step"] for m in metrics] == list(range(12))
    assert values.tolist() == pytest.approx([m["loss"] for m in metrics])
    assert np.all(grads == 1.0)  # d loss / d loss, kept because the watched loss node retains its gradient
    weight = session.value("lin", "weight")
    assert watch.labels("lin.weight") == ("mean", "norm")
    assert watch.latest("lin.weight") == (11, pytest.approx(float(weight.mean())),
                                          pytest.approx(float(weight.grad.norm())))
    assert len(watch.series("lin.weight")[0]) == 12


def test_stepping_by_hand_gives_one_point_per_step_like_training():
    session, watch = _watched(chapter_graph(), "z.out", "w.out")
    session.forward()
    session.backward()
    assert watch.series("w.out")[0].tolist() == [0.0]
    assert watch.latest("w.out") == (0, 0.5, pytest.approx(math.hypot(2.0, 3.0)))
    assert watch.latest("z.out") == (0, pytest.approx(1.6), 1.0)
    session.zero_grad()
    assert watch.latest("w.out")[2] == pytest.approx(math.hypot(2.0, 3.0))  # zero_grad records nothing


def test_an_optimizer_step_rewrites_the_point_of_the_step_it_finished():
    g = linear_mse_graph()
    session, watch = _watched(g, "lin.weight")
    session.forward()
    session.backward()
    session.optimizer_step()
    weight = session.value("lin", "weight")
    assert watch.series("lin.weight")[0].tolist() == [0.0]
    assert watch.latest("lin.weight")[1] == pytest.approx(float(weight.mean()))
    session.forward()
    assert watch.series("lin.weight")[0].tolist() == [0.0, 1.0]


def test_memory_is_bounded_and_the_series_still_spans_the_run_evenly():
    session, watch = _watched(linear_mse_graph(), "loss.out", capacity=8)
    for _ in session.train(100):
        assert len(watch.series("loss.out")[0]) <= 8
    steps = watch.series("loss.out")[0]
    assert steps[0] == 0 and steps[-1] == 99
    gaps = np.diff(steps[:-1])
    assert np.all(gaps == watch.stride("loss.out")) and watch.stride("loss.out") > 1


def test_reset_clears_the_points_and_keeps_the_pins():
    session, watch = _watched(linear_mse_graph(), "loss.out")
    list(session.train(5))
    session.reset()
    assert watch.keys == ["loss.out"] and len(watch.series("loss.out")[0]) == 0
    list(session.train(3))
    assert watch.series("loss.out")[0].tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_watching_changes_nothing_in_training_results(optimizer):
    graphs = [linear_mse_graph(teacher=True) for _ in range(2)]
    for g in graphs:
        g.training["optimizer"] = optimizer
    plain = Session(graphs[0])
    plain_losses = [m["loss"] for m in plain.train(20)]
    session, watch = _watched(graphs[1], "loss.out", "lin.weight", "lin.out")
    losses = [m["loss"] for m in session.train(20)]
    assert losses == plain_losses
    assert np.array_equal(session.value("lin", "weight").detach().numpy(),
                          plain.value("lin", "weight").detach().numpy())
    assert len(watch.series("lin.out")[0]) == 20


def test_an_unwatched_port_stops_recording_and_gives_back_its_retained_gradient():
    session, watch = _watched(linear_mse_graph(), "lin.out")
    assert "lin" in session.retain_grad_nodes
    list(session.train(2))
    watch.remove("lin.out")
    assert watch.keys == [] and "lin" not in session.retain_grad_nodes
    list(session.train(2))
    watch.detach()
    assert watch._on_event not in list(session.listeners)
    watch.add("loss.out")
    watch.record(5)  # detached: nothing to read from
    assert len(watch.series("loss.out")[0]) == 0


def test_pins_are_saved_in_the_document_view_and_bad_saved_pins_are_ignored():
    g = chapter_graph()
    watch = WatchList(g)
    watch.add("w.out")
    watch.add("z.out")
    watch.remove("z.out")
    loaded = files.loads(files.dumps(g))
    assert loaded.view["watch"] == ["w.out"] and WatchList(loaded).keys == ["w.out"]
    loaded.view["watch"] = ["x.out", 5, "nodot", "x.out"]
    assert WatchList(loaded).keys == ["x.out"]
    loaded.view["watch"] = "w.out"
    assert WatchList(loaded).keys == []


def test_stepping_back_then_on_replaces_the_later_points():
    session, watch = _watched(linear_mse_graph(), "loss.out")
    list(session.train(5))
    watch.record(2)
    assert watch.series("loss.out")[0].tolist() == [0.0, 1.0, 2.0]


# ----- the image grid's data ----------------------------------------------------------------------------------
def _trained_convnet(steps=30):
    session = Session(files.load(CONVNET))
    list(session.train(steps))
    session.forward()
    return session


def test_the_images_view_shows_a_fixed_sample_with_labels_and_predictions():
    session = _trained_convnet()
    view = prediction_view(session)
    assert view["kind"] == "images"
    k = len(view["indices"])
    assert k == 16 and view["images"].shape == (16, 28, 28)
    assert view["labels"].shape == view["predicted"].shape == view["confidence"].shape == (16,)
    assert view["indices"].tolist() == image_selection(200).tolist() == prediction_view(session)["indices"].tolist()
    ds = session.states["n1"]["dataset"]
    assert np.array_equal(view["labels"], ds.y.numpy()[view["indices"]])
    assert np.array_equal(view["images"], ds.X.numpy()[view["indices"], 0])
    assert view["class_names"] == list(core.datasets.SHAPE_CLASSES)
    assert np.all((view["confidence"] >= 0.2) & (view["confidence"] <= 1.0))
    assert (view["predicted"] == view["labels"]).mean() >= 0.75  # 30 steps already classify most shapes


def test_the_images_view_leaves_the_session_untouched():
    session = _trained_convnet(5)
    values = {nid: dict(out) for nid, out in session.values.items()}
    params = {k: t.detach().numpy().copy() for k, t in session.parameters().items()}
    rng, step, done = session.generator.get_state().tolist(), session.step_count, list(session._done)
    modes = [m.training for m in (session.states["n2"]["module"], session.states["n5"]["module"])]
    prediction_view(session)
    assert all(session.values[nid][p] is t for nid, out in values.items() for p, t in out.items())
    assert all(np.array_equal(t.detach().numpy(), params[k]) for k, t in session.parameters().items())
    assert session.generator.get_state().tolist() == rng
    assert session.step_count == step and list(session._done) == done
    assert [m.training for m in (session.states["n2"]["module"], session.states["n5"]["module"])] == modes
    assert all(t.grad is None or t.grad.grad_fn is None for t in session.parameters().values())


def test_a_watched_intermediate_port_has_a_finite_gradient_at_every_training_step():
    session, watch = _watched(linear_mse_graph(), "lin.out")
    list(session.train(6))
    steps, values, grads = watch.series("lin.out")
    assert steps.tolist() == list(range(6)) and np.all(np.isfinite(grads)) and np.all(grads > 0)


def test_an_empty_watch_list_leaves_training_without_listeners_and_a_pin_brings_it_back():
    g = linear_mse_graph()
    g.training["optimizer"] = "Adam"
    session, watch = Session(g), WatchList(g)
    watch.attach(session)
    assert list(session.listeners) == []  # nothing pinned: training builds no event per step
    list(session.train(2))
    watch.add("loss.out")
    list(session.train(3))
    assert watch.series("loss.out")[0].tolist() == [2, 3, 4]  # one point per step from the pin on
    watch.remove("loss.out")
    assert list(session.listeners) == []
    watch.add("loss.out")
    watch.detach()
    assert list(session.listeners) == []
