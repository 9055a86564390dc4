"""Edges keep off nodes: the layered layout of the chapter's graphs, imported snippets and every lesson leaves no
edge's curve (the canvas's own, ``edge_routes.curve_points``) running through a node's rectangle."""

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.code_import import import_here
from core.nodegraph.files.examples import default_graph
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from core.nodegraph.model import edge_routes, layout
from core.nodegraph.model.document import Edge, Graph, Node

AUTOGRAD = """import torch
x = torch.tensor([2.0, 3.0], requires_grad=True)
w = torch.tensor([1.5, -0.5], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
z = (x * w).sum() + b
z.backward()
"""

# x feeds a node three columns on: without a lane its edge ran through the nodes between
LONG_EDGE = """import torch
x = torch.tensor([2.0, 3.0], requires_grad=True)
w = torch.tensor([1.5, -0.5], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
y = torch.tanh(x * w + b)
z = (y * y).mean() + (x.exp() * w).sum()
z.backward()
"""

LESSONS = sorted(p.name for p in EXAMPLES_DIR.glob("*.json"))


def model_size(graph):
    return lambda nid: layout.node_size(graph.node(nid))


def crossings_after_layout(graph):
    return edge_routes.crossings(graph, model_size(graph), layout.layered(graph))


def test_the_curve_starts_and_ends_on_the_ports_and_leaves_each_sideways():
    a, c1, c2, b = edge_routes.curve_points((0.0, 0.0), (300.0, 80.0))
    assert edge_routes.curve_at((a, c1, c2, b), 0.0) == (0.0, 0.0)
    assert edge_routes.curve_at((a, c1, c2, b), 1.0) == (300.0, 80.0)
    assert c1[1] == a[1] and c2[1] == b[1] and c1[0] > a[0] and c2[0] < b[0]


def test_a_curve_through_a_node_is_found_and_one_beside_it_is_not(test_types):
    g = Graph()
    g.add_node(Node("a", "test.value", {}, (0.0, 0.0)))
    g.add_node(Node("in_the_way", "test.value", {}, (250.0, 0.0)))
    g.add_node(Node("far", "test.add", {}, (500.0, 0.0)))
    g.connect(Edge("a", "out", "far", "a"))
    assert [(e.dst, nid) for e, nid in edge_routes.crossings(g, model_size(g))] == [("far", "in_the_way")]
    g.node("in_the_way").position = (250.0, 400.0)
    assert edge_routes.crossings(g, model_size(g)) == []


@pytest.mark.parametrize("snippet", [AUTOGRAD, LONG_EDGE], ids=["chapter", "long-edge"])
def test_an_imported_snippets_graph_opens_with_no_edge_through_a_node(snippet):
    graph = import_here(snippet).graph
    assert edge_routes.crossings(graph, model_size(graph)) == []


def test_the_chapters_graph_laid_out_has_no_edge_through_a_node_and_b_sits_beside_the_sum():
    graph = default_graph()
    positions = layout.layered(graph)
    assert edge_routes.crossings(graph, model_size(graph), positions) == []
    by_title = {n.title: nid for nid, n in graph.nodes.items()}
    assert positions[by_title["b"]][0] == positions[by_title["s"]][0]  # one column left of z, its only consumer
    assert positions[by_title["x"]][0] == positions[by_title["w"]][0] < positions[by_title["b"]][0]


@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_laid_out_has_no_edge_through_a_node(name):
    graph = files.load(EXAMPLES_DIR / name)
    assert crossings_after_layout(graph) == []


def test_a_source_sits_one_column_left_of_its_nearest_consumer(test_types):
    g = Graph()
    for nid, t in (("a", "test.value"), ("b", "test.value"), ("ab", "test.add"), ("late", "test.value"),
                   ("abl", "test.add")):
        g.add_node(Node(nid, t, {}, (0.0, 0.0)))
    g.connect(Edge("a", "out", "ab", "a"))
    g.connect(Edge("b", "out", "ab", "b"))
    g.connect(Edge("ab", "out", "abl", "a"))
    g.connect(Edge("late", "out", "abl", "b"))
    pos = layout.layered(g)
    assert pos["late"][0] == pos["ab"][0] == layout.COLUMN
    assert edge_routes.crossings(g, model_size(g), pos) == []


def test_a_node_crossed_by_a_long_edge_is_not_pushed_far_from_its_inputs():
    """In the long-edge snippet, w also feeds a mul three columns on; of the orders tried, the one that keeps
    x * w beside x and w wins (pushed under that edge's curve, it sat two rows below them)."""
    graph = import_here(LONG_EDGE).graph
    by_id = graph.nodes
    mul = next(n for n in by_id.values() if n.type == "math.mul"
               and {by_id[e.src].title for e in graph.inputs_of(n.id).values()} == {"x", "w"})
    inputs = [by_id[e.src].position[1] for e in graph.inputs_of(mul.id).values()]
    assert min(inputs) - layout.node_size(mul)[1] <= mul.position[1] <= max(inputs) + layout.node_size(mul)[1]
    assert edge_routes.crossings(graph, model_size(graph)) == []


@pytest.mark.parametrize("name", LESSONS)
def test_each_stored_lesson_opens_with_no_edge_through_a_node(name):
    """Where the lesson file puts its nodes, which is where the app opens them (no layout runs on opening)."""
    graph = files.load(EXAMPLES_DIR / name)
    crossed = [(graph.node(e.src).title, graph.node(e.dst).title, graph.node(nid).title)
               for e, nid in edge_routes.crossings(graph, model_size(graph))]
    assert crossed == []
