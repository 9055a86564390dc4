"""The node palette: type to fuzzy-search node types by title, id and description; Enter adds one.

Keyboard-only: the search field keeps focus, Up/Down move through the matches, Enter picks, Escape
closes. ``chosen(type_id)`` is emitted for the pick.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QEvent, QObject, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QDialog, QLineEdit, QListView, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from core.nodegraph.model.spec import NodeSpec, all_specs


def fuzzy_score(query: str, text: str) -> int | None:
    """A score for ``query`` as a subsequence of ``text`` (higher is better), None when it isn't one."""
    query, text = query.lower(), text.lower()
    if not query:
        return 0
    if query in text:  # a substring beats any scattered match; earlier, and in shorter texts, is better
        return 100_000 - text.index(query) * 200 - len(text) + (30_000 if text.startswith(query) else 0)
    score, pos, last = 0, 0, -2
    for ch in query:
        pos = text.find(ch, pos)
        if pos < 0:
            return None
        score += 10 if pos == last + 1 else 1
        last, pos = pos, pos + 1
    return score * 100 - len(text)


def search(query: str, specs: Iterable[NodeSpec] | None = None) -> list[NodeSpec]:
    """Specs matching ``query`` best first: title and id count fully, the description a little less."""
    ranked: list[tuple[int, str, NodeSpec]] = []
    for s in all_specs() if specs is None else specs:
        scores = [fuzzy_score(query, s.title), fuzzy_score(query, s.type_id)]
        d = fuzzy_score(query, s.description) if len(query) > 2 else None
        scores.append(d // 2 if d is not None else None)
        best = max((x for x in scores if x is not None), default=None)
        if best is not None:
            ranked.append((-best, s.type_id, s))
    return [s for _, _, s in sorted(ranked, key=lambda r: (r[0], r[1]))]


def _inside_screen(pos: QPoint, size: QSize) -> QPoint:
    """``pos``, moved so that a popup of ``size`` there stays whole on the screen it is on."""
    screen = QGuiApplication.screenAt(pos) or QGuiApplication.primaryScreen()
    if screen is None:
        return pos
    area = screen.availableGeometry()
    return QPoint(max(area.left(), min(pos.x(), area.right() + 1 - size.width())),
                  max(area.top(), min(pos.y(), area.bottom() + 1 - size.height())))


class NodePalette(QDialog):
    chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("nodePalette")
        self.search_edit = QLineEdit()
        self.search_edit.setObjectName("paletteSearch")
        self.search_edit.setPlaceholderText("Search nodes (title, id, description)…")
        self.results = QListWidget()
        self.results.setObjectName("paletteResults")
        # a long description wraps onto the next lines of its row, whole (its text is also the row's tooltip):
        # cut with "…" at 1366x768 it lost what a node does, and a sideways scroll bar cut every row off mid-word
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results.setWordWrap(True)
        self.results.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.results.setUniformItemSizes(False)
        self.results.setResizeMode(QListView.ResizeMode.Adjust)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.search_edit)
        layout.addWidget(self.results)
        self.resize(420, 360)
        self.search_edit.textChanged.connect(self.refresh)
        self.search_edit.returnPressed.connect(self.accept_current)
        self.results.itemActivated.connect(lambda _item: self.accept_current())
        self.search_edit.installEventFilter(self)
        # optional spec -> bool filter (e.g. nodes with an input, for a dropped edge)
        self.accepts: Callable[[NodeSpec], bool] | None = None
        self.refresh("")

    def refresh(self, query: str) -> None:
        self.results.clear()
        specs = [s for s in all_specs() if self.accepts is None or self.accepts(s)]
        for s in search(query, specs)[:200]:
            item = QListWidgetItem(f"{s.title}    {s.type_id} — {s.description}")
            item.setData(Qt.ItemDataRole.UserRole, s.type_id)
            item.setToolTip(f"{s.title} ({s.type_id}): {s.description}")
            self.results.addItem(item)
        if self.results.count():
            self.results.setCurrentRow(0)

    def current_type(self) -> str | None:
        item = self.results.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def accept_current(self) -> None:
        type_id = self.current_type()
        if type_id:
            self.chosen.emit(type_id)
            self.accept()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override: arrows move the list while typing
        if obj is self.search_edit and isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress:
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up):
                row = self.results.currentRow() + (1 if event.key() == Qt.Key.Key_Down else -1)
                self.results.setCurrentRow(max(0, min(row, self.results.count() - 1)))
                return True
        return super().eventFilter(obj, event)

    def open_at(self, global_pos: QPoint, accepts: Callable[[NodeSpec], bool] | None = None) -> None:
        self.accepts = accepts
        self.search_edit.clear()
        self.refresh("")
        self.move(_inside_screen(global_pos, self.size()))
        self.show()
        self.search_edit.setFocus()
