"""The menus are written as the toolbar and the README write them, in sentence case ("Forward step", "Insert
expression…"); they mixed in Title Case ("Insert Expression…", "Select All", "Run to Selected Node"). Only names
keep their capital: the docks (Inspector, Train, Nodes), Nodegrad and Python."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import click, shown

pytest.importorskip("pytestqt")

NAMES = {"Inspector", "Train", "Nodes", "Nodegrad", "Python", "Lesson", "Plots", "Data", "Autograd", "Diagnostics",
         "Watch", "Code", "History"}
LISTS = {"Examples", "Open recent"}  # lesson titles and file names, not the app's wording


def _title_case_words(text: str) -> list[str]:
    words = text.replace("&", "").split("\t")[0].rstrip("…").split()
    return [w for w in words[1:] if w[:1].isupper() and w.strip("()") not in NAMES]


def test_every_menu_entry_is_in_sentence_case(qtbot, window):
    w = shown(qtbot, window)
    bar = w.menuBar()
    wrong = {}
    for top in bar.actions():
        click(bar, bar.actionGeometry(top).center())
        menu = top.menu()
        qtbot.waitUntil(menu.isVisible)
        entries = [a for a in menu.actions() if not a.isSeparator()]
        for a in entries:
            if a.menu() is not None and a.text().replace("&", "") not in LISTS:
                entries += [b for b in a.menu().actions() if not b.isSeparator()]
        for a in entries:
            if _title_case_words(a.text()):
                wrong[a.text()] = _title_case_words(a.text())
        QTest.keyClick(menu, Qt.Key_Escape)
        qtbot.waitUntil(lambda menu=menu: not menu.isVisible())
    assert wrong == {}
