"""Train on a graph that can own no trainable tensor is refused before anything runs: no forward, no backward, so
gradients a Zero grad cleared stay cleared, with the optimizer's own words for an empty parameter list."""

from core.nodegraph.model.document import Graph
from core.nodegraph.run.session import Session
from core.nodegraph.training.trainer import NO_PARAMETERS, may_own_parameters
from tests.nodegraph.session_graphs import chapter_graph, node_types  # noqa: F401 - the fixture


def test_train_without_parameters_after_zero_grad_runs_no_forward_or_backward_and_says_why():
    s = Session(chapter_graph())
    s.forward()
    s.backward()
    s.zero_grad()
    values = {nid: dict(out) for nid, out in s.values.items()}
    phases = []
    s.subscribe(lambda event: phases.append(event.phase))
    metrics = list(s.train(5))
    assert len(metrics) == 1 and metrics[0]["node"] is None and metrics[0]["step"] == 0
    assert metrics[0]["error"].phase == "optimizer" and metrics[0]["error"].message == NO_PARAMETERS
    assert all(t.grad is None for t in s.leaves().values())  # Zero grad's None gradients, not the backward's again
    assert {nid: dict(out) for nid, out in s.values.items()} == values and s.step_count == 0
    assert "forward" not in phases and "backward" not in phases


def test_graphs_that_can_make_parameters_are_not_refused_before_running():
    assert may_own_parameters("param.parameter") and may_own_parameters("layer.linear")
    assert may_own_parameters("no.such.type")  # an unknown node's run says what is wrong, not the optimizer
    assert not may_own_parameters("source.tensor") and not may_own_parameters("math.add")
    inner = {"nodes": [{"id": "a", "type": "source.tensor"}, {"id": "w", "type": "param.parameter"}]}
    assert may_own_parameters("graph.subgraph", inner)
    assert not may_own_parameters("graph.subgraph", {"nodes": [{"id": "a", "type": "source.tensor"}]})


def test_an_empty_graph_keeps_its_own_message():
    metrics = list(Session(Graph()).train(3))
    assert len(metrics) == 1 and "no nodes to train" in str(metrics[0]["error"])

