"""The first hour, by hand, an eighth time: what a newcomer met walking the README under a real screen, each driven
here through the real widgets (clicks on the buttons and the canvas where a user clicks them)."""

from tests.gui import real_input as d
from tests.gui.real_input import click, show_dock, shown
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def _nodes_in_view(window) -> list[str]:
    """The titles of the nodes whose boxes lie wholly inside the canvas's viewport."""
    view = window.view
    shown_rect = view.mapToScene(view.viewport().rect()).boundingRect()
    return sorted(window.graph.nodes[nid].title for nid, item in window.scene.node_items.items()
                  if shown_rect.contains(item.sceneBoundingRect()))


def test_training_a_playground_keeps_its_whole_graph_in_view_above_the_plots(qtbot, window):
    """The classifier playground opened whole, then Train clicked: the Plots and Data docks take the bottom of the
    window, and the canvas above them, a third as tall, still shows every node (it kept the opening's zoom and cut
    data and the loss off under the plots)."""
    w = shown(qtbot, window)
    open_example(qtbot, w, "playground-classifier")
    qtbot.waitUntil(lambda: _nodes_in_view(w) == ["data", "loss", "mlp"])
    show_dock(qtbot, w, w.training.docks["train"])
    click(w.training.panel.buttons["Train"])
    plots = w.training.docks["plots"]
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and w.training.trainer.done > 0, timeout=60_000)
    qtbot.waitUntil(lambda: plots.isVisible() and not plots.visibleRegion().isEmpty())
    qtbot.waitUntil(lambda: _nodes_in_view(w) == ["data", "loss", "mlp"])
    w.undo_stack.setClean()


def _line_shown(browser, text: str) -> bool:
    """Whether the lesson's line holding ``text`` lies wholly inside the browser's viewport."""
    found = browser.document().find(text)
    box = browser.document().documentLayout().blockBoundingRect(found.block())
    top = browser.verticalScrollBar().value()
    return not found.isNull() and top <= box.top() and box.bottom() <= top + browser.viewport().height()


def test_the_lesson_scrolls_to_a_promise_ticked_below_the_fold_by_the_toolbar(qtbot, window, tmp_path):
    """Lesson 4 on the first start at 1366x768, stepped with the toolbar's buttons (not the lesson's links): after
    Forward all and two Backward steps, step 3's 'b.grad is 1.' ticks; it sat below the fold, and the learner saw
    nothing happen in the lesson until they scrolled."""
    from PySide6.QtCore import QSettings

    assert window.lessons.first_start(QSettings(str(tmp_path / "first.ini"), QSettings.IniFormat))
    w = shown(qtbot, window)
    browser = w.lessons.panel.browser
    qtbot.waitUntil(browser.isVisible)
    assert browser.verticalScrollBar().value() == 0 and not _line_shown(browser, "b.grad is 1.")
    d.click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: "☑ z is 1.6000" in browser.toPlainText())
    assert _line_shown(browser, "☑ z is 1.6000") and browser.verticalScrollBar().value() == 0, "in view: no scroll"
    d.click_toolbar(w, "backward_step")
    qtbot.waitUntil(lambda: "☑ the last step ran z" in browser.toPlainText())
    d.click_toolbar(w, "backward_step")
    qtbot.waitUntil(lambda: "☑ b.grad is 1." in browser.toPlainText())
    qtbot.waitUntil(lambda: _line_shown(browser, "☑ b.grad is 1."))
    w.undo_stack.setClean()


def test_a_refused_formula_comes_back_with_the_cursor_where_the_parser_points(qtbot, empty_window):
    """Edit ▸ Insert expression… with a bracket left open: the box asked again with the message above the formula,
    all of it selected, so the first key typed to fix it wiped the formula. It now comes back unselected with the
    cursor on the column the message names; Right, ')' and Return insert the graph."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QInputDialog, QLabel, QLineEdit

    from tests.gui.real_input import press

    w = shown(qtbot, empty_window)
    seen: dict[str, object] = {}

    def answer(first: bool, tries: int = 0) -> None:
        dialog = QApplication.activeModalWidget()
        edit = dialog.findChild(QLineEdit) if isinstance(dialog, QInputDialog) and dialog.isVisible() else None
        settled = not first and edit is not None and "never closed" in dialog.labelText() \
            and (not edit.hasSelectedText() or tries > 300)  # (after 3 s: answered as it stands, to fail below)
        if edit is None or (not first and not settled):
            QTimer.singleShot(10, lambda: answer(first, tries + 1))
            return
        seen["selected"] = edit.hasSelectedText()
        if first:
            QTest.keyClick(edit, Qt.Key_A, Qt.ControlModifier)
            QTest.keyClicks(edit, "(x * w).sum( + b")
            QTimer.singleShot(0, lambda: answer(False))
            QTest.keyClick(edit, Qt.Key_Return)
            return
        seen["said"] = " ".join(label.text() for label in dialog.findChildren(QLabel) if label.isVisible())
        seen["text"], seen["cursor"] = edit.text(), edit.cursorPosition()
        QTest.keyClick(edit, Qt.Key_Right)
        QTest.keyClicks(edit, ")")
        QTimer.singleShot(0, close_again)
        QTest.keyClick(edit, Qt.Key_Return)

    def close_again(tries: int = 0) -> None:
        """A box asking a third time (the fix typed in the wrong place) is closed, so the test fails, not hangs."""
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QInputDialog):
            dialog.reject()
        elif tries < 50:
            QTimer.singleShot(10, lambda: close_again(tries + 1))

    QTimer.singleShot(0, lambda: answer(True))
    press(w, Qt.Key_E, Qt.ControlModifier)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 6)
    assert "'(' was never closed (at column 12)" in seen["said"]
    assert seen["text"] == "(x * w).sum( + b" and seen["cursor"] == 11  # on the open bracket, column 12
    assert seen["selected"] is False


def test_file_new_after_imported_code_gives_the_canvas_back_the_codes_width(qtbot, window, monkeypatch, tmp_path):
    """An imported snippet widens the left column for its code; File ▸ New (Ctrl+N) hides the Code tab, and the
    column, showing the node library again, kept the code's width: the empty canvas stayed a hundred pixels
    narrower. It now goes back to the column's share of the window, as on a start."""
    from PySide6.QtCore import Qt

    from gui import dock_columns
    from tests.gui.real_input import press
    from tests.gui.test_code_pane import SNIPPET, open_code

    path = tmp_path / "z.py"
    path.write_text(SNIPPET.replace("x = ", "a_long_name_for_the_input_tensor = x = "))
    w = shown(qtbot, window)
    docks = [w.arrangement.docks[name] for name in dock_columns.LEFT if name in w.arrangement.docks]
    share = dock_columns.side_widths(w.width(), dock_columns.tab_titles_width(docks))[0]  # the column's, 1366 wide
    open_code(qtbot, w, monkeypatch, path)
    qtbot.waitUntil(lambda: w.graph.code is not None and w.code.dock.isVisible(), timeout=30_000)
    qtbot.waitUntil(lambda: w.code.dock.width() > share + 40)
    press(w, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not w.graph.nodes and not w.code.dock.isVisible())
    qtbot.waitUntil(lambda: abs(w.library_dock.width() - share) <= 4)
    w.undo_stack.setClean()
