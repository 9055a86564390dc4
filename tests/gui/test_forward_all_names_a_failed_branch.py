"""Forward all over a graph of separate branches where one fails (lesson 2's "Try this": b's shape typed as [5, 4],
then F5): the pass goes on through the other branches and ended on "Forward: loss_fixed = 2.4221", as if nothing
had failed; the error showed only on a_plus_b's node. The status bar now names the node that failed, with PyTorch's
message, after the last step's value, and the message goes once the error is fixed and the graph runs again."""

import pytest
from PySide6.QtCore import Qt

from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui.main_window import MainWindow
from tests.gui.real_input import show_dock, shown
from tests.gui.scenarios.driver import click_node, press, type_into


@pytest.fixture
def lesson_two(qtbot, node_types, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    w = MainWindow(files.load(EXAMPLES_DIR / "02-broadcasting.json"))
    qtbot.addWidget(w)
    yield shown(qtbot, w)
    w.undo_stack.clear()


def _set_b_shape(qtbot, w, text: str, value: tuple) -> None:
    click_node(qtbot, w, "n2")  # b
    show_dock(qtbot, w, w.inspector_dock)
    qtbot.waitUntil(lambda: "shape" in w.inspector.editors)
    type_into(qtbot, w.inspector.editors["shape"], text)
    qtbot.waitUntil(lambda: tuple(w.graph.nodes["n2"].params["shape"]) == value)


def test_forward_all_names_the_failed_branch_after_the_last_value(qtbot, lesson_two):
    w = lesson_two
    _set_b_shape(qtbot, w, "[5, 4]", (5, 4))
    press(qtbot, w, Qt.Key_F5)
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Forward: loss_fixed = "), timeout=30_000)
    text = w.status_label.text()
    assert "; failed earlier: a_plus_b: RuntimeError: The size of tensor a (3) must match the size of tensor b (5)" \
        in text, text
    assert w.bridge.session.errors["n3"].type == "RuntimeError"  # the node's own error, as the status says

    _set_b_shape(qtbot, w, "[4]", (4,))
    press(qtbot, w, Qt.Key_F5)
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Forward: loss_fixed = "), timeout=30_000)
    qtbot.waitUntil(lambda: "failed" not in w.status_label.text())
    assert not w.bridge.session.errors
