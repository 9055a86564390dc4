"""Hostile input never escapes as a traceback: a script or a graph file the app can't take gets one clear message
that says why (and where), and nothing the user had is changed by the refusal.

Scripts: syntax errors, ops without a node type, loops that never end, runaway recursion, a script that raises what
is not an Exception (KeyboardInterrupt, GeneratorExit), lowers Python's recursion limit, ends Python, makes no
tensor, holds a character no file can hold, bytes that are not UTF-8, a 10 MB file. Graph files: truncated, wrong
types, duplicate ids, cycles, unknown node types (kept as placeholders, saved back as they were), a newer version.
"""

from __future__ import annotations

import json
import sys

import pytest

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types
from core.nodegraph.files import io as files
from core.nodegraph.files.code_import import (
    NO_GRAPH,
    CodeImportError,
    ImportRun,
    check_syntax,
    import_code,
    import_here,
    import_path,
    read_script,
)
from core.nodegraph.files.migrations import CURRENT_VERSION
from core.nodegraph.run.session import Session

CHAPTER = "import torch\nx = torch.tensor([2.0, 3.0], requires_grad=True)\nz = (x * 2).sum()\nz.backward()\n"

REFUSED_SCRIPTS = [  # (script, what the message says, the line it points at)
    ("x = (\n", "SyntaxError: '(' was never closed", 1),
    ("import torch\n  x = 1\n", "SyntaxError: unexpected indent", 2),
    ("import torch\nx = torch.frobnicate(3)\n", "AttributeError: module 'core' has no attribute 'frobnicate'", 2),
    ("import torch\nx = torch.randn(8, requires_grad=True)\ny = torch.fft.fft(x).abs().sum()\ny.backward()\n",
     "complex64 tensor", 3),
    ("import torch\nx = torch.ones(2)\n", NO_GRAPH, None),
    ("def f(n):\n    return f(n + 1)\nf(0)\n", "RecursionError: maximum recursion depth exceeded", 2),
    ("x = " + "(" * 5000 + "1" + ")" * 5000 + "\n", "SyntaxError: too many nested parentheses", 1),
    ("import torch\nraise KeyboardInterrupt\n", "KeyboardInterrupt: raised without a message", 2),
    ("raise GeneratorExit('bye')\n", "GeneratorExit: bye", 1),
    ("import sys\nsys.exit(3)\n", "SystemExit: the snippet exited with status 3", 2),
    ("x = bytearray(2 ** 62)\n", "MemoryError", 1),
    ("import os\nos.getcwd()\n", NO_GRAPH, None),
    ("", NO_GRAPH, None),
    ("import torch\nx = torch.ones(2)  # \udcff\n", "a lone surrogate \\udcff", 2),
]


@pytest.mark.parametrize(("script", "says", "line"), REFUSED_SCRIPTS, ids=[s[:24] for s, _, _ in REFUSED_SCRIPTS])
def test_a_hostile_script_is_refused_with_one_message_at_its_line(script, says, line):
    with pytest.raises(CodeImportError) as refused:
        import_here(script, time_limit=10)
    assert says in refused.value.message and refused.value.line == line


def test_a_script_that_never_ends_is_stopped_at_its_time_limit_on_its_line():
    with pytest.raises(CodeImportError, match="ran longer than its time limit") as refused:
        import_here("i = 0\nwhile True:\n    i += 1\n", time_limit=0.5)
    assert refused.value.line in (2, 3)


def test_a_script_that_lowers_the_recursion_limit_still_imports_and_leaves_the_limit_as_it_was():
    before = sys.getrecursionlimit()
    result = import_here("import sys\nsys.setrecursionlimit(60)\n" + CHAPTER, time_limit=10)
    assert sys.getrecursionlimit() == before
    assert len(result.graph.nodes) == len(import_here(CHAPTER).graph.nodes)


def test_a_script_with_a_byte_order_mark_imports_like_the_same_script_without():
    assert files.dumps(import_here("\ufeff" + CHAPTER).graph) == files.dumps(import_here(CHAPTER).graph)
    check_syntax("\ufeff" + CHAPTER)


def test_a_lone_surrogate_is_refused_before_the_import_starts_python():
    run = ImportRun("import torch\nx = torch.ones(2)\n# \udcff\n")
    with pytest.raises(CodeImportError, match=r"line 3: .*lone surrogate \\udcff"):
        run.poll()


