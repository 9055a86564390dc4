"""A node placed at a wanted point keeps off the edges' curves as well as the nodes: Tab over an edge put the
new node on the edge's line; now it goes to the nearest place clear of both (``layout.free_spot``'s ``curves``,
the curves where the canvas draws them: ``edge_routes.edge_curves``)."""

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from core.nodegraph.model import edge_routes, layout, placement
from core.nodegraph.model.document import Edge, Graph, Node
from tests.hypothesis_profiles import fuzz_settings

SIZE = (190.0, 80.0)


def _two_far_nodes() -> Graph:
    """``a`` at the left feeding ``b`` 900 to the right and 200 down: one long edge between them."""
    g = Graph()
    g.add_node(Node("a", "test.value", {}, (0.0, 0.0)))
    g.add_node(Node("b", "test.add", {}, (1100.0, 200.0)))
    g.connect(Edge("a", "out", "b", "a"))
    return g


def _meets(curve, rect) -> bool:
    """Whether a point of ``curve``, or of its segments (checked at 20 points each), lies in ``rect``."""
    x, y, w, h = rect
    points = [(p[0] + (q[0] - p[0]) * k / 20, p[1] + (q[1] - p[1]) * k / 20)
              for p, q in zip(curve, curve[1:]) for k in range(21)]
    return any(x <= px <= x + w and y <= py <= y + h for px, py in points)


def _on_the_edge(g: Graph) -> tuple[float, float]:
    """A wanted top-left corner that puts a node's middle on the edge's midpoint."""
    (curve,) = edge_routes.edge_curves(g)
    mx, my = curve[len(curve) // 2]
    return mx - SIZE[0] / 2, my - SIZE[1] / 2


def test_a_node_wanted_on_an_edge_moves_off_its_curve_but_stays_near(test_types):
    g = _two_far_nodes()
    near = _on_the_edge(g)
    (curve,) = edge_routes.edge_curves(g)
    assert _meets(curve, (*near, *SIZE))  # where it was wanted, the line runs under it
    x, y = layout.free_spot(layout.occupied(g), SIZE, near, curves=edge_routes.edge_curves(g))
    assert not _meets(curve, (x, y, *SIZE))
    assert abs(x - near[0]) + abs(y - near[1]) < 200  # the nearest free place, not somewhere else on the canvas
    assert not any(placement._overlaps((x, y, *SIZE), r, (30.0, 30.0)) for r in layout.occupied(g))


def test_without_curves_the_wanted_point_on_an_edge_is_kept(test_types):
    g = _two_far_nodes()
    near = _on_the_edge(g)
    assert layout.free_spot(layout.occupied(g), SIZE, near) == near  # as before: only nodes were kept off


def test_curves_far_from_the_wanted_point_are_not_sampled(test_types):
    g = _two_far_nodes()
    assert edge_routes.edge_curves(g, within=layout.search_area(SIZE, (5000.0, 5000.0))) == []
    assert len(edge_routes.edge_curves(g, within=layout.search_area(SIZE, _on_the_edge(g)))) == 1


@fuzz_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.floats(-300, 1400), st.floats(-300, 500))
def test_a_free_spot_keeps_off_every_curve_and_node(test_types, x, y):
    g = _two_far_nodes()
    g.add_node(Node("c", "test.value", {}, (500.0, 300.0)))
    g.connect(Edge("c", "out", "b", "b"))
    curves = edge_routes.edge_curves(g)
    spot = layout.free_spot(layout.occupied(g), SIZE, (x, y), curves=curves)
    room = (spot[0] - 11.9, spot[1] - 11.9, SIZE[0] + 23.8, SIZE[1] + 23.8)  # CURVE_GAP, less rounding
    assert not any(_meets(c, room) for c in curves)
    assert not any(placement._overlaps((*spot, *SIZE), r, (29.99, 29.99)) for r in layout.occupied(g))


@pytest.mark.parametrize("segment, rect, meets", [
    ([(0.0, 0.0), (100.0, 100.0)], (40.0, 40.0, 10.0, 10.0), True),  # passes through
    ([(0.0, 50.0), (100.0, 50.0)], (40.0, 40.0, 10.0, 20.0), True),  # across, no end inside
    ([(0.0, 0.0), (100.0, 0.0)], (40.0, 40.0, 10.0, 10.0), False),  # parallel, beside
    ([(0.0, 100.0), (100.0, 0.0)], (0.0, 0.0, 20.0, 20.0), False),  # the box meets, the line misses the corner
])
def test_a_curve_meets_a_rect_where_a_segment_enters_it(segment, rect, meets):
    assert placement._curve_meets(segment, rect) == meets
