"""Help ▸ Lessons: a titled dialog listing the chapter's lessons, each with the first sentences of its text.

It replaced a bare popup menu in the middle of the window (no title, no word on what a lesson is). Return or a
double-click opens the selected lesson (``chosen(lesson)``; the window opens its graph with the text beside it),
Escape or Close closes it. It fits a 1366x768 screen with room around it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from core.nodegraph.lessons.texts import Lesson

__all__ = ["LessonsDialog", "summary"]

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_SENTENCE_END = re.compile(r"(?<=[.:!?])\s+(?=[A-Z`*\[])")
SIZE = (620, 520)  # a 1366x768 screen keeps the window's edges in view around it


def summary(lesson: Lesson, sentences: int = 2) -> str:
    """The first ``sentences`` sentences of the lesson's introduction as plain text (links, code marks and bold
    taken out)."""
    paragraph = lesson.intro.strip().split("\n\n")[0]
    text = _LINK.sub(r"\1", paragraph).replace("`", "").replace("**", "")
    text = " ".join(text.split())
    return " ".join(_SENTENCE_END.split(text)[:sentences])


class LessonsDialog(QDialog):
    chosen = Signal(object)  # the Lesson to open

    def __init__(self, lessons: Sequence[Lesson], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lessonsDialog")
        self.setWindowTitle("Lessons")
        self.lessons = list(lessons)
        intro = QLabel("Each lesson opens its graph with the text beside it, in the Lesson tab: what to look at, "
                       "what to press and what to expect.")
        intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("lessonList")
        for lesson in self.lessons:
            item = QListWidgetItem(lesson.title)
            item.setToolTip(summary(lesson, 3))
            self.list.addItem(item)
        self.about = QLabel("")
        self.about.setObjectName("lessonSummary")
        self.about.setWordWrap(True)
        self.about.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.about.setMinimumHeight(self.fontMetrics().lineSpacing() * 4)  # the summary's lines don't move the list
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Close)
        buttons.setObjectName("lessonButtons")
        self.open_button = buttons.button(QDialogButtonBox.StandardButton.Open)
        self.open_button.setDefault(True)
        buttons.accepted.connect(self.open_selected)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.about)
        layout.addWidget(buttons)
        self.list.currentRowChanged.connect(self._show_summary)
        self.list.itemDoubleClicked.connect(lambda _item: self.open_selected())  # Return: the default Open button
        if self.lessons:
            self.list.setCurrentRow(0)
        self.list.setFocus()
        self.resize(*SIZE)

    def select(self, key: str | None) -> None:
        """Select the lesson with ``key`` (the one open in the window), when there is one."""
        row = next((i for i, lesson in enumerate(self.lessons) if lesson.key == key), None)
        if row is not None:
            self.list.setCurrentRow(row)

    def _show_summary(self, row: int) -> None:
        self.about.setText(summary(self.lessons[row]) if 0 <= row < len(self.lessons) else "")
        self.open_button.setEnabled(0 <= row < len(self.lessons))

    def open_selected(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.lessons):
            self.accept()
            self.chosen.emit(self.lessons[row])
