"""Properties of arranging and placing nodes, over random DAGs: laid-out nodes never overlap, and new
nodes find room clear of the nodes already there."""

from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from core.nodegraph.model import layout
from core.nodegraph.model.document import Edge, Graph, Node
from tests.hypothesis_profiles import fuzz_settings

FIXTURE_OK = fuzz_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def dags(draw):
    """A graph of test.value sources and test.add nodes fed by earlier nodes, at random places, with
    random drawn heights for some nodes (taller than the model, as a node with an error message is)."""
    n = draw(st.integers(1, 14))
    g, sizes = Graph(), {}
    coords = st.floats(-500, 500, allow_nan=False)
    for i in range(n):
        nid = f"n{i}"
        is_add = i > 0 and draw(st.booleans())
        g.add_node(Node(nid, "test.add" if is_add else "test.value", {}, (draw(coords), draw(coords))))
        if is_add:
            for port in ("a", "b"):
                if draw(st.booleans()):
                    g.connect(Edge(f"n{draw(st.integers(0, i - 1))}", "out", nid, port))
        if draw(st.booleans()):
            sizes[nid] = (draw(st.floats(100, 260)), draw(st.floats(40, 320)))
    return g, sizes


def rects_of(graph, positions, sizes):
    out = {}
    for nid, (x, y) in positions.items():
        model = layout.node_size(graph.node(nid))
        w, h = sizes.get(nid, model)
        out[nid] = (x, y, max(w, model[0]), max(h, model[1]))
    return out


def overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@FIXTURE_OK
@given(dags())
def test_auto_layout_never_puts_two_nodes_on_top_of_each_other(test_types, case):
    graph, sizes = case
    rects = list(rects_of(graph, layout.layered(graph, sizes=sizes), sizes).values())
    assert len(rects) == len(graph.nodes)
    assert not any(overlap(a, b) for i, a in enumerate(rects) for b in rects[i + 1:])


@FIXTURE_OK
@given(dags())
def test_every_node_sits_right_of_all_its_inputs_after_auto_layout(test_types, case):
    graph, sizes = case
    rects = rects_of(graph, layout.layered(graph, sizes=sizes), sizes)
    for e in graph.edges:
        assert rects[e.src][0] + rects[e.src][2] < rects[e.dst][0]


@FIXTURE_OK
@given(dags(), st.data())
def test_a_laid_out_selection_keeps_clear_of_itself_and_leaves_the_rest_alone(test_types, case, data):
    graph, sizes = case
    chosen = data.draw(st.lists(st.sampled_from(sorted(graph.nodes)), min_size=1, unique=True))
    positions = layout.layered(graph, chosen, sizes=sizes)
    assert set(positions) == set(chosen)
    rects = list(rects_of(graph, positions, sizes).values())
    assert not any(overlap(a, b) for i, a in enumerate(rects) for b in rects[i + 1:])


@FIXTURE_OK
@given(dags(), st.floats(-600, 600), st.floats(-600, 600), st.floats(20, 400), st.floats(20, 400))
def test_a_free_spot_keeps_its_gap_from_every_node(test_types, case, x, y, w, h):
    graph, sizes = case
    taken = layout.occupied(graph, sizes)
    spot = layout.free_spot(taken, (w, h), (x, y))
    mine = (spot[0] - 29.999, spot[1] - 29.999, w + 59.998, h + 59.998)  # the gap, less rounding
    assert not any(overlap(mine, r) for r in taken)


def test_a_free_spot_is_the_wanted_point_when_nothing_is_there(test_types):
    g = Graph()
    g.add_node(Node("far", "test.value", {}, (2000.0, 2000.0)))
    assert layout.free_spot(layout.occupied(g), (190, 80), (10.0, 20.0)) == (10.0, 20.0)


def test_a_node_wanted_on_top_of_another_moves_the_shortest_way_clear_of_it(test_types):
    g = Graph()
    g.add_node(Node("a", "test.value", {}, (0.0, 0.0)))
    w, h = layout.node_size(g.node("a"))
    assert layout.free_spot(layout.occupied(g), (w, h), (10.0, 0.0)) == (10.0, -h - 30)  # above: nearer than beside
    assert layout.free_spot(layout.occupied(g), (w, h), (10.0, 50.0)) == (10.0, h + 30)  # below
    assert layout.free_spot(layout.occupied(g), (w, 20), (150.0, 30.0)) == (w + 30, 30.0)  # beside


def test_a_pasted_fragment_moves_as_a_block_to_the_nearest_free_place(test_types):
    g = Graph()
    g.add_node(Node("a", "test.value", {}, (0.0, 0.0)))
    fragment = {"nodes": [{"id": "x", "type": "test.value", "position": [0, 0]},
                          {"id": "y", "type": "test.add", "position": [250, 0]}], "edges": []}
    dx, dy = layout.free_offset(g, fragment, (0.0, 0.0))
    assert (dx, dy) != (0.0, 0.0)
    moved = [(x + dx, y + dy, *layout.node_size(Node.from_dict(n)))
             for n in fragment["nodes"] for x, y in [n["position"]]]
    assert not any(overlap(r, layout.occupied(g)[0]) for r in moved)
    assert layout.free_offset(Graph(), fragment, (5.0, 7.0)) == (5.0, 7.0)


@FIXTURE_OK
@given(dags(), st.data())
def test_a_laid_out_selection_moved_clear_of_the_rest_overlaps_nothing(test_types, case, data):
    graph, sizes = case
    spread = layout.layered(graph, sizes=sizes)  # the rest sits apart already
    for nid, p in spread.items():
        graph.node(nid).position = p
    chosen = data.draw(st.lists(st.sampled_from(sorted(graph.nodes)), min_size=1, unique=True))
    moved = layout.clear_of_others(graph, layout.layered(graph, chosen, sizes=sizes), sizes)
    places = {n: moved.get(n, graph.node(n).position) for n in graph.nodes}
    rects = list(rects_of(graph, places, sizes).values())
    assert not any(overlap(a, b) for i, a in enumerate(rects) for b in rects[i + 1:])
