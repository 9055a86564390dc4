"""A minimap in the canvas's corner: the whole graph small, the visible area framed; click to go there.

It is a second, non-interactive view of the same scene, refitted at most every 150 ms after changes.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QFrame, QGraphicsView


class Minimap(QGraphicsView):
    def __init__(self, main_view):
        super().__init__(main_view.scene(), main_view)
        self.setObjectName("minimap")
        self.main_view = main_view
        self.setInteractive(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Box)
        self.setRenderHint(QPainter.Antialiasing, False)
        self.setFixedSize(200, 130)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.refit)
        main_view.scene().changed.connect(lambda _rects: self._timer.start())
        main_view.horizontalScrollBar().valueChanged.connect(lambda _v: self.viewport().update())
        main_view.verticalScrollBar().valueChanged.connect(lambda _v: self.viewport().update())

    def refit(self) -> None:
        rect = self.scene().itemsBoundingRect()
        if not rect.isNull():
            self.fitInView(rect.adjusted(-40, -40, 40, 40), Qt.KeepAspectRatio)
        self.viewport().update()

    def visible_rect(self) -> QRectF:
        """The part of the scene the main view shows, in scene coordinates."""
        return self.main_view.mapToScene(self.main_view.viewport().rect()).boundingRect()

    def drawForeground(self, painter, rect):  # noqa: N802 - Qt override
        painter.setPen(QPen(QColor("#f1c40f"), 0))
        painter.drawRect(self.visible_rect())

    def mousePressEvent(self, event):  # noqa: N802 - Qt override: jump there
        self.main_view.centerOn(self.mapToScene(event.position().toPoint()))
        self.viewport().update()

    def wheelEvent(self, event):  # noqa: N802 - Qt override: the minimap doesn't scroll
        event.ignore()
