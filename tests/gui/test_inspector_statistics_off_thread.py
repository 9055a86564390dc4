"""A large tensor's statistics are computed off the GUI thread: clicking its node answers at once with
"computing statistics…", other clicks are handled meanwhile, stale numbers are dropped, and closing the window
while the worker runs is safe."""

import pytest

from gui.stats_lines import COMPUTING
from tests.gui.conftest import make_window
from tests.gui.real_input import click_node, click_toolbar, shown
from tests.gui.waiting import event_loop_turns

BIG = [32, 3, 224, 224]  # the chapter's image batch (4.8 million elements)


@pytest.fixture
def big(qtbot, node_types):
    from core.nodegraph.model.document import Graph, Node

    g = Graph()
    g.add_node(Node("x", "source.randn", {"shape": BIG, "seed": 0}, position=(0.0, 0.0), title="x"))
    g.add_node(Node("w", "source.randn", {"shape": [2, 3], "seed": 1}, position=(0.0, 400.0), title="w"))
    w = shown(qtbot, make_window(qtbot, g))
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.bridge.session is not None and {"x", "w"} <= set(w.bridge.session.values))
    yield w
    w.undo_stack.setClean()
    w.bridge.mark_saved()


def _text(w) -> str:
    return w.inspector.value_view.toPlainText()


def _core_line(t) -> str:
    """The statistics as core computes them (float64, as the Inspector promises), in the Inspector's format."""
    import core
    from gui import format as fmt

    x = t.detach().to(core.float64).reshape(-1)
    numbers = (x.min(), x.max(), x.mean(), x.std(), core.linalg.vector_norm(x))
    names = ("min", "max", "mean", "std", "norm")
    return "  ".join(f"{n} {fmt.number(v.item())}" for n, v in zip(names, numbers)) + "  NaN 0"  # (no-break
    # spaces read back as plain ones)


def test_clicking_a_large_tensor_answers_at_once_and_its_statistics_arrive_matching_core(big, qtbot):
    w = big
    click_node(qtbot, w, "x")
    assert COMPUTING in _text(w) and w.inspector.stats.busy  # the click was handled before the numbers exist
    click_node(qtbot, w, "w")  # the window keeps answering: another node is shown while the worker runs
    assert "out = " in _text(w) and COMPUTING not in _text(w) and not w.inspector.stats.busy
    qtbot.waitUntil(lambda: not w.inspector.stats.running)
    event_loop_turns(qtbot, 3)  # (a stale result is a queued event: an event loop turn delivers it)
    assert w.inspector.node_id == "w" and "(2, 3) float32" in _text(w) and "(32, 3, 224, 224)" not in _text(w)
    click_node(qtbot, w, "x")
    qtbot.waitUntil(lambda: COMPUTING not in _text(w), timeout=60_000)
    expected = _core_line(w.bridge.session.values["x"]["out"])
    assert "  " + expected in _text(w).splitlines()
    assert _text(w).count("(32, 3, 224, 224) float32 cpu") == 1, "its badge once: the numbers' line is the badge"


def test_closing_the_window_while_statistics_are_computed_does_not_crash(big, qtbot):
    w = big
    click_node(qtbot, w, "x")
    assert w.inspector.stats.busy
    w.undo_stack.setClean()
    w.bridge.mark_saved()
    assert w.close()
    assert not w.inspector.stats.running and not w.inspector.stats.busy


def test_deleting_the_node_while_its_statistics_are_computed_drops_them(big, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    w = big
    click_node(qtbot, w, "x")
    assert w.inspector.stats.busy
    QTest.keyClick(w.view.viewport(), Qt.Key_Delete)  # the selected node goes while the worker holds its tensor
    qtbot.waitUntil(lambda: "x" not in w.graph.nodes and w.inspector.node_id is None)
    qtbot.waitUntil(lambda: not w.inspector.stats.running)
    event_loop_turns(qtbot, 3)  # (the stale result, a queued event, is delivered and dropped)
    assert not w.inspector.stats.busy and _text(w) == ""