@pytest.mark.parametrize(("data", "says"), [
    ("x = 'caf\xe9'\n".encode("latin-1"), r"not UTF-8 text \(byte 0xe9 at line 1, column 9\)"),
    (b"import torch\n\x00\xff\xfe binary", r"not UTF-8 text \(byte 0xff at line 2, column 2\)"),
    ("import torch\n".encode("utf-16"), r"not UTF-8 text \(byte 0xff at line 1, column 1\)"),
    (b"# " + b"x" * (10 * 2 ** 20) + b"\n", "longer than 1000000 characters"),
])
def test_a_script_file_that_is_not_utf8_or_too_long_is_refused_saying_where(tmp_path, data, says):
    path = tmp_path / "script.py"
    path.write_bytes(data)
    with pytest.raises(CodeImportError, match=says):
        import_path(path)


def test_a_script_file_with_a_byte_order_mark_reads_as_its_text(tmp_path):
    path = tmp_path / "bom.py"
    path.write_bytes(b"\xef\xbb\xbf" + CHAPTER.encode())
    assert read_script(path) == CHAPTER


def test_a_script_that_ends_python_says_how_python_ended():
    with pytest.raises(CodeImportError, match=r"without a result \(Python exited with status 0 .*os\._exit"):
        import_code("import os\nos._exit(0)\n")


# ----- graph files ------------------------------------------------------------------------------------------------
def _file(nodes: list, edges: list | None = None, **more) -> dict:
    return {"format": "nodegrad-graph", "version": CURRENT_VERSION, "nodes": nodes, "edges": edges or [], **more}


ADD_A, ADD_B = {"id": "a", "type": "math.add"}, {"id": "b", "type": "math.add"}
EDGE_AB, EDGE_BA = {"from": ["a", "out"], "to": ["b", "a"]}, {"from": ["b", "out"], "to": ["a", "a"]}
CHAIN = json.dumps(_file([{"id": "x", "type": "source.randn"}, ADD_B], [{"from": ["x", "out"], "to": ["b", "a"]}]),
                   indent=1)
REFUSED_FILES = [  # (file text, what the message says)
    (CHAIN[: len(CHAIN) // 2], "not valid JSON (truncated or damaged file?)"),
    (CHAIN[:-1], "not valid JSON (truncated or damaged file?)"),
    ("", "empty file"),
    (json.dumps(_file("abc")), "nodes: must be a list, got a string"),
    (json.dumps(_file([{"id": 7, "type": "math.add"}])), "nodes[0].id: must be a string, got an integer"),
    (json.dumps(_file([{"id": "a", "type": "math.add", "params": [1]}])), "nodes[0].params: must be an object"),
    (json.dumps(_file([{"id": "a", "type": "source.randn", "params": {"shape": "big"}}])), "parameter 'shape'"),
    (json.dumps(_file([ADD_A, ADD_A])), "nodes[1].id: duplicate id 'a' (also nodes[0])"),
    (json.dumps(_file([ADD_A, ADD_B], [EDGE_AB, EDGE_BA])), "is part of a cycle"),
    (json.dumps(_file([ADD_A], [{"from": ["a", "out"], "to": ["a", "b"]}])), "is part of a cycle"),
    (json.dumps(_file([ADD_A], [{"from": ["zz", "out"], "to": ["a", "a"]}])), "dangling edge: no node 'zz'"),
    (json.dumps({**_file([]), "version": CURRENT_VERSION + 1}), f"file version {CURRENT_VERSION + 1} is newer"),
    (json.dumps({**_file([]), "version": "4"}), "version: must be an integer, got a string"),
    (json.dumps(_file([ADD_A], node_types={"math.add": 99})), "uses version 99 of this node type"),
    (b"\xff\xfe\x00garbage", "not a text file: invalid UTF-8 at byte 0"),
]


@pytest.mark.parametrize(("text", "says"), REFUSED_FILES, ids=[str(i) for i in range(len(REFUSED_FILES))])
def test_a_damaged_graph_file_is_refused_naming_what_is_wrong_and_the_open_file_is_kept(tmp_path, text, says):
    good = tmp_path / "graph.json"
    files.save(files.loads(CHAIN), good)
    saved = good.read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(files.LoadError) as refused:
        files.load(bad)
    assert says in str(refused.value)
    assert good.read_bytes() == saved and bad.read_bytes() == (text if isinstance(text, bytes) else text.encode())


def test_a_node_of_an_unknown_type_loads_as_a_placeholder_that_fails_clearly_and_saves_back_as_it_was():
    alien = {"id": "a", "type": "plugin.alien", "params": {"strength": [1, 2]}, "position": [5.0, 6.0]}
    text = files.dumps(files.loads(json.dumps(_file([alien, ADD_B], [EDGE_AB]))))
    g = files.loads(text)
    s = Session(g)
    s.forward()
    assert "unknown node type 'plugin.alien'" in s.errors["a"].message
    assert files.dumps(g) == text
    assert json.loads(text)["nodes"][0]["params"] == alien["params"]
