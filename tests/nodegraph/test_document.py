"""The graph document refuses bad edits with clear messages; every command's undo restores it exactly."""

import pytest

from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Edge, Graph, GraphError, Node


def _chain(test_types):
    g = Graph()
    for cid in ("n1", "n2"):
        cmd.AddNode({"id": cid, "type": "test.value", "params": {"value": 2.0}}).do(g)
    cmd.AddNode({"id": "n3", "type": "test.add", "position": [100, 0]}).do(g)
    cmd.Connect("n1", "out", "n3", "a").do(g)
    cmd.Connect("n2", "out", "n3", "b").do(g)
    return g


def test_nodes_get_validated_default_parameters(test_types):
    g = Graph()
    cmd.AddNode({"type": "test.value"}).do(g)
    assert g.nodes["n1"].params == {"value": 1.0}


def test_a_cycle_is_refused_naming_the_edge(test_types):
    g = _chain(test_types)
    cmd.AddNode({"id": "n4", "type": "test.add"}).do(g)
    cmd.Connect("n3", "out", "n4", "a").do(g)
    with pytest.raises(GraphError, match=r"n4.out -> n3.a would create a cycle"):
        g.connect(Edge("n4", "out", "n3", "a"))


def test_an_input_takes_one_edge_and_connect_replaces_it_undoably(test_types):
    from core.nodegraph.model.names import node_label

    g = _chain(test_types)
    with pytest.raises(GraphError, match="already has an edge"):
        g.connect(Edge("n2", "out", "n3", "a"))
    before = g.to_dict()
    old_src = g.inputs_of("n3")["a"].src
    c = cmd.Connect("n2", "out", "n3", "a")
    c.do(g)
    assert g.inputs_of("n3")["a"].src == "n2"
    assert c.text == f"Connect Value → Add.a (in place of {node_label(g, old_src)})"  # the edge that went, named
    c.undo(g)
    assert g.to_dict() == before
    assert not cmd.Connect("n2", "out", "n3", "b").text.endswith(")")  # nothing replaced, nothing said


@pytest.mark.parametrize(("edge", "message"), [
    (("n1", "nope", "n3", "a"), "has no output 'nope'"),
    (("n1", "out", "n3", "zz"), "has no input 'zz'"),
    (("n9", "out", "n3", "a"), "no node with id 'n9'"),
])
def test_bad_edges_are_refused_with_a_message(test_types, edge, message):
    g = _chain(test_types)
    with pytest.raises(GraphError, match=message):
        g.connect(Edge(*edge))


def test_bad_parameter_value_is_refused_and_nothing_changes(test_types):
    g = _chain(test_types)
    before = g.to_dict()
    with pytest.raises(GraphError, match="'value' must be a number"):
        cmd.SetParam("n1", "value", "abc").do(g)
    assert g.to_dict() == before


def _commands():
    return [
        cmd.AddNode({"type": "test.value", "params": {"value": 3.0}}),
        cmd.RemoveNodes(["n1"]),
        cmd.RemoveNodes(["n3", "n2"]),
        cmd.Connect("n2", "out", "n3", "a"),
        cmd.Disconnect("n1", "out", "n3", "a"),
        cmd.SetParam("n1", "value", 5),
        cmd.SetNodeAttr("n3", "title", "sum"),
        cmd.MoveNodes({"n1": (10, 20), "n2": (30, 40)}),
        cmd.AddComment({"text": "inputs", "nodes": ["n1", "n2"]}),
        cmd.RemoveComment("c1"),
        cmd.UpdateComment("c1", text="renamed"),
        cmd.SetTraining("steps", 7),
        cmd.Paste({"nodes": [{"id": "a", "type": "test.value"}, {"id": "b", "type": "test.add"}],
                   "edges": [{"from": ["a", "out"], "to": ["b", "a"]}]}),
        cmd.Macro("two", [cmd.SetParam("n1", "value", 9), cmd.MoveNodes({"n1": (1, 1)})]),
    ]


@pytest.mark.parametrize("index", range(len(_commands())))
def test_every_command_undo_restores_the_document_exactly(test_types, index):
    g = _chain(test_types)
    cmd.AddComment({"id": "c1", "text": "group", "nodes": ["n1", "n3"]}).do(g)
    before = g.to_dict()
    command = _commands()[index]
    command.do(g)
    assert g.to_dict() != before
    command.undo(g)
    assert g.to_dict() == before


