"""File ▸ Export image draws the document, not the editing state: a selected node's frame was in the exported
image (a teacher's slide showed whichever node had been clicked last). The selection is still there afterwards."""

from PySide6.QtCore import QPoint
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from tests.gui.real_input import click_menu_action, click_node, shown


def _export(qtbot, w, monkeypatch, target) -> QImage:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "PNG (*.png)"))
    click_menu_action(qtbot, w, "export_image")
    qtbot.waitUntil(lambda: w.status_label.text() == f"Exported {target}")
    return QImage(str(target))


def test_an_exported_image_leaves_the_selection_out_and_keeps_it(qtbot, window, dialogs, tmp_path, monkeypatch):
    w = shown(qtbot, window)
    assert w.scene.selected_node_ids() == []
    plain = _export(qtbot, w, monkeypatch, tmp_path / "plain.png")
    click_node(qtbot, w, "n1")
    QTest.mouseMove(w.view.viewport(), QPoint(3, w.view.viewport().height() - 3))  # no hover on the node
    with_selection = _export(qtbot, w, monkeypatch, tmp_path / "selected.png")
    assert not plain.isNull() and with_selection == plain
    assert w.scene.selected_node_ids() == ["n1"] and dialogs == []
