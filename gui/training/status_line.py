"""One line of text that changes many times a second (training progress) without relaying out the window.

A ``QLabel.setText`` asks its layout to recompute, and each layout up the chain does the same: every
progress update relaid out the dock and the main window (with its dock animations), 1-3 ms each. This
line has a fixed height and a size hint that does not depend on its text, so a new text is only a repaint
of the line. Text too long for the width is elided (a text of several lines shows its first); ``cut_changed``
says when the text stops or starts fitting, so the window can offer the whole of it (``gui.status_details``).
With ``wrap`` a text too wide for one line breaks at its " · " separators onto a second line (the Train dock's
"579 / 100000 steps · loss 0.0009 · 194 steps/s · 23.9 s left" in a dock 300 pixels wide at 1366x768): the height
changes only when the number of lines does, so a progress update stays a repaint.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

__all__ = ["StatusLine"]


class StatusLine(QWidget):
    """A label for text that changes while training: ``setText``/``text`` like ``QLabel``."""

    cut_changed = Signal(bool)  # True: the text no longer shows whole (too wide, or more than one line)
    height_changed = Signal(int)  # a new font (presentation mode's) gave the line a new fixed height

    def __init__(self, text: str = "", parent: QWidget | None = None, objectName: str = "", wrap: bool = False):
        super().__init__(parent)
        if objectName:
            self.setObjectName(objectName)
        self._text = text
        self._cut = False
        self._wrap = wrap
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self.fontMetrics().height() + 2)

    def lines(self) -> list[str]:
        """The lines the text shows before eliding: its first line (" …" when it has more), broken in two at a
        " · " where it is too wide and the line wraps."""
        first, more, _ = self._text.partition("\n")
        metrics, width = self.fontMetrics(), self.width()
        if more or not self._wrap or metrics.horizontalAdvance(first) <= width:
            return [first + (" …" if more else "")]
        parts = first.split(" · ")
        head = 1
        while head < len(parts) - 1 and metrics.horizontalAdvance(" · ".join(parts[:head + 1])) <= width:
            head += 1
        return [" · ".join(parts[:head]), " · ".join(parts[head:])] if len(parts) > 1 else [first]

    def _fit_height(self) -> None:
        """One line's height per line shown: changes (a relayout) only when the number of lines does."""
        height = self.fontMetrics().height() * len(self.lines()) + 2
        if height != self.height():
            self.setFixedHeight(height)
            self.height_changed.emit(height)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.setToolTip(text)
            self.update()
            if self._wrap:
                self._fit_height()
            self._note_cut()

    def is_cut(self) -> bool:
        """Whether the line shows less than the whole text."""
        metrics = self.fontMetrics()
        return "\n" in self._text or any(metrics.horizontalAdvance(line) > self.width() for line in self.lines())

    def _note_cut(self) -> None:
        cut = self.is_cut()
        if cut != self._cut:
            self._cut = cut
            self.cut_changed.emit(cut)

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        """A bigger font (presentation mode) makes the line taller: its fixed height cut the text's bottom (an
        underscore, ``loss_flat`` read ``loss flat``)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_height()
            self._note_cut()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._wrap and event.size().width() != event.oldSize().width():
            self._fit_height()
        self._note_cut()

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().averageCharWidth() * 40, self.height())

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().windowText().color())
        metrics = self.fontMetrics()
        lines = self.lines()
        top = (self.height() - metrics.height() * len(lines)) // 2
        for i, line in enumerate(lines):
            shown = metrics.elidedText(line, Qt.TextElideMode.ElideRight, self.width())
            row = self.rect().adjusted(0, top + i * metrics.height(), 0, 0)
            row.setHeight(metrics.height())
            painter.drawText(row, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, shown)
