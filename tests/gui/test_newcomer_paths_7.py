"""A newcomer's first hour, a seventh pass: what they met by hand in the Train dock and the window's keys, driven
as they drove it (real clicks and keys on the real widgets of a shown window)."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import click, framed_red, press, show_dock, shown
from tests.gui.scenarios.driver import type_into


@pytest.fixture
def train_dock(window, qtbot):
    """The default graph's window at 1366x768 with its Train dock in front; yields (window, panel)."""
    w = shown(qtbot, window)
    show_dock(qtbot, w, w.training.docks["train"])
    yield w, w.training.panel
    w.undo_stack.setClean()


def _wheel(widget, pos, notches: int = 1) -> None:
    """Turn the mouse wheel over ``widget`` at ``pos`` (QTest has no wheel)."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    at = QPointF(pos)
    event = QWheelEvent(at, QPointF(widget.mapToGlobal(pos)), QPoint(), QPoint(0, 120 * notches), Qt.NoButton,
                        Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def _lr(w) -> float:
    return (w.graph.training.get("optimizer_params") or {}).get("lr")


def _says_at_the_field(panel, box, words: str) -> bool:
    """The refusal shows at ``box``: its red frame, its tooltip and the red line right under it say ``words``."""
    note = panel.refusals[box]
    return (note.isVisible() and words in note.text() and words in box.toolTip() and framed_red(box)
            and 0 <= note.mapTo(panel, note.rect().topLeft()).y() - box.mapTo(panel, box.rect().bottomLeft()).y()
            < 2 * box.height())


@pytest.mark.parametrize("typed, words", [("abc", "Can't read 'abc'"), ("-1", "-1 is outside"),
                                          ("", "Empty: type a number")])
def test_a_refused_learning_rate_stays_in_the_field_and_says_why_there(train_dock, qtbot, typed, words):
    """``abc``, ``-1`` or nothing typed as the learning rate and Return pressed: the field keeps what was typed,
    framed in red, and the reason is its tooltip and a red line right under it (not under the Train buttons);
    the document's learning rate is unchanged."""
    w, panel = train_dock
    before = _lr(w)
    type_into(qtbot, panel.lr, typed, enter=False)
    if not typed:
        QTest.keyClick(panel.lr, Qt.Key_Backspace)  # the selected value deleted
    QTest.keyClick(panel.lr, Qt.Key_Return)
    qtbot.waitUntil(lambda: _says_at_the_field(panel, panel.lr, words))
    assert panel.lr.lineEdit().text() == typed
    assert _lr(w) == before and panel.message.text() == ""
    click(panel.steps)  # leaving the field keeps it too
    qtbot.waitUntil(panel.steps.hasFocus)
    assert panel.lr.lineEdit().text() == typed and _says_at_the_field(panel, panel.lr, words)


def test_a_refused_number_under_more_settings_says_why_under_its_own_field(train_dock, qtbot):
    """``2.5`` typed as the seed (under "More settings", a whole number) is kept there, and the red line that says
    why is the one right under the seed field."""
    w, panel = train_dock
    type_into(qtbot, panel.seed, "2.5")
    qtbot.waitUntil(lambda: _says_at_the_field(panel, panel.seed, "Can't read '2.5' (type a whole number)"))
    assert [box for box, note in panel.refusals.items() if note.isVisible()] == [panel.seed]


def test_train_does_not_start_while_the_learning_rate_holds_refused_text(train_dock, qtbot):
    """``abc`` typed as the learning rate, then the Train button clicked: nothing trains, the field keeps ``abc``
    and takes the focus back; Ctrl+T with ``-1`` typed (no Return) refuses it the same way."""
    w, panel = train_dock
    type_into(qtbot, panel.lr, "abc", enter=False)
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: _says_at_the_field(panel, panel.lr, "Can't read 'abc'") and panel.lr.hasFocus())
    assert w.training.trainer.state == "idle" and w.training.trainer.done == 0
    type_into(qtbot, panel.lr, "-1", enter=False)
    press(panel.lr, Qt.Key_T, Qt.ControlModifier)
    qtbot.waitUntil(lambda: _says_at_the_field(panel, panel.lr, "-1 is outside"))
    assert w.training.trainer.state == "idle" and w.training.trainer.done == 0


