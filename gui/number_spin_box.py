"""Spin boxes that keep what was typed or refuse it whole, never a part of it.

Qt's spin boxes drop each keystroke they can't place, so typing ``1e999`` into a float field left ``1999`` (issue
#21). Here any text is let into the field: a number in range is taken on Return as usual (``1e-3`` included);
anything else is Intermediate, so Return or leaving the field restores the value shown before and ``refused(text)``
gives the caller the typed text to say why (callers with rules of their own say why in their words). ``refusal(box,
text)`` says why in words for callers without such rules.

A box told ``keep_refused_text(reason)`` (the Train panel's settings, the Inspector's number parameters) instead
keeps the refused text in the field, framed in red (painted over the box: a style sheet border made Qt draw the box
itself, and its arrows were lost) with the reason (``reason(text)``, the caller's rules, else ``refusal``) as its
tooltip, and emits ``refusal_changed(message)`` (``gui.refusal_note`` shows it under the field);
the mark goes when the text becomes a number in range (typed, or the document's value shown again) or on Escape,
which puts the value back (before Run ▸ Cancel's Esc, which takes Escape only when the field shows its value).
``settle(box)`` applies a typed number or marks typed text refused, for an action (Train) that must not run on what
the field shows but does not hold.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QFocusEvent, QKeyEvent, QPainter, QPaintEvent, QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox, QWidget

from gui.format import sentence

__all__ = ["REFUSED_FRAME", "FloatSpinBox", "IntSpinBox", "refusal", "settle"]

_RETURN = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
REFUSED_RED = "#e74c3c"  # the Inspector's refusal red
REFUSED_FRAME = f"border: 1px solid {REFUSED_RED};"  # a line edit's refusal frame (a spin box paints its own)

SpinBox = QSpinBox | QDoubleSpinBox  # refusal reads any of Qt's; the fields here are FloatSpinBox and IntSpinBox
if TYPE_CHECKING:  # what _RefusingBox overrides, for mypy (at run time a plain mixin)
    _SpinBase = QAbstractSpinBox
else:
    _SpinBase = object
Reason = Callable[[str], str | None]  # why a typed text is refused, in the caller's words; None: the caller took it


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
    if _read(box, t) is not None:  # a whole-number box's bounds as whole numbers: 10000000, not 1e+07
        low, high = (box.minimum(), box.maximum()) if isinstance(box, QSpinBox) else (
            f"{box.minimum():g}", f"{box.maximum():g}")
        return f"{t} is outside [{low}, {high}]"
    try:
        if math.isinf(float(t)):  # 1e999 (2.5 in a whole-number box is no number it can read)
            return f"{t} is too large to read"
    except ValueError:
        pass
    kind = "a whole number" if isinstance(box, QSpinBox) else "a number"
    if not t:
        return f"Empty: type {kind}"
    return f"Can't read '{t}' (type {kind})"


def _state(box: SpinBox, base_state: QValidator.State, text: str) -> QValidator.State:
    """Acceptable for a number in range (Qt's own reading or Python's, which takes ``1e-3``), else Intermediate:
    no keystroke is dropped."""
    if base_state == QValidator.State.Acceptable or _taken(box, text) is not None:
        return QValidator.State.Acceptable
    return QValidator.State.Intermediate


def _refuse_typed(box: FloatSpinBox | IntSpinBox, event: QKeyEvent | None = None) -> str | None:
    """On Return (``event`` a key press) or leaving the field: typed text that is not acceptable is refused (and
    returned)."""
    if event is not None and event.key() not in _RETURN:
        return None
    text = box.lineEdit().text()
    if box.validate(text, 0)[0] != QValidator.State.Acceptable:
        box.refused.emit(text)  # Qt then puts the previous value back
        return text
    return None


class _Refusal:
    """A box's kept refusal: the text it refused and the red frame and tooltip that say why (see the module)."""

    def __init__(self, box: FloatSpinBox | IntSpinBox) -> None:
        self.box, self.tip, self.keeps = box, "", False
        self.text: str | None = None  # the refused text the field keeps showing, None when there is none
        self.reason: Reason | None = None  # the caller's words for a refused text (None: ``refusal``'s)
        box.textChanged.connect(self._on_text)

    def keep(self, refused: str | None) -> None:
        """After Qt handled Return or focus-out: put the refused text back and mark it."""
        if not self.keeps or refused is None:
            return
        box = self.box
        message = self.reason(refused) if self.reason is not None else refusal(box, refused)
        if message is None:  # the caller's rules took the text after all
            return
        message = sentence(message)  # a parameter's own rule reads as core says it ("must be >= 0, got -2")
        if box.lineEdit().text() != refused:
            box.lineEdit().setText(refused)
        if self.text is None:
            self.tip = box.toolTip()
        self.text = refused
        box.update()  # the red frame (paint_frame)
        box.setToolTip(message)
        box.refusal_changed.emit(message)

    def clear(self) -> None:
        if self.text is None:
            return
        self.text = None
        self.box.update()
        self.box.setToolTip(self.tip)
        self.box.refusal_changed.emit("")

    def paint_frame(self) -> None:
        """After the box painted itself: a red frame over its border while it keeps a refused text."""
        if self.text is None:
            return
        painter = QPainter(self.box)
        painter.setPen(QColor(REFUSED_RED))
        painter.drawRect(self.box.rect().adjusted(0, 0, -1, -1))
        painter.end()

    def reverts(self, event: QKeyEvent) -> bool:
        """Whether ``event`` is an Escape this field uses: it shows something other than its value."""
        box = self.box
        return (self.keeps and event.key() == Qt.Key.Key_Escape
                and (self.text is not None or box.lineEdit().text() != _value_text(box)))

    def escape(self, event: QKeyEvent) -> bool:
        """Escape puts the field's value back when it shows anything else; True when it did."""
        if not self.reverts(event):
            return False
        self.revert()
        return True

    def revert(self) -> None:
        """Show the box's value and drop a kept refusal: Escape's, and a new document's (its settings replace
        what was typed for the last one)."""
        self.box.lineEdit().setText(_value_text(self.box))
        self.clear()

    def claims(self, event: QEvent) -> bool:
        """A shortcut override for an Escape the field uses (Run ▸ Cancel's Esc would take it first)."""
        if event.type() == QEvent.Type.ShortcutOverride and self.reverts(cast(QKeyEvent, event)):
            event.accept()
            return True
        return False

    def _on_text(self, text: str) -> None:
        if self.text is not None and text != self.text and self.box.validate(text, 0)[0] == QValidator.State.Acceptable:
            self.clear()


