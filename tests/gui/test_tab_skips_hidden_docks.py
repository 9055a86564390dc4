"""Tab and Shift+Tab pass over the docks tabbed out of sight: the Inspector and Train share a column, and Qt counts
the one behind as visible, so Tab from the Inspector's value went on into the Train dock's fields (the learner's
next keys changed settings they could not see)."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTabBar

from tests.gui.real_input import click_node, press, shown


def _in_dock(widget, dock) -> bool:
    return widget is dock or dock.isAncestorOf(widget)


def _tab(qtbot, modifier=Qt.NoModifier):
    before = QApplication.focusWidget()
    QTest.keyClick(before, Qt.Key_Tab, modifier)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not before)
    return QApplication.focusWidget()


def test_tab_from_the_inspectors_last_field_skips_the_train_dock_tabbed_behind_it(qtbot, window):
    w = shown(qtbot, window)
    train, inspector = w.training.docks["train"], w.inspector
    assert train in w.tabifiedDockWidgets(w.inspector_dock)
    qtbot.waitUntil(lambda: train.visibleRegion().isEmpty() and not w.inspector_dock.visibleRegion().isEmpty())
    click_node(qtbot, w, next(nid for nid, n in w.graph.nodes.items() if n.title == "x"))
    press(w, Qt.Key_2, Qt.ControlModifier)  # View ▸ Focus Inspector: the first parameter
    qtbot.waitUntil(lambda: inspector.editors["tensor"].hasFocus())
    for _ in range(8):  # down the Inspector to its value, the last field
        if inspector.value_view.hasFocus():
            break
        _tab(qtbot)
    assert inspector.value_view.hasFocus()
    landed = _tab(qtbot)
    assert not _in_dock(landed, train), "Tab went into the Train dock tabbed behind the Inspector"
    assert landed.isVisible() and not landed.visibleRegion().isEmpty(), f"Tab went out of sight, to {landed}"
    assert not isinstance(landed, QTabBar) or landed.count() > 0, "Tab went to a spare tab bar parked off screen"
    _tab(qtbot, Qt.ShiftModifier)  # and Shift+Tab comes back
    qtbot.waitUntil(inspector.value_view.hasFocus)


def test_with_train_in_front_tab_goes_round_its_fields_and_never_into_the_inspector_behind(qtbot, window):
    w = shown(qtbot, window)
    train = w.training.docks["train"]
    click_node(qtbot, w, next(nid for nid, n in w.graph.nodes.items() if n.title == "w"))  # Inspector fields made
    press(w, Qt.Key_3, Qt.ControlModifier)  # View ▸ Focus Train: now the Inspector is the one behind
    qtbot.waitUntil(lambda: _in_dock(QApplication.focusWidget(), train))
    qtbot.waitUntil(lambda: w.inspector_dock.visibleRegion().isEmpty())
    in_train = 1
    for _ in range(40):  # Tab round the Train dock and out of it: never into the Inspector
        landed = _tab(qtbot)
        assert not _in_dock(landed, w.inspector_dock), "Tab went into the Inspector tabbed behind Train"
        if not _in_dock(landed, train):
            break
        in_train += 1
    assert in_train > 5, "Tab passed over the Train dock's own fields"  # its policies came back after each press
    press(w, Qt.Key_2, Qt.ControlModifier)  # the Inspector in front again takes Tab as before
    qtbot.waitUntil(lambda: _in_dock(QApplication.focusWidget(), w.inspector_dock))
    assert _in_dock(_tab(qtbot), w.inspector_dock)
