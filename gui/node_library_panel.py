"""The Nodes tab: a filter field over the node library's tree, and a line saying how to add a node.

Typing in the field narrows the tree to the matching types (``NodeLibrary.set_filter``) and highlights the best
match, the one Return adds (``activated_type``, as a double-click on it does); Down moves into the tree (its first row).
The panel computes nothing: it only chooses a type id.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLabel, QLineEdit, QTreeWidgetItem, QVBoxLayout, QWidget

from gui.node_library import NodeLibrary

__all__ = ["NodeLibraryPanel"]


class NodeLibraryPanel(QWidget):
    """``filter_edit`` above ``tree`` (a NodeLibrary) and a hint under the field."""

    def __init__(self, tree: NodeLibrary, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("nodeLibraryPanel")
        self.tree = tree
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("nodeFilter")
        self.filter_edit.setPlaceholderText("Filter: mul, sum, linear…")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._filter)
        self.filter_edit.returnPressed.connect(self._add_first)
        self.filter_edit.installEventFilter(self)
        self.hint = QLabel("Double-click a type or drag it onto the canvas (Tab on the canvas searches too).")
        self.hint.setObjectName("nodeLibraryHint")
        self.hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.hint)
        layout.addWidget(tree, 1)

    def _best(self) -> QTreeWidgetItem | None:
        """The best match for the typed text: the type titled as typed, else the first whose title starts so, else
        the first shown ("mul" is mul, not mul_ or addcmul, listed above it); None with no text or no match."""
        needle = self.filter_edit.text().strip().lower()
        shown = self.tree.set_filter(needle)
        if not needle or not shown:
            return None
        return min(shown, key=lambda i: (i.text(0).lower() != needle, not i.text(0).lower().startswith(needle)))

    def _filter(self, text: str) -> None:
        """Narrow the tree and highlight the best match, so that the row Return adds is the one marked (typing
        "mul" listed mul_, matmul and addcmul above mul, none marked)."""
        best = self._best()
        if best is None:
            self.tree.clearSelection()
        else:
            self.tree.setCurrentItem(best)
            self.tree.scrollToItem(best)

    def _add_first(self) -> None:
        """Return: add the best match (the highlighted row)."""
        best = self._best()
        if best is not None:
            self.tree.activated_type.emit(best.data(0, Qt.ItemDataRole.UserRole))

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override: Down goes from the field to the tree
        if obj is self.filter_edit and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.key() == Qt.Key.Key_Down:
            first = next((i for i in self.tree.type_items() if not i.isHidden()), None)
            if first is not None:
                self.tree.setCurrentItem(first)
            self.tree.setFocus()
            return True
        return False
