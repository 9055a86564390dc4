"""A graph file (or pasted fragment) with a key twice in one object is refused, naming the key, its line and column
and the object's field path, instead of opening as whichever came last (json's own choice, silent)."""

import json

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.io import LoadError
from core.nodegraph.run.session import Session
from tests.nodegraph.graph_helpers import linear_graph, tensor_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("tensor_types")

# (what the saved text holds, what it gets instead: the repeat written right after it, field path of its object)
REPEATS = {
    "two nodes lists": ('"nodes": [', '"nodes": [], "nodes": [', ""),
    "a node with two types": ('"type": "tt.add"', '"type": "tt.add", "type": "tt.sum"', "nodes[4]"),
    "two params objects": ('"params": {"tensor": [[1.0, 2.0]', '"params": {}, "params": {"tensor": [[1.0, 2.0]',
                           "nodes[0]"),
    "an escaped spelling of the same key": ('"id": "n4"', '"id": "n4", "\\u0069d": "n9"', "nodes[3]"),
    "a training setting twice": ('"steps": 100', '"steps": 100, "steps": 5', "training"),
    "a view setting twice": ('"zoom": 1.0', '"zoom": 1.0, "zoom": 2.0', "view"),
}


def _with_repeat(original: str, repeat: str) -> tuple[str, int]:
    """The saved text of the linear graph with one key repeated, and the offset of the repeat's second key."""
    text = files.dumps(linear_graph())
    assert text.count(original) == 1
    at = text.index(original)
    key = original[:original.index(":")]
    return text.replace(original, repeat), at + repeat.index('"', repeat.index(",", len(key)))


@pytest.mark.parametrize("name", REPEATS)
def test_a_key_repeated_in_an_object_is_refused_with_its_line_column_and_field_path(name):
    original, repeat, path = REPEATS[name]
    text, at = _with_repeat(original, repeat)
    where = json.JSONDecodeError("", text, at)  # json's own line and column of that offset
    key = json.loads(original[:original.index(":")])
    with pytest.raises(LoadError) as info:
        files.loads(text)
    message = str(info.value)
    assert f'the key "{key}" appears twice' in message
    assert f"line {where.lineno} column {where.colno}" in message
    assert message.startswith(f"{path}: " if path else "the key")
    assert "Error" not in message and "Traceback" not in message


def test_a_file_with_a_repeated_key_leaves_the_open_document_and_the_file_as_they_were(tmp_path):
    graph = linear_graph()
    session = Session(graph)
    session.forward()
    before = files.dumps(graph)
    text, _ = _with_repeat(*REPEATS["a node with two types"][:2])
    path = tmp_path / "merged.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LoadError, match='"type" appears twice'):
        files.load(path)
    assert files.dumps(graph) == before
    assert path.read_text(encoding="utf-8") == text


def test_the_first_repeat_in_reading_order_is_named_when_an_outer_key_repeats_around_an_inner_one():
    text = '{"format": "nodegrad-graph", "version": 4, "a": 1, "a": {"b": 1, "b": 2}}'
    with pytest.raises(LoadError, match=r'^the key "a" appears twice .*line 1 column 52\)'):
        files.loads(text)


def test_a_pasted_fragment_with_a_repeated_key_is_refused_like_a_file():
    text = files.dumps_fragment(linear_graph(), ["n1", "n2"]).replace('"id": "n1"', '"id": "n1", "id": "n2"')
    with pytest.raises(LoadError, match=r'^nodes\[0\]: the key "id" appears twice'):
        files.loads_fragment(text)


def test_equal_keys_in_different_objects_load_and_save_back_unchanged():
    text = files.dumps(linear_graph())  # every node has "id", "type", "params"...
    assert files.dumps(files.loads(text)) == text
