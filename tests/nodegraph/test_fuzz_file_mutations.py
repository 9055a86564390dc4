"""Hypothesis fuzzing of graph files: every example the app ships, mutated at the JSON and at the byte level.

Loading gives a graph or ONE ``LoadError`` with a short message; never another exception, never a huge
allocation (a huge shape is refused before anything is allocated). A graph that loads saves, loads back equal,
and runs forward, backward and a training step with every error kept on a node or in the step's metrics.
The seeded thousands of ``test_fuzz_files.py`` go on beside these; here hypothesis picks the edits and shrinks
what it finds.
"""

import copy
import json
import math
import os

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types the examples use
from core.nodegraph.files import io as files
from core.nodegraph.files.io import LoadError
from core.nodegraph.lessons import texts as lessons
from tests.hypothesis_profiles import fuzz_settings
from tests.nodegraph.fuzz_checks import runs_without_raising

PATHS = sorted(lessons.EXAMPLES_DIR.glob("*.json"))
TEXTS = [p.read_text(encoding="utf-8") for p in PATHS]
DATAS = [json.loads(t) for t in TEXTS]
FUZZ = fuzz_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.data_too_large])


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


NASTY = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 1, 2 ** 31, 2 ** 63, 2 ** 64, -(2 ** 63) - 1, 10 ** 400, 1e308,
                     -1e308, 5e-324, math.nan, math.inf, -math.inf, 0.5, -0.0, "", "1", "x" * 2000, "\ud800",
                     "\x00", [], {}, [[]], [100000, 100000], [2] * 40, [1] * 9, [0], [-1, 3], [3, -1],
                     [10 ** 9] * 3, [2 ** 62, 2 ** 62], ["n1", "out"], ["n1"], ["nope", "out"], "future.kind",
                     "graph.subgraph", "expr.expression", "source.randn", "n1", "n2", "out",
                     {"npy_base64": "AAAA"}, {"npy_base64": "k05VTVBZAQB2AHsnZGVzY3InOiAnPGY4Jy"},
                     {"$in": 0}, _nested(150), _nested(40)]),
    st.integers(), st.floats(), st.text(max_size=20),
    st.lists(st.integers(-5, 10 ** 6), max_size=10),
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


@st.composite
def json_mutants(draw) -> str:
    """An example with 1-3 edits: a value replaced, a key or item dropped or doubled, or a graph-level damage
    (duplicate ids, a dangling edge, a cycle, an unknown kind, another version)."""
    data = copy.deepcopy(DATAS[draw(st.integers(0, len(DATAS) - 1))])
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["replace", "drop", "double", "graph"]))
        if op == "graph":
            _graph_damage(data, draw)
            continue
        paths = list(_paths(data))[1:]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if op == "replace":
            parent[key] = copy.deepcopy(draw(NASTY))
        elif op == "drop":
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[f"{key}_2" if draw(st.booleans()) else draw(st.sampled_from(list(parent)))] = \
                copy.deepcopy(parent[key])
    return json.dumps(data, allow_nan=True)


def _graph_damage(data: dict, draw) -> None:
    nodes = data.get("nodes") if isinstance(data.get("nodes"), list) else []
    ids = [n["id"] for n in nodes if isinstance(n, dict) and "id" in n]
    kind = draw(st.sampled_from(["dup_id", "dangling", "cycle", "unknown", "version", "shape"]))
    if kind == "dup_id" and len(nodes) > 1 and isinstance(nodes[1], dict):
        nodes[1]["id"] = ids[0]
    elif kind == "dangling" and isinstance(data.get("edges"), list):
        data["edges"].append({"from": [draw(st.sampled_from(ids + ["gone"])), "out"], "to": ["gone", "x"]})
    elif kind == "cycle" and isinstance(data.get("edges"), list) and data["edges"]:
        e = data["edges"][-1]
        data["edges"].append({"from": [e["to"][0], "out"], "to": [e["from"][0], "x"]})
    elif kind == "unknown" and nodes and isinstance(nodes[0], dict):
        nodes[0]["type"] = draw(st.sampled_from(["future.widget", "", "source", "graph.subgraph", "x" * 300]))
    elif kind == "version":
        data["version"] = draw(st.sampled_from([0, -1, 1, 2, 3, 5, 99, 2 ** 70, "4", 4.0, None]))
    elif kind == "shape":
        for n in nodes:
            if isinstance(n, dict) and isinstance(n.get("params"), dict) and "shape" in n["params"]:
                n["params"]["shape"] = draw(st.sampled_from([[100000, 100000], [2] * 40, [7071, 7071],
                                                             [50_000_000], [2 ** 40], [0, 2 ** 62], [1] * 8]))


def _loads_or_refuses(text) -> object:
    try:
        return files.loads(text)
    except LoadError as exc:
        assert str(exc) and len(str(exc)) < 1000, str(exc)[:300]
        return None



@FUZZ
@given(text=json_mutants())
def test_json_mutants_of_the_examples_load_and_run_or_are_refused_with_one_load_error(text):
    g = _loads_or_refuses(text)
    if g is not None:
        runs_without_raising(g)


@FUZZ
@given(k=st.integers(0, len(TEXTS) - 1), data=st.data())
def test_byte_mutants_of_the_examples_load_and_run_or_are_refused_with_one_load_error(k, data):
    raw = bytearray(TEXTS[k].encode())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        op = data.draw(st.sampled_from(["set", "insert", "delete"]))
        if op == "set":
            raw[at] = data.draw(st.integers(0, 255))
        elif op == "insert":
            raw[at:at] = data.draw(st.binary(max_size=8) | st.sampled_from([b"\xff\xfe", b"\xc3", b"[" * 3000,
                                                                            b"1e999", b"NaN", b"-Infinity"]))
        else:
            del raw[at:at + data.draw(st.integers(1, 30))]
    g = _loads_or_refuses(bytes(raw))
    if g is not None:
        runs_without_raising(g)


def test_the_smallest_example_truncated_at_every_byte_is_refused_with_one_load_error():
    raw = min((t.encode() for t in TEXTS), key=len)
    for end in range(len(raw.rstrip())):  # the closing brace is the last byte that matters
        with pytest.raises(LoadError):
            files.loads(raw[:end])


@pytest.mark.parametrize("content", [b"", b" \n", b"\xef\xbb\xbf", b"\xff\xfe{\x00}\x00", b"null", b"[]", b"0",
                                     b'"x"', b"{}", b"\x00" * 10, "{}".encode("utf-16")])
def test_an_empty_or_foreign_file_is_refused_with_one_load_error(tmp_path, content):
    path = tmp_path / "g.json"
    path.write_bytes(content)
    with pytest.raises(LoadError) as err:
        files.load(path)
    assert str(err.value)


def test_a_directory_or_a_missing_path_is_refused_with_one_load_error(tmp_path):
    for path in (tmp_path, tmp_path / "missing.json", os.fspath(tmp_path) + "/"):
        with pytest.raises(LoadError, match="can't read"):
            files.load(path)