def test_escape_puts_the_learning_rate_back_and_a_typed_number_is_taken_by_train(train_dock, qtbot):
    """After a refused ``abc``, Escape shows the document's learning rate again and the red marks go; a number typed
    then (no Return) is applied by the Train button before training starts with it."""
    w, panel = train_dock
    before = _lr(w)
    type_into(qtbot, panel.lr, "abc")
    qtbot.waitUntil(lambda: _says_at_the_field(panel, panel.lr, "Can't read"))
    QTest.keyClick(panel.lr, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not panel.refusals[panel.lr].isVisible())
    assert panel.lr.lineEdit().text() == panel.lr.textFromValue(before) and not framed_red(panel.lr)
    type_into(qtbot, panel.lr, "0.05", enter=False)
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.training.trainer.state == "training")
    assert _lr(w) == 0.05
    click(panel.buttons["Pause"])
    qtbot.waitUntil(lambda: w.training.trainer.state != "training")
    assert not panel.refusals[panel.lr].isVisible()


def test_fixing_a_refused_value_clears_its_mark(train_dock, qtbot):
    """``abc`` refused, then ``0.02`` typed over it with Return: the value is taken and the field's marks go."""
    w, panel = train_dock
    type_into(qtbot, panel.lr, "abc")
    qtbot.waitUntil(lambda: _says_at_the_field(panel, panel.lr, "Can't read"))
    type_into(qtbot, panel.lr, "0.02")
    qtbot.waitUntil(lambda: _lr(w) == 0.02)
    assert not panel.refusals[panel.lr].isVisible() and not framed_red(panel.lr)



def test_plots_opened_by_hand_start_on_empty_axes_after_another_document_opens(qtbot, node_types):
    """The spiral classifier: View ▸ Plots opened by hand, two steps taken with Step and the loss plot zoomed with
    the wheel, then File ▸ Examples ▸ a lesson: the Plots show no curve, and every plot is back on the
    axes of a plot that never drew a run (the old run's ranges and the hand zoom stayed), following new data again."""
    from core.nodegraph.files.toy import classifier_graph
    from core.nodegraph.training.runs import RunHistory
    from gui.plots.loss_plot import LossPlot
    from tests.gui.conftest import make_window
    from tests.gui.scenarios import driver as d
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    w = shown(qtbot, make_window(qtbot, classifier_graph("spiral")))
    panel, plot = w.training.panel, w.training.plot
    show_dock(qtbot, w, w.training.docks["train"])
    d.click_menu(qtbot, w, "View", "Plots")
    qtbot.waitUntil(lambda: plot.isVisible() and not plot.visibleRegion().isEmpty())
    for _ in range(2):
        click(panel.buttons["Step"])
    qtbot.waitUntil(lambda: w.training.trainer.done == 2)
    plot.refresh()
    loss = plot.plots["loss"]
    centre = plot.canvas.mapFromScene(loss.vb.sceneBoundingRect().center())
    QTest.mouseMove(plot.canvas.viewport(), centre)
    _wheel(plot.canvas.viewport(), centre)
    qtbot.waitUntil(lambda: not loss.vb.autoRangeEnabled()[0])
    fresh = LossPlot(RunHistory())
    qtbot.addWidget(fresh)
    assert loss.viewRange() != fresh.plots["loss"].viewRange()
    open_example(qtbot, w, "02-broadcasting")
    qtbot.waitUntil(lambda: not plot.items)
    if not plot.isVisible():  # the lesson's own dock layout may put it away: the user opens it again
        d.click_menu(qtbot, w, "View", "Plots")
        qtbot.waitUntil(lambda: plot.isVisible() and not plot.visibleRegion().isEmpty())
    for name, p in plot.plots.items():
        assert p.listDataItems() == [], name
        assert p.viewRange() == fresh.plots[name].viewRange(), name
        assert all(p.vb.autoRangeEnabled()), name
    w.undo_stack.setClean()


