"""Training a graph with no nodes ends at once with an error metrics dict that says so, like any step that can't
run (it raised KeyError: None from the training step)."""

from core.nodegraph.model.document import Graph
from core.nodegraph.run.session import Session


def test_training_an_empty_graph_ends_with_an_error_that_says_it_has_no_nodes():
    metrics = list(Session(Graph()).train(3))
    assert len(metrics) == 1 and metrics[0]["step"] == 0 and metrics[0]["node"] is None
    err = metrics[0]["error"]
    assert err.type == "RuntimeError" and "no nodes to train" in err.message

