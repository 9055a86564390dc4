"""Help ▸ Keyboard shortcuts (F1): every key the window answers in one list, for a teacher at a projector or a
newcomer who wants them without opening each menu.

The list is read from the window's menus at the moment it opens (``shortcut_rows``), so it names exactly the keys
the menus have, those added by other parts of the window (the lesson's presentation mode, the focus keys) included,
plus the keys the canvas answers without a menu entry (``CANVAS_KEYS``).
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

__all__ = ["CANVAS_KEYS", "ShortcutsDialog", "shortcut_rows"]

# (what, key) the canvas answers itself, with no menu entry of its own
CANVAS_KEYS = [
    ("Add a node (the palette)", "Tab or a double-click on empty canvas"),
    ("Edit a node in the Inspector (its first field)", "Double-click on the node"),
    ("Select the node nearest the middle, then the next one that way", "Arrow keys"),
    ("Leave the canvas for the field before it", "Shift+Tab"),
    ("Connect two ports", "Drag from a port to a port"),
    ("Zoom around the mouse", "Mouse wheel or a pinch"),
]


def _key(action: QAction) -> str:
    """The action's key as its menu shows it: its shortcut, or the key a widget answers (after a tab in its text)."""
    key = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    if not key and "\t" in action.text():
        key = action.text().split("\t", 1)[1]
    return key


def _submenu(action: QAction) -> QMenu | None:
    """The menu an entry opens (PySide6 types ``QAction.menu`` as a QObject)."""
    menu = action.menu()
    return menu if isinstance(menu, QMenu) else None


def _walk(menu: QMenu, path: str, rows: list[tuple[str, str, str]]) -> None:
    for action in menu.actions():
        sub = _submenu(action)
        if sub is not None:
            _walk(sub, f"{path} ▸ {sub.title().replace('&', '')}", rows)
        elif not action.isSeparator() and _key(action):
            rows.append((path, action.text().split("\t", 1)[0].replace("&", ""), _key(action)))


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str, str]]:
    """``[(menu, command, key)]``: each menu entry with a key, in menu order, then the canvas's own keys."""
    rows: list[tuple[str, str, str]] = []
    for top in window.menuBar().actions():
        menu = _submenu(top)
        if menu is not None:
            _walk(menu, menu.title().replace("&", ""), rows)
    rows.extend(("Canvas", what, key) for what, key in CANVAS_KEYS)
    return rows


class ShortcutsDialog(QDialog):
    """A read-only table of ``shortcut_rows``: Menu, Command, Key; Esc or Close closes it."""

    def __init__(self, window: QMainWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent if parent is not None else window)
        self.setWindowTitle("Keyboard shortcuts")
        self.setFont(window.font())  # a dialog is a window of its own: in presentation mode it reads as large
        rows = shortcut_rows(window)
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setObjectName("shortcutsTable")
        self.table.setHorizontalHeaderLabels(["Menu", "Command", "Key"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.resizeRowsToContents()
        width = sum(self.table.columnWidth(c) for c in range(3)) + 60
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        screen = window.screen().availableGeometry() if window.screen() is not None else None
        height = self.table.verticalHeader().length() + self.table.horizontalHeader().height() + 90
        if screen is not None:
            width, height = min(max(width, 520), screen.width() - 40), min(height, screen.height() - 80)
        self.resize(width, height)