def _value_text(box: FloatSpinBox | IntSpinBox) -> str:
    """The text the box shows for its value."""
    if isinstance(box, IntSpinBox):
        return box.textFromValue(box.value())
    return box.textFromValue(box.value())


def select_whole(box: QAbstractSpinBox) -> None:
    """Select all of ``box``'s text where part of it is selected. Qt keeps a selection's start and length over the
    text a new value writes: "0.1" selected after Return, Ctrl+Z wrote 0.01 and "0.0" of it stayed selected."""
    edit = box.lineEdit()
    if edit.hasSelectedText() and edit.selectedText() != edit.text():
        box.selectAll()


def settle(box: FloatSpinBox | IntSpinBox) -> bool:
    """Apply what ``box`` shows: a number in range becomes its value (True); other text is refused and, for a box
    that keeps refused text, stays marked in the field (False)."""
    text = box.lineEdit().text()
    if box.validate(text, 0)[0] != QValidator.State.Acceptable:
        box.refused.emit(text)
        box.refusal.keep(text)
        return False
    box.interpretText()
    return True


class _RefusingBox(_SpinBase):
    """What both boxes do with typed text (see the module): keep a refusal, take Escape from a shortcut, refuse on
    Return and on leaving the field, paint the red frame. Put before the Qt class in a box's bases: Qt calls these
    overrides through it (each box keeps its own ``refused``/``refusal_changed`` signals and ``valueFromText``)."""

    refusal: _Refusal

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.refusal = _Refusal(self)  # type: ignore[arg-type]

    def keep_refused_text(self, reason: Reason | None = None) -> None:
        self.refusal.keeps, self.refusal.reason = True, reason

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        return _state(self, super().validate(text, pos)[0], text), text, pos  # type: ignore[arg-type]

    def event(self, event: QEvent) -> bool:
        return self.refusal.claims(event) or super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.refusal.escape(event):
            return
        refused = _refuse_typed(self, event)  # type: ignore[arg-type]
        super().keyPressEvent(event)
        self.refusal.keep(refused)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        refused = _refuse_typed(self)  # type: ignore[arg-type]
        super().focusOutEvent(event)
        self.refusal.keep(refused)

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        super().paintEvent(event)
        self.refusal.paint_frame()


class FloatSpinBox(_RefusingBox, QDoubleSpinBox):
    refused = Signal(str)
    refusal_changed = Signal(str)  # a kept refusal's message, "" when it is gone

    def valueFromText(self, text: str) -> float:
        value = _taken(self, text)
        return float(value) if value is not None else super().valueFromText(text)

    def textFromValue(self, value: float) -> str:  # Qt override
        """The value as Python writes it, to the box's decimals: ``0.05`` and ``0.0``, not ``0.050000`` and
        ``0.00000`` (the padding read as precision the setting does not have, beside the lesson's ``lr 0.05``)."""
        text = f"{value:.{self.decimals()}f}".rstrip("0")
        return text + "0" if text.endswith(".") else text


class IntSpinBox(_RefusingBox, QSpinBox):
    refused = Signal(str)
    refusal_changed = Signal(str)  # a kept refusal's message, "" when it is gone

    def valueFromText(self, text: str) -> int:
        value = _taken(self, text)
        return int(value) if value is not None else super().valueFromText(text)
