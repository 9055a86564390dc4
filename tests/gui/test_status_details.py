"""A status-bar message too long for the bar is readable whole: a Details… button shows while the line is cut and
opens the whole message (here a shape error after a typed parameter) in a popup; it hides when the text fits."""

import pytest
from PySide6.QtCore import Qt

from core.nodegraph.model.document import Edge, Graph, Node
from tests.gui.conftest import make_window
from tests.gui.real_input import click, click_node, press, show_dock, shown, type_text


@pytest.fixture
def window(qtbot, node_types):
    g = Graph()
    g.add_node(Node("x", "source.tensor", {"tensor": [[1.0, 2.0, 3.0]]}, (0.0, 0.0), "inputs"))
    g.add_node(Node("w", "source.tensor", {"tensor": [[1.0, 1.0, 1.0]]}, (0.0, 160.0), "weights"))
    g.add_node(Node("sum", "math.add", {}, (260.0, 60.0)))
    g.connect(Edge("x", "out", "sum", "a"))
    g.connect(Edge("w", "out", "sum", "b"))
    w = make_window(qtbot, g)
    yield w
    w.undo_stack.setClean()


def _type_weights(qtbot, w, text):
    click_node(qtbot, w, "w")
    show_dock(qtbot, w, w.inspector_dock)
    qtbot.waitUntil(lambda: w.inspector.node_id == "w" and w.inspector.editors["tensor"].isVisible())
    type_text(qtbot, w.inspector.editors["tensor"], text)
    qtbot.waitUntil(lambda: str(w.graph.nodes["w"].params["tensor"]).replace(" ", "") == text.replace(" ", ""))


def test_a_long_error_opens_whole_from_the_details_button(qtbot, window):
    w = shown(qtbot, window, size=(683, 700))  # half of a 1366-pixel screen, beside the code it mirrors
    details = w.status_details
    assert not details.isVisible()
    _type_weights(qtbot, w, "[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]]")  # 13 columns against x's 3
    press(w, Qt.Key_F5)  # Run > Forward all
    qtbot.waitUntil(lambda: "must match the size" in w.status_label.text())
    message = w.status_label.text()
    qtbot.waitUntil(details.isVisible)
    assert w.status_label.is_cut()
    click(details)
    qtbot.waitUntil(details.popup.isVisible)
    assert details.message.text() == message
    assert details.message.width() < w.width()  # wrapped inside the window, not one long line
    popup = details.popup.geometry()
    assert w.geometry().contains(popup.center())  # above the bar, over the window
    press(details.popup, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not details.popup.isVisible())


def test_the_button_goes_when_the_message_fits_again(qtbot, window):
    w = shown(qtbot, window, size=(900, 700))
    w.show_message("x" * 400)
    qtbot.waitUntil(w.status_details.isVisible)
    w.show_message("Saved")
    qtbot.waitUntil(lambda: not w.status_details.isVisible())
