"""One node on the canvas: title bar in its category colour, typed ports, and an inline preview.

The preview shows what the session computed (value, then the gradient and, when it summed several backward
calls, how many) and the tensor's autograd role: requires_grad leaves get a gold frame, retain_grad a dashed one,
detached outputs and views a badge. A node in error gets a red frame and the message; a node whose
saved tensors a backward freed is greyed out. The item draws a ``NodeDisplay``; it never computes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from gui import style
from gui.canvas.badges import DiagnosticBadge, paint_device_tag, set_badge
from gui.canvas.port_item import PortItem

if TYPE_CHECKING:
    from core.nodegraph.explain.diagnostics import Hint
    from core.nodegraph.model.document import Node
    from core.nodegraph.model.spec import NodeSpec
    from gui.canvas.scene import GraphScene


@dataclass
class NodeDisplay:
    """What the node shows besides its ports; filled from the session by the scene."""

    value: str = ""
    grad: str = ""
    grad_note: str = ""  # "sum of 2 backward calls" when .grad accumulated several, a line under the gradient
    badges: list[str] = field(default_factory=list)
    params: list[str] = field(default_factory=list)  # "k=v" of a parameter summary badge (" ".join(params))
    error: str = ""
    leaf: bool = False
    retain: bool = False
    highlight: bool = False
    spent: bool = False
    tooltip: str = ""
    heat: list[list[float]] = field(default_factory=list)  # rows of values in [0, 1] (NaN allowed) for a 2-D preview
    device: str = ""  # the output's device ("cpu", "cuda:0"), tagged on the value line
    diagnostics: list[Hint] = field(default_factory=list)  # the session's hints about this node (badge on the node)


HEAT_H = 48.0
ERROR_H = 32.0  # the error message's room on a node: two lines (the Inspector and the tooltip show all of it)
SIMPLE_BELOW = 0.4  # below this zoom (level of detail) a node is a coloured box: no text, ports or preview
SMALL_PRINT_BELOW = 0.5  # from here down to SIMPLE_BELOW: frame, title and ports, no port names or previews
TEXT_KEPT_FROM = 0.6  # from here down to SMALL_PRINT_BELOW a node's text grows in the scene to keep this zoom's size
LABELS_BELOW = SMALL_PRINT_BELOW  # edge labels go from here down; above it up to TEXT_KEPT_FROM they keep its size
SELECTED = QColor("#ffffff")
SELECTION_RING = 1.5  # pen width of the selection ring outside a highlighted or failed node's frame
MIDDLE_LEFT = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft


def whole_lines(metrics: QFontMetricsF, text: str, width: float, height: float) -> list[str]:
    """``text`` word-wrapped to ``width`` in as many whole lines as ``height`` holds (at least one), the last one
    ending in '…' where the text goes on: a clipped rectangle showed the top half of a third line."""
    count = max(1, int(height // metrics.lineSpacing()))
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and metrics.horizontalAdvance(trial) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    lines.append(current)
    if len(lines) > count:
        lines = lines[:count - 1] + [" ".join(lines[count - 1:]) + " …"]  # elided below, or kept whole with its mark
    return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines]


def text_scale(lod: float) -> float:
    """How much bigger than at zoom 1 a node's text is drawn at zoom ``lod``: a little zoomed out (a snippet's
    graph fitted beside its code at 1366x768) it keeps the size it has at TEXT_KEPT_FROM, so values stay
    readable, within the room the node has for it (at most TEXT_KEPT_FROM / SMALL_PRINT_BELOW)."""
    return max(1.0, TEXT_KEPT_FROM / max(lod, SMALL_PRINT_BELOW))


def simple_at(lod: float) -> bool:
    """Whether a zoom level of detail draws the simple form (a box in the category colour)."""
    return lod < SIMPLE_BELOW


_small_metrics: QFontMetricsF | None = None


def small_metrics() -> QFontMetricsF:
    """The metrics of the preview lines' font (8 pt of the application's family, as ``NodeItem.paint`` sets it)."""
    global _small_metrics
    if _small_metrics is None:
        font = QFont(QFont().family())
        font.setPointSizeF(8)
        _small_metrics = QFontMetricsF(font)
    return _small_metrics


def pack_params(params: list[str], width: float) -> list[str]:
    """A parameter summary's ``k=v`` parts as lines no wider than ``width``, each part whole (``in_features=16`` /
    ``out_features=32 bias=False``, never ``in_features=16 out_fe…``): a list's part (a shape, a tensor literal, dims:
    ``shape=[32, 3, 224, 224]``) on a line of its own, the other parts as many to a line as fit. So two nodes of one
    kind lay out alike whatever their numbers (lesson 1's x and w: ``shape=[…]`` / ``seed=…`` both; x's longer shape
    wrapped its seed to a second line while w's stayed on one). A part longer than a line alone is elided when drawn,
    and the node's tooltip has the whole summary."""
    metrics = small_metrics()
    lines: list[str] = []
    alone = False  # the last line holds a list's part: nothing joins it
    for part in params:
        listed = _is_list_part(part)
        if lines and not alone and not listed and metrics.horizontalAdvance(f"{lines[-1]} {part}") <= width:
            lines[-1] = f"{lines[-1]} {part}"
        else:
            lines.append(part)
        alone = listed
    return lines


def _is_list_part(part: str) -> bool:
    """Whether a summary's ``k=v`` part holds a list (``shape=[2, 3]``) or a large literal's shape
    (``tensor=(300, 400) values``), as ``gui.format.param_text`` writes them."""
    return part.partition("=")[2].startswith(("[", "("))


def metrics_elided(font: QFont, text: str, width: float) -> str:
    """``text`` cut with '…' to ``width`` in ``font``."""
    return QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, width)


