"""A sweep of what goes wrong in graph files, kind by kind: each bad file gives ONE clear message or a whole document.

Hypothesis picks a shipped example (or one with a subgraph and a group) and one kind of damage: a value of the wrong
type at any level (a number as text, a list as an object and back, null, NaN and Infinity literals, huge integers,
arrays nested thousands deep, very long text), an unknown node type, two nodes with one id, an edge to a port the
node lacks, an edge that closes a cycle, a group that holds itself or another group, a subgraph whose inner node has
its own id. Loading either refuses with one ``LoadError`` whose text is a sentence for the user (one line, no
Python exception or type name in it, nothing of Python's own advice), or gives the whole document: every node,
edge and group the file holds, which saves and loads back the same.
"""

import copy
import json
import re

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types the examples use
from core.nodegraph.files import io as files
from core.nodegraph.files.io import LoadError
from core.nodegraph.lessons import texts as lessons
from core.nodegraph.model import commands as cmd
from tests.hypothesis_profiles import fuzz_settings

EXAMPLES = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(lessons.EXAMPLES_DIR.glob("*.json"))]
FUZZ = fuzz_settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.data_too_large])
# what a user must never read in a refusal: Python's exception and type names, its reprs and its advice
INTERNALS = re.compile(r"\b\w*(Error|Exception|Warning)\b|Traceback|NoneType|\bdict\b|\bstr\b|'(list|int|float|"
                       r"tuple)'|subscriptable|unhashable|has no attribute|positional argument|object at 0x|<class|"
                       r"sys\.\w+|\w\(\)")


def _grouped() -> dict:
    """An example with a subgraph (two nodes collapsed) and a group around it and another node."""
    g = files.loads(json.dumps(EXAMPLES[3]))
    ids = list(g.nodes)
    collapse = cmd.Collapse(ids[1:3])
    collapse.do(g)
    cmd.AddComment({"text": "block", "nodes": [collapse.node_id, ids[0]]}).do(g)
    return files.to_file_dict(g)


BASES = [*EXAMPLES, _grouped()]


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


# a wrong value for what was there; text stands in the JSON as it is (literals json.dumps would not write)
def _retyped(value, kind: str, n: int):
    if kind == "number as text":
        return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else "1.5"
    if kind == "list as object":
        return {str(i): v for i, v in enumerate(value)} if isinstance(value, list) else {"0": value}
    if kind == "object as list":
        return list(value.values()) if isinstance(value, dict) else [value]
    return {"null": None, "NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf"),
            "long text": "x" * (n * 400)}[kind]


RETYPES = ["number as text", "list as object", "object as list", "null", "NaN", "Infinity", "-Infinity", "huge int",
           "huge negative int", "long text"]
RAW = "<<raw text>>"


def _retype(data: dict, draw) -> str:
    path = draw(st.sampled_from(list(_paths(data))[1:]))
    kind = draw(st.sampled_from([*RETYPES, "deep array"]))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    n = draw(st.sampled_from([20, 300, 4299, 4301, 20_000]))
    raw = {"deep array": _nested(draw(st.sampled_from([50, 1000, 100_000]))), "huge int": "1" + "0" * n,
           "huge negative int": "-9" + "9" * n}.get(kind)  # written as text: json.dumps refuses such ints
    parent[path[-1]] = RAW if raw is not None else _retyped(parent[path[-1]], kind, n)
    return json.dumps(data).replace(json.dumps(RAW), raw or "")


def _all_nodes(data: dict) -> list[dict]:
    out, todo = [], [data]
    while todo:
        graph = todo.pop()
        for nd in graph["nodes"]:
            out.append(nd)
            if isinstance(nd.get("graph"), dict):
                todo.append(nd["graph"])
    return out


