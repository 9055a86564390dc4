"""Arranging nodes headlessly: layered layout by depth, align and distribute, applied as one MoveNodes."""

import pytest

import core.nodegraph.model.nodes  # noqa: F401 - the node types code import builds
from core.nodegraph.files.code_import import import_here
from core.nodegraph.model import commands, edge_routes, layout
from core.nodegraph.model.document import Edge, Graph, Node


@pytest.fixture
def diamond(test_types):
    """a -> c, b -> c, c -> d, plus a lone e; positions scrambled."""
    g = Graph()
    for nid, t, pos in (("a", "test.value", (400, 90)), ("b", "test.value", (10, 20)), ("c", "test.add", (0, 300)),
                        ("d", "test.add", (50, 0)), ("e", "test.value", (900, 900))):
        g.add_node(Node(nid, t, {}, pos))
    for src, dst, port in (("a", "c", "a"), ("b", "c", "b"), ("c", "d", "a"), ("a", "d", "b")):
        g.connect(Edge(src, "out", dst, port))
    return g


def test_each_node_sits_one_column_right_of_its_deepest_input(diamond):
    pos = layout.layered(diamond)
    x0 = min(n.position[0] for n in diamond.nodes.values())
    assert {n: (p[0] - x0) / layout.COLUMN for n, p in pos.items()} == {"a": 0, "b": 0, "c": 1, "d": 2, "e": 0}


def test_layout_is_anchored_at_the_selections_top_left_corner_and_rows_do_not_overlap(diamond):
    pos = layout.layered(diamond)
    assert min(p[0] for p in pos.values()) == 0 and min(p[1] for p in pos.values()) == 0
    column0 = sorted((p[1], n) for n, p in pos.items() if p[0] == 0)
    for (top, above), (below, _) in zip(column0, column0[1:]):
        assert below - top == layout.node_size(diamond.node(above))[1] + layout.GAP[1]


def test_a_selection_is_laid_out_alone_and_the_rest_stays(diamond):
    pos = layout.layered(diamond, ["c", "d"])
    assert set(pos) == {"c", "d"}
    assert pos["c"] == (0.0, 0.0) and pos["d"] == (layout.COLUMN, 0.0)
    assert diamond.node("a").position == (400, 90)  # nothing moved in the document


def test_columns_are_ordered_by_their_inputs_rows_so_edges_cross_less(test_types):
    g = Graph()
    for nid, t, pos in (("top", "test.value", (0, 0)), ("bottom", "test.value", (0, 500)),
                        ("after_bottom", "test.add", (300, 0)), ("after_top", "test.add", (300, 500))):
        g.add_node(Node(nid, t, {}, pos))
    g.connect(Edge("bottom", "out", "after_bottom", "a"))
    g.connect(Edge("top", "out", "after_top", "a"))
    pos = layout.layered(g)
    assert pos["after_top"][1] < pos["after_bottom"][1]


def test_layout_applied_with_one_move_command_undoes_exactly(diamond):
    before = diamond.to_dict()
    cmd = commands.MoveNodes(layout.layered(diamond))
    cmd.do(diamond)
    assert diamond.node("d").position[0] == 2 * layout.COLUMN
    cmd.undo(diamond)
    assert diamond.to_dict() == before


def test_align_left_and_top_line_nodes_up_on_the_outermost_one(diamond):
    assert layout.align(diamond, ["a", "b", "d"], "left") == {"a": (10, 90), "b": (10, 20), "d": (10, 0)}
    assert layout.align(diamond, ["a", "b", "d"], "top") == {"a": (400, 0), "b": (10, 0), "d": (50, 0)}


def test_distribute_spreads_nodes_evenly_between_the_outermost_two(diamond):
    pos = layout.align(diamond, ["a", "b", "e"], "distribute_horizontally")
    assert pos == {"b": (10, 20), "a": (455, 90), "e": (900, 900)}
    pos = layout.align(diamond, ["a", "c", "d"], "distribute_vertically")
    assert pos == {"d": (50, 0), "a": (400, 150), "c": (0, 300)}


def test_align_refuses_an_unknown_alignment_and_ignores_a_single_node(diamond):
    with pytest.raises(ValueError, match="unknown alignment 'diagonal'"):
        layout.align(diamond, ["a", "b"], "diagonal")
    assert layout.align(diamond, ["a"], "left") == {}
    assert layout.layered(Graph()) == {}


def _long_sum(term: str, n: int) -> str:
    return "import torch\nx = torch.randn(3, requires_grad=True)\nw = torch.randn(3)\ny = " + " + ".join([term] * n)


@pytest.mark.parametrize("term", ["x*w", "x"])
def test_a_long_one_liner_reusing_a_variable_keeps_lanes_linear_in_its_terms(term):
    """``x*w + x*w + ...`` stacks its n terms in one column, each with an edge to its own sum up to n columns away;
    ``x + x + ...`` sends x to every sum: a lane in every column passed was n^2/2 column entries (a minute to lay out
    900 terms). A port's edges share their lanes, kept near the edges' ends only."""
    n = 300
    graph = import_here(_long_sum(term, n)).graph
    edges = list(graph.edges)
    columns = layout._columns(graph, list(graph.nodes), [(e.src, e.dst) for e in edges])
    hops = layout._with_lanes(columns, [(e.src, e.dst, 0, 0) for e in edges])
    entries = sum(len(c) for c in columns)
    assert len(graph.nodes) <= entries <= len(graph.nodes) + 2 * (2 * layout.LANE_REACH + 1) * n
    assert len(hops) <= entries + len(edges)


def test_a_long_sum_of_products_opens_with_no_edge_through_a_node_and_a_height_linear_in_its_terms():
    """The terms of ``x*w + x*w + ...`` stand in one column, the sums step down beside them; every term's edge
    runs level to its sum (so the picture is a term tall per term, no taller) and through no node."""
    n = 150
    graph = import_here(_long_sum("x*w", n)).graph
    size = {nid: layout.node_size(node) for nid, node in graph.nodes.items()}
    tops = [node.position[1] for node in graph.nodes.values()]
    row = max(h for _, h in size.values()) + layout.HEAT_ROOM + layout.GAP[1]
    assert max(tops) - min(tops) <= n * row
    assert edge_routes.crossings(graph, size.__getitem__) == []
