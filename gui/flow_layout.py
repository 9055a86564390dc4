"""A layout that places its items left to right at their preferred sizes and starts a new row where the next one
would pass the right edge, as words wrap in a paragraph. Its height follows its width (``heightForWidth``) and its
minimum width is its widest item's, so a row of buttons never makes a narrow dock scroll sideways."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget

__all__ = ["FlowLayout"]


class FlowLayout(QLayout):
    """Items in rows, ``spacing`` pixels apart in both directions; hidden widgets take no room."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    # ----- QLayout's item list (Qt overrides) -----
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    # ----- sizes (Qt overrides) -----
    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        return size.grownBy(self.contentsMargins())

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    # ----- placing -----
    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _arrange(self, rect: QRect, move: bool) -> int:
        """Place the items in ``rect`` (when ``move``), each centred on its row's height (a label beside buttons);
        returns the height they take."""
        m: QMargins = self.contentsMargins()
        area = rect.marginsRemoved(m)
        rows: list[list[tuple[QLayoutItem, QSize]]] = [[]]
        x = area.x()
        for item in self._shown():
            hint = item.sizeHint()
            if rows[-1] and x + hint.width() > area.right() + 1:  # no room left in this row
                rows.append([])
                x = area.x()
            rows[-1].append((item, hint))
            x += hint.width() + self._gap
        y = area.y()
        for row in rows:
            height = max((hint.height() for _, hint in row), default=0)
            x = area.x()
            for item, hint in row:
                if move:
                    item.setGeometry(QRect(QPoint(x, y + (height - hint.height()) // 2), hint))
                x += hint.width() + self._gap
            y += height + self._gap
        return max(y - self._gap - rect.y() + m.bottom(), 0)
