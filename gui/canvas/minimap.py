"""A minimap in the canvas's corner: the whole graph small, the visible area framed; click to go there.
It shows only while part of the graph is out of the canvas's view (a graph seen whole needs no map, and
the map would cover some of it) and the canvas is big enough for it not to hide much of the graph. It keeps off
the graph: it sits in the first corner of the canvas (bottom right, bottom left, top right, top left) where no
node, edge or shape label is drawn, else in the first where no node is; when every corner has a node it hides,
unless most of the graph is out of view (a big graph, where the map is how one finds the rest): then it stays in
its corner while no node is under it, else moves to the first corner without one, else sits bottom right (on a
canvas narrower than ``COVER_WIDTH`` map widths it hides instead: there it covered a third of the canvas's width).
Where it does cover part of the graph it is drawn translucent, so the edges under it still show. Its shape
follows the graph's (a long row of nodes gets a low, wide map). In presentation mode (the canvas magnified for a
class) it hides: its small print reads on no projector and at 1366x768 it covered the enlarged graph's nodes;
``more ▶`` and Fit all still lead to the rest.

It is a second, non-interactive view of the same scene, refitted at most every 150 ms after changes.
The scene is rendered into a pixmap at refit time and a paint only blits it and draws the frame: the
minimap overlaps the canvas's viewport, so every canvas repaint repaints it too, and drawing 500 nodes
there on each pan cost ~50 ms a frame (benchmarks/bench_gui_canvas.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QPoint, QRect, QRectF, Qt, QTimer
from PySide6.QtGui import (
    QColor,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QResizeEvent,
    QShowEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QApplication, QFrame, QGraphicsItem, QGraphicsView

from gui.canvas import overview
from gui.canvas.edge_item import EdgeItem, EdgeLabel
from gui.canvas.node_item import NodeItem, simple_at

if TYPE_CHECKING:
    from gui.canvas.view import GraphView  # the view owns its minimap


MAX_SIZE = (200, 130)  # the map's box at most; the side across the graph's long side shrinks to its shape
MIN_SIDE = 50
MARGIN = 8  # from the canvas's edges
MOSTLY_OUT = 0.5  # the share of the graph's area out of view above which the map may cover a node
TRANSLUCENT = 0.7  # the map's opacity where it covers part of the graph
COVER_WIDTH = 3  # the map may sit over a node (a big graph, every corner taken) only on a canvas this many map widths
# wide: with the docks dragged wider (a canvas ~450 px) it sat over lesson 3's group and lessons 8 and 9's nodes
MAX_SHARE = 0.15  # of the canvas's area: on a smaller canvas (a small window, the training docks open) the map
# would hide too much of the graph it maps, so it stays hidden


class Minimap(QGraphicsView):
    def __init__(self, main_view: GraphView) -> None:
        super().__init__(main_view.scene(), main_view)
        self.setObjectName("minimap")
        self.main_view = main_view
        self.setInteractive(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.Box)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self.setFixedSize(200, 130)
        self._pixmap = QPixmap()
        self._graph = QRectF()  # the scene's items at the last refit
        self._backdrops: list[QGraphicsItem] = []  # the comment backdrops at the last refit
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.refit)
        self._refitting = False
        self.translucent = False  # drawn over part of the graph (every corner had some)
        self.viewport().setAutoFillBackground(False)  # what paintEvent leaves unpainted is the canvas under it
        main_view.scene().changed.connect(lambda _rects: self._timer.start())
        for bar in (main_view.horizontalScrollBar(), main_view.verticalScrollBar()):
            bar.valueChanged.connect(lambda _v: self.viewport().update())
            bar.valueChanged.connect(lambda _v: self.update_shown())
            bar.rangeChanged.connect(lambda _lo, _hi: self.update_shown())

    def refit(self) -> None:
        self._timer.stop()  # done now: a pending refit would only repeat it
        self._refitting = True
        try:
            self._graph = QRectF()  # what Fit all frames: the nodes and comment backdrops
            framed = self.main_view.framed_items()
            for item in framed:
                self._graph = self._graph.united(item.sceneBoundingRect())
            self._backdrops = [item for item in framed if not isinstance(item, NodeItem)]
            # the map frames the graph, as Fit all does (the scene's items reach further: it drew a 500-node
            # graph as a strip a tenth of its box)
            rect = self._graph if not self._graph.isNull() else self.scene().itemsBoundingRect()
            if not rect.isNull():
                self._take_shape(rect.adjusted(-40, -40, 40, 40))
                self.fitInView(rect.adjusted(-40, -40, 40, 40), Qt.AspectRatioMode.KeepAspectRatio)
            self._render()
            self.viewport().update()
            self.update_shown()
        finally:
            self._refitting = False

    def refit_soon(self) -> None:
        """Refit once the changes under way are done (at most every 150 ms): a document just opened is framed
        by the main view at once and the map follows, rendered once (a 20,000-node scene takes most of a second)."""
        self._timer.start()

    def _take_shape(self, rect: QRectF) -> None:
        """Size the box to the graph's shape, within MAX_SIZE: the map wastes no canvas on empty margins."""
        width, height = MAX_SIZE
        if rect.width() * height > rect.height() * width:  # wider than the box: keep the width
            height = max(MIN_SIDE, round(width * rect.height() / rect.width()))
        elif rect.height() > 0:
            width = max(MIN_SIDE, round(height * rect.width() / rect.height()))
        if (width, height) != (self.width(), self.height()):
            old = self.size()
            self.setFixedSize(width, height)
            # NOTE: a hidden widget gets its resize event only when shown; the viewport must have its new size
            # now, for the fit and the picture rendered at it (else the first paint renders it a second time)
            QApplication.sendEvent(self, QResizeEvent(self.size(), old))

    def update_shown(self) -> None:
        """Shown while some of the graph lies outside the main view and the view is big enough to spare the room,
        in a corner free of nodes (see the module's docstring)."""
        if not shiboken6.isValid(self.scene()):
            return  # the window is being torn down: its scene went first, the scroll bars still report
        if self.main_view.magnification > 1.0:  # presenting (see the module docstring)
            self.setVisible(False)
            return
        room = self.main_view.viewport().size()
        roomy = (room.width() >= 2 * self.width() and room.height() >= 2 * self.height()
                 and self.width() * self.height() <= MAX_SHARE * room.width() * room.height())
        visible = self.visible_rect()
        if not roomy or self._graph.isNull() or visible.contains(self._graph):
            self.setVisible(False)
            return
        spot, covers = self._spot(visible)
        was = (self.isVisible(), self.pos())
        if spot is not None:
            self.move(spot.topLeft())
            self._set_translucent(covers)
        self.setVisible(spot is not None)
        more = getattr(self.main_view, "more", None)  # the edge buttons keep off the map where it went
        if more is not None and (self.isVisible(), self.pos()) != was:
            more.place()

    def _spot(self, visible: QRectF) -> tuple[QRect | None, bool]:
        """Where the map goes (None: hidden) and whether it covers part of the graph there."""
        corners = self._corners()
        if self._mostly_out(visible):  # a big graph: the map stays where one looks for it while no node is under
            here = [c for c in corners if self.isVisible() and c.topLeft() == self.pos()]  # it (it hid lesson
            for corner in here + corners:  # 10's y_cut at 1366x768), else takes the first corner without one
                nodes, edges = self._covers(corner)
                if not nodes:
                    return corner, edges
            if self.main_view.viewport().width() < COVER_WIDTH * self.width():  # a narrow canvas: no map over nodes
                return None, False
            return corners[0], True  # a node in every corner: bottom right, translucent
        spot: QRect | None = None
        for corner in corners:  # the first clear corner, else the first without a node
            nodes, edges = self._covers(corner)
            if not nodes and not edges:
                return corner, False
            if spot is None and not nodes:
                spot = corner
        return spot, True

    def _corners(self) -> list[QRect]:
        """The map's box at each corner of the canvas, in the main view's coordinates, bottom right first."""
        vp = self.main_view.viewport().geometry()
        left, top = vp.left() + MARGIN, vp.top() + MARGIN
        right, bottom = vp.right() - self.width() - MARGIN + 1, vp.bottom() - self.height() - MARGIN + 1
        return [QRect(QPoint(x, y), self.size()) for x, y in ((right, bottom), (left, bottom), (right, top),
                                                               (left, top))]

    def _covers(self, box: QRect) -> tuple[bool, bool]:
        """Whether the map at ``box`` (main view coordinates) would be drawn over (a node, an edge or its label)."""
        in_viewport = box.translated(-self.main_view.viewport().geometry().topLeft())
        area = self.main_view.mapToScene(in_viewport).boundingRect()
        items = self.scene().items(area)  # by shape: an edge's curve, not the box around it
        return (any(isinstance(item, NodeItem) for item in items),
                any(isinstance(item, EdgeItem) or isinstance(item, EdgeLabel) and item.isVisible() for item in items))

    def _set_translucent(self, on: bool) -> None:
        """Over part of the graph the picture is drawn at TRANSLUCENT opacity and the canvas shows through."""
        if on != self.translucent:
            self.translucent = on
            self.viewport().update()

    def _mostly_out(self, visible: QRectF) -> bool:
        """Whether most of the graph's area lies out of the main view."""
        seen = visible.intersected(self._graph)
        whole = self._graph.width() * self._graph.height()
        return whole > 0 and seen.width() * seen.height() < (1 - MOSTLY_OUT) * whole

    def showEvent(self, event: QShowEvent) -> None:  # Qt override: drawn at its real size once shown
        super().showEvent(event)
        if not self._refitting and not self._timer.isActive():  # shown by a refit, or one is due: no second one
            self.refit()

    def _render(self) -> None:
        """Draw the scene as this view shows it into the pixmap that paints blit."""
        vp = self.viewport().rect()
        self._pixmap = QPixmap(vp.size())
        self._pixmap.fill(self.scene().backgroundBrush().color())
        painter = QPainter(self._pixmap)
        source = self.mapToScene(vp).boundingRect()
        if source.width() > 0 and simple_at(vp.width() / source.width()):  # small: drawn in batches
            painter.setTransform(self.viewportTransform())
            overview.paint_small(self.main_view.graph_scene, painter, self._backdrops)
        else:
            self.scene().render(painter, vp.toRectF(), source, Qt.AspectRatioMode.IgnoreAspectRatio)
        painter.end()

    def visible_rect(self) -> QRectF:
        """The part of the scene the main view shows, in scene coordinates."""
        return self.main_view.mapToScene(self.main_view.viewport().rect()).boundingRect()

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override: the cached scene and the visible-area frame
        painter = QPainter(self.viewport())
        if self._pixmap.size() != self.viewport().size():
            self._render()
        painter.setOpacity(TRANSLUCENT if self.translucent else 1.0)
        painter.drawPixmap(0, 0, self._pixmap)
        painter.setOpacity(1.0)
        painter.setPen(QPen(QColor("#f1c40f"), 1))
        painter.drawPolygon(self.mapFromScene(self.visible_rect()))
        painter.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # Qt override: jump there
        self.main_view.centerOn(self.mapToScene(event.position().toPoint()))
        self.viewport().update()

    def wheelEvent(self, event: QWheelEvent) -> None:  # Qt override: the minimap doesn't scroll
        event.ignore()
