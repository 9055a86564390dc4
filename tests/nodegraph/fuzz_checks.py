"""What every fuzz test asks of a graph that was accepted: it saves and loads back, and it evaluates and trains
without raising (errors stay on their nodes or in a step's metrics)."""

from __future__ import annotations

from core.nodegraph.files import io as files
from core.nodegraph.model.document import Graph
from core.nodegraph.run.session import Session


def runs_without_raising(g: Graph) -> None:
    """``g`` round-trips through its file text and runs forward, backward and one training step."""
    assert files.dumps(files.loads(files.dumps(g))) == files.dumps(g)  # as text: a NaN value never equals itself
    s = Session(g)
    s.forward()  # errors are kept on their nodes
    if s.loss_node() is not None:
        s.backward()
    for metrics in Session(g).train(1):  # or the step ends with an error in its metrics
        assert "error" in metrics or metrics["loss"] is not None
