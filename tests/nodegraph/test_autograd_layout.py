"""The layered layout of the autograd graph and the rows it draws, headless."""

import random

import core
from core.nodegraph.explain.autograd_layout import layout_autograd
from core.nodegraph.explain.autograd_rows import autograd_graph
from core.nodegraph.files.examples import default_graph
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session


def _rows(graph):
    s = Session(graph)
    s.forward()
    return s, autograd_graph(s)


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _assert_well_formed(rows, lay):
    assert len(lay.boxes) == len(lay.layers) == len(rows)
    for i, a in enumerate(lay.boxes):
        assert all(not _overlap(a, b) for b in lay.boxes[i + 1:])
    for e in lay.edges:
        assert lay.layers[e["dst"]] > lay.layers[e["src"]]
        ys = [y for _, y in e["points"]]
        assert ys == sorted(ys) and ys[0] < ys[-1]
        src, dst = lay.boxes[e["src"]], lay.boxes[e["dst"]]
        assert e["points"][0] == (src[0] + src[2] / 2, src[1] + src[3])
        assert e["points"][-1] == (dst[0] + dst[2] / 2, dst[1])
        for x, y in e["points"][1:-1]:  # a long edge's waypoints never run through a box
            assert not any(b[0] <= x <= b[0] + b[2] and b[1] < y < b[1] + b[3] for b in lay.boxes)
    assert {(e["src"], e["dst"]) for e in lay.edges} == {(i, j) for i, r in enumerate(rows) for j in r["next"]}


def test_the_chapters_graph_has_add_above_sum_above_mul_above_the_leaves():
    _, rows = _rows(default_graph())
    lay = layout_autograd(rows)
    layer = {(r["name"], r["owner"]): lay.layers[i] for i, r in enumerate(rows)}
    add, sum_, mul = layer[("AddBackward0", "n6")], layer[("SumBackward0", "n5")], layer[("MulBackward0", "n4")]
    assert add == 0 and add < sum_ < mul < layer[("AccumulateGrad", "n1")] == layer[("AccumulateGrad", "n2")]
    assert add < layer[("AccumulateGrad", "n3")]
    _assert_well_formed(rows, lay)


def test_the_main_chain_runs_straight_down_and_leaves_step_aside():
    _, rows = _rows(default_graph())
    lay = layout_autograd(rows)
    centre = {r["name"]: lay.boxes[i][0] + lay.boxes[i][2] / 2
              for i, r in enumerate(rows) if r["name"] != "AccumulateGrad"}
    assert centre["AddBackward0"] == centre["SumBackward0"] == centre["MulBackward0"]


def test_leaves_can_all_go_to_the_bottom_layer():
    _, rows = _rows(default_graph())
    lay = layout_autograd(rows, leaves_at_bottom=True)
    bottom = max(lay.layers)
    assert all(lay.layers[i] == bottom for i, r in enumerate(rows) if r["name"] == "AccumulateGrad")
    long_edge = next(e for e in lay.edges if rows[e["dst"]]["owner"] == "n3")
    assert len(long_edge["points"]) == 2 + 2 * (bottom - 1)  # a waypoint pair in every layer it crosses
    _assert_well_formed(rows, lay)


def test_the_layout_is_deterministic_and_uses_the_given_box_widths():
    _, rows = _rows(classifier_graph("spiral"))
    _, again = _rows(classifier_graph("spiral"))
    widths = [40.0 + 10 * len(r["name"]) for r in rows]
    first, second = layout_autograd(rows, widths), layout_autograd(again, widths)
    assert first == second
    assert [b[2] for b in first.boxes] == widths and first.size[0] >= max(widths)
    _assert_well_formed(rows, first)
    _assert_well_formed(rows, layout_autograd(rows, widths, leaves_at_bottom=True))


def test_a_node_sending_twice_to_the_same_leaf_draws_one_edge_counted_twice():
    g = Graph()
    g.add_node(Node("x", "source.tensor", {"tensor": [1.0, 2.0], "requires_grad": True}))
    g.add_node(Node("sq", "math.mul", {}, (200.0, 0.0)))
    g.add_node(Node("s", "reduce.sum", {}, (400.0, 0.0)))
    g.connect(Edge("x", "out", "sq", "a"))
    g.connect(Edge("x", "out", "sq", "b"))
    g.connect(Edge("sq", "out", "s", "x"))
    _, rows = _rows(g)
    lay = layout_autograd(rows)
    mul = [r["name"] for r in rows].index("MulBackward0")
    (edge,) = [e for e in lay.edges if e["src"] == mul]
    assert edge["count"] == 2 and rows[edge["dst"]]["name"] == "AccumulateGrad"


def test_no_rows_lay_out_to_nothing():
    lay = layout_autograd([])
    assert lay.boxes == [] and lay.edges == [] and lay.size == (0.0, 0.0)


def test_rows_say_what_each_node_saved_and_which_leaf_it_fills_even_after_backward():
    s, rows = _rows(default_graph())
    mul = next(r for r in rows if r["name"] == "MulBackward0")
    assert mul["saved"] == ["w: (2,) float32 [ 1.5000, -0.5000]", "x: (2,) float32 [2., 3.]"] and not mul["freed"]
    leaves = {r["owner"]: r["leaf"] for r in rows if r["name"] == "AccumulateGrad"}
    assert leaves == {"n1": "x: (2,) float32 [2., 3.]", "n2": "w: (2,) float32 [ 1.5000, -0.5000]",
                      "n3": "b: () float32 0.1000"}  # as print(x), print(w), print(b) write them
    assert all(r["leaf"] is None for r in rows if r["name"] != "AccumulateGrad")
    s.backward()
    mul = next(r for r in autograd_graph(s) if r["name"] == "MulBackward0")
    assert mul["freed"] and mul["saved"][1].startswith("x: (2,)")  # PyTorch's order: other, then self


def test_a_node_that_saved_its_own_output_says_so():
    g = Graph()
    g.add_node(Node("x", "source.tensor", {"tensor": [0.0, 1.0], "requires_grad": True}))
    g.add_node(Node("e", "math.exp", {}, (200.0, 0.0)))
    g.add_node(Node("s", "reduce.sum", {}, (400.0, 0.0)))
    g.connect(Edge("x", "out", "e", "x"))
    g.connect(Edge("e", "out", "s", "x"))
    _, rows = _rows(g)
    exp = next(r for r in rows if r["name"] == "ExpBackward0")
    expected = core.exp(core.tensor([0.0, 1.0]))
    assert exp["saved"] == [f"its own output: (2,) float32 [1.0000, {expected[1].item():.4f}]"]


def test_rows_come_in_the_order_the_backward_steps_run_them():
    s, rows = _rows(classifier_graph("spiral"))
    steps = []
    s.subscribe(lambda e: steps.append((e.detail.get("autograd_node"), e.node)) if e.phase == "backward" else None)
    s.backward()
    assert [step for step in steps if step[0]] == [(r["name"], r["owner"]) for r in rows]


def test_a_tangled_graph_still_has_no_overlaps_and_every_edge_going_down():
    rng = random.Random(0)
    n = 60
    rows = [{"next": sorted(rng.sample(range(i + 1, n), min(rng.randint(1, 3), n - i - 1)))} for i in range(n)]
    widths = [rng.uniform(60, 200) for _ in range(n)]
    for bottom in (False, True):
        lay = layout_autograd(rows, widths, leaves_at_bottom=bottom)
        _assert_well_formed(rows, lay)
        assert lay == layout_autograd(rows, widths, leaves_at_bottom=bottom)
