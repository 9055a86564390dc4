"""The default graph the app opens: the chapter's z = (x * w).sum() + b, buildable headless."""


from core.nodegraph.files.examples import default_graph
from core.nodegraph.model.document import Graph


def test_default_graph_has_the_chapter_nodes_left_to_right():
    g = default_graph()
    types = [n.type for n in g.nodes.values()]
    assert sorted(types) == sorted(["source.tensor"] * 3 + ["math.mul", "reduce.sum", "math.add"])
    order = g.topological_order()
    assert order[-1] == "n6" and g.training["loss"] == "n6"
    xs = {n.id: n.position[0] for n in g.nodes.values()}
    for e in g.edges:
        assert xs[e.src] < xs[e.dst]


def test_default_graph_holds_x_w_b_requiring_grad():
    g = default_graph()
    params = {n.title: n.params for n in g.nodes.values() if n.type == "source.tensor"}
    assert params["x"]["tensor"] == [2.0, 3.0] and params["w"]["tensor"] == [1.5, -0.5]
    assert params["b"]["tensor"] == 0.1
    assert all(p["requires_grad"] for p in params.values())


def test_default_graph_round_trips_through_plain_data():
    g = default_graph()
    assert Graph.from_dict(g.to_dict()) == g
    assert default_graph() == g


def test_default_graph_evaluates_to_the_chapter_value():
    import core
    from core.nodegraph.model.spec import EvalContext

    g = default_graph()
    values = {}
    for nid in g.topological_order():
        node = g.nodes[nid]
        inputs = {e.dst_port: values[e.src] for e in g.inputs_of(nid).values()}
        out = node.spec.evaluate(EvalContext(node_id=nid), inputs, node.params)
        values[nid] = out["out"] if isinstance(out, dict) else out
    z = values["n6"]
    assert abs(float(z) - 1.6) < 1e-6
    z.backward()
    assert values["n1"].grad.tolist() == [1.5, -0.5]
    assert values["n2"].grad.tolist() == [2.0, 3.0]
    assert float(values["n3"].grad) == 1.0
    assert isinstance(z, core.Tensor)