def _focused():
    from PySide6.QtWidgets import QApplication

    return QApplication.focusWidget()


def _focus_in(dock) -> bool:
    widget = _focused()
    return widget is not None and dock.isAncestorOf(widget)


def test_ctrl_digits_move_the_keyboard_focus_between_canvas_and_docks(window, qtbot):
    """From the canvas, Ctrl+3 puts the focus in the Train dock's first field (its tab brought to the front), Ctrl+2
    in the Inspector with a node selected (its first parameter, x's values), Ctrl+4 in the Node library's filter,
    and Ctrl+1 back on the canvas; typing there goes where the focus went."""
    from tests.gui.real_input import click_node

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    qtbot.waitUntil(w.view.hasFocus)
    train = w.training.docks["train"]
    press(w, Qt.Key_3, Qt.ControlModifier)
    qtbot.waitUntil(lambda: _focus_in(train) and not train.visibleRegion().isEmpty())
    assert type(_focused()).__name__ == "QComboBox"
    press(w, Qt.Key_2, Qt.ControlModifier)
    qtbot.waitUntil(lambda: _focused() is w.inspector.editors["tensor"])  # x's first parameter: its values
    press(w, Qt.Key_4, Qt.ControlModifier)
    qtbot.waitUntil(lambda: _focus_in(w.library_dock))
    QTest.keyClicks(_focused(), "relu")
    qtbot.waitUntil(lambda: "relu" in _focused().text())
    press(w, Qt.Key_1, Qt.ControlModifier)
    qtbot.waitUntil(w.view.hasFocus)


def test_the_view_menu_lists_the_focus_keys_and_they_are_nobody_elses(window):
    """View ▸ Keyboard focus ▸ Canvas / Inspector / Train / Nodes show Ctrl+1..4 beside them, and no other action has
    those keys (Qt ignores a key two actions share)."""
    from PySide6.QtGui import QAction

    from tests.gui.scenarios.driver import menu_entry

    view = menu_entry(menu_entry(window.menuBar(), "View").menu(), "Keyboard focus").menu()
    for text, key in (("Canvas", "Ctrl+1"), ("Inspector", "Ctrl+2"), ("Train", "Ctrl+3"), ("Nodes", "Ctrl+4")):
        assert menu_entry(view, text).shortcut().toString() == key
        owners = [a for a in window.findChildren(QAction) if any(s.toString() == key for s in a.shortcuts())]
        assert owners == [menu_entry(view, text)]


def test_optimizer_learning_rate_steps_and_the_buttons_show_whole_with_plots_open_at_1366x768(qtbot, node_types):
    """The spiral classifier at 1366x768, one Step clicked (the Plots and Data docks open under the canvas): the
    Train dock shows the optimizer, learning rate and steps fields and the Train/Pause/Step/Reset buttons whole,
    without scrolling; the other settings scroll under "More settings"."""
    from core.nodegraph.files.toy import classifier_graph
    from tests.gui.conftest import make_window

    w = shown(qtbot, make_window(qtbot, classifier_graph("spiral")))
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    click(panel.buttons["Step"])
    plots = w.training.docks["plots"]
    qtbot.waitUntil(lambda: plots.isVisible() and not plots.visibleRegion().isEmpty())
    show_dock(qtbot, w, w.training.docks["train"])
    for field in (panel.optimizer, panel.lr, panel.steps, *panel.buttons.values()):
        qtbot.waitUntil(lambda f=field: f.visibleRegion().boundingRect() == f.rect())
    assert panel.settings_scroll.isAncestorOf(panel.loss) and panel.settings_scroll.isAncestorOf(panel.seed)
    w.undo_stack.setClean()


