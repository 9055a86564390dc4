"""``ImportRun``: a code import started in its subprocess and polled (the GUI's event loop polls it, no thread
waits on it): it gives the graph once the child ends, refuses as ``import_code`` does, and cancels at once."""

import threading
import time

import pytest

from core.nodegraph.files.code_import import MAX_SOURCE, CodeImportError, ImportRun

SNIPPET = "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\ny.backward()\n"


def _poll_until_done(run: ImportRun, seconds: float = 180.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        result = run.poll()
        if result is not None:
            return result
        time.sleep(0.02)
    raise AssertionError("the import did not end")


def test_a_polled_run_gives_the_graph_without_a_thread():
    before = threading.active_count()
    run = ImportRun(SNIPPET, name="s.py")
    assert threading.active_count() == before  # nothing waits in the background
    graph = _poll_until_done(run).graph
    assert {n.title for n in graph.nodes.values()} >= {"x", "y"}


def test_a_snippet_larger_than_a_pipe_buffer_runs():
    padding = "# " + "p" * 78 + "\n"
    text = padding * 3000 + SNIPPET  # ~240 kB: a pipe written before the child reads would fill
    assert len(text) < MAX_SOURCE
    result = _poll_until_done(ImportRun(text, name="big.py"))
    assert any(n.title == "y" for n in result.graph.nodes.values())


def test_cancel_kills_the_child_and_the_next_poll_says_cancelled():
    run = ImportRun("while True:\n    pass\n", name="loop.py")
    assert run.poll() is None
    run.cancel()
    with pytest.raises(CodeImportError, match="cancelled"):
        run.poll()
    run.cancel()  # again: nothing happens


def test_a_failing_snippet_raises_its_line_once_polled():
    run = ImportRun("import torch\nq + 1\n", name="bad.py")
    with pytest.raises(CodeImportError) as info:
        _poll_until_done(run)
    assert info.value.line == 2 and "NameError" in info.value.message


def test_a_refused_snippet_raises_at_the_first_poll():
    run = ImportRun("x" * (MAX_SOURCE + 1))
    with pytest.raises(CodeImportError, match="longer than"):
        run.poll()
