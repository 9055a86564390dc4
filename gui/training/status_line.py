"""One line of text that changes many times a second (training progress) without relaying out the window.

A ``QLabel.setText`` asks its layout to recompute, and each layout up the chain does the same: every
progress update relaid out the dock and the main window (with its dock animations), 1-3 ms each. This
line has a fixed height and a size hint that does not depend on its text, so a new text is only a repaint
of the line. Text too long for the width is elided.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

__all__ = ["StatusLine"]


class StatusLine(QWidget):
    """A label for text that changes while training: ``setText``/``text`` like ``QLabel``."""

    def __init__(self, text: str = "", parent: QWidget | None = None, objectName: str = ""):
        super().__init__(parent)
        if objectName:
            self.setObjectName(objectName)
        self._text = text
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self.fontMetrics().height() + 2)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.setToolTip(text)
            self.update()

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().averageCharWidth() * 40, self.height())

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().windowText().color())
        shown = self.fontMetrics().elidedText(self._text, Qt.TextElideMode.ElideRight, self.width())
        painter.drawText(self.rect(), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, shown)
