"""Selecting nodes with the arrow keys, so a keyboard-only user reaches a node (and then its parameters in the
Inspector, Ctrl+2) without a mouse: with nothing selected an arrow picks the node nearest the middle of the view;
then each arrow moves the selection to the nearest node in its direction (within 60 degrees of it, a node
straight ahead before one off to the side)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF, Qt

__all__ = ["DIRECTIONS", "nearest", "next_in_direction"]

DIRECTIONS: dict[int, tuple[float, float]] = {  # QKeyEvent.key() -> a unit step on the canvas
    Qt.Key.Key_Left.value: (-1.0, 0.0), Qt.Key.Key_Right.value: (1.0, 0.0),
    Qt.Key.Key_Up.value: (0.0, -1.0), Qt.Key.Key_Down.value: (0.0, 1.0)}


def nearest(centres: Iterable[tuple[str, QPointF]], point: QPointF) -> str | None:
    """The id of the node whose centre is nearest ``point``."""
    best = min(centres, key=lambda c: (c[1].x() - point.x()) ** 2 + (c[1].y() - point.y()) ** 2, default=None)
    return best[0] if best is not None else None


def next_in_direction(centres: Iterable[tuple[str, QPointF]], here: QPointF, direction: tuple[float, float],
                      current: str) -> str | None:
    """The id of the node nearest ``here`` in ``direction`` (a unit step), or None where no node lies that way."""
    dx, dy = direction
    best, best_score = None, float("inf")
    for nid, c in centres:
        if nid == current:
            continue
        ahead = (c.x() - here.x()) * dx + (c.y() - here.y()) * dy
        aside = abs((c.x() - here.x()) * dy - (c.y() - here.y()) * dx)
        if ahead <= 0 or aside > 1.75 * ahead:  # outside a cone of about 60 degrees either side
            continue
        score = ahead + 2.0 * aside
        if score < best_score:
            best, best_score = nid, score
    return best
