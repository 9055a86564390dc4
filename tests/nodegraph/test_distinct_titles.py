"""A node a user adds beside another of its type reads differently: ``randn``, then ``randn_2`` (the name an exported
script gives its variable), so the canvas, the status bar and the history can tell them apart."""

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.export.script import export_script
from core.nodegraph.files.io import dumps, loads
from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from core.nodegraph.model.names import node_label


def _add(g: Graph, type_id: str, **node) -> commands.AddNode:
    cmd = commands.AddNode({"type": type_id, "position": [0.0, 0.0], **node}, distinct=True)
    cmd.do(g)
    return cmd


def test_a_second_node_of_a_type_is_titled_with_the_next_free_label():
    g = Graph()
    first, second, third = (_add(g, "source.randn") for _ in range(3))
    labels = [node_label(g, c.node["id"]) for c in (first, second, third)]
    assert labels == ["randn", "randn_2", "randn_3"]
    assert g.node(first.node["id"]).title is None
    assert second.text == "Add node randn_2"


def test_a_label_taken_by_a_title_counts_and_a_given_title_is_kept():
    g = Graph()
    _add(g, "source.randn", title="randn_2")
    assert node_label(g, _add(g, "source.randn").node["id"]) == "randn"
    assert node_label(g, _add(g, "source.randn").node["id"]) == "randn_3"
    assert node_label(g, _add(g, "source.randn", title="x").node["id"]) == "x"
    assert node_label(g, _add(g, "source.randn", title="x").node["id"]) == "x"


def test_undo_removes_the_node_and_redo_brings_back_the_same_title():
    g = Graph()
    _add(g, "math.mul")
    second = _add(g, "math.mul")
    before = g.to_dict()
    second.undo(g)
    assert [node_label(g, n) for n in g.nodes] == ["mul"]
    second.do(g)
    assert g.to_dict() == before


def test_without_distinct_a_script_adds_untitled_nodes_as_before():
    g = Graph()
    for _ in range(2):
        commands.AddNode({"type": "source.randn"}).do(g)
    assert [n.title for n in g.nodes.values()] == [None, None]


def test_the_titles_survive_a_save_and_load_and_name_the_exported_variables():
    g = Graph()
    _add(g, "source.randn", params={"shape": [3]})
    _add(g, "source.randn", params={"shape": [3]})
    loaded = loads(dumps(g))
    assert [node_label(loaded, n) for n in loaded.nodes] == ["randn", "randn_2"]
    script = export_script(loaded)
    assert "randn = " in script and "randn_2 = " in script


def test_adding_a_node_of_any_kind_is_named_add_node_and_its_label():
    """The history and the status bar said "Add add" for an add node (and "Add mul", "Add sum"...): the word node
    now sets the label apart, for every kind the library offers."""
    from core.nodegraph.model.spec import all_specs
    from core.nodegraph.model.subgraph import SUBGRAPH_SPEC

    texts = {}
    for spec in all_specs():
        if spec is SUBGRAPH_SPEC:  # not in the library: a block is made by collapsing nodes, with its inside
            continue
        g = Graph()
        cmd = _add(g, spec.type_id)
        texts[spec.type_id] = (cmd.text, f"Add node {node_label(g, cmd.node['id'])}")
    assert len(texts) > 100 and texts["math.add"][0] == "Add node add"
    assert all(text == expected for text, expected in texts.values())
