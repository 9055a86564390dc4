"""Every menu entry answers a letter of its own after Alt and its menu's letter: the View menu's dock toggles had
none (Alt+V, then nothing reached Plots), File had two R's (Open recent, Revert), Edit two U's and C's, Run two B's,
C's and T's; Examples and Open recent, made from titles and file names, had none. The focus keys moved to
View ▸ Keyboard focus (the View menu's letters ran out: the four 'Focus ...' entries and the docks share theirs)."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from gui import file_ops
from gui.menu_letters import numbered, with_letters
from tests.gui.real_input import shown


def _letter(text: str) -> str | None:
    text = text.split("\t", 1)[0].replace("&&", "")
    i = text.find("&")
    return text[i + 1].lower() if 0 <= i < len(text) - 1 else None


def _clashes(menu: QMenu, path: str, found: list[str]) -> None:
    menu.aboutToShow.emit()  # Examples and Open recent fill as they open
    letters: dict[str | None, list[str]] = {}
    for action in menu.actions():
        if action.isSeparator() or not action.isVisible():
            continue
        letters.setdefault(_letter(action.text()), []).append(action.text())
        if isinstance(action.menu(), QMenu):
            _clashes(action.menu(), f"{path} ▸ {action.text()}", found)
    found += [f"{path}: {texts}" for letter, texts in letters.items() if letter is None or len(texts) > 1]


def test_every_menu_entry_has_an_alt_letter_no_other_entry_of_its_menu_has(window, tmp_path):
    for k in range(3):
        file_ops.remember_file(str(tmp_path / f"g{k}.json"))
    found: list[str] = []
    for top in window.menuBar().actions():
        _clashes(top.menu(), top.text(), found)
    assert found == []


def test_titles_get_a_free_letter_and_keep_their_ampersands():
    assert with_letters(["1. Tensors", "10. Diagnosing failures", "Playground: a 2-D classifier",
                         "Playground: a small convnet", "R&D"]) == \
        ["&1. Tensors", "10. &Diagnosing failures", "&Playground: a 2-D classifier",
         "Playground: &a small convnet", "&R&&D"]
    assert numbered(["a.json", "b&c.json"]) == ["&1 a.json", "&2 b&&c.json"]


def _open_by_keys(qtbot, w, letter: Qt.Key) -> QMenu:
    """Alt+letter on the window: the menu bar's menu of that letter opens."""
    QTest.keyClick(w, letter, Qt.AltModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    return QApplication.activePopupWidget()


def test_alt_v_then_a_docks_letter_shows_and_hides_it(qtbot, window):
    w = shown(qtbot, window)
    plots = w.training.docks["plots"]
    assert plots.isHidden()  # before training
    QTest.keyClick(_open_by_keys(qtbot, w, Qt.Key_V), Qt.Key_P)  # View ▸ &Plots
    qtbot.waitUntil(lambda: plots.isVisible() and QApplication.activePopupWidget() is None)
    QTest.keyClick(_open_by_keys(qtbot, w, Qt.Key_V), Qt.Key_P)
    qtbot.waitUntil(plots.isHidden)


def test_alt_v_k_c_gives_the_canvas_the_keyboard(qtbot, window):
    w = shown(qtbot, window)
    filter_field = w.library_panel.filter_edit
    w.library_dock.raise_()
    QTest.keyClick(_open_by_keys(qtbot, w, Qt.Key_V), Qt.Key_K)  # View ▸ &Keyboard focus ▸
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None
                    and QApplication.activePopupWidget().title() == "&Keyboard focus")
    QTest.keyClick(QApplication.activePopupWidget(), Qt.Key_N)  # &Nodes: the library's filter
    qtbot.waitUntil(filter_field.hasFocus)
    QTest.keyClick(_open_by_keys(qtbot, w, Qt.Key_V), Qt.Key_K)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None
                    and QApplication.activePopupWidget().title() == "&Keyboard focus")
    QTest.keyClick(QApplication.activePopupWidget(), Qt.Key_C)  # &Canvas
    qtbot.waitUntil(w.view.hasFocus)