def _damage(data: dict, kind: str, draw) -> None:
    """One structural fault of ``kind`` in ``data`` (changed in place)."""
    nodes = data["nodes"]
    node = draw(st.sampled_from(_all_nodes(data)))
    if kind == "unknown node type":
        node["type"] = draw(st.sampled_from(["no.such.op", "math.nope", "", "graph.subgraph", "x" * 300]))
    elif kind == "duplicate node id":
        node["id"] = draw(st.sampled_from([nd["id"] for nd in nodes]))
    elif kind == "edge to a missing port":
        edge = draw(st.sampled_from(data["edges"]))
        end = draw(st.sampled_from(["from", "to"]))
        edge[end] = [edge[end][0], draw(st.sampled_from(["nope", "", "out2", "x" * 300]))]
    elif kind == "cycle":
        edge = draw(st.sampled_from(data["edges"]))
        data["edges"].append({"from": [edge["to"][0], "out"], "to": list(edge["from"][:1]) + ["a"]})
        data["edges"].append({"from": [edge["to"][0], "out"], "to": [edge["to"][0], edge["to"][1]]})
        del data["edges"][draw(st.sampled_from([-1, -2]))]
    elif kind == "group holding itself":
        comments = data.setdefault("comments", [])
        if not comments:
            comments.append({"id": "c1", "text": "", "rect": [0, 0, 10, 10], "nodes": [nodes[0]["id"]]})
        group = draw(st.sampled_from(comments))
        group["nodes"].append(draw(st.sampled_from([c["id"] for c in comments])))
    else:  # a subgraph node holding a node with its own id (or the group itself as an inner node)
        subs = [nd for nd in _all_nodes(data) if isinstance(nd.get("graph"), dict)]
        if subs:
            sub = draw(st.sampled_from(subs))
            inner = sub["graph"]["nodes"]
            if draw(st.booleans()):
                inner[0]["id"] = sub["id"]
            else:
                inner.append(copy.deepcopy(sub))


STRUCTURAL = ["unknown node type", "duplicate node id", "edge to a missing port", "cycle", "group holding itself",
              "subgraph holding itself"]


def _assert_clear(message: str) -> None:
    assert message and "\n" not in message and len(message) < 600, message[:300]
    assert not INTERNALS.search(message), message[:300]


def _assert_whole(g, text: str) -> None:
    """The document holds everything the file does, and saves and loads back the same."""
    data = json.loads(text)
    assert list(g.nodes) == [nd["id"] for nd in data["nodes"]]
    assert len(g.edges) == len(data["edges"])
    assert list(g.comments) == [c["id"] for c in data.get("comments", [])]
    assert files.dumps(files.loads(files.dumps(g))) == files.dumps(g)


def _outcome(text: str):
    """The loaded graph, or the refusal's message (anything else raised fails the test)."""
    try:
        return files.loads(text)
    except LoadError as exc:
        return str(exc)


@FUZZ
@given(base=st.sampled_from(range(len(BASES))), data=st.data())
def test_a_value_of_the_wrong_type_anywhere_is_refused_clearly_or_loads_whole(base, data):
    text = _retype(copy.deepcopy(BASES[base]), data.draw)
    got = _outcome(text)
    if isinstance(got, str):
        _assert_clear(got)
    else:
        _assert_whole(got, text)


@FUZZ
@given(base=st.sampled_from(range(len(BASES))), kind=st.sampled_from(STRUCTURAL), data=st.data())
def test_a_structural_fault_is_refused_clearly_or_loads_whole(base, kind, data):
    doc = copy.deepcopy(BASES[base])
    _damage(doc, kind, data.draw)
    text = json.dumps(doc)
    got = _outcome(text)
    if isinstance(got, str):
        _assert_clear(got)
    else:
        _assert_whole(got, text)


def _closing_a_cycle(doc: dict) -> None:
    """Feed the input of an edge ``A -> B`` from the output of a node ``C`` that ``B`` feeds: ``B -> C -> B``."""
    g = files.loads(json.dumps(doc))
    first, then = next((e, f) for e in g.edges for f in g.edges if f.src == e.dst)
    index = g.edges.index(first)
    doc["edges"][index]["from"] = [then.dst, g.nodes[then.dst].output_names()[0]]


@pytest.mark.parametrize(("kind", "said"), [("duplicate node id", "duplicate id"), ("cycle", "is part of a cycle"),
                                            ("group holding itself", "a group can't hold itself"),
                                            ("group holding a group", "is a group, not a node")])
def test_these_structural_faults_are_always_refused_saying_what_is_wrong(kind, said):
    doc = copy.deepcopy(BASES[-1])
    nodes, comments = doc["nodes"], doc["comments"]
    if kind == "duplicate node id":
        nodes[1]["id"] = nodes[0]["id"]
    elif kind == "cycle":
        _closing_a_cycle(doc)
    elif kind == "group holding itself":
        comments[0]["nodes"].append(comments[0]["id"])
    else:
        comments.append({"id": "c9", "text": "outer", "rect": [0, 0, 10, 10], "nodes": [comments[0]["id"]]})
    got = _outcome(json.dumps(doc))
    assert isinstance(got, str) and said in got
    _assert_clear(got)
