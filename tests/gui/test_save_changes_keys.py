"""The "Unsaved changes" box answers from the keyboard: its Save and Discard buttons have mnemonics (``&Save``,
``&Discard`` or the platform's ``Do&n't Save``), so one key press answers it, and Esc is Cancel. Qt's static
question wrote them without, so a keyboard user had to Tab to the button."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from gui.document_files import mnemonic_text
from tests.gui.real_input import click_node, shown
from tests.gui.scenarios.driver import answer_dialog

pytest.importorskip("pytestqt")

REAL_QUESTION = QMessageBox.question  # (tests/gui/conftest.py answers message boxes at once: a real one here)
SAVE, DISCARD = QMessageBox.StandardButton.Save, QMessageBox.StandardButton.Discard


@pytest.mark.parametrize("text, expected", [("Save", "&Save"), ("Discard", "&Discard"), ("Don't Save", "Do&n't Save"),
                                            ("Close without Saving", "Close &without Saving"), ("&Yes", "&Yes")])
def test_each_platforms_discard_wording_gets_a_mnemonic(text, expected):
    assert mnemonic_text(text) == expected


def _mnemonic(button) -> Qt.Key:
    text = button.text()
    return Qt.Key(ord(text[text.index("&") + 1].upper()))


@pytest.mark.parametrize("answer", ["save", "discard", "cancel"])
def test_the_unsaved_changes_box_answers_one_key_press(qtbot, window, monkeypatch, tmp_path, answer):
    monkeypatch.setattr(QMessageBox, "question", REAL_QUESTION)
    saved = tmp_path / "kept.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(saved), "Nodegrad graphs (*.json)"))
    w = shown(qtbot, window)
    click_node(qtbot, w, "n3")
    QTest.keyClick(w.view.viewport(), Qt.Key_Delete)  # a real edit: the graph is modified
    qtbot.waitUntil(w.is_modified)
    seen = {}

    def press(box) -> None:
        seen.update(save=box.button(SAVE).text(), discard=box.button(DISCARD).text())
        key = Qt.Key_Escape if answer == "cancel" else _mnemonic(box.button(SAVE if answer == "save" else DISCARD))
        QTest.keyClick(box, key)

    answered = answer_dialog(qtbot, QMessageBox, press)
    QTest.keyClick(w, Qt.Key_N, Qt.ControlModifier)  # File > New asks first
    qtbot.waitUntil(lambda: bool(answered))
    assert seen["save"] == "&Save" and "&" in seen["discard"]
    if answer == "cancel":
        assert "n3" not in w.graph.nodes and len(w.graph.nodes) == 5 and w.is_modified()  # the edited graph stays
        monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: DISCARD)  # closing the window at the end
        return
    qtbot.waitUntil(lambda: not w.graph.nodes and w.path is None)  # the new document
    assert saved.exists() == (answer == "save")
