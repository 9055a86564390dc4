"""The clipboard's fragment check (files.loads_fragment) refuses what a file could not hold, with the loader's
message: whatever enters a document through Paste could be saved and opened again."""

import json

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.io import LoadError
from core.nodegraph.model.document import Graph


def _node(**fields) -> dict:
    return {"id": "n1", "type": "source.tensor", "params": {}, "position": [0.0, 0.0], **fields}


@pytest.mark.parametrize("text, message", [
    ('{"nodes": [{"id": "n1", "type": "source.tensor", "params": {}, "position": [NaN, Infinity]}], "edges": []}',
     "nodes[0].position[0]: must be a finite number"),
    (json.dumps({"nodes": [_node(title="t" * 5_000_000)], "edges": []}), "nodes[0].title: longer than 1000"),
    (json.dumps({"nodes": [_node(type="graph.subgraph", graph={"nodes": [
        {"id": "i1", "type": "source.zeros", "params": {"shape": [30000, 30000]}}], "edges": []})], "edges": []}),
     "nodes[0].graph.nodes[0].params: parameter 'shape' is too large"),
    ("[" * 100_000, "JSON nested too deeply"),
    ('{"nodes": [], "edges": [], "inputs": ["\\ud800"]}', "inputs[0]: holds a lone surrogate"),
])
def test_a_fragment_a_file_could_not_hold_is_refused_with_the_loaders_message(text, message):
    with pytest.raises(LoadError) as info:
        files.loads_fragment(text)
    assert str(info.value).startswith(message) and len(str(info.value)) < 400


def test_what_the_fragment_check_accepts_pastes_saves_and_loads_again():
    from core.nodegraph.model.commands import Paste

    frag = files.loads_fragment(json.dumps({"nodes": [_node(params={"tensor": [1.5, 2.0]}, title="x \N{BULLET}")],
                                            "edges": []}))
    g = Graph()
    Paste(frag, (10.0, 10.0)).do(g)
    assert files.loads(files.dumps(g)) == g
