"""A session's steps cost what they change, not the size of the graph (issue #21, "Growth"): a time-travel
snapshot of one step keeps a bounded number of node and tensor records, a forward pass reads the topological
order a bounded number of times per node, and stepping through the Run menu keeps memory flat once the history
window is full. Counters, not timers."""

import gc
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from core.nodegraph.files import io as files
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")

CLASSIFIER = Path(__file__).resolve().parents[2] / "core/nodegraph/assets/examples/playground-classifier.json"


def chain_graph(n: int) -> Graph:
    """``n`` nodes: a leaf every fourth node feeds the next mul and add, tanh between them, a sum at the end."""
    g = Graph()
    g.add_node(Node("n0", "source.randn", {"shape": [3], "seed": 0, "requires_grad": True}))
    prev = leaf = "n0"
    for k in range(1, n - 1):
        nid = f"n{k}"
        if k % 4 == 0:
            g.add_node(Node(nid, "source.randn", {"shape": [3], "seed": k, "requires_grad": True}))
            leaf = nid
            continue
        op = ("math.mul", "math.tanh", "math.add")[k % 4 - 1]
        g.add_node(Node(nid, op))
        if op == "math.tanh":
            g.connect(Edge(prev, "out", nid, "x"))
        else:
            g.connect(Edge(prev, "out", nid, "a"))
            g.connect(Edge(leaf, "out", nid, "b"))
        prev = nid
    g.add_node(Node("loss", "reduce.sum"))
    g.connect(Edge(prev, "out", "loss", "x"))
    g.training["loss"] = "loss"
    return g


class CountingOrder(list):
    """A topological order that counts how often its entries are read."""

    reads = 0

    def __getitem__(self, i):
        CountingOrder.reads += 1
        return super().__getitem__(i)

    def __iter__(self):
        for item in super().__iter__():
            CountingOrder.reads += 1
            yield item


@pytest.fixture(scope="module")
def big_session():
    """A 2,000-node chain, run forward and backward once."""
    s = Session(chain_graph(2000))
    s.forward()
    s.backward(retain_graph=True)
    return s


def test_a_forward_step_in_a_2000_node_graph_records_a_bounded_number_of_entries(big_session):
    s = big_session
    s.forward_step()  # the first step of a new pass
    s.forward_step()
    snap = s.history.snapshots[-1]
    nodes, ledger, freed = snap.changes
    assert s.order[1] in nodes and len(nodes) <= 2  # the node, and the leaf owning the AccumulateGrad it reached
    assert len(snap.tensors) <= 4 and ledger[2] == () and freed == ()


def test_a_backward_step_in_a_2000_node_graph_records_a_bounded_number_of_entries(big_session):
    s = big_session
    s.forward()
    for _ in range(30):
        s.backward_step()
        snap = s.history.snapshots[-1]
        nodes, ledger, freed = snap.changes
        assert len(nodes) <= 1 and len(snap.tensors) <= 3 and len(ledger[2]) <= 1 and len(freed) <= 1


def test_a_forward_pass_reads_the_order_a_bounded_number_of_times_per_node():
    s = Session(chain_graph(600))
    s._order = CountingOrder(s.order)
    CountingOrder.reads = 0
    s.forward()
    assert len(s.values) == 600 and not s.errors
    assert CountingOrder.reads <= 10 * 600  # a constant per node (a scan from the start each step: ~180,000)


def test_forward_and_backward_never_look_at_every_tensor_per_step(monkeypatch):
    s = Session(chain_graph(400))
    scans = []
    real = Session.tracked_tensors
    monkeypatch.setattr(Session, "tracked_tensors", lambda self: scans.append(1) or real(self))
    s.forward()
    s.backward()
    assert not s.errors and s.grad("n0") is not None
    # only the tracker's amortized pruning looks at every tensor: a few times, not once per step
    assert len(scans) <= 12


def test_stepping_back_through_a_long_chain_restores_the_gradients_and_values():
    s = Session(chain_graph(200), history_limit=1000)
    s.forward()
    values = {nid: out["out"]._data.copy() for nid, out in s.values.items()}
    before = s.history.position
    s.backward()
    assert s.grad("n0") is not None
    s.history.goto(before)
    assert s.grad("n0") is None and not s.backward_in_progress and s.next_node is None
    assert all(np.array_equal(s.values[nid]["out"]._data, v) for nid, v in values.items())
    s.history.goto(len(s.history.snapshots) - 1)
    assert s.grad("n0") is not None


def _run_menu_steps(s: Session, n: int) -> None:
    """About ``n`` snapshots from the Run menu: Forward, Backward, Optimizer step, Zero grad, again and again."""
    for _ in range(n // 4):
        s.forward()
        s.backward()
        s.optimizer_step()
        s.zero_grad()


def test_memory_of_run_menu_steps_stays_flat_once_the_history_is_full():
    s = Session(files.load(CLASSIFIER), history_limit=40)
    _run_menu_steps(s, 200)  # the window is full
    assert len(s.history.snapshots) == 40
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        _run_menu_steps(s, 400)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert not s.errors and s.step_count == 150
    assert grown < 500_000  # ~1.1 MB when evicted snapshots carried their tensor records forward
