"""The scrolling, zooming view of the autograd graph: the wheel zooms under the mouse, dragging the
background pans, ``fit()`` shows the whole graph (never blown up past 1.5x; again on every resize until
the user zooms), and a click on a box emits ``box_clicked(index)``."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

from gui import style
from gui.autograd_items import AutogradBox

__all__ = ["AutogradGraphView"]

MAX_FIT_SCALE = 1.5


class AutogradGraphView(QGraphicsView):
    box_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))  # parented, so Python doesn't collect it
        self.setObjectName("autogradGraph")
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setBackgroundBrush(style.SCENE_BG)
        self.setMinimumHeight(120)
        self.user_zoomed = False  # until the wheel zooms, a resize fits the graph again

    def zoom(self, factor: float) -> None:
        scale = self.transform().m11() * factor
        if 0.05 <= scale <= 4.0:
            self.scale(factor, factor)

    def zoom_level(self) -> float:
        return self.transform().m11()

    def fit(self) -> None:
        self.user_zoomed = False
        rect = self.scene().itemsBoundingRect()
        if rect.isNull():
            return
        rect = rect.adjusted(-12, -12, 12, 12)
        self.setSceneRect(rect)
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.zoom_level() > MAX_FIT_SCALE:
            self.resetTransform()
            self.scale(MAX_FIT_SCALE, MAX_FIT_SCALE)
            self.centerOn(rect.center())

    def wheelEvent(self, event: QWheelEvent) -> None:  # Qt override
        self.zoom(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)
        self.user_zoomed = True

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        if not self.user_zoomed:
            self.fit()

    def box_at(self, pos: QPoint) -> AutogradBox | None:
        item = self.itemAt(pos)
        while item is not None and not isinstance(item, AutogradBox):
            item = item.parentItem()
        return item

    def mousePressEvent(self, event: QMouseEvent) -> None:  # Qt override: a box is picked, the background pans
        box = self.box_at(event.position().toPoint()) if event.button() == Qt.MouseButton.LeftButton else None
        if box is not None:
            self.box_clicked.emit(box.index)
            event.accept()
            return
        super().mousePressEvent(event)
