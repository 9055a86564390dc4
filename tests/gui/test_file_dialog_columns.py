"""File ▸ Open's dialog reads whole: Qt's own file dialog (the one the app gets without a native one) opened at its
default size cut its type column to "JSO…ent" in a 1366x768 window. It now takes room within its screen, and its
name, size, type and date columns are as wide as what they show."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QTreeView

from core.nodegraph.lessons import EXAMPLES_DIR
from tests.gui.real_input import press, shown
from tests.gui.scenarios.driver import answer_dialog

pytest.importorskip("pytestqt")


def test_the_open_dialogs_columns_show_whole_names_and_types(qtbot, window):
    w = shown(qtbot, window)
    assert w.open_path(str(EXAMPLES_DIR / "04-autograd-graph.json"))  # the dialog starts in the examples folder
    seen = {}

    def read_columns(dialog) -> None:
        try:
            _read(dialog)
        finally:  # whatever was found, the dialog closes (a failed check would leave it waiting forever)
            QTest.keyClick(dialog, Qt.Key_Escape)

    def _read(dialog) -> None:
        view = dialog.findChild(QTreeView)
        model, root, header = view.model(), view.rootIndex(), view.header()
        qtbot.waitUntil(lambda: model.rowCount(view.rootIndex()) >= 13)  # the examples listed (the folder loads)
        root = view.rootIndex()
        metrics = view.fontMetrics()

        def cut() -> list[str]:  # texts wider than their column, or columns narrower than the view says they need
            return [text for row in range(model.rowCount(root)) for column in range(4)
                    if (text := str(model.index(row, column, root).data() or ""))
                    and header.sectionSize(column) < max(
                        metrics.horizontalAdvance(text), view.sizeHintForColumn(column))]

        qtbot.waitUntil(lambda: not cut())  # the columns follow the entries as their types load
        seen.update(types={str(model.index(r, 2, root).data()) for r in range(model.rowCount(root))},
                    inside=dialog.screen().availableGeometry().contains(dialog.frameGeometry()))

    answered = answer_dialog(qtbot, QFileDialog, read_columns)
    press(w, Qt.Key_O, Qt.ControlModifier)  # File > Open
    qtbot.waitUntil(lambda: bool(answered), timeout=20_000)
    assert any("JSON" in t for t in seen["types"]) and seen["inside"]


def test_the_open_dialogs_dates_read_year_month_day_whatever_the_locale(qtbot, window):
    """Under LANG=C(.UTF-8) Qt's own dialog wrote "7 12 2026 13:45" (July or December?); it now reads 2026-12-07."""
    import re

    w = shown(qtbot, window)
    seen: list[str] = []

    def read_dates(dialog) -> None:
        try:
            view = dialog.findChild(QTreeView)
            qtbot.waitUntil(lambda: view.model().rowCount(view.rootIndex()) >= 13)  # the examples are listed
            model, root = view.model(), view.rootIndex()
            seen.extend(str(model.index(r, 3, root).data()) for r in range(model.rowCount(root)))
        finally:
            QTest.keyClick(dialog, Qt.Key_Escape)

    assert w.open_path(str(EXAMPLES_DIR / "04-autograd-graph.json"))  # the dialog starts in the examples folder
    answered = answer_dialog(qtbot, QFileDialog, read_dates)
    press(w, Qt.Key_O, Qt.ControlModifier)  # File > Open
    qtbot.waitUntil(lambda: bool(answered), timeout=20_000)
    assert seen and all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", text) for text in seen), seen
