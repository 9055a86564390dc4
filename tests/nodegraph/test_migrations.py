"""Old files migrate through ordered from -> to steps; one sample file per past version loads."""

import json
import pathlib

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files import migrations
from core.nodegraph.files.io import LoadError
from core.nodegraph.model.validation import validate

SAMPLES = pathlib.Path(__file__).parent / "samples"


def test_migrations_are_ordered_and_lead_to_the_current_version():
    assert sorted(migrations.MIGRATIONS) == list(range(1, migrations.CURRENT_VERSION))


@pytest.mark.parametrize("version", range(1, migrations.CURRENT_VERSION + 1))
def test_every_version_has_a_sample_file_that_loads(test_types, version):
    path = SAMPLES / f"graph_v{version}.json"
    assert json.loads(path.read_text())["version"] == version
    g = files.load(path)
    assert list(g.nodes) == ["n1", "n2", "n3", "n4"]
    assert set(validate(g)) == {"n4"}  # only the placeholder of a newer node type


def test_a_version_1_file_loads_like_its_current_version(test_types):
    old, new = files.load(SAMPLES / "graph_v1.json"), files.load(SAMPLES / "graph_v2.json")
    assert old == new
    assert old.nodes["n3"].position == (160.0, 40.0)
    assert [str(e) for e in old.edges] == ["n1.out -> n3.a", "n2.out -> n3.b", "n3.out -> n4.in"]
    assert old.nodes["n4"].extra == {"ports": ["in", "out"]} and old.training["optimizer"] == "Adam"


def test_saving_a_migrated_file_writes_the_current_version(test_types):
    g = files.load(SAMPLES / "graph_v1.json")
    data = json.loads(files.dumps(g))
    assert data["version"] == migrations.CURRENT_VERSION
    assert data["node_types"]["future.widget"] == 3


def test_version_1_migration_converts_subgraph_inner_graphs_too():
    v1 = {"version": 1, "nodes": [{"id": "s", "type": "graph.subgraph", "position": {"x": 1, "y": 2},
                                   "graph": {"nodes": [{"id": "a", "type": "x", "position": {"x": 3, "y": 4}}],
                                             "edges": ["a.out -> a.in"]}}], "edges": []}
    v2 = migrations.v1_to_v2(v1)
    assert v2["version"] == 2 and v2["nodes"][0]["position"] == [1, 2]
    assert v2["nodes"][0]["graph"]["nodes"][0]["position"] == [3, 4]
    assert v2["nodes"][0]["graph"]["edges"] == [{"from": ["a", "out"], "to": ["a", "in"]}]


@pytest.mark.parametrize(("change", "message"), [
    ({"edges": [3]}, "edges[0]: a version 1 edge must be a string"),
    ({"edges": ["n1.out -> "]}, "edges[0]: can't read edge"),
    ({"nodes": [{"id": "n1", "position": "1, 2"}]}, "nodes[0].position: a version 1 position must be an object"),
])
def test_unreadable_version_1_files_are_refused_naming_the_field(change, message):
    data = {"format": "nodegrad-graph", "version": 1, "nodes": [], "edges": [], **change}
    with pytest.raises(LoadError, match=message.replace("[", r"\[").replace("]", r"\]")):
        files.loads(json.dumps(data))


def test_a_version_1_file_already_in_the_version_2_shapes_loads(test_types):
    data = json.loads((SAMPLES / "graph_v2.json").read_text())
    data["version"] = 1
    assert files.loads(json.dumps(data)) == files.load(SAMPLES / "graph_v2.json")


def test_a_node_type_of_an_older_version_is_migrated_before_its_parameters_are_checked():
    from core.nodegraph.model.spec import NodeSpec, Param, register, unregister

    register(NodeSpec("tmp.scaled", "tmp", "Scaled", "v2 renamed 'factor' to 'scale'", lambda c, i, p: p["scale"],
                      params=(Param("scale", "float", 1.0),), version=2))

    def factor_to_scale(node):
        params = dict(node.get("params", {}))
        params["scale"] = params.pop("factor", 1.0)
        return {**node, "params": params}

    migrations.register_node_migration("tmp.scaled", 1, factor_to_scale)
    try:
        data = {"format": "nodegrad-graph", "version": 2, "node_types": {"tmp.scaled": 1},
                "nodes": [{"id": "n1", "type": "tmp.scaled", "params": {"factor": 3.0}},
                          {"id": "n2", "type": "graph.subgraph", "graph": {
                              "nodes": [{"id": "n1", "type": "tmp.scaled", "params": {"factor": 4.0}}],
                              "edges": [], "inputs": [], "outputs": [{"name": "out", "from": ["n1", "out"]}]}}],
                "edges": []}
        g = files.loads(json.dumps(data))
        assert g.nodes["n1"].params == {"scale": 3.0}
        assert g.nodes["n2"].graph["nodes"][0]["params"] == {"scale": 4.0}
        assert json.loads(files.dumps(g))["node_types"]["tmp.scaled"] == 2
        data["node_types"]["tmp.scaled"] = 2  # a current file is not migrated: 'factor' is refused
        with pytest.raises(LoadError, match="has no parameter 'factor'"):
            files.loads(json.dumps(data))
    finally:
        migrations.NODE_MIGRATIONS.pop(("tmp.scaled", 1))
        unregister("tmp.scaled")