def test_paste_gives_fresh_ids_and_keeps_internal_edges(test_types):
    g = _chain(test_types)
    frag = {"nodes": [g.nodes["n1"].to_dict(), g.nodes["n3"].to_dict()],
            "edges": [e.to_dict() for e in g.edges]}
    cmd.Paste(frag).do(g)
    assert set(g.nodes) == {"n1", "n2", "n3", "n4", "n5"}
    assert Edge("n4", "out", "n5", "a") in g.edges and len(g.edges) == 3


def test_a_pasted_node_with_a_title_the_graph_has_gets_the_next_free_one():
    """Copy x and paste: two nodes titled x read the same in every message (Watch, diagnostics, the status bar);
    the copy is x_2, as an exported script names it, and a parameter node's name follows its title."""
    import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
    from core.nodegraph.files.examples import default_graph
    from core.nodegraph.model.document import Node

    g = default_graph()
    g.add_node(Node("p1", "param.values", {"name": "w_2", "tensor": [1.0]}, title="w_2"))
    frag = {"nodes": [g.nodes["n1"].to_dict(), g.nodes["n2"].to_dict(), g.nodes["p1"].to_dict(),
                      g.nodes["n4"].to_dict()], "edges": [e.to_dict() for e in g.edges]}
    paste = cmd.Paste(frag)
    paste.do(g)
    titles = [g.nodes[paste.mapping[old]].title for old in ("n1", "n2", "p1", "n4")]
    assert titles == ["x_2", "w_3", "w_2_2", "xw_2"]  # w_2 is taken by p1 already
    assert g.nodes[paste.mapping["p1"]].params["name"] == "w_2_2"
    paste.undo(g)
    again = cmd.Paste({"nodes": [{"id": "q", "type": "math.add", "title": "fresh"}]})
    again.do(g)
    assert g.nodes[again.mapping["q"]].title == "fresh"  # a title nobody has stays


def test_a_failing_macro_leaves_nothing_behind(test_types):
    g = _chain(test_types)
    before = g.to_dict()
    with pytest.raises(GraphError):
        cmd.Macro("bad", [cmd.SetParam("n1", "value", 4), cmd.Connect("n3", "out", "n1", "a")]).do(g)
    assert g.to_dict() == before


def test_events_are_emitted_after_each_change(test_types):
    g = _chain(test_types)
    seen = []
    g.subscribe(seen.append)
    cmd.RemoveNodes(["n1"]).do(g)
    assert [e.kind for e in seen] == ["edge_removed", "node_removed"]


def test_topological_order_puts_inputs_first_and_keeps_document_order(test_types):
    g = _chain(test_types)
    assert g.topological_order() == ["n1", "n2", "n3"]
    assert g == Graph.from_dict(g.to_dict())


@pytest.mark.parametrize(("count", "verb", "text"), [(2, "Paste", "Paste 2 nodes"), (1, "Paste", "Paste 1 node"),
                                                      (3, "Insert x @ y", "Insert x @ y: 3 nodes"),
                                                      (2, "Duplicate", "Duplicate 2 nodes")])
def test_a_pasted_fragment_is_named_by_what_made_it(count, verb, text):
    """The undo history and the status bar say 'Insert x @ y: 3 nodes' for a typed formula, not 'Paste 3 nodes'."""
    fragment = {"nodes": [{"id": f"a{i}", "type": "test.value"} for i in range(count)], "edges": []}
    assert cmd.Paste(fragment, verb=verb).text == text


def test_a_placeholder_shows_the_ports_its_edges_name_and_a_known_node_its_types(test_types):
    g = _chain(test_types)
    g.add_node(Node(id="n9", type="future.widget"))  # a newer version's node type
    g.connect(Edge("n3", "out", "n9", "x"))
    g.connect(Edge("n1", "out", "n9", "w"))
    cmd.AddNode({"id": "n4", "type": "test.add"}).do(g)
    g.connect(Edge("n9", "y", "n4", "a"))
    assert g.port_names("n9") == (["x", "w"], ["y"])
    assert g.port_names("n3") == (g.nodes["n3"].input_names(), g.nodes["n3"].output_names())
    g.add_node(Node(id="n8", type="future.lonely"))
    assert g.port_names("n8") == ([], [])
