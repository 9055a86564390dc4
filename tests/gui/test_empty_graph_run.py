"""Forward all / Backward all on an empty graph (File > New) say why nothing ran: the status bar stayed silent, as
if the click was lost."""

import pytest
from PySide6.QtCore import Qt

from tests.gui.real_input import click_toolbar, press, shown

pytest.importorskip("pytestqt")


@pytest.mark.parametrize("button", ["forward", "backward"])
def test_forward_or_backward_all_on_an_empty_graph_says_there_is_nothing_to_run(qtbot, window, button):
    w = shown(qtbot, window)
    press(w, Qt.Key_N, Qt.ControlModifier)  # File > New
    qtbot.waitUntil(lambda: not w.graph.nodes and not w.scene.node_items)
    click_toolbar(w, button)
    qtbot.waitUntil(lambda: "Nothing to run" in w.status_label.text())
    assert "the graph is empty" in w.status_label.text()
