"""Spin boxes that keep what was typed or refuse it whole, never a part of it.

Qt's spin boxes drop each keystroke they can't place, so typing ``1e999`` into a float field left ``1999``
(issue #21). Here any text is let into the field: a number in range is taken on Return as usual (``1e-3``
included); anything else is Intermediate, so Return or leaving the field restores the value shown before and
``refused(text)`` gives the caller the typed text to say why (the Inspector reads it with the parameter's own
rules and shows their message). ``refusal(box, text)`` says why in words for callers without such rules.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox

__all__ = ["FloatSpinBox", "IntSpinBox", "refusal"]

_RETURN = (Qt.Key.Key_Return, Qt.Key.Key_Enter)

SpinBox = QSpinBox | QDoubleSpinBox  # refusal reads any of Qt's; the fields here are FloatSpinBox and IntSpinBox


def _read(box: SpinBox, text: str) -> int | float | None:
    """The number ``text`` holds for ``box`` (float or int), or None; infinity and NaN are no numbers here."""
    t = text.strip()
    try:
        value = int(t) if isinstance(box, QSpinBox) else float(t)
    except ValueError:
        return None
    return value if not (isinstance(value, float) and not math.isfinite(value)) else None


def _taken(box: SpinBox, text: str) -> int | float | None:
    """The in-range number ``text`` holds, or None."""
    value = _read(box, text)
    return value if value is not None and box.minimum() <= value <= box.maximum() else None


def refusal(box: SpinBox, text: str) -> str:
    """Why ``text`` can't be ``box``'s value, in words."""
    t = text.strip()
    if _read(box, t) is not None:
        return f"{t} is outside [{box.minimum():g}, {box.maximum():g}]"
    try:
        if not math.isnan(float(t)):
            return f"{t} is too large to read"
    except ValueError:
        pass
    kind = "a whole number" if isinstance(box, QSpinBox) else "a number"
    return f"can't read '{t}' (type {kind})"


def _state(box: SpinBox, base_state: QValidator.State, text: str) -> QValidator.State:
    """Acceptable for a number in range (Qt's own reading or Python's, which takes ``1e-3``), else Intermediate:
    no keystroke is dropped."""
    if base_state == QValidator.State.Acceptable or _taken(box, text) is not None:
        return QValidator.State.Acceptable
    return QValidator.State.Intermediate


def _refuse_typed(box: FloatSpinBox | IntSpinBox, event: QKeyEvent | None = None) -> None:
    """On Return (``event`` a key press) or leaving the field: typed text that is not acceptable is refused."""
    if event is not None and event.key() not in _RETURN:
        return
    text = box.lineEdit().text()
    if box.validate(text, 0)[0] != QValidator.State.Acceptable:
        box.refused.emit(text)  # Qt then puts the previous value back


class FloatSpinBox(QDoubleSpinBox):
    refused = Signal(str)

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        return _state(self, super().validate(text, pos)[0], text), text, pos

    def valueFromText(self, text: str) -> float:
        value = _taken(self, text)
        return float(value) if value is not None else super().valueFromText(text)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        _refuse_typed(self, event)
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        _refuse_typed(self)
        super().focusOutEvent(event)


class IntSpinBox(QSpinBox):
    refused = Signal(str)

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        return _state(self, super().validate(text, pos)[0], text), text, pos

    def valueFromText(self, text: str) -> int:
        value = _taken(self, text)
        return int(value) if value is not None else super().valueFromText(text)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        _refuse_typed(self, event)
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        _refuse_typed(self)
        super().focusOutEvent(event)
