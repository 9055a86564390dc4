"""A newcomer's first hour, one more pass: what they met by hand, driven as they drove it (real clicks and keys
on the real widgets of a shown window)."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLineEdit

from gui import format as fmt
from tests.gui.real_input import click, click_node, click_toolbar, shown

SIZES = [(1366, 768), (1920, 1080)]


def _printed_by_core(t) -> str:
    """What ``print(t)`` writes, without ``tensor(`` and its suffixes: the canvas's text for a small tensor."""
    text = repr(t.detach())
    return text[len("tensor("):text.rindex("]") + 1] if t.dim() else text[len("tensor("):].split(",")[0].rstrip(")")


def test_the_canvas_writes_values_and_gradients_as_print_does_in_the_chapter(window, qtbot):
    w = shown(qtbot, window)
    click_toolbar(w, "forward")
    click_toolbar(w, "backward")
    s = w.bridge.session
    qtbot.waitUntil(lambda: s.grad("n2") is not None and bool(w.scene.node_items["n2"].display.grad))
    for nid in ("n1", "n2", "n3"):  # x, w, b: leaves with a value and a gradient
        shown_on_canvas = w.scene.node_items[nid].display
        assert shown_on_canvas.value == _printed_by_core(s.value(nid))
        assert shown_on_canvas.grad == _printed_by_core(s.grad(nid))
    assert w.scene.node_items["n2"].display.grad == "[2., 3.]"  # the chapter: print(w.grad)  # tensor([2., 3.])
    assert w.scene.node_items["n1"].display.value == "[2., 3.]"  # not [2, 3], which reads as integers


def test_before_a_run_the_canvas_writes_a_parameter_as_the_inspector_field_does(window, qtbot):
    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    fields = lambda: [e for e in w.inspector.findChildren(QLineEdit) if e.isVisible() and e.text().startswith("[")]  # noqa: E731
    qtbot.waitUntil(lambda: len(fields()) == 1)  # the tensor parameter's editor
    field = fields()[0]
    qtbot.waitUntil(lambda: bool(w.scene.node_items["n1"].display.badges))
    assert w.scene.node_items["n1"].display.badges[0] == f"tensor={field.text()}"
    assert field.text() == "[2.0, 3.0]"


def _code_dialog(w):
    return next((d for d in w.findChildren(QDialog, "codeInputDialog") if d.isVisible()), None)


@pytest.mark.parametrize("size", SIZES)
def test_the_chapters_snippet_imported_opens_whole_beside_its_code(qtbot, window, size):
    """File ▸ New graph from code… holds the chapter's snippet: Import opens its graph with the Code dock beside it, F10
    steps it, and after Forward all every node, z too, is inside the canvas with its value drawn."""
    w = shown(qtbot, window, size)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: _code_dialog(w) is not None)
    click(_code_dialog(w).findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))
    qtbot.waitUntil(lambda: w.graph.code is not None and w.code.dock.isVisible(), timeout=60_000)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)  # back from the progress dialog without a click
    QTest.keyClick(w, Qt.Key_F10)
    qtbot.waitUntil(lambda: w.code.pane.editor.marker == 2 and w.status_label.text() == "Forward: x = [2., 3.]")
    click_toolbar(w, "forward")
    items = list(w.scene.node_items.values())
    assert len(items) == 6
    qtbot.waitUntil(lambda: all(i.display.value for i in items))
    w.view.viewport().update()
    qtbot.waitUntil(lambda: all(i.painted_preview for i in items))  # the zoom still draws every value
    viewport = w.view.viewport().rect()
    for item in items:
        on_screen = w.view.mapFromScene(item.sceneBoundingRect()).boundingRect()
        assert viewport.contains(on_screen), f"{item.title} at {on_screen} is outside the canvas {viewport}"
    w.undo_stack.setClean()


def test_a_gradcheck_node_shows_whether_it_passed_instead_of_dict(window, qtbot):
    from tests.gui.test_window_fits import choose_menu

    w = shown(qtbot, window)
    choose_menu(qtbot, w, ["File", "Examples", "7. Checking gradients against finite differences"])
    qtbot.waitUntil(lambda: any(n.title == "check_wrong" for n in w.graph.nodes.values()))
    click_toolbar(w, "forward")
    s = w.bridge.session
    for title in ("check", "check_wrong"):
        nid = next(i for i, n in w.graph.nodes.items() if n.title == title)
        qtbot.waitUntil(lambda nid=nid: bool(w.scene.node_items[nid].display.value))
        result = s.values[nid]
        expected = f"passed {result['passed']} max_error {fmt.compact(result['max_error'])}"
        assert w.scene.node_items[nid].display.value == expected
    # the last node run says it too, once the run has finished (under load the status bar may still show progress)
    qtbot.waitUntil(lambda: w.status_label.text() == f"Forward: check_wrong = {expected}")
    w.undo_stack.setClean()


