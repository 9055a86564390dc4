"""The canvas view: pan (middle drag or space+drag), zoom (wheel, pinch, +/-), fit, rubber-band selection.

Tab or a double-click on empty canvas asks for the palette (``palette_requested`` with the scene point),
a double-click on a subgraph block asks to show its inside (``block_opened`` with the node id), on any other
node to edit it (``node_opened`` with the node id: the Inspector comes to the front);
a node type dragged from the library is dropped as ``node_dropped(type_id, scene point)``. An empty graph
shows a hint in the middle saying how to add nodes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeyEvent,
    QMouseEvent,
    QNativeGestureEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QGestureEvent, QGraphicsItem, QGraphicsView, QLabel, QPinchGesture, QWidget

from gui.canvas import key_select, overview
from gui.canvas.badges import keep_in_view
from gui.canvas.edge_item import set_labels_grown
from gui.canvas.node_item import SMALL_PRINT_BELOW, TEXT_KEPT_FROM, NodeItem, simple_at, text_scale

if TYPE_CHECKING:
    from gui.canvas.scene import GraphScene

NODE_MIME = "application/x-nodegrad-node-type"
MIN_ZOOM, MAX_ZOOM = 0.1, 5.0
READABLE_ZOOM = max(SMALL_PRINT_BELOW, 0.75)  # an opened document is shown at least this big: values readable
WHOLE_ZOOM = SMALL_PRINT_BELOW  # a document that fits whole from this zoom up opens whole: every value still drawn
DOCUMENT_ZOOM_CAP = 1.25  # and no bigger (a three-node graph is not blown up)
DOCUMENT_MARGIN = 30.0  # scene units around an opened document's nodes
SCROLL_ROOM = 20000.0  # the canvas scrolls this far around the origin, and this far around the graph's items


EMPTY_HINT = ("An empty graph. Press Tab or double-click here to add a node, drag one from the Nodes tab, or "
              "type a formula with Edit ▸ Insert expression (Ctrl+E).")


def update_mode(pixel_ratio: float) -> QGraphicsView.ViewportUpdateMode:
    """How the canvas repaints: only what changed, except on a screen scaled by a fraction (QT_SCALE_FACTOR=1.25
    or 1.5, a laptop's 125 %), where Qt's partial repaints round to whole logical pixels and left one-pixel lines
    of old frames on the canvas (a node's old right edge, a line across it); there the whole canvas repaints."""
    if pixel_ratio != round(pixel_ratio):
        return QGraphicsView.ViewportUpdateMode.FullViewportUpdate
    return QGraphicsView.ViewportUpdateMode.SmartViewportUpdate


class GraphView(QGraphicsView):
    palette_requested = Signal(object)  # QPointF in scene coordinates
    block_opened = Signal(str)  # a subgraph node double-clicked: show its inside
    node_opened = Signal(str)  # any other node double-clicked: edit it in the Inspector
    node_dropped = Signal(str, object)

    def __init__(self, scene: GraphScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.graph_scene = scene  # scene() typed as the GraphScene it always is
        self.setObjectName("graphView")
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(update_mode(self.devicePixelRatioF()))
        self.setAcceptDrops(True)
        self.setSceneRect(QRectF(-SCROLL_ROOM, -SCROLL_ROOM, 2 * SCROLL_ROOM, 2 * SCROLL_ROOM))
        scene.sceneRectChanged.connect(self._take_in)
        self._take_in(scene.sceneRect())
        self._pan_from: QPointF | None = None
        self._space = False
        self._pointer: QPointF | None = None  # where the mouse is over the canvas (viewport px), None once it left
        self.following_document = False  # after show_document: refit on resize until the user zooms or pans
        self.framed_whole = False  # the last framing showed every node whole
        self.magnification = 1.0  # presentation mode: a document opens this much bigger (see set_magnification)
        self._focus: tuple[object, tuple[str, ...]] = (None, ())  # (document, node ids): see set_document_focus
        self.viewport().grabGesture(Qt.GestureType.PinchGesture)
        from gui.canvas.minimap import Minimap  # a child of this view

        self.minimap = Minimap(self)
        from gui.canvas.more_arrows import MoreArrows  # buttons on the viewport

        self._bars_timer = QTimer(self)  # check_scroll_bars: once the view has settled
        self._bars_timer.setSingleShot(True)
        self._bars_timer.setInterval(0)
        self._bars_timer.timeout.connect(self._settle_scroll_bars)
        self.more = MoreArrows(self)
        self.empty_hint = QLabel(EMPTY_HINT, self.viewport())  # an empty graph says how to begin
        self.empty_hint.setObjectName("emptyCanvasHint")
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setStyleSheet("color: #95a5a6; font-size: 11pt")
        self.empty_hint.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # clicks reach the canvas
        scene.changed.connect(lambda _regions: self._show_empty_hint())
        self._show_empty_hint()

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override: the minimap finds its corner again
        super().resizeEvent(event)
        self._show_empty_hint()
        self.minimap.update_shown()
        if self.following_document:  # docks still settling after an open: the document stays framed
            self._frame_document()
        self.more.place()

    def _show_empty_hint(self) -> None:
        """The hint in the middle of the canvas while the graph has no node (and no scroll bars then)."""
        empty = not self.graph_scene.node_items
        if empty:
            room = self.viewport().rect()
            width = min(room.width() - 40, 520)
            self.empty_hint.setFixedWidth(max(width, 100))
            self.empty_hint.adjustSize()
            self.empty_hint.move(room.center().x() - self.empty_hint.width() // 2,
                                 room.center().y() - self.empty_hint.height() // 2)
        self.empty_hint.setVisible(empty)
        if empty:  # at once: the edge buttons measure the nodes a moment after the scene changed
            self._set_scroll_bars(False)

    def check_scroll_bars(self) -> None:
        """Scroll bars only while some node lies out of view, decided once the view has settled (``MoreArrows``
        asks whenever it places its edge buttons): the canvas scrolls far around the graph, so Qt's bars showed
        over every graph, one that fit whole too, as if there were more to see. Hidden, the canvas still pans
        (middle drag, Space+drag, the minimap). Decided on the spot, a reframing's passing transform (reset, then
        scaled) toggled the bars, whose resize reframed again, without end."""
        self._bars_timer.start()

    def _settle_scroll_bars(self) -> None:
        self._set_scroll_bars(bool(self.graph_scene.node_items) and bool(self.more.hidden_sides()))

    def _set_scroll_bars(self, shown: bool) -> None:
        # bars shown shrink the viewport and hidden ones grow it, so a settled choice never flips back by itself
        policy = Qt.ScrollBarPolicy.ScrollBarAsNeeded if shown else Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        if self.horizontalScrollBarPolicy() != policy:
            self.setHorizontalScrollBarPolicy(policy)
            self.setVerticalScrollBarPolicy(policy)

    def _take_in(self, items: QRectF) -> None:
        """The scrollable area grows to hold the graph's items (``items``, the scene's growing bounds) with room
        around them: a fixed area left the far part of a large graph out of reach, and Fit all showed half of it."""
        room = SCROLL_ROOM / 2
        wanted = self.sceneRect().united(items.adjusted(-room, -room, room, room))
        if wanted != self.sceneRect():
            self.setSceneRect(wanted)

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override: zoomed out, the scene draws its simple form
        simple = simple_at(self.zoom_level())
        if simple != self.graph_scene.simple:
            overview.set_simple(self.graph_scene, simple)
        grown = text_scale(self.zoom_level()) > 1.0  # a little zoomed out: edge labels keep their size on screen
        if grown != self.graph_scene.labels_grown:
            set_labels_grown(self.graph_scene, self.graph_scene.edge_items.values(), grown)
        self.keep_badges_in_view()
        super().paintEvent(event)

    def keep_badges_in_view(self) -> None:
        """Each diagnostics badge whole on screen while part of its node is (``badges.keep_in_view``), checked as
        the view paints: after a scroll, a zoom, a resize, a node moved or a badge added."""
        shown = self.mapToScene(self.viewport().rect()).boundingRect()
        for item in self.graph_scene.node_items.values():
            if item.badge is not None:
                keep_in_view(item, shown, self.zoom_level())

    # ----- zoom and fit ------------------------------------------------------------------------
    def zoom(self, factor: float, anchor: QPointF | None = None) -> None:
        """Scale by ``factor``, clamped to MIN_ZOOM..MAX_ZOOM; ``anchor`` (a viewport point, e.g. a pinch's
        centre) stays over the same scene point, otherwise the point under the mouse does."""
        self.following_document = False
        current = self.transform().m11()  # a fit may have gone past a limit: never zoom further that way
        target = min(max(current * factor, min(MIN_ZOOM, current)), max(MAX_ZOOM, current))
        if abs(target - current) < 1e-9:
            return
        if anchor is None:
            self.scale(target / current, target / current)
            self.more.place()
            return
        before = self.mapToScene(anchor.toPoint())
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.scale(target / current, target / current)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        drift = self.mapFromScene(before) - anchor.toPoint()
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + drift.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + drift.y())
        self.more.place()

    def zoom_level(self) -> float:
        return self.transform().m11()

    def set_magnification(self, factor: float) -> None:
        """Show the canvas ``factor`` times as big as usual (presentation mode: node text grows with the lesson's,
        a teacher need not zoom): a framed document is framed again as if the viewport were that much smaller,
        else the canvas zooms about its centre; ``1.0`` puts the usual size back."""
        change, self.magnification = factor / self.magnification, factor
        if abs(change - 1.0) < 1e-9:
            return
        if self.following_document:
            self._frame_document()
        else:
            self.zoom(change, QPointF(self.viewport().rect().center()))
        self.minimap.update_shown()  # hidden while magnified (presenting), back after

    def fit_items(self, items: Iterable[QGraphicsItem]) -> None:
        rect = QRectF()
        for item in items:
            rect = rect.united(item.sceneBoundingRect())
        if not rect.isNull():
            self.fitInView(rect.adjusted(-60, -60, 60, 60), Qt.AspectRatioMode.KeepAspectRatio)
            if self.zoom_level() > 1.5:
                self.resetTransform()
                self.scale(1.5, 1.5)
                self.centerOn(rect.center())

    def framed_items(self) -> list[QGraphicsItem]:
        """What Fit all shows: the node items and comment backdrops."""
        return [i for i in self.graph_scene.items() if isinstance(i, NodeItem) or hasattr(i, "comment_id")]

    def fit_all(self) -> None:
        self.following_document = False
        self.fit_items(self.framed_items())
        self.minimap.refit()
        self.more.refresh()

    def show_document(self) -> None:
        """Frame a just-opened document so that every node's value and gradient is readable: the whole graph
        when it fits at READABLE_ZOOM or more, or at WHOLE_ZOOM or more (values still drawn, a little smaller),
        else READABLE_ZOOM from its start (the top-left node). Magnified (``set_magnification``), a graph readable
        whole in the viewport is shown whole, never cut by the magnification. Until the user zooms or pans, a
        resize (docks settling, the window shown) frames it again."""
        self.following_document = True
        self._frame_document()
        self.minimap.refit_soon()
        self.more.refresh()

    def set_document_focus(self, graph: object, node_ids: Iterable[str]) -> None:
        """The nodes of ``graph`` to frame, readable, when it opens too big to read whole (a lesson's first step's
        nodes: lesson 10 framed whole at 1920x1080 drew its text ~6 px high); another document ignores them."""
        self._focus = (graph, tuple(node_ids))

    def _focus_rect(self) -> QRectF:
        """The focus nodes' box in the scene (null when the shown document has none)."""
        graph, ids = self._focus
        rect = QRectF()
        if graph is self.graph_scene.graph:
            for nid in ids:
                item = self.graph_scene.node_items.get(nid)
                rect = rect.united(item.sceneBoundingRect()) if item is not None else rect
        return rect

    def _placed_on_focus(self, whole: QRectF) -> bool:
        """Frame the document's focus nodes (``set_document_focus``) instead of ``whole`` (its nodes with margins),
        when ``whole`` would open whole with its text tiny (from WHOLE_ZOOM up to TEXT_KEPT_FROM; a graph too big
        for that opens readable at its start, as before) and the focus nodes fit at READABLE_ZOOM or more;
        magnified, the same framing, bigger. True when it did."""
        focus, real = self._focus_rect(), self.viewport().size()
        if focus.isNull() or not WHOLE_ZOOM <= min(real.width() / whole.width(),
                                                   real.height() / whole.height()) < TEXT_KEPT_FROM:
            return False
        focus = focus.adjusted(-DOCUMENT_MARGIN, -DOCUMENT_MARGIN, DOCUMENT_MARGIN, DOCUMENT_MARGIN)
        fit = min(real.width() / focus.width(), real.height() / focus.height(), DOCUMENT_ZOOM_CAP)
        if fit < READABLE_ZOOM:
            return False
        self.scale(fit * self.magnification, fit * self.magnification)
        self.centerOn(focus.center())
        return True

    def _frame_document(self) -> None:
        self._place_document()
        self.framed_whole = self.all_nodes_shown()

    def all_nodes_shown(self) -> bool:
        """Whether every node's box lies wholly inside the viewport."""
        shown = self.mapToScene(self.viewport().rect()).boundingRect()
        return all(shown.contains(item.sceneBoundingRect()) for item in self.graph_scene.node_items.values())

    def keep_document_framed(self) -> None:
        """The nodes' sizes changed (their values and gradients drawn, colour tables after training): a document
        framed whole and not zoomed or panned since is framed again where a node grew out of view (the classifier's
        data node under the plots once training opened them and drew its values)."""
        if self.following_document and self.framed_whole and not self.all_nodes_shown():
            self._frame_document()

    def _place_document(self) -> None:
        rect = QRectF()
        for item in self.graph_scene.node_items.values():
            rect = rect.united(item.sceneBoundingRect())
        self.resetTransform()
        if rect.isNull():
            self.centerOn(0, 0)
            return
        nodes, rect = rect, rect.adjusted(-DOCUMENT_MARGIN, -DOCUMENT_MARGIN, DOCUMENT_MARGIN, DOCUMENT_MARGIN)
        size = self.viewport().size() / self.magnification  # magnified: framed as in a smaller viewport
        zoom = min(size.width() / rect.width(), size.height() / rect.height(), DOCUMENT_ZOOM_CAP)
        bare = min(size.width() / nodes.width(), size.height() / nodes.height())
        if self._placed_on_focus(rect):
            return
        # a bit too wide (a snippet's graph beside its code; lesson 4 at QT_SCALE_FACTOR=1.25, 1366x768): whole,
        # its margins narrowed before its values go (z sat out of view, behind "more ▶", for 2 % of its width)
        fit = min(bare, max(zoom, WHOLE_ZOOM))
        if WHOLE_ZOOM <= fit and bare < READABLE_ZOOM:
            self.scale(fit * self.magnification, fit * self.magnification)
            self.centerOn(nodes.center())
            return
        shown = max(zoom, READABLE_ZOOM) * self.magnification
        viewport = self.viewport().size()
        whole = min(viewport.width() / rect.width(), viewport.height() / rect.height())
        if READABLE_ZOOM <= whole < shown:  # magnified past the viewport a graph readable whole in it: whole
            self.scale(whole, whole)  # (lesson 4 presented at 1920x1080 lost its right margin at 1.125)
            self.centerOn(rect.center())
            return
        self.scale(shown, shown)
        if zoom >= READABLE_ZOOM:
            self.centerOn(rect.center())
            return
        # too big to read whole with margins: centred along each axis where the nodes alone fit, else their start
        # (left or top edge) at the viewport's edge
        half = self.mapToScene(self.viewport().rect().center()) - self.mapToScene(0, 0)
        x = nodes.center().x() if nodes.width() * READABLE_ZOOM <= size.width() else rect.left() + half.x()
        y = nodes.center().y() if nodes.height() * READABLE_ZOOM <= size.height() else rect.top() + half.y()
        self.centerOn(x, y)

    def reveal(self, items: Iterable[QGraphicsItem]) -> None:
        """Scroll (and zoom out, never below READABLE_ZOOM) so that ``items`` (just inserted) are all in view."""
        rect = QRectF()
        for item in items:
            rect = rect.united(item.sceneBoundingRect())
        if rect.isNull() or self.mapToScene(self.viewport().rect()).boundingRect().contains(rect):
            return
        rect = rect.adjusted(-DOCUMENT_MARGIN, -DOCUMENT_MARGIN, DOCUMENT_MARGIN, DOCUMENT_MARGIN)
        size = self.viewport().size()
        zoom = min(size.width() / rect.width(), size.height() / rect.height())
        if zoom < self.zoom_level():
            factor = max(zoom, READABLE_ZOOM) / self.zoom_level()
            self.scale(factor, factor)
        self.centerOn(rect.center())

    def fit_selection(self) -> None:
        items = [i for i in self.graph_scene.selectedItems() if isinstance(i, NodeItem)]
        self.fit_items(items) if items else self.fit_all()

    def center_scene(self) -> QPointF:
        return self.mapToScene(self.viewport().rect().center())

    def new_node_point(self) -> QPointF:
        """Where Tab's palette puts a node: at the mouse pointer while it is over the canvas, as a double-click
        does (a newcomer clicks an empty spot, presses Tab, and the node went to the view's centre, over the
        graph's edges), else the view's centre (the keyboard alone)."""
        if self._pointer is not None and QRectF(self.viewport().rect()).contains(self._pointer):
            return self.mapToScene(self._pointer.toPoint())
        return self.center_scene()

    # ----- input ---------------------------------------------------------------------------------
    def wheelEvent(self, event: QWheelEvent) -> None:  # Qt override
        self.zoom(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)

    def viewportEvent(self, event: QEvent) -> bool:  # Qt override: pinch zoom around the fingers
        if event.type() in (QEvent.Type.MouseMove, QEvent.Type.MouseButtonPress) and isinstance(event, QMouseEvent):
            self._pointer = event.position()
        elif event.type() == QEvent.Type.Leave:
            self._pointer = None
        if event.type() == QEvent.Type.NativeGesture and isinstance(event, QNativeGestureEvent) \
                and event.gestureType() == Qt.NativeGestureType.ZoomNativeGesture:
            self.zoom(1.0 + event.value(), event.position())  # a trackpad pinch: value is the scale delta
            return True
        if event.type() == QEvent.Type.Gesture and isinstance(event, QGestureEvent):
            gesture = event.gesture(Qt.GestureType.PinchGesture)
            if gesture is not None:
                pinch = cast(QPinchGesture, gesture)  # the gesture asked for
                centre = self.viewport().mapFromGlobal(pinch.centerPoint().toPoint())
                self.zoom(pinch.scaleFactor(), QPointF(centre))
                event.accept(pinch)
                return True
        return super().viewportEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        key = event.key()
        if key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self.following_document = False
            self._space = True
            self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.2)
        elif key == Qt.Key.Key_Minus:
            self.zoom(1 / 1.2)
        elif key == Qt.Key.Key_Tab:
            self.palette_requested.emit(self.new_node_point())
        elif key == Qt.Key.Key_Backtab:
            self._focus_previous()
        elif key == Qt.Key.Key_Escape and (self.graph_scene.wire.cancel() or self.graph_scene.cancel_moves()):
            pass  # Esc dropped the wire being drawn, or put dragged nodes back: the release does nothing
        elif (step := key_select.DIRECTIONS.get(int(key))) is not None \
                and event.modifiers() == Qt.KeyboardModifier.NoModifier and self._select_by_key(step):
            pass
        else:
            super().keyPressEvent(event)

    def _focus_previous(self) -> None:
        """Shift+Tab leaves the canvas for the previous field in the window's tab order that a user can see (Tab
        opens the palette, so the canvas was a trap for the keyboard: nothing but Ctrl+2..4 got out of it)."""
        w = self.previousInFocusChain()
        while w is not None and w is not self:
            if not self.isAncestorOf(w) and w.window() is self.window() and w.isEnabled() and w.isVisible() \
                    and w.focusPolicy() & Qt.FocusPolicy.TabFocus and not w.visibleRegion().isEmpty():
                w.setFocus(Qt.FocusReason.BacktabFocusReason)
                return
            w = w.previousInFocusChain()

    def _select_by_key(self, direction: tuple[float, float]) -> bool:
        """An arrow key: select the next node that way (``gui.canvas.key_select``) and bring it into view; False
        where no node lies that way (the arrow then scrolls the canvas, as before)."""
        items = self.graph_scene.node_items
        centres = [(nid, item.sceneBoundingRect().center()) for nid, item in items.items() if item.isVisible()]
        chosen = self.graph_scene.selected_node_ids()
        current = chosen[0] if chosen and chosen[0] in items else None
        if current is None:
            target = key_select.nearest(centres, self.center_scene())
        else:
            here = items[current].sceneBoundingRect().center()
            target = key_select.next_in_direction(centres, here, direction, current)
        if target is None:
            return False
        self.graph_scene.clearSelection()
        items[target].setSelected(True)
        self.ensureVisible(items[target], 40, 40)
        return True

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # Qt override
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        super().keyReleaseEvent(event)

    def focusNextPrevChild(self, forward: bool) -> bool:  # Qt override: Tab opens the palette instead
        return False

    def mousePressEvent(self, event: QMouseEvent) -> None:  # Qt override
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = event.position()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # Qt override
        if self._pan_from is not None:
            self.following_document = False
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # Qt override
        if event.button() == Qt.MouseButton.MiddleButton and self._pan_from is not None:
            self._pan_from = None
            self.unsetCursor()
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # Qt override
        pos = self.mapToScene(event.position().toPoint())
        item = self.graph_scene.itemAt(pos, self.transform())
        if item is None:
            self.palette_requested.emit(pos)
            return
        while item is not None and not isinstance(item, NodeItem):
            item = item.parentItem()
        if item is not None and getattr(self.graph_scene.graph.nodes.get(item.node_id), "graph", None) is not None:
            self.block_opened.emit(item.node_id)
            return
        super().mouseDoubleClickEvent(event)
        if item is not None:  # after the node's items had the event
            self.node_opened.emit(item.node_id)

    # ----- drops from the node library ----------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # Qt override
        if event.mimeData().hasFormat(NODE_MIME):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # Qt override
        if event.mimeData().hasFormat(NODE_MIME):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # Qt override
        if event.mimeData().hasFormat(NODE_MIME):
            type_id = event.mimeData().data(NODE_MIME).toStdString()  # the UTF-8 text of the type id
            self.node_dropped.emit(type_id, self.mapToScene(event.position().toPoint()))
            event.acceptProposedAction()
        else:
            super().dropEvent(event)
