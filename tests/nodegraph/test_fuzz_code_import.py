"""Fuzzing File > New graph from code: the chapter's snippets, mutated, give a graph or ONE ``CodeImportError``.

Hypothesis deletes, doubles and swaps lines, replaces tokens with unknown names, odd numbers and syntax
breakers, inserts random characters, or types arbitrary text. ``import_here`` (the tracer the app's subprocess
runs, with its time limit) must give a graph that saves, loads back and runs forward, backward and a training step
without raising, or refuse with a ``CodeImportError`` naming the snippet's line; an endless loop stops at the time
limit. The subprocess route (``import_code``) is checked once for each guard: time, memory, a crash of the child.
"""

import re

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import core.nodegraph.model.nodes  # noqa: F401 - the node types graphs are built from
from core.nodegraph.files import io as files
from core.nodegraph.files.code_import import CodeImportError, import_code, import_here
from tests.hypothesis_profiles import fuzz_settings
from tests.nodegraph.fuzz_checks import runs_without_raising
from tests.nodegraph.test_code_import import AUTOGRAD, HIGHER, TRAINING

MODULES = """import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(5, 3)
out = net(x).softmax(dim=1)
loss = -(out[:, 0].log()).mean()
loss.backward()
"""

VIEWS = """import torch
a = torch.arange(6.0, requires_grad=True)
b = a.view(2, 3).t()
c = b.reshape(-1)[::2] * 2
c.sum().backward()
"""

SNIPPETS = [AUTOGRAD, TRAINING, HIGHER, MODULES, VIEWS]
TIME_LIMIT = 3.0
TOKENS = ["q", "torch.nope", "nn.Nope", "undefined_name", "0", "-1", "1.5", "1e308", "float('nan')", "10 ** 12",
          "None", "True", "'text'", "[]", "(", ")", ":", "lambda", "import", "yield", "\\", "@", "'", '"""',
          "\t", "1000", "x", "w", "loss", "torch.zeros(0)", "torch.randn(2, 3, 4)", ".backward()", "while True: pass"]


def _lines_edit(text: str, draw) -> str:
    lines = text.splitlines()
    i = draw(st.integers(0, len(lines) - 1))
    op = draw(st.sampled_from(["delete", "double", "swap", "indent"]))
    if op == "delete":
        del lines[i]
    elif op == "double":
        lines.insert(i, lines[i])
    elif op == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines[i] = "    " + lines[i]
    return "\n".join(lines) + "\n"


def _token_edit(text: str, draw) -> str:
    spans = [m.span() for m in re.finditer(r"[A-Za-z_][A-Za-z_0-9]*|\d+(?:\.\d*)?|\S", text)]
    start, end = draw(st.sampled_from(spans))
    return text[:start] + draw(st.sampled_from(TOKENS)) + text[end:]


def _char_edit(text: str, draw) -> str:
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.text(max_size=3)) + text[at + draw(st.integers(0, 3)):]


@st.composite
def snippets(draw) -> str:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=60))
    text = draw(st.sampled_from(SNIPPETS))
    for _ in range(draw(st.integers(1, 3))):
        text = draw(st.sampled_from([_lines_edit, _token_edit, _token_edit, _char_edit]))(text, draw)
    return text


def _imports_or_refuses(text: str):
    try:
        return import_here(text, time_limit=TIME_LIMIT).graph
    except CodeImportError as exc:
        assert exc.message and len(str(exc)) < 3000, str(exc)[:300]
        assert exc.line is None or 1 <= exc.line <= text.count("\n") + 1, (exc.line, str(exc)[:200])
        return None


@fuzz_settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=snippets())
def test_mutated_chapter_snippets_import_and_run_or_are_refused_with_one_code_import_error(text):
    g = _imports_or_refuses(text)
    if g is None:
        return
    runs_without_raising(g)


@pytest.mark.parametrize("text,message", [
    ("import torch\nx = torch.randn(2, 3\n", "SyntaxError"),
    ("import torch\ny = q + 1\n", "NameError: name 'q' is not defined"),
    ("import torch\nwhile True:\n    x = 1\n", "ran longer than its time limit"),
    ("import torch\nx = torch.randn(100000, 100000, 100000)\n", "MemoryError|too large|overflow|Unable"),
    ("import torch\nraise SystemExit(3)\n", "^line 2: SystemExit: the snippet exited with status 3"),
    ("import sys\nsys.exit('bad input')\n", "^line 2: SystemExit: the snippet exited with status bad input"),
    ("import torch\ndef f(n):\n    return f(n + 1)\nf(0)\n", "RecursionError"),
    ("\x00", "null bytes"),
])
def test_broken_snippets_are_refused_in_this_process_with_the_reason(text, message):
    with pytest.raises(CodeImportError, match=message):
        import_here(text, time_limit=TIME_LIMIT)


def test_the_subprocess_refuses_an_endless_loop_a_memory_hog_and_a_crash_each_with_one_code_import_error():
    with pytest.raises(CodeImportError, match="ran longer than its time limit"):
        import_code("import torch\nwhile True:\n    pass\n", time_limit=1.0)
    with pytest.raises(CodeImportError, match="MemoryError"):
        import_code("import torch\nx = torch.ones(2 ** 31)\n", memory_limit=2 ** 30)
    with pytest.raises(CodeImportError):
        import_code("import os\nos._exit(9)\n")


@pytest.mark.parametrize("ending", ["exit()", "quit()", "import sys\nsys.exit(0)", "raise SystemExit"])
def test_a_snippet_that_exits_normally_gives_the_graph_of_what_ran_before(ending):
    g = import_here(AUTOGRAD + ending + "\nq = torch.ones(2) * 5\n", time_limit=TIME_LIMIT).graph
    titles = {n.title for n in g.nodes.values()}
    assert {"x", "w", "b", "z"} <= titles and "q" not in titles


def test_a_snippet_that_exits_gives_its_graph_through_the_subprocess_too():
    g = import_code(AUTOGRAD + "import sys\nsys.exit()\n").graph
    assert files.to_file_dict(g)["nodes"] == files.to_file_dict(import_here(AUTOGRAD).graph)["nodes"]
    with pytest.raises(CodeImportError, match="^line 2: SystemExit: the snippet exited with status 2"):
        import_code("import sys\nsys.exit(2)\n")
