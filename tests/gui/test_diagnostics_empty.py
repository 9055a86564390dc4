"""The Diagnostics tab's empty list always says why: before the graph ran (a new window, File ▸ New) that hints
come when it runs; after a Forward all without problems, "No problems found"."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTreeWidget

from core.nodegraph.model.document import Edge, Graph, Node
from tests.gui.conftest import make_window
from tests.gui.real_input import press, show_dock, shown


def _graph() -> Graph:
    g = Graph()
    g.add_node(Node("x", "source.tensor", {"tensor": [1.0, 2.0], "requires_grad": True}, (0.0, 0.0)))
    g.add_node(Node("s", "reduce.sum", {}, (240.0, 0.0)))
    g.connect(Edge("x", "out", "s", "x"))
    return g


def test_the_empty_diagnostics_list_says_why_before_and_after_running(qtbot, node_types):
    w = shown(qtbot, make_window(qtbot, _graph()))
    show_dock(qtbot, w, w.findChild(type(w.library_dock), "diagnosticsDock"))
    tree = w.findChild(QTreeWidget, "diagnosticsTree")
    caption = w.findChild(QLabel, "diagnosticsCaption")
    assert caption.isVisible()
    assert caption.text().startswith("No problems found yet: hints come when the graph runs")
    press(w, Qt.Key_F5)  # Run ▸ Forward all
    qtbot.waitUntil(lambda: caption.text() == "No problems found", timeout=10_000)
    assert tree.topLevelItemCount() == 0
    w.undo_stack.setClean()
    press(w, Qt.Key_N, Qt.ControlModifier)  # File ▸ New
    qtbot.waitUntil(lambda: not w.graph.nodes)
    qtbot.waitUntil(lambda: caption.text().startswith("No problems found yet"))
    press(w, Qt.Key_F5)  # nothing to run: the status bar says so, and no run means no verdict yet
    qtbot.waitUntil(lambda: "Nothing to run" in w.status_label.text(), timeout=10_000)
    assert caption.text().startswith("No problems found yet")
    w.undo_stack.setClean()