def test_escape_in_a_field_with_refused_text_reverts_it_and_training_goes_on(qtbot, node_types):
    """While the spiral classifier trains (Esc is Run ▸ Cancel then), ``abc`` typed as the learning rate and refused,
    then Escape in the field: the field shows the learning rate again and training goes on (Esc elsewhere still
    stops it)."""
    from core.nodegraph.files.toy import classifier_graph
    from tests.gui.conftest import make_window

    w = shown(qtbot, make_window(qtbot, classifier_graph("spiral", steps=100_000)))
    panel, trainer = w.training.panel, w.training.trainer
    show_dock(qtbot, w, w.training.docks["train"])
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "training")
    type_into(qtbot, panel.lr, "abc")
    qtbot.waitUntil(lambda: _says_at_the_field(panel, panel.lr, "Can't read"))
    QTest.keyClick(panel.lr, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not panel.refusals[panel.lr].isVisible())
    assert trainer.state == "training"
    QTest.keyClick(panel.lr, Qt.Key_Escape)  # nothing left to revert: Esc is Cancel again
    qtbot.waitUntil(lambda: trainer.state != "training")
    w.undo_stack.setClean()


def test_the_train_docks_numbers_read_as_python_writes_them(window, qtbot):
    """The classifier playground's lesson says Adam (lr 0.05); its Train dock said 0.050000, weight decay 0.00000
    and stop below loss 0.00000. They read 0.05 and 0.0, a typed 0.125 stays 0.125, and the up arrow steps on
    from what is shown."""
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    w = shown(qtbot, window)
    open_example(qtbot, w, "playground-classifier")
    show_dock(qtbot, w, w.training.docks["train"])
    panel = w.training.panel
    qtbot.waitUntil(lambda: panel.lr.isVisible() and panel.lr.lineEdit().text() == "0.05")
    assert panel.weight_decay.lineEdit().text() == "0.0" and panel.loss_below.lineEdit().text() == "0.0"
    type_into(qtbot, panel.lr, "0.125")
    qtbot.waitUntil(lambda: _lr(w) == 0.125)
    assert panel.lr.lineEdit().text() == "0.125"
    QTest.keyClick(panel.lr, Qt.Key_Up)  # the lr box steps by 0.001
    qtbot.waitUntil(lambda: _lr(w) == 0.126)
    assert panel.lr.lineEdit().text() == "0.126"
    w.undo_stack.setClean()


def _arrows(box):
    """The picture of ``box``'s up and down buttons, inside the border the refusal frame paints over."""
    from PySide6.QtWidgets import QStyle, QStyleOptionSpinBox

    opt = QStyleOptionSpinBox()
    box.initStyleOption(opt)
    style = box.style()
    up = style.subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxUp, box)
    down = style.subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxDown, box)
    return box.grab().toImage().copy(up.united(down).adjusted(0, 2, -2, -2))


def test_a_refused_learning_rate_is_framed_red_and_keeps_its_arrows(train_dock, qtbot):
    """``-`` typed as the learning rate: the field is framed red and its up and down arrows look as before (a style
    sheet border made Qt draw the box itself, and the arrows became two flat bars; session 26's walk)."""
    w, panel = train_dock
    click(panel.lr)
    qtbot.waitUntil(panel.lr.hasFocus)
    before = _arrows(panel.lr)
    type_into(qtbot, panel.lr, "-")
    qtbot.waitUntil(lambda: _says_at_the_field(panel, panel.lr, "Can't read '-'"))
    assert framed_red(panel.lr) and panel.lr.hasFocus()
    assert _arrows(panel.lr) == before


def test_a_step_count_out_of_range_names_its_bounds_as_whole_numbers(train_dock, qtbot):
    """``0`` steps: the reason reads ``[1, 10000000]``, as the field takes them (it read ``[1, 1e+07]``)."""
    w, panel = train_dock
    type_into(qtbot, panel.steps, "0")
    qtbot.waitUntil(lambda: _says_at_the_field(panel, panel.steps, f"0 is outside [1, {panel.steps.maximum()}]"))
    assert "e+" not in panel.refusals[panel.steps].text()
