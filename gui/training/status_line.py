"""One line of text that changes many times a second (training progress) without relaying out the window.

A ``QLabel.setText`` asks its layout to recompute, and each layout up the chain does the same: every
progress update relaid out the dock and the main window (with its dock animations), 1-3 ms each. This
line has a fixed height and a size hint that does not depend on its text, so a new text is only a repaint
of the line. Text too long for the width is elided (a text of several lines shows its first); ``cut_changed``
says when the text stops or starts fitting, so the window can offer the whole of it (``gui.status_details``).
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

    def __init__(self, text: str = "", parent: QWidget | None = None, objectName: str = ""):
        super().__init__(parent)
        if objectName:
            self.setObjectName(objectName)
        self._text = text
        self._cut = False
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self.fontMetrics().height() + 2)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.setToolTip(text)
            self.update()
            self._note_cut()

    def is_cut(self) -> bool:
        """Whether the line shows less than the whole text."""
        return "\n" in self._text or self.fontMetrics().horizontalAdvance(self._text) > self.width()

    def _note_cut(self) -> None:
        cut = self.is_cut()
        if cut != self._cut:
            self._cut = cut
            self.cut_changed.emit(cut)

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        """A bigger font (presentation mode) makes the line taller: its fixed height cut the text's bottom (an
        underscore, ``loss_flat`` read ``loss flat``)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and self.height() != self.fontMetrics().height() + 2:
            self.setFixedHeight(self.fontMetrics().height() + 2)
            self.height_changed.emit(self.height())
            self._note_cut()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._note_cut()

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().averageCharWidth() * 40, self.height())

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().windowText().color())
        first, more, _ = self._text.partition("\n")
        shown = self.fontMetrics().elidedText(first + (" …" if more else ""), Qt.TextElideMode.ElideRight,
                                              self.width())
        painter.drawText(self.rect(), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, shown)
