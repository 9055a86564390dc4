"""The node library's tree: every node type by category; drag one onto the canvas to add it.

Double-clicking a type emits ``activated_type(type_id)`` (the window adds it at the view's centre).
``set_filter(text)`` shows only the types whose title or type id holds the text (the Nodes tab's filter
field, ``gui.node_library_panel``), their categories opened.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

from core.nodegraph.model.spec import all_specs, category_title
from gui.canvas.view import NODE_MIME


class NodeLibrary(QTreeWidget):
    activated_type = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("nodeLibrary")
        self.setHeaderHidden(True)
        self.setDragEnabled(True)
        self.itemDoubleClicked.connect(self._on_double_click)
        self.populate()

    def populate(self) -> None:
        """One group per category, named in a learner's words ("In-place ops", not "inplace") and listed in their
        alphabetical order; the category id is the group's tooltip and its data."""
        self.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        for s in sorted(all_specs(), key=lambda s: (category_title(s.category).lower(), s.title)):
            parent = groups.get(s.category)
            if parent is None:
                parent = groups[s.category] = QTreeWidgetItem(self, [category_title(s.category)])
                parent.setData(0, Qt.ItemDataRole.UserRole + 1, s.category)
                parent.setToolTip(0, f"node types {s.category}.*")
                parent.setFlags(Qt.ItemFlag.ItemIsEnabled)
            item = QTreeWidgetItem(parent, [s.title])
            item.setData(0, Qt.ItemDataRole.UserRole, s.type_id)
            item.setToolTip(0, f"{s.type_id}: {s.description}")

    def set_filter(self, text: str) -> list[QTreeWidgetItem]:
        """Show only the types whose title or type id contains ``text`` (any case), their categories open; an
        empty text shows every type with the categories closed. Returns the types shown, in order."""
        needle = text.strip().lower()
        shown: list[QTreeWidgetItem] = []
        for i in range(self.topLevelItemCount()):
            group = self.topLevelItem(i)
            if group is None:  # never: i is in range
                continue
            matches = 0
            for j in range(group.childCount()):
                item = group.child(j)
                if item is None:  # never: j is in range
                    continue
                hit = not needle or needle in item.text(0).lower() or needle in str(
                    item.data(0, Qt.ItemDataRole.UserRole)).lower()
                item.setHidden(not hit)
                if hit:
                    matches += 1
                    shown.append(item)
            group.setHidden(matches == 0)
            group.setExpanded(bool(needle) and matches > 0)
        return shown

    def type_items(self) -> list[QTreeWidgetItem]:
        out: list[QTreeWidgetItem] = []
        for i in range(self.topLevelItemCount()):
            group = self.topLevelItem(i)
            children = [group.child(j) for j in range(group.childCount())] if group is not None else []
            out.extend(child for child in children if child is not None)  # Qt's None is for an index out of range
        return out

    def mimeData(self, items: Sequence[QTreeWidgetItem]) -> QMimeData:  # Qt override
        data = QMimeData()
        type_id = items[0].data(0, Qt.ItemDataRole.UserRole) if items else None
        if type_id:
            data.setData(NODE_MIME, type_id.encode())
        return data

    def _on_double_click(self, item: QTreeWidgetItem, _column: int) -> None:
        type_id = item.data(0, Qt.ItemDataRole.UserRole)
        if type_id:
            self.activated_type.emit(type_id)
