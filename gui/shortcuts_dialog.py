"""Help ▸ Keyboard shortcuts (F1): every key the window answers in one list, for a teacher at a projector or a
newcomer who wants them without opening each menu.

The list is read from the window's menus at the moment it opens (``shortcut_rows``), so it names exactly the keys
the menus have, those added by other parts of the window (the lesson's presentation mode, the focus keys) included,
plus the keys the canvas answers without a menu entry (``CANVAS_KEYS``). An entry lists every key that triggers
it: all of its action's shortcuts and the window's ``QShortcut`` objects that stand in for it (their ``"action"``
property names the action's object name, as Edit ▸ Redo's Ctrl+Y does), so Redo reads "Ctrl+Shift+Z, Ctrl+Y".
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence, QShortcut
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


Extra = dict[str, list[str]]  # an action's object name -> the keys of the QShortcuts that stand in for it


def _extra_keys(window: QMainWindow) -> Extra:
    """The keys of the window's ``QShortcut`` objects, by the object name of the action each stands in for."""
    extra: Extra = {}
    for shortcut in window.findChildren(QShortcut):
        name = shortcut.property("action")
        if name and shortcut.isEnabled():
            extra.setdefault(str(name), []).append(shortcut.key().toString(QKeySequence.SequenceFormat.NativeText))
    return extra


def _key(action: QAction, extra: Extra) -> str:
    """Every key of the action as the table shows it ("Ctrl+Shift+Z, Ctrl+Y"): its shortcuts and the QShortcuts
    that stand in for it, or the key a widget answers (after a tab in its text)."""
    keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()]
    keys += [k for k in extra.get(action.objectName(), ()) if k not in keys]
    key = ", ".join(k for k in keys if k)
    if not key and "\t" in action.text():
        key = action.text().split("\t", 1)[1]
    return key


def _submenu(action: QAction) -> QMenu | None:
    """The menu an entry opens (PySide6 types ``QAction.menu`` as a QObject)."""
    menu = action.menu()
    return menu if isinstance(menu, QMenu) else None


def _walk(menu: QMenu, path: str, rows: list[tuple[str, str, str]], extra: Extra) -> None:
    for action in menu.actions():
        sub = _submenu(action)
        if sub is not None:
            _walk(sub, f"{path} ▸ {sub.title().replace('&', '')}", rows, extra)
        elif not action.isSeparator() and _key(action, extra):
            rows.append((path, action.text().split("\t", 1)[0].replace("&", ""), _key(action, extra)))


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str, str]]:
    """``[(menu, command, key)]``: each menu entry with a key, in menu order, then the canvas's own keys."""
    rows: list[tuple[str, str, str]] = []
    extra = _extra_keys(window)
    for top in window.menuBar().actions():
        menu = _submenu(top)
        if menu is not None:
            _walk(menu, menu.title().replace("&", ""), rows, extra)
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
