"""Stopping a training run that diverges: the stop names the first node that produced NaN/Inf, headless."""

import math

from core.nodegraph.files.examples import _register_node_types
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from core.nodegraph.training.runs import RunHistory, StopConditions, first_non_finite


def diverging_graph() -> Graph:
    """``loss = exp(sqrt(w)).sum()`` with w = 1 and SGD(lr=2): the first step sends w below 0, so the second
    forward's sqrt makes the NaN, and exp and the loss only pass it on."""
    _register_node_types()
    g = Graph()
    g.add_node(Node("w", "param.parameter", {"shape": [1], "init": "ones"}))
    g.add_node(Node("root", "math.sqrt"))
    g.add_node(Node("grow", "math.exp"))
    g.add_node(Node("loss", "reduce.sum"))
    for src, dst in (("w", "root"), ("root", "grow"), ("grow", "loss")):
        g.connect(Edge(src, "out", dst, "x"))
    g.set_training("loss", "loss")
    g.set_training("optimizer", "SGD")
    g.set_training("optimizer_params", {"lr": 2.0})
    return g


def _train_until_stop(session, stops, steps=10):
    run = RunHistory().new_run(session.graph.training)
    for metrics in session.train(steps):
        run.add(metrics)
        stop = stops.stop_info(metrics, session)
        if stop is not None:
            return run, stop
    return run, None


def test_a_diverging_run_stops_at_the_first_nan_and_names_the_node_that_made_it():
    session = Session(diverging_graph())
    run, stop = _train_until_stop(session, StopConditions())
    assert stop is not None and len(run) == 2 and math.isnan(run.last("loss"))
    assert stop["node"] == "root"  # not the loss node, nor exp which only passes the NaN on
    assert "the loss is nan" in stop["message"] and stop["message"].endswith("comes from sqrt")
    assert first_non_finite(session, params_finite=False) == "w"  # NaN weights in the forward: they are the origin


def test_the_stop_message_names_the_node_by_its_title_not_its_id():
    graph = diverging_graph()
    graph.nodes["root"].title = "root of w"
    _, stop = _train_until_stop(Session(graph), StopConditions())
    assert stop["node"] == "root"  # the id, for the canvas to select
    assert stop["message"].endswith("the first non-finite value comes from root of w")  # the title, for the learner


def test_first_non_finite_is_none_while_every_value_is_finite():
    session = Session(diverging_graph())
    list(session.train(1))
    assert first_non_finite(session) is None


def test_a_finite_stop_keeps_the_node_of_the_metrics_and_no_session_is_needed():
    stops = StopConditions(loss_below=0.5)
    assert stops.stop_info({"step": 3, "loss": 0.1}) == {"message": "stopped at step 3: loss 0.1000 is below 0.5",
                                                        "node": None}
    assert stops.stop_info({"step": 4, "loss": 0.9}) is None
    error = stops.stop_info({"step": 5, "loss": None, "error": "boom", "node": "n2"})
    assert error == {"message": "stopped: boom", "node": "n2"}


def test_without_stop_on_nan_a_diverging_run_goes_on():
    session = Session(diverging_graph())
    run, stop = _train_until_stop(session, StopConditions(stop_on_nan=False), steps=4)
    assert stop is None and len(run) == 4


def test_a_healthy_classifier_run_never_stops_on_nan():
    session = Session(classifier_graph(steps=20))
    run, stop = _train_until_stop(session, StopConditions(), steps=20)
    assert stop is None and len(run) == 20 and all(math.isfinite(v) for v in run.series("loss"))
