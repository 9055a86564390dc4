"""Full collections spaced with the large documents alive (``core.nodegraph.model.gc_spacing``, issue #21 "Growth"):
a large document raises the full-collection threshold in proportion to its nodes, whether built by commands or
loaded; the threshold found before comes back when it is freed or shrinks, a threshold set by someone else
meanwhile is what comes back, and a closed document in a reference cycle is still collected."""

import gc
import weakref

import pytest

from core.nodegraph.model import commands as cmd
from core.nodegraph.model import gc_spacing
from core.nodegraph.model.document import Graph, Node


@pytest.fixture
def small_large(monkeypatch):
    """Documents count as large from 64 nodes, one middle-generation collection per 2 nodes; whatever a test does
    to the thresholds is undone."""
    gc.collect()  # large documents of earlier tests (in cycles) go now
    saved = gc.get_threshold()
    monkeypatch.setattr(gc_spacing, "LARGE", 64)
    monkeypatch.setattr(gc_spacing, "NODES_PER_COLLECTION", 2)
    yield saved
    gc.collect()
    gc.set_threshold(*saved)


def _graph(n: int) -> Graph:
    g = Graph()
    for k in range(n):
        g.add_node(Node(f"n{k + 1}", "math.exp"))
    return g


class _View:
    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        graph.subscribe(self.changed)

    def changed(self, event: object) -> None:
        pass


def test_a_large_document_raises_the_full_collection_threshold_with_its_size(small_large):
    base = gc.get_threshold()[2]
    g = _graph(63)
    assert gc.get_threshold()[2] == base
    g.add_node(Node("n64", "math.exp"))
    assert gc.get_threshold()[2] == max(base, 64 // 2)
    for k in range(65, 300):
        g.add_node(Node(f"n{k}", "math.exp"))
    assert gc.get_threshold()[2] == max(base, 256 // 2)  # reported at each power of two: 64, 128, 256
    assert gc.get_threshold()[:2] == small_large[:2]


def test_the_threshold_comes_back_when_a_closed_document_in_a_cycle_is_collected(small_large):
    g = _graph(200)
    _View(g)  # the document holds the view's listener, which holds the document: a cycle, as a window's
    assert gc.get_threshold()[2] > small_large[2]
    gone, node_gone = weakref.ref(g), weakref.ref(g.nodes["n1"])
    del g
    assert gone() is not None  # reference counting alone does not free it
    gc.collect()
    assert gone() is None and node_gone() is None
    assert gc.get_threshold() == small_large


def test_a_document_shrinking_below_large_gives_its_share_back(small_large):
    g = _graph(200)
    keep = _graph(100)
    assert gc.get_threshold()[2] == max(small_large[2], (128 + 64) // 2)
    cmd.RemoveNodes([f"n{k}" for k in range(1, 190)]).do(g)
    assert gc.get_threshold()[2] == max(small_large[2], 64 // 2)  # only the other document is large now
    del keep
    assert gc.get_threshold() == small_large


def test_a_loaded_large_document_counts_too(small_large):
    g = Graph.from_dict(_graph(100).to_dict())
    assert gc.get_threshold()[2] == max(small_large[2], 100 // 2)
    del g
    gc.collect()
    assert gc.get_threshold() == small_large


def test_a_threshold_set_by_someone_else_meanwhile_is_kept_and_is_what_comes_back(small_large):
    g = _graph(100)
    gc.set_threshold(700, 10, 7)
    g.add_node(Node("big", "math.exp"))
    for k in range(101, 200):
        g.add_node(Node(f"n{k}", "math.exp"))
    assert gc.get_threshold()[2] == 128 // 2
    gc.set_threshold(700, 10, 500)  # higher than the documents ask for: it stands
    g.add_node(Node("n200", "math.exp"))
    for k in range(201, 300):
        g.add_node(Node(f"n{k}", "math.exp"))
    assert gc.get_threshold()[2] == 500
    del g
    gc.collect()
    assert gc.get_threshold() == (700, 10, 500)
