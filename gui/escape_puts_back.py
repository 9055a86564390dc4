"""Escape in a form's text field puts the document's value back, as it does in a number field.

The Inspector's shape, dims, tensor and seed fields (line edits) keep text they refuse, framed in red with the
reason under it (``gui.refusal_note``); the number fields' Escape put their value back (``gui.number_spin_box``),
but a line edit has no such key, so ``abc`` typed into a seed stayed until the learner typed a valid one. An
``EscapePutsBack`` filter on such fields: while ``changed(field)`` says the field shows something other than the
document's value (typed text, or a refusal still marked), it claims Escape (before Run ▸ Cancel's Esc, which takes
the key only when the field shows its value) and calls ``put_back(field)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit

__all__ = ["EscapePutsBack"]


class EscapePutsBack(QObject):
    """Watches line edits (``watch``); Escape in one that shows anything but the document's value puts it back."""

    def __init__(self, changed: Callable[[QLineEdit], bool], put_back: Callable[[QLineEdit], object],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.changed = changed  # field -> True when it shows typed text or a refusal
        self.put_back = put_back  # field -> show the document's value in it and take any refusal away

    def watch(self, field: QLineEdit) -> None:
        field.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        key = cast(QKeyEvent, event)  # a shortcut override or key press is a key event
        if key.key() != Qt.Key.Key_Escape or key.modifiers() != Qt.KeyboardModifier.NoModifier:
            return False
        field = cast(QLineEdit, obj)  # the filter watches line edits only
        if not self.changed(field):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # the key press comes to the field (here), not to Run ▸ Cancel's Esc
        else:
            self.put_back(field)
        return True
