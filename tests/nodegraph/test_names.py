"""Learner-facing names: a node's title (or its type's title), a port key as title.port without 'out'."""

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.model.document import Graph, Node
from core.nodegraph.model.names import key_label, node_label, parameter_labels, port_label, split_key


def _graph():
    g = Graph()
    g.add_node(Node("n1", "source.tensor", {"tensor": [1.0]}, title="x"))
    g.add_node(Node("n2", "math.mul"))
    g.add_node(Node("n3", "layer.mlp", title="mlp"))
    return g


def test_a_node_is_named_by_its_title_else_by_its_types_title():
    g = _graph()
    assert node_label(g, "n1") == "x"
    assert node_label(g, "n2") == "mul"
    assert node_label(g, "gone") == "gone"


def test_a_port_key_reads_as_title_dot_port_without_out():
    g = _graph()
    assert key_label(g, "n1.out") == "x"
    assert key_label(g, "n2.grad") == "mul.grad"
    assert key_label(g, "n3.0.weight") == "mlp.0.weight"
    assert key_label(g, "n9.out") == "n9.out"


def test_a_key_splits_at_the_longest_node_id():
    g = _graph()
    g.add_node(Node("n3.0", "source.tensor", {"tensor": [1.0]}, title="inner"))
    assert split_key(g, "n3.0.out") == ("n3.0", "out")
    assert split_key(g, "n3.1.bias") == ("n3", "1.bias")


def test_without_a_graph_every_key_and_id_reads_as_it_is():
    assert key_label(None, "n1.out") == "n1.out"
    assert node_label(None, "n1") == "n1"
    assert split_key(None, "n1.out") == (None, "n1.out")


def test_a_node_type_titled_after_a_torch_function_spells_it_as_torch_does():
    """Default titles read as the code they stand for: torch.tensor and torch.randn are ``tensor`` and ``randn``
    (as ``mul`` and ``sum`` are), not ``Tensor``/``Randn``; classes keep their capital (``Linear``, ``Conv2d``)."""
    import core
    from core.nodegraph.model.spec import all_specs

    def torch_function(name: str) -> bool:
        found = getattr(core, name, None) or getattr(core.autograd, name, None)
        return callable(found) and not isinstance(found, type)

    respelled = {s.type_id: s.title for s in all_specs()  # the probes are the app's own (Gradient shows .grad)
                 if torch_function(s.title.lower()) and s.title != s.title.lower()
                 and not isinstance(getattr(core.nn, s.title, None), type) and s.category != "probe"}
    assert respelled == {}
    classes = {s.type_id: s.title for s in all_specs() if s.category == "layer"}
    assert all(isinstance(getattr(core.nn, t, None), type) for t in classes.values() if t != "MLP")


def test_a_parameter_is_named_by_its_nodes_title_unless_the_node_owns_several():
    g = _graph()
    g.add_node(Node("n9", "param.parameter", {"name": "w_cut"}, title="w_cut"))
    keys = ["n9.w_cut", "n3.0.weight", "n3.0.bias", "gone.w"]
    assert parameter_labels(g, keys) == {"n9.w_cut": "w_cut", "n3.0.weight": "mlp.0.weight",
                                         "n3.0.bias": "mlp.0.bias", "gone.w": "gone.w"}
    assert parameter_labels(g, ["n3.0.weight"]) == {"n3.0.weight": "mlp"}  # the one tensor of the layer named
    assert parameter_labels(None, ["n9.w_cut"]) == {"n9.w_cut": "n9.w_cut"}


def _block():
    """A layer titled model, a Parameter node titled w_cut and an untitled mul, collapsed after a forward into a
    block (the block's parameters carry the inner ids: ``n4.lin.weight``, ``n4.w.w``)."""
    from core.nodegraph.model import commands as cmd
    from core.nodegraph.run.session import Session

    g = Graph()
    for node in ({"id": "x", "type": "source.randn", "params": {"shape": [8, 3]}},
                 {"id": "lin", "type": "layer.linear", "title": "model",
                  "params": {"in_features": 3, "out_features": 2}},
                 {"id": "w", "type": "param.parameter", "title": "w_cut", "params": {"shape": [2]}},
                 {"id": "mul", "type": "math.mul"}):
        cmd.AddNode(node).do(g)
    for edge in (("x", "out", "lin", "x"), ("lin", "out", "mul", "a"), ("w", "out", "mul", "b")):
        cmd.Connect(*edge).do(g)
    s = Session(g)
    s.forward()
    collapse = cmd.Collapse(["lin", "w", "mul"], title="block")
    collapse.do(g)
    return g, s, collapse.node_id


def test_a_blocks_inner_parameters_read_by_their_inner_nodes_titles_not_their_ids():
    g, s, block = _block()
    assert sorted(port_label(g, block, p) for p in s.node_parameters(block)) == [
        "model.bias", "model.weight", "w_cut"]
    assert sorted(parameter_labels(g, s.parameters()).values()) == ["block.model.bias", "block.model.weight",
                                                                     "block.w_cut"]
    assert key_label(g, f"{block}.lin.weight") == "block.model.weight"


def test_a_blocks_own_port_and_an_unknown_inner_id_read_as_they_are():
    g, _s, block = _block()
    assert port_label(g, block, "out") == "out"
    assert port_label(g, block, "gone.weight") == "gone.weight"
    assert port_label(g, "x", "out") == "out"


def test_a_nested_blocks_parameters_read_through_every_level():
    from core.nodegraph.model import commands as cmd

    g, s, block = _block()
    outer = cmd.Collapse([block, "x"], title="outer")
    outer.do(g)
    s.forward()
    assert sorted(port_label(g, outer.node_id, p) for p in s.node_parameters(outer.node_id)) == [
        "block.model.bias", "block.model.weight", "block.w_cut"]


def test_an_untitled_parameter_node_in_a_block_written_without_its_defaults_reads_by_its_shown_title():
    """A block's inner Parameter node written without its ``name`` (its default ``w``), untitled: the canvas calls
    it Parameter, so its tensor reads ``block.Parameter``, not ``block.Parameter.w``."""
    g, s, block = _block()
    inner = g.nodes[block].graph
    for node in inner["nodes"]:
        if node["type"] == "param.parameter":
            node["title"] = None
            node["params"] = {k: v for k, v in node["params"].items() if k != "name"}
    assert port_label(g, block, "w.w") == "Parameter"
    assert parameter_labels(g, s.parameters())[f"{block}.w.w"] == "block.Parameter"