def simple_pen(color: QColor) -> QPen:
    """A frame two pixels wide on screen at any zoom."""
    pen = QPen(color, 2)
    pen.setCosmetic(True)
    return pen


class NodeItem(QGraphicsItem):
    """A movable, selectable node; ``ports`` maps ``(name, is_output)`` to its PortItem.

    ``painted_simple`` says which form the last paint drew (None before the first): zoomed out,
    a 500-node overview must repaint within a frame, so text, ports names and previews go.
    ``painted_preview`` says whether the last paint drew the value and gradient lines (from
    ``SMALL_PRINT_BELOW`` up; below it they would be an unreadable smudge).
    """

    def __init__(self, node: Node, spec: NodeSpec | None,
                 port_names: tuple[list[str], list[str]] | None = None) -> None:
        """``port_names`` (inputs, outputs) as the document gives them (``Graph.port_names``: a placeholder's are
        those its edges name); the node's own when not given."""
        super().__init__()
        self.node_id = node.id
        self.type_id = node.type
        self.category = spec.category if spec is not None else node.type.split(".")[0]
        self.title = node.title or (spec.title if spec is not None else f"? {node.type}")
        self._color = style.category_color(self.category)
        self.display = NodeDisplay()
        self.breakpoint = False
        self.painted_simple: bool | None = None
        self.painted_preview = False
        self._painted_scale = 1.0  # text_scale at the last paint (the port names' size in the scene)
        self.painted_value = ""  # the value line as the last paint drew it (elided where it had no room)
        self._param_lines: list[str] = []  # the display's parameter summary laid out in lines (pack_params)
        self._badge_lines: list[list[str]] = []  # each badge's lines: the summary's, the others word-wrapped
        self.painted_error: list[str] = []  # the error's lines as the last paint drew them (whole lines, '…')
        self.badge: DiagnosticBadge | None = None  # the diagnostics badge (a child item) while the node has hints
        self.ports: dict[tuple[str, bool], PortItem] = {}
        self.placeholder = spec is None and node.graph is None  # an unknown (newer) type: its edges name its ports
        self._make_ports(node, spec, port_names)
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsMovable | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
                      | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.setPos(*node.position)
        self.setZValue(1)
        self._base_tooltip = f"{self.title} ({node.type}, {node.id})"
        self.setToolTip(self._base_tooltip)

    def _make_ports(self, node: Node, spec: NodeSpec | None,
                    port_names: tuple[list[str], list[str]] | None) -> None:
        kinds: dict[str, str] = {}
        if spec is not None:
            for p in tuple(spec.input_ports(node.params)) + tuple(spec.outputs):
                kinds[p.name] = p.kind
        ins, outs = port_names if port_names is not None else (node.input_names(), node.output_names())
        for i, name in enumerate(ins):
            item = PortItem(self, node.id, name, kinds.get(name, "tensor"), False)
            item.setPos(0, style.TITLE_H + style.PORT_ROW * (i + 0.5))
            self.ports[(name, False)] = item
        for i, name in enumerate(outs):
            item = PortItem(self, node.id, name, kinds.get(name, "tensor"), True)
            item.setPos(style.NODE_WIDTH, style.TITLE_H + style.PORT_ROW * (i + 0.5))
            self.ports[(name, True)] = item
        self._rows = max(len(ins), len(outs), 1)
        self._update_geometry()

    def port(self, name: str, is_output: bool) -> PortItem | None:
        return self.ports.get((name, is_output))

    def add_placeholder_port(self, name: str, is_output: bool) -> PortItem:
        """A port for an edge that a placeholder (unknown type) gained after it was drawn (an undone delete puts
        the node back before its edges), in the next row of its side."""
        row = sum(1 for (_n, out) in self.ports if out == is_output)
        item = PortItem(self, self.node_id, name, "tensor", is_output)
        item.setPos(style.NODE_WIDTH if is_output else 0, style.TITLE_H + style.PORT_ROW * (row + 0.5))
        self.ports[(name, is_output)] = item
        self.prepareGeometryChange()
        self._rows = max(self._rows, row + 1)
        self._update_geometry()
        return item

    # ----- geometry and painting ----------------------------------------------------------------
    def _preview_lines(self) -> list[tuple[str, str]]:
        """``[(kind, text)]``: value, grad, badge and error lines, those the display has."""
        d = self.display
        lines: list[tuple[str, str]] = []
        if d.value:
            lines.append(("value", d.value))
        if d.grad:
            lines.append(("grad", f"grad {d.grad}"))
            if d.grad_note:
                lines.append(("grad", d.grad_note))
        for wrapped in self._badge_lines:  # a line each at least: joined, the second was cut off
            lines.extend(("badge", line) for line in wrapped)
        if d.error:
            lines.append(("error", d.error))
        return lines

    def _height(self) -> float:
        extra = sum(ERROR_H + 2 if kind == "error" else 16.0 for kind, _ in self._preview_lines())
        heat = HEAT_H + 4 if self.display.heat else 0.0
        return style.TITLE_H + style.PORT_ROW * self._rows + extra + heat + 8.0

    def _update_geometry(self) -> None:
        """Cache the size: Qt asks for boundingRect several times a frame for every visible node."""
        self._h = self._height()
        self._bounds = QRectF(-4, -4, style.NODE_WIDTH + 8, self._h + 8)
        self._body = QRectF(0, 0, style.NODE_WIDTH, self._h)

    def boundingRect(self) -> QRectF:  # Qt override
        return self._bounds

    def body_rect(self) -> QRectF:
        """The node's box (without the selection margin), in item coordinates."""
        return self._body

    def text_rects(self) -> list[QRectF]:
        """Where the last paint drew text, in item coordinates: the title bar, each port's name and, below the
        ports, the value, gradient, badge and error lines with the heat map (the canvas's edge buttons keep off
        them: 'more ▼' sat on lesson 10's h_cut value line at 1920x1080)."""
        w = style.NODE_WIDTH
        rects = [QRectF(0, 0, w, style.TITLE_H)]
        if not self.painted_preview:
            return rects
        for (name, is_output), item in self.ports.items():
            width = small_metrics().horizontalAdvance(name) * self._painted_scale
            rects.append(QRectF(w - 10 - width if is_output else 10, item.pos().y() - 8, width, 16))
        top = style.TITLE_H + style.PORT_ROW * self._rows
        if self._preview_lines() or self.display.heat:
            rects.append(QRectF(0, top, w, self._h - top))
        return rects

    def set_display(self, display: NodeDisplay) -> None:
        if display == self.display:
            return  # a refresh sets every node's display, most of them unchanged (20,000 on a large graph)
        self.prepareGeometryChange()
        self.display = display
        room = style.NODE_WIDTH - 16
        self._param_lines = pack_params(display.params, room)
        summary = " ".join(display.params) if display.params else None
        widest = room / text_scale(SMALL_PRINT_BELOW)  # the room at the zoom that draws text biggest in the scene
        self._badge_lines = [self._param_lines if badge == summary else pack_params(badge.split(" "), widest)
                             for badge in display.badges]  # "shares memory with base, write" on two lines
        self._update_geometry()
        self.setOpacity(0.45 if display.spent else 1.0)
        tip = display.tooltip or self._base_tooltip
        if any(small_metrics().horizontalAdvance(line) > room for line in self._param_lines):
            tip += "\n" + "\n".join(display.params)  # a part too long for a line: drawn elided, whole here
        tip += "".join(f"\n{badge}" for badge, wrapped in zip(display.badges, self._badge_lines, strict=True)
                       if badge != summary and any(small_metrics().horizontalAdvance(x) > widest for x in wrapped))
        self.setToolTip(tip)
        set_badge(self, display.diagnostics)
        self.update()

    def set_breakpoint(self, on: bool) -> None:
        self.breakpoint = on
        self.update()

    def set_title(self, title: str) -> None:
        self.title = title
        self.update()

    def _frame_pen(self) -> QPen:
        d = self.display
        if d.error:
            return QPen(style.ERROR, 3)
        if d.highlight:
            return QPen(style.HIGHLIGHT, 3)
        if self.isSelected():
            return QPen(SELECTED, 2)
        if d.leaf:
            return QPen(style.LEAF, 2.5)
        if d.retain:
            return QPen(style.LEAF, 2, Qt.PenStyle.DashLine)
        return QPen(QColor("#111111"), 1)

    def simple_frame_color(self) -> QColor | None:
        """Zoomed out only what marks the node gets a frame: error, highlight, selection, a leaf."""
        d = self.display
        return style.ERROR if d.error else style.HIGHLIGHT if d.highlight else (
            SELECTED if self.isSelected() else style.LEAF if d.leaf else None)

    def set_simple(self, on: bool) -> None:
        """The scene's zoomed-out form (see gui.canvas.overview): the overview draws this node, so it draws
        nothing and hides its ports, while it still takes clicks, selection and moves."""
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, on)
        if on:
            self.painted_preview = False
        for port in self.ports.values():
            port.setVisible(not on)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:  # Qt override
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        self.painted_simple = simple_at(lod)
        self.painted_preview = lod >= SMALL_PRINT_BELOW
        if self.painted_simple:  # drawn small by another view (the minimap): the box and its frame
            color = self.simple_frame_color()
            painter.setPen(simple_pen(color) if color is not None else Qt.PenStyle.NoPen)
            painter.setBrush(self._color)
            painter.drawRoundedRect(self._body, 6, 6)
            return
        w, h = style.NODE_WIDTH, self._h
        body = QPainterPath()
        body.addRoundedRect(QRectF(0, 0, w, h), 6, 6)
        painter.fillPath(body, QBrush(style.NODE_BG))
        title = QPainterPath()
        title.addRoundedRect(QRectF(0, 0, w, style.TITLE_H), 6, 6)
        painter.fillPath(title, QBrush(self._color))
        painter.setPen(style.NODE_TEXT)
        scale = self._painted_scale = text_scale(lod)
        bold = QFont(painter.font())
        bold.setBold(True)
        if scale > 1.0:
            bold.setPointSizeF(bold.pointSizeF() * scale)
        painter.setFont(bold)
        painter.drawText(QRectF(8, 0, w - 16, style.TITLE_H), MIDDLE_LEFT, metrics_elided(bold, self.title, w - 16))
        small = QFont(painter.font().family())
        small.setPointSizeF(8 * scale)
        painter.setFont(small)
        if self.painted_preview:  # smaller, port names and previews would be an unreadable smudge
            self._paint_port_names(painter, w)
            self._paint_preview(painter, w, scale)
        self._paint_frame(painter, body)
        if self.breakpoint:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(style.ERROR))
            painter.drawEllipse(QRectF(w - 18, 6, 12, 12))

    def _paint_frame(self, painter: QPainter, body: QPainterPath) -> None:
        """The frame in ``_frame_pen``'s colour; a selected node whose frame shows its step or its error gets a white
        ring outside it as well, so selecting it is seen."""
        painter.setPen(self._frame_pen())
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(body)
        if self.isSelected() and (self.display.error or self.display.highlight):
            # NOTE: the step's (or the error's) frame wins over the selection's, so clicking the node just stepped
            # changed nothing on it: a newcomer took that first click as lost and clicked again
            painter.setPen(QPen(SELECTED, SELECTION_RING))
            painter.drawRoundedRect(self._body.adjusted(-3, -3, 3, 3), 8, 8)

    def _paint_port_names(self, painter: QPainter, w: float) -> None:
        painter.setPen(QColor("#bdc3c7"))
        for (name, is_output), item in self.ports.items():
            y = item.pos().y()
            rect = QRectF(10, y - 8, w / 2 - 10, 16) if not is_output else QRectF(w / 2, y - 8, w / 2 - 10, 16)
            align = Qt.AlignmentFlag.AlignRight if is_output else Qt.AlignmentFlag.AlignLeft
            painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | align, name)

    def _paint_heat(self, painter: QPainter, y: float) -> None:
        rows = self.display.heat
        cell = min(HEAT_H / len(rows), (style.NODE_WIDTH - 16) / max(len(rows[0]), 1))
        for i, row in enumerate(rows):
            for j, v in enumerate(row):
                color = QColor("#e74c3c") if v != v else QColor.fromHsvF(0.7 - 0.55 * v, 0.8, 0.35 + 0.6 * v)
                painter.fillRect(QRectF(8 + j * cell, y + i * cell, cell, cell), color)

    def _paint_preview(self, painter: QPainter, w: float, scale: float = 1.0) -> None:
        y = style.TITLE_H + style.PORT_ROW * self._rows + 2
        colors = {"value": style.NODE_TEXT, "grad": style.GRAD_TEXT, "badge": QColor("#85c1e9"), "error": style.ERROR}
        metrics = QFontMetricsF(painter.font())
        for kind, text in self._preview_lines():
            painter.setPen(colors[kind])
            if kind == "error":
                self.painted_error = whole_lines(metrics, text, w - 16, ERROR_H)
                painter.drawText(QRectF(8, y, w - 16, ERROR_H), Qt.AlignmentFlag.AlignLeft,
                                 "\n".join(self.painted_error))
                y += ERROR_H + 2
            else:
                room = w - 16
                device = self.display.device
                if kind == "value" and device and not text.endswith(f" {device}"):  # a summary names it already
                    room -= paint_device_tag(painter, device, w - 8, y, scale) + 6
                    painter.setPen(colors[kind])
                shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
                if kind == "value":
                    self.painted_value = shown
                painter.drawText(QRectF(8, y, room, 16), MIDDLE_LEFT, shown)
                y += 16
        if self.display.heat:
            self._paint_heat(painter, y + 2)

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:  # Qt override
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged and self.scene() is not None:
            cast("GraphScene", self.scene()).node_item_moved(self.node_id)  # a node item lives in a GraphScene
        return super().itemChange(change, value)
