"""Buttons at the canvas's edges where more of the graph lies out of view: 'more ▶' at the right edge of a deep
snippet's graph opened at a readable zoom on its inputs says that it goes on, and a click scrolls that way.

A graph too big to read whole opens at a legible zoom framed on its start (``GraphView.show_document``); the
minimap shows the rest small, but a newcomer read the first three columns of a twelve-column MLP as the whole
graph (the mouse wheel zooms, and nothing at the edge said there was more). A button shows on each side (left,
right, top, bottom) beyond which some node lies, in the middle of that edge or the nearest spot along it clear of
nodes (else moved in a little from the edge, else off the nodes' text), never on a port, a shape label or the
minimap; a click scrolls three quarters of the canvas that way, and the buttons follow as the view moves. The
view's scroll bars show on the same rule (``GraphView.check_scroll_bars``): only when some node lies out of view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRect, QRectF, Qt, QTimer
from PySide6.QtWidgets import QGraphicsItem, QToolButton

from gui.canvas.edge_item import EdgeLabel
from gui.canvas.node_item import NodeItem
from gui.canvas.port_item import PortItem

if TYPE_CHECKING:
    from gui.canvas.view import GraphView

SIDES = {"left": ("◀ more", -1, 0), "right": ("more ▶", 1, 0), "up": ("▲ more", 0, -1), "down": ("more ▼", 0, 1)}
SLACK = 24.0  # px on screen of a node out of view that do not count (a margin's worth, not a hidden node)
STEP = 0.75  # of the canvas's width or height scrolled by a click
INSET = 6  # px from the canvas's edge
INWARD = 0.25  # of the canvas's width or height a button may move in from its edge to a spot clear of nodes
TOOLTIP = ("More of the graph lies this way: click to scroll there. The minimap in the corner shows it all (click "
           "it to go to a place), Space+drag or the middle mouse button pans, and View ▸ Fit all (F) shows it whole.")
STYLE = ("QToolButton { background: rgba(44, 62, 80, 215); color: #ecf0f1; border: 1px solid #5d6d7e;"
         " border-radius: 9px; padding: 3px 9px; font-weight: bold; }"
         " QToolButton:hover { background: rgba(52, 152, 219, 230); }")


def _never_covered(item: QGraphicsItem) -> bool:
    """Whether a button must never sit on ``item``, not even where no spot along its edge is clear: a port (its dot
    sticks out of its node's box, by 10 px at 5x, and a button beside the box hid it) or an edge's shape label with
    text ('▲ more' sat over the chapter's '() scalar', half of it hidden)."""
    if isinstance(item, PortItem):
        return item.isVisible()
    return isinstance(item, EdgeLabel) and item.isVisible() and bool(item.text())


class MoreArrows:
    """The four edge buttons of a view (children of its viewport), shown where nodes lie beyond that edge."""

    def __init__(self, view: GraphView) -> None:
        self.view = view
        self.buttons: dict[str, QToolButton] = {}
        for side, (text, dx, dy) in SIDES.items():
            button = QToolButton(view.viewport())
            button.setObjectName(f"more_{side}")
            button.setText(text)
            button.setToolTip(TOOLTIP)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setStyleSheet(STYLE)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the canvas keeps the keyboard
            button.clicked.connect(lambda _checked=False, dx=dx, dy=dy: self.scroll(dx, dy))
            button.hide()
            self.buttons[side] = button
        self._nodes = QRectF()  # where the nodes are, at the last refresh
        self._timer = QTimer(view)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.refresh)
        view.graph_scene.changed.connect(lambda _rects: self._timer.start())
        for bar in (view.horizontalScrollBar(), view.verticalScrollBar()):
            bar.valueChanged.connect(lambda _v: self.place())
            bar.rangeChanged.connect(lambda _lo, _hi: self.place())

    def refresh(self) -> None:
        """Measure the nodes again (after the scene changed), then place the buttons."""
        self._timer.stop()
        rect = QRectF()
        for item in self.view.graph_scene.node_items.values():
            if item.isVisible():
                rect = rect.united(item.sceneBoundingRect())
        self._nodes = rect
        self.place()

    def hidden_sides(self) -> list[str]:
        """The sides of the canvas beyond which some node lies out of view (more than SLACK px of it on screen: in
        scene units, zoomed in 5x a node with its ports cut off on both sides, 89 px each, counted as in view)."""
        nodes = self._nodes
        if nodes.isNull():
            return []
        shown = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        out = {"left": shown.left() - nodes.left(), "right": nodes.right() - shown.right(),
               "up": shown.top() - nodes.top(), "down": nodes.bottom() - shown.bottom()}
        slack = SLACK / self.view.zoom_level()
        return [side for side in SIDES if out[side] > slack]

    def place(self) -> None:
        """Show the buttons of the sides with nodes beyond them, each in the middle of its edge or, where a node, a
        port, an edge's shape label or the minimap is drawn there, at the nearest clear spot (``_clear_spot``)."""
        room = self.view.viewport().rect()
        hidden = self.hidden_sides()
        for side, button in self.buttons.items():
            if side not in hidden:
                button.hide()
                continue
            button.adjustSize()
            w, h = button.width(), button.height()
            x = {"left": INSET, "right": room.width() - w - INSET}.get(side, (room.width() - w) // 2)
            y = {"up": INSET, "down": room.height() - h - INSET}.get(side, (room.height() - h) // 2)
            _text, dx, dy = SIDES[side]
            spot = self._clear_spot(QRect(x, y, w, h), -dx, -dy)
            button.move(spot.topLeft())
            button.show()
            button.raise_()
        self.view.check_scroll_bars()  # scroll bars only where there is something to scroll to

    def _clear_spot(self, middle: QRect, inward_x: int, inward_y: int) -> QRect:
        """The spot for a button whose place is ``middle`` on an edge (``inward_*``: the way into the canvas), the
        first of: the nearest spot along the edge clear of nodes, ports, shape labels and the minimap; that, moved
        inward by up to INWARD of the canvas (a row of nodes along the edge, lesson 10's at 1920x1080); along the
        edge over a node's body but clear of its text; clear of all but the nodes; ``middle`` itself."""
        room = self.view.viewport().rect()
        along_y = bool(inward_x)
        depth = int((room.width() if along_y else room.height()) * INWARD)
        band = middle.adjusted(min(inward_x * depth, 0), min(inward_y * depth, 0),
                               max(inward_x * depth, 0), max(inward_y * depth, 0))
        band = QRect(band.x(), 0, band.width(), room.height()) if along_y \
            else QRect(0, band.y(), room.width(), band.height())
        nodes, texts, never = self._obstacles(band)
        length, size = (room.height(), middle.height()) if along_y else (room.width(), middle.width())
        step = max(size // 4, 1)  # fine enough to fit between two ports a node's height apart
        shifts = [k * sign * step for k in range(length // (2 * step) + 1) for sign in (1, -1)]
        deep = max(min(middle.width(), middle.height()) // 2, 1)
        rows = [[middle.translated(inward_x * d, inward_y * d).translated(0 if along_y else s, s if along_y else 0)
                 for s in shifts] for d in range(0, depth + 1, deep)]
        rows = [[spot for spot in row if room.contains(spot)] for row in rows]
        tries = [(row, nodes + never) for row in rows] + [(rows[0], texts + never), (rows[0], never)]
        for spots, obstacles in tries:
            spot = next((s for s in spots if not any(s.intersects(o) for o in obstacles)), None)
            if spot is not None:
                return spot
        return middle

    def _obstacles(self, band: QRect) -> tuple[list[QRect], list[QRect], list[QRect]]:
        """On ``band`` of the viewport (a pixel more: rounding), in viewport pixels: the nodes' boxes, the text
        drawn on them, and what a button never covers (ports, shape labels, the minimap). Only what is on the band
        is measured: a large graph scrolls quickly."""
        nodes: list[QRect] = []
        texts: list[QRect] = []
        never: list[QRect] = []
        for item in self.view.items(band.adjusted(-2, -2, 2, 2), Qt.ItemSelectionMode.IntersectsItemBoundingRect):
            if isinstance(item, NodeItem):
                nodes.append(self.view.mapFromScene(item.sceneBoundingRect()).boundingRect())
                texts.extend(self.view.mapFromScene(item.mapRectToScene(r)).boundingRect() for r in item.text_rects())
            elif _never_covered(item):
                never.append(self.view.mapFromScene(item.sceneBoundingRect()).boundingRect())
        minimap = self.view.minimap
        if minimap.isVisible():  # nor over the minimap in its corner ('more ▼' sat on its edge at 1366x768)
            never.append(minimap.geometry().translated(-self.view.viewport().pos()))
        return nodes, texts, never

    def scroll(self, dx: int, dy: int) -> None:
        """Scroll three quarters of the canvas that way (the view no longer follows the opened document's frame)."""
        self.view.following_document = False
        room = self.view.viewport().rect()
        if dx:
            bar = self.view.horizontalScrollBar()
            bar.setValue(bar.value() + dx * int(room.width() * STEP))
        if dy:
            bar = self.view.verticalScrollBar()
            bar.setValue(bar.value() + dy * int(room.height() * STEP))
