"""Colours and sizes shared by the canvas items (one place to restyle the editor)."""

from __future__ import annotations

from PySide6.QtGui import QColor

from core.nodegraph.model import layout

PORT_COLORS = {"tensor": "#4aa3df", "scalar": "#a569bd", "parameter": "#e67e22", "gradient": "#e74c3c",
               "module": "#27ae60", "any": "#95a5a6"}
CATEGORY_COLORS = {"source": "#2e86c1", "param": "#ca6f1e", "math": "#1e8449", "compare": "#117a65",
                   "reduce": "#7d3c98", "shape": "#b7950b", "join": "#b7950b", "linalg": "#a93226",
                   "nn": "#2471a3", "loss": "#922b21", "layer": "#6c3483", "grad": "#c0392b",
                   "probe": "#c0392b", "data": "#196f3d", "check": "#515a5a", "expr": "#5d6d7e",
                   "graph": "#34495e"}
NODE_BG = QColor("#2b2f36")
NODE_TEXT = QColor("#ecf0f1")
GRAD_TEXT = QColor("#f5b041")
ERROR = QColor("#e74c3c")
HIGHLIGHT = QColor("#f1c40f")
LEAF = QColor("#f39c12")
SCENE_BG = QColor("#1e2126")
NODE_WIDTH, TITLE_H, PORT_ROW = layout.NODE_WIDTH, layout.TITLE_H, layout.PORT_ROW  # the size model layout shares
PORT_R = 6.0


def port_color(kind: str) -> QColor:
    return QColor(PORT_COLORS.get(kind, PORT_COLORS["any"]))


def category_color(category: str) -> QColor:
    """A fixed colour per known category, a stable hashed hue otherwise."""
    if category in CATEGORY_COLORS:
        return QColor(CATEGORY_COLORS[category])
    hue = sum(map(ord, category)) * 37 % 360
    return QColor.fromHsv(hue, 140, 170)
