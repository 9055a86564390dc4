"""The main window's document and file handling, as a mixin of ``MainWindow``: New, Open, Open Recent,
Save, Save As, Revert, Export (image, Python script), drag-and-drop of files, autosave and recovery.

A bad file shows the loader's message and keeps the open document; saving goes through
``core.nodegraph.files`` (atomic); the title shows the file name and ``*`` while there are unsaved edits.
"""

from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog, QMessageBox

from core.nodegraph.document import Graph
from gui import file_ops


class DocumentMixin:
    """Mixed into ``MainWindow``; uses its graph, path, undo stack, scene, view, bridge and inspector."""

    def export_python_dialog(self) -> None:
        from core.nodegraph.export import ExportError, write_script  # noqa: PLC0415

        path, chosen = QFileDialog.getSaveFileName(self, "Export Python script", "graph.py",
                                                   "core script (*.py);;torch script (*.py)")
        if path:
            try:
                write_script(self.graph, path, api="torch" if chosen.startswith("torch") else "core")
                self.show_message(f"Exported {path}")
            except (ExportError, OSError) as exc:
                QMessageBox.warning(self, "Can't export", str(exc))

    # ----- documents and files -------------------------------------------------------------------------------
    def set_document(self, graph: Graph, path: str | None) -> None:
        """Show another document: the canvas, session and inspector follow; the undo history starts over."""
        self.bridge.set_graph(graph)
        self.graph, self.path = graph, path
        self.scene.set_graph(graph)
        self.undo_stack.clear()
        self.highlight = None
        self.inspector.set_context(graph, None)
        self.refresh_session_view()
        self._update_title()
        self.view.fit_all()

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded, or unmodified)."""
        if not self.is_modified():
            return True
        answer = QMessageBox.question(self, "Unsaved changes", "Save the changes to this graph first?",
                                      QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel)
        if answer == QMessageBox.Save:
            return self.save()
        return answer == QMessageBox.Discard

    def new_document(self) -> None:
        if self.maybe_save():
            self.set_document(Graph(), None)

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open graph", "", "Nodegrad graphs (*.json);;All files (*)")
        if path and self.maybe_save():
            self.open_path(path)

    def open_path(self, path: str) -> bool:
        """Load ``path``; a bad file shows the loader's message and keeps the open document."""
        graph, error = file_ops.load_graph(path)
        if error is not None:
            self.show_message(error)
            QMessageBox.warning(self, "Can't open file", error)
            return False
        self.set_document(graph, path)
        file_ops.remember_file(path)
        self.lessons.document_opened(path)
        return True

    def save(self) -> bool:
        return self.save_to(self.path) if self.path else self.save_as()

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save graph", self.path or "graph.json", "Nodegrad graphs (*.json)")
        return bool(path) and self.save_to(path)

    def save_to(self, path: str) -> bool:
        error = file_ops.save_graph(self.graph, path)
        if error:
            QMessageBox.warning(self, "Can't save", error)
            return False
        self.path = path
        self.undo_stack.setClean()
        file_ops.remember_file(path)
        self._update_title()
        self.show_message(f"Saved {path}")
        return True

    def revert(self) -> None:
        if self.path:
            self.open_path(self.path)

    def export_image_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export image", "graph.png", "PNG (*.png);;SVG (*.svg)")
        if path:
            self.show_message(file_ops.export_image(self.scene, path) or f"Exported {path}")

    def autosave(self) -> bool:
        """Every minute: keep a modified document in the recovery file (dropped on a clean close)."""
        if not self.is_modified() or not file_ops.files_available():
            return False
        self._wrote_recovery = file_ops.write_recovery(self.graph) is None
        return self._wrote_recovery

    def offer_recovery(self) -> bool:
        """After a crash: offer the recovery file; a recovered document opens unsaved (modified)."""
        path = file_ops.recovery_path() if file_ops.files_available() else None
        if path is None or not os.path.exists(path):
            return False
        answer = QMessageBox.question(self, "Recover unsaved graph?",
                                      "Nodegrad did not close cleanly. Open the graph it autosaved?",
                                      QMessageBox.Yes | QMessageBox.No)
        if answer != QMessageBox.Yes:
            file_ops.drop_recovery()
            return False
        graph, error = file_ops.load_graph(path)
        if error is not None:
            self.show_message(error)
            return False
        self.set_document(graph, None)
        self.undo_stack.resetClean()
        self._update_title()
        return True

    def dragEnterEvent(self, event):  # noqa: N802 - Qt override: a graph file dropped on the window opens
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event):  # noqa: N802 - Qt override
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths and self.maybe_save():
            self.open_path(paths[0])
