"""Which autograd nodes fed each leaf's AccumulateGrad in a stepped backward (the status bar's "TBackward0: sent
grad ... to lin.weight"), checked against the same graph in PyTorch, where they are the AccumulateGrad's parents."""

import pytest

from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import chapter_graph, linear_mse_graph, node_types  # noqa: F401 - the fixture

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("node_types")


def senders_by_leaf(graph: Graph) -> dict[str, set[str]]:
    """``{leaf key: names of the autograd nodes that sent it gradient}`` from stepping ``graph``'s backward."""
    s = Session(graph)
    events = []
    s.subscribe(events.append)
    s.forward()
    while s.backward_step() is not None and s.backward_in_progress:
        pass
    return {e.detail["accumulated"]: set(e.detail["sent_by"]) for e in events
            if e.phase == "backward" and e.detail.get("accumulated")}


def torch_senders(loss, leaves: dict[str, object]) -> dict[str, set[str]]:
    """The same from PyTorch: the names of the nodes whose next_functions hold each leaf's AccumulateGrad."""
    parents: dict[object, set[str]] = {}
    seen, todo = set(), [loss.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        for nxt, _ in fn.next_functions:
            if nxt is not None:
                if type(nxt).__name__ == "AccumulateGrad":
                    parents.setdefault(id(nxt.variable), set()).add(type(fn).__name__)
                todo.append(nxt)
    return {key: parents[id(t)] for key, t in leaves.items()}


def test_a_linear_layers_weight_is_fed_by_tbackward_and_its_bias_by_addmm():
    got = senders_by_leaf(linear_mse_graph(batch=8))
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    lin = torch.nn.Linear(4, 1)
    loss = torch.nn.functional.mse_loss(lin(x), y)
    assert got == torch_senders(loss, {"lin.weight": lin.weight, "lin.bias": lin.bias})


def test_the_chapters_leaves_and_a_leaf_used_twice_name_every_sender():
    assert senders_by_leaf(chapter_graph()) == {"x.out": {"MulBackward0"}, "w.out": {"MulBackward0"},
                                               "b.out": {"AddBackward0"}}
    g = Graph()  # x * w + x: x's AccumulateGrad has two parents
    g.add_node(Node("x", "source.tensor", {"tensor": [2.0, 3.0], "requires_grad": True}))
    g.add_node(Node("w", "source.tensor", {"tensor": [1.5, -0.5]}))
    g.add_node(Node("mul", "math.mul"))
    g.add_node(Node("add", "math.add"))
    g.add_node(Node("s", "reduce.sum"))
    for e in (("x", "out", "mul", "a"), ("w", "out", "mul", "b"), ("mul", "out", "add", "a"), ("x", "out", "add", "b"),
              ("add", "out", "s", "x")):
        g.connect(Edge(*e))
    g.training["loss"] = "s"
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    assert senders_by_leaf(g) == torch_senders((x * torch.tensor([1.5, -0.5]) + x).sum(), {"x.out": x})
