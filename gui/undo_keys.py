"""Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y in a form's text field undo and redo the document once its edit is applied.

A line edit or spin box keeps the focus after Return, and Qt offers it the undo keys first (a
ShortcutOverride it accepts for its own text undo), so Edit > Undo never fired while a field just edited
had the focus: the keys undid the typing in the field, not the edit in the document. ``DocumentUndoKeys``
is an event filter for such fields: while ``applied(field)`` says the field shows the applied value, it
claims the keys and calls ``undo``/``redo``; with typed text not yet applied, the keys keep their
text-editing meaning (so a first Ctrl+Z takes back the typing, the next one the document's last edit).

``redo_on_ctrl_y(window, redo)`` makes Ctrl+Y redo everywhere else in the window too, as Ctrl+Shift+Z (Edit > Redo)
does: on the canvas it did nothing, though it is redo on Windows and in many apps. In a text field or editor that
holds typing of its own, it redoes that typing, as Ctrl+Shift+Z does there, never the document behind it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

__all__ = ["DocumentUndoKeys", "redo_on_ctrl_y"]

_CTRL = Qt.KeyboardModifier.ControlModifier
_CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def _which(event: QKeyEvent) -> str | None:
    """'undo', 'redo' or None for a key event (the platform's bindings, and Ctrl+Shift+Z and Ctrl+Y everywhere)."""
    mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    if event.matches(QKeySequence.StandardKey.Redo) or (event.key(), mods) in (
            (Qt.Key.Key_Z, _CTRL_SHIFT), (Qt.Key.Key_Y, _CTRL)):
        return "redo"
    if event.matches(QKeySequence.StandardKey.Undo) or (event.key(), mods) == (Qt.Key.Key_Z, _CTRL):
        return "undo"
    return None


class DocumentUndoKeys(QObject):
    """Watches fields (``watch``); the undo keys in one that holds its applied value undo/redo the document."""

    def __init__(self, applied: Callable[[QWidget], bool], undo: Callable[[], object], redo: Callable[[], object],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.applied = applied  # field -> True when its text is the value the document holds
        self.actions = {"undo": undo, "redo": redo}

    def watch(self, field: QWidget) -> None:
        """Filter ``field``'s key events (a spin box's inner line edit too: it may be the one with the focus)."""
        field.installEventFilter(self)
        if isinstance(field, QAbstractSpinBox):
            field.lineEdit().installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        which = _which(cast(QKeyEvent, event))  # a shortcut override or key press is a key event
        if which is None:
            return False
        widget = cast(QWidget, obj)  # the filter watches widgets only
        parent = widget.parentWidget()
        field = parent if isinstance(parent, QAbstractSpinBox) else widget
        if not self.applied(field):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # the key press comes to the field (here), not to a window shortcut as well
        else:
            self.actions[which]()
        return True


def redo_on_ctrl_y(window: QWidget, redo: QAction) -> QShortcut:
    """Ctrl+Y in ``window``: the focused text field's own redo, else ``redo`` (Edit > Redo) when it is enabled. A
    field that shows its applied value claims the key first (``DocumentUndoKeys``) and redoes the document."""

    def activated() -> None:
        field = QApplication.focusWidget()
        if isinstance(field, (QLineEdit, QPlainTextEdit, QTextEdit)) and not field.isReadOnly():
            field.redo()
        elif redo.isEnabled():
            redo.trigger()

    shortcut = QShortcut(QKeySequence("Ctrl+Y"), window)
    shortcut.setObjectName("shortcut_redo_ctrl_y")
    shortcut.setProperty("action", redo.objectName())  # Help ▸ Keyboard shortcuts lists Ctrl+Y beside Redo's key
    shortcut.activated.connect(activated)
    return shortcut
