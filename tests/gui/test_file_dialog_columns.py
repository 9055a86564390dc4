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
