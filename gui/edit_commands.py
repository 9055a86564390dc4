"""The main window's editing commands: adding nodes, the clipboard, formulas and blocks (``EditCommands``, a part of
``MainWindow``).

Nodes come from the palette (Tab or a dropped wire: the palette then lists the types that connect) or the Node
library; Copy, Cut and Paste carry a fragment of graph JSON (checked as a file is when pasted); Insert expression
expands a formula into connected nodes; a block's inside opens read-only in a window of its own, and Collapse and
Expand are undoable commands. Every edit goes through the scene's commands; nothing here computes.

It is a mixin of ``MainWindow`` for the reason ``gui.run_commands`` gives: these commands are the window's public
methods (menus, tests and lessons call ``window.paste()``...). The members it uses of ``MainWindow`` are declared
below for the type checker.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QTimer
from PySide6.QtWidgets import QApplication

from core.nodegraph.files.io import LoadError, loads_fragment
from core.nodegraph.model.document import Graph
from gui.palette import NodePalette

if TYPE_CHECKING:
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QMainWindow

    from core.nodegraph.model.expression import ExpressionError
    from core.nodegraph.model.layout import Point
    from core.nodegraph.model.spec import NodeSpec
    from gui.canvas.scene import GraphScene, PortEnd
    from gui.canvas.view import GraphView
    from gui.main_window import MainWindow
    from gui.training.status_line import StatusLine

    _Window = QMainWindow
else:
    _Window = object

__all__ = ["FRAGMENT_MIME", "EditCommands"]

FRAGMENT_MIME = "application/x-nodegrad-fragment"


class EditCommands(_Window):
    """Adding nodes, the clipboard, formulas and blocks (``MainWindow`` inherits it)."""

    if TYPE_CHECKING:  # what it uses of MainWindow (set in MainWindow.__init__)
        graph: Graph
        scene: GraphScene
        view: GraphView
        status_label: StatusLine
        named_actions: dict[str, QAction]
        node_palette: NodePalette | None
        _palette_pos: Point
        _pending_end: PortEnd | None
        _subwindows: list[MainWindow]
        expression_error: ExpressionError | None

        def show_message(self, text: str, as_written: bool = False, notice: bool = False) -> None: ...

    def select_all(self) -> None:
        for item in self.scene.node_items.values():
            item.setSelected(True)

    # ----- adding nodes ----------------------------------------------------------------------------------
    def show_palette(self, scene_pos: QPointF, end: PortEnd | None = None) -> NodePalette:
        """The palette at ``scene_pos``; with ``end`` (a dropped edge end) it lists compatible nodes and connects."""
        if self.node_palette is None:
            self.node_palette = NodePalette(self)
            self.node_palette.chosen.connect(self._palette_chosen)
        self._palette_pos = (scene_pos.x(), scene_pos.y())
        self._pending_end = end
        accepts: Callable[[NodeSpec], bool] | None = None
        if end is not None:
            accepts = _has_inputs if end[2] else _has_outputs
        spot = self.view.mapToGlobal(self.view.mapFromScene(scene_pos)) + QPoint(10, 10)
        self.node_palette.open_at(spot, accepts)
        return self.node_palette

    def _palette_chosen(self, type_id: str) -> None:
        if self._pending_end is not None:
            self.scene.add_connected(type_id, self._palette_pos, self._pending_end)
        else:
            self.scene.add_node(type_id, self._palette_pos)

    def add_node_at_center(self, type_id: str) -> str | None:
        """A node from the library: right of the selection, else at the view's centre (where there is room)."""
        return self.scene.add_node(type_id, self.scene.new_node_anchor(self.view.center_scene()))

    # ----- clipboard ---------------------------------------------------------------------------------------
    def copy(self) -> dict[str, Any]:
        """The selected nodes to the clipboard as graph JSON; with nothing selected, the status bar says how to
        select (Ctrl+C and Ctrl+X said nothing then, as if they had worked)."""
        return self._to_clipboard("copied")

    def _to_clipboard(self, verb: str) -> dict[str, Any]:
        fragment = self.scene.fragment()
        count = len(fragment["nodes"])
        if not count:
            self.show_message(f"Nothing {verb}: select nodes first (click one, or drag a box around several)",
                              notice=True)
            return fragment
        data = QMimeData()
        text = json.dumps(fragment, indent=1)
        data.setData(FRAGMENT_MIME, text.encode())
        data.setText(text)
        QApplication.clipboard().setMimeData(data)
        self.show_message(f"{verb.capitalize()} {count} node{'' if count == 1 else 's'}: Ctrl+V pastes them")
        return fragment

    def cut(self) -> None:
        if self._to_clipboard("cut")["nodes"]:
            self.scene.delete_selected()

    def paste(self) -> list[str]:
        """Insert the clipboard's nodes, checked as a file is (``files.loads_fragment``); a refusal is shown."""
        data = QApplication.clipboard().mimeData()  # None while nothing was ever copied (a traceback on Ctrl+V)
        raw: bytes | str = "" if data is None else bytes(data.data(FRAGMENT_MIME).data()) \
            if data.hasFormat(FRAGMENT_MIME) else data.text()
        if raw.lstrip()[:1] not in (b"{", "{"):
            self.show_message("The clipboard holds no Nodegrad nodes", notice=True)
            return []
        try:
            fragment = loads_fragment(raw)
        except LoadError as exc:
            self.show_message(f"Nothing pasted: {exc}", notice=True)
            return []
        return self.scene.paste_fragment(fragment)

    # ----- formulas and subgraphs --------------------------------------------------------------------------
    def insert_expression(self, formula: str) -> list[str]:
        """Expand ``formula`` into connected nodes laid out left to right, beside the selection or at the view's
        centre where there is room (one Paste); refusals are shown (``expression_error`` keeps the last)."""
        from core.nodegraph.model.expression import ExpressionError, expand
        from core.nodegraph.model.layout import fragment_layered

        self.expression_error: ExpressionError | None = None
        try:
            fragment = fragment_layered(expand(formula))
        except ExpressionError as exc:
            self.expression_error = exc
            self.show_message(str(exc))
            return []
        return self.scene.paste_fragment(fragment, self.scene.new_node_anchor(self.view.center_scene()),
                                         f"Insert {' '.join(formula.split())}")

    def insert_expression_dialog(self) -> None:
        from PySide6.QtWidgets import QInputDialog, QLineEdit

        formula, error, column = "(x * w).sum() + b", "", None
        prompt = "Formula (each name, such as x, becomes a tensor node to fill in):"  # also widens the box
        while True:  # a bad formula asks again: the parser's message above the typed text, the cursor where it points
            dialog = QInputDialog(self)
            dialog.setWindowTitle("Insert expression")
            dialog.setLabelText(f"{error}\n\n{prompt}" if error else prompt)
            dialog.setTextValue(formula)
            edit = dialog.findChild(QLineEdit)
            if column is not None and edit is not None:  # the typed text stays, unselected, to be fixed in place
                at = min(max(column - 1, 0), len(formula))
                QTimer.singleShot(0, dialog, lambda edit=edit, at=at: (edit.deselect(), edit.setCursorPosition(at)))
            ok = dialog.exec() == QInputDialog.DialogCode.Accepted
            formula = dialog.textValue()
            dialog.deleteLater()
            if not ok or not formula.strip() or self.insert_expression(formula):
                return
            error = self.status_label.text()
            column = self.expression_error.column if self.expression_error is not None else None

    def open_subgraph(self, node_id: str) -> MainWindow | None:
        """Show a block's inside in a window of its own, read-only (Expand edits it in place)."""
        node = self.graph.nodes.get(node_id)
        if node is None or node.graph is None:
            return None
        inner = Graph.from_dict({"nodes": node.graph.get("nodes", []), "edges": node.graph.get("edges", [])})
        from gui.main_window import MainWindow  # (the window module imports this one)

        window = MainWindow(inner)
        window.setWindowTitle(f"Inside {node.title or node_id} (read-only) — Nodegrad")
        window.view.setInteractive(False)
        for action in window.named_actions.values():
            if action.menu() is None and action.text().replace("&", "") not in ("Fit all", "Fit All"):
                action.setEnabled(False)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.show()
        window.view.fit_all()
        self._subwindows = [w for w in self._subwindows if shiboken6.isValid(w)] + [window]
        return window

    def collapse_selected(self) -> None:
        """Collapse the selection into one block, which becomes the selection (Ctrl+Shift+G expands it again)."""
        from core.nodegraph.model.commands import Collapse

        ids = self.scene.selected_node_ids()
        if ids:
            command = Collapse(ids)
            if self.scene.edit(command) is None:
                self.scene.select_nodes([command.node_id])

    def expand_selected(self) -> None:
        """Replace each selected block by its inside; the nodes that came out are the selection (the block's
        frame, gone with it, left nothing selected)."""
        from core.nodegraph.model.commands import Expand

        added: list[str] = []
        for nid in self.scene.selected_node_ids():
            if self.graph.node(nid).graph is not None:
                command = Expand(nid)
                if self.scene.edit(command) is None:
                    added += command.added
        if added:
            self.scene.select_nodes(added)


def _has_inputs(spec: NodeSpec) -> bool:
    return bool(spec.inputs)


def _has_outputs(spec: NodeSpec) -> bool:
    return bool(spec.outputs)
