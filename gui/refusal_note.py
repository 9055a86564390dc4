"""The red line under a field's form row that says why the text kept in the field was refused.

A spin box told ``keep_refused_text()`` (``gui.number_spin_box``) keeps text it can't take, framed in red, and
emits ``refusal_changed(message)``; ``add_refusal_row`` puts that message under the field's row and shows the row
only while there is one. The Train dock and the Inspector use it, so a refused value reads the same in both.
A line edit (the Inspector's shape, dims, tensor fields) has no such signal: ``add_line_refusal_row`` gives the
caller a function that frames the field red and says why under it, or clears both, so a refused list reads as a
refused number does (the typed text stays in the field either way).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit

from gui.format import sentence
from gui.number_spin_box import REFUSED_FRAME, FloatSpinBox, IntSpinBox

__all__ = ["add_line_refusal_row", "add_refusal_row"]

REFUSAL_COLOUR = "color: #e74c3c"  # the red of the field's frame


def add_refusal_row(form: QFormLayout, box: FloatSpinBox | IntSpinBox) -> QLabel:
    """A hidden row under ``box``'s (the last row of ``form``) that shows ``box``'s refusal while it keeps one;
    the row's label is named after the box (``<box name>Refusal``)."""
    note = _note_row(form, box.objectName())

    def show(message: str) -> None:
        note.setText(sentence(message))
        form.setRowVisible(note, bool(message))

    box.refusal_changed.connect(show)
    return note


def add_line_refusal_row(form: QFormLayout, line: QLineEdit) -> tuple[QLabel, Callable[[str], None]]:
    """A hidden row under ``line``'s (the last row of ``form``), and ``mark(message)``: a message frames ``line``
    red, puts the message in its tooltip and shows it under the field; an empty one takes all that away."""
    note = _note_row(form, line.objectName())
    tip = line.toolTip()

    def mark(message: str) -> None:
        note.setText(sentence(message))
        form.setRowVisible(note, bool(message))
        line.setStyleSheet(REFUSED_FRAME if message else "")
        line.setToolTip(sentence(message) if message else tip)

    return note, mark


def _note_row(form: QFormLayout, field_name: str) -> QLabel:
    note = QLabel("")
    note.setObjectName(f"{field_name}Refusal")
    note.setStyleSheet(REFUSAL_COLOUR)
    note.setWordWrap(True)
    form.addRow(note)
    form.setRowVisible(note, False)
    return note
