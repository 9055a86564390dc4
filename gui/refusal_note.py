"""The red line under a number field's form row that says why the text kept in the field was refused.

A spin box told ``keep_refused_text()`` (``gui.number_spin_box``) keeps text it can't take, framed in red, and
emits ``refusal_changed(message)``; ``add_refusal_row`` puts that message under the field's row and shows the row
only while there is one. The Train dock and the Inspector use it, so a refused value reads the same in both.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QLabel

from gui.format import sentence
from gui.number_spin_box import FloatSpinBox, IntSpinBox

__all__ = ["add_refusal_row"]

REFUSAL_COLOUR = "color: #e74c3c"  # the red of the field's frame


def add_refusal_row(form: QFormLayout, box: FloatSpinBox | IntSpinBox) -> QLabel:
    """A hidden row under ``box``'s (the last row of ``form``) that shows ``box``'s refusal while it keeps one;
    the row's label is named after the box (``<box name>Refusal``)."""
    note = QLabel("")
    note.setObjectName(f"{box.objectName()}Refusal")
    note.setStyleSheet(REFUSAL_COLOUR)
    note.setWordWrap(True)
    form.addRow(note)
    form.setRowVisible(note, False)

    def show(message: str) -> None:
        note.setText(sentence(message))
        form.setRowVisible(note, bool(message))

    box.refusal_changed.connect(show)
    return note
