"""Small ready-made training documents for the app, its tests and benchmarks.

``classifier_graph()`` is the toy classifier of the training panel: a 2-D dataset node feeding an MLP
whose logits go to cross entropy against the labels, with training settings (Adam, 200 steps).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.nodegraph.files.examples import _register_node_types
from core.nodegraph.model.document import Edge, Graph, Node

__all__ = ["classifier_graph"]


def classifier_graph(generator: str = "spiral", sizes: Sequence[int] = (2, 16, 16, 2), lr: float = 0.02,
                     steps: int = 200, batch_size: int = 64, optimizer: str = "Adam") -> Graph:
    """data.dataset -> layer.mlp -> loss.cross_entropy with training settings (loss node: n3)."""
    _register_node_types()
    g = Graph()
    g.add_node(Node("n1", "data.dataset", {"generator": generator, "n_samples": 300, "noise": 0.1,
                                           "batch_size": batch_size}, (0.0, 0.0), "data"))
    g.add_node(Node("n2", "layer.mlp", {"sizes": list(sizes), "activation": "tanh"}, (260.0, -40.0), "model"))
    g.add_node(Node("n3", "loss.cross_entropy", {}, (520.0, 20.0), "loss"))
    g.connect(Edge("n1", "x", "n2", "x"))
    g.connect(Edge("n2", "out", "n3", "input"))
    g.connect(Edge("n1", "y", "n3", "target"))
    g.set_training("loss", "n3")
    g.set_training("optimizer", optimizer)
    g.set_training("optimizer_params", {"lr": lr})
    g.set_training("steps", steps)
    return g