def _hover_tip(qtbot, window, widget, expected: str) -> None:
    """Rest the pointer on ``widget`` until the tooltip ``expected`` shows (the last one may linger a moment)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QToolTip

    QTest.mouseMove(window, QPoint(5, window.height() - 5))  # from elsewhere, so the widget sees the pointer enter
    QTest.mouseMove(widget, widget.rect().center())
    QTest.mouseMove(widget, widget.rect().center() + QPoint(1, 0))
    qtbot.waitUntil(lambda: QToolTip.isVisible() and QToolTip.text() == expected)


def test_hovering_a_toolbar_button_names_its_key(window, qtbot):
    from tests.gui.real_input import toolbar_button

    w = shown(qtbot, window)
    _hover_tip(qtbot, w, toolbar_button(w, "forward_step"), f"{w.named_actions['forward_step'].statusTip()} (F10)")
    QTest.keyClick(w, Qt.Key_F10)  # the key it named does what the button does
    qtbot.waitUntil(lambda: w.status_label.text() == "Forward: x = [2., 3.]")


def test_the_train_panels_buttons_say_what_they_do_on_hover(window, qtbot):
    from gui.training.train_panel import TIPS
    from tests.gui.real_input import show_dock

    w = shown(qtbot, window)
    show_dock(qtbot, w, w.training.docks["train"])
    buttons = w.training.panel.buttons
    _hover_tip(qtbot, w, buttons["Step"], TIPS["step"])
    _hover_tip(qtbot, w, buttons["Train"], f"{TIPS['train']} (Ctrl+T)")
    assert w.training.actions["train"].statusTip() == TIPS["train"]  # Run ▸ Train says the same in the status bar


def test_training_a_graph_without_parameters_says_why_and_opens_no_empty_plots(window, qtbot):
    """The chapter's graph has tensors, not parameters: Train stops at once with the reason, and the Plots and
    Data docks stay closed (they opened empty and took the canvas's room)."""
    from tests.gui.real_input import show_dock

    w = shown(qtbot, window)
    show_dock(qtbot, w, w.training.docks["train"])
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: "empty parameter list" in w.status_label.text())
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle")
    assert not w.training.docks["plots"].isVisible() and not w.training.docks["data"].isVisible()


def test_the_inspectors_wrapped_lines_keep_a_bracket_with_its_numbers(window, qtbot):
    w = shown(qtbot, window)
    click_toolbar(w, "forward")
    click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: w.bridge.session.grad("n1") is not None)
    click_node(qtbot, w, "n1")
    view = w.inspector.value_view
    qtbot.waitUntil(lambda: "backward #1" in view.toPlainText())
    assert "out.grad = [ 1.5000, -0.5000]" in view.toPlainText()  # what a copy gives: PyTorch's text, plain spaces
    doc, pieces = view.document(), []
    block = doc.begin()
    while block.isValid():
        layout = block.layout()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            pieces.append(block.text()[line.textStart():line.textStart() + line.textLength()])
        block = block.next()
    assert len(pieces) > doc.blockCount()  # some lines wrapped in the dock's width
    assert not [p for p in pieces if p.rstrip().endswith("[")]  # "+ [" then "1.5000, ..." on the next line


def test_the_code_dock_is_as_wide_as_the_code_and_the_graph_beside_it_opens_readable(qtbot, window):
    """At 1600x1000 the Code dock takes the width of the snippet's longest line (not 30 % of the window: the canvas
    keeps the rest), and the chapter's graph beside it opens at the readable zoom, whole."""
    from gui.canvas.view import READABLE_ZOOM

    w = shown(qtbot, window, (1600, 1000))
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: _code_dialog(w) is not None)
    click(_code_dialog(w).findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))
    qtbot.waitUntil(lambda: w.graph.code is not None and w.code.dock.isVisible(), timeout=60_000)
    editor = w.code.pane.editor
    qtbot.waitUntil(lambda: editor.horizontalScrollBar().maximum() == 0)  # the longest line shows whole
    assert w.code.dock.width() < 0.3 * w.width()
    qtbot.waitUntil(lambda: w.view.zoom_level() >= READABLE_ZOOM)
    viewport = w.view.viewport().rect()
    for item in w.scene.node_items.values():
        assert viewport.contains(w.view.mapFromScene(item.sceneBoundingRect()).boundingRect()), item.title
    w.undo_stack.setClean()
