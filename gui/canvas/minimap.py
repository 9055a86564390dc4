"""A minimap in the canvas's corner: the whole graph small, the visible area framed; click to go there.

The scene is rendered into a pixmap at most every 150 ms after changes, so repainting the canvas (which
repaints this overlay too) costs one pixmap blit, never a second pass over every item.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QTimer
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QWidget


class Minimap(QWidget):
    def __init__(self, main_view):
        super().__init__(main_view)
        self.setObjectName("minimap")
        self.main_view = main_view
        self.setFixedSize(200, 130)
        self.pixmap = QPixmap()
        self.source = QRectF()  # the scene rectangle the pixmap shows
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.refit)
        main_view.scene().changed.connect(lambda _rects: self._timer.start())
        main_view.horizontalScrollBar().valueChanged.connect(lambda _v: self.update())
        main_view.verticalScrollBar().valueChanged.connect(lambda _v: self.update())

    def refit(self) -> None:
        """Render the whole graph into the pixmap (aspect kept, centred)."""
        scene = self.main_view.scene()
        rect = scene.itemsBoundingRect().adjusted(-40, -40, 40, 40)
        scale = min(self.width() / max(rect.width(), 1.0), self.height() / max(rect.height(), 1.0))
        w, h = self.width() / scale, self.height() / scale
        self.source = QRectF(rect.center().x() - w / 2, rect.center().y() - h / 2, w, h)
        self.pixmap = QPixmap(self.size())
        self.pixmap.fill(scene.backgroundBrush().color())
        painter = QPainter(self.pixmap)
        scene.render(painter, QRectF(self.pixmap.rect()), self.source)
        painter.end()
        self.update()

    def _to_widget(self, p: QPointF) -> QPointF:
        s = self.source
        return QPointF((p.x() - s.x()) / s.width() * self.width(), (p.y() - s.y()) / s.height() * self.height())

    def to_scene(self, p: QPointF) -> QPointF:
        s = self.source
        return QPointF(s.x() + p.x() / self.width() * s.width(), s.y() + p.y() / self.height() * s.height())

    def visible_rect(self) -> QRectF:
        """The part of the scene the main view shows, in scene coordinates."""
        return self.main_view.mapToScene(self.main_view.viewport().rect()).boundingRect()

    def paintEvent(self, event):  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self.pixmap)
        painter.setPen(QPen(QColor("#7f8c8d"), 1))
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))
        if not self.source.isNull():
            vis = self.visible_rect()
            painter.setPen(QPen(QColor("#f1c40f"), 1))
            painter.drawRect(QRectF(self._to_widget(vis.topLeft()), self._to_widget(vis.bottomRight())))

    def mousePressEvent(self, event):  # noqa: N802 - Qt override: jump there
        if not self.source.isNull():
            self.main_view.centerOn(self.to_scene(event.position()))
            self.update()
