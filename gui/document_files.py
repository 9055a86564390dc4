"""The main window's documents and files: ``DocumentFiles``, a part of ``MainWindow``.

New, Open, Save, Save As, Revert and Export Image, the question about unsaved changes, where a file dialog starts,
and ``set_document``, which shows another document: the canvas, session, Inspector and training panel follow it
and the undo history starts over. Reading and writing go through ``gui.file_ops`` (``core.nodegraph.files``); a
file that fails to load shows the loader's message and keeps the open document.

It is a mixin of ``MainWindow`` rather than an object of its own because these commands are the window's public
methods (menus, Open Recent, lessons and tests call ``window.open_path``...) and they replace the window's own
document. The members it uses of ``MainWindow`` are declared below for the type checker.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from core.nodegraph.model.document import Graph
from core.nodegraph.model.gc_pause import gc_paused
from gui import file_ops
from gui.format import sentence

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QMainWindow

    from gui.autosave import Autosaver
    from gui.canvas.comments import CommentLayer
    from gui.canvas.scene import GraphScene
    from gui.canvas.view import GraphView
    from gui.inspector import Inspector
    from gui.lesson_controller import LessonController
    from gui.session_bridge import SessionBridge
    from gui.training.controls import TrainingControls
    from gui.training.status_line import StatusLine

    _Window = QMainWindow
else:
    _Window = object

__all__ = ["DocumentFiles", "mnemonic_text"]

# the platform's words for Discard (Qt's own texts carry no mnemonic) and the letter a user presses for each
_DISCARD_MNEMONICS = {"Don't Save": "Do&n't Save", "Close without Saving": "Close &without Saving"}


def mnemonic_text(text: str) -> str:
    """A standard button's text with a mnemonic (``&Save``, ``&Discard``, ``Do&n't Save``); one that has one
    (``&Yes``) as it is."""
    return text if "&" in text else _DISCARD_MNEMONICS.get(text, f"&{text}")


def _add_mnemonics() -> None:
    """Give the open "Unsaved changes" box's Save and Discard buttons mnemonics (S, and D or the platform's letter:
    Qt's static question writes them without), so a keyboard user answers with one key; Esc is Cancel already."""
    box = QApplication.activeModalWidget()
    if not isinstance(box, QMessageBox):
        return
    for which in (QMessageBox.StandardButton.Save, QMessageBox.StandardButton.Discard):
        button = box.button(which)
        if button is not None:
            button.setText(mnemonic_text(button.text()))


class DocumentFiles(_Window):
    """The File menu's document commands (``MainWindow`` inherits it)."""

    if TYPE_CHECKING:  # what it uses of MainWindow (set in MainWindow.__init__)
        path: str | None
        graph: Graph
        undo_stack: QUndoStack
        scene: GraphScene
        view: GraphView
        comments: CommentLayer
        bridge: SessionBridge
        inspector: Inspector
        training: TrainingControls
        lessons: LessonController
        autosaver: Autosaver
        highlight: str | None
        status_label: StatusLine
        _edit_index: int

        def show_message(self, text: str, as_written: bool = False, notice: bool = False) -> None: ...
        def refresh_session_view(self) -> None: ...
        def is_modified(self) -> bool: ...
        def _update_title(self) -> None: ...

    def set_document(self, graph: Graph, path: str | None) -> None:
        """Show another document: the canvas, session and inspector follow; the undo history starts over. A run
        that was training stops, said in the status bar (the Train dock starts clean beside the new document)."""
        was_training = self.training.trainer.state == "training"
        self.bridge.set_graph(graph)
        self.graph, self.path = graph, path
        self.scene.set_graph(graph)
        self.comments.attach(graph)
        self.undo_stack.clear()
        self.undo_stack.setClean()  # clear() leaves an empty stack's 'never clean' mark (a recovered document's)
        self._edit_index = 0  # the status bar's count of edits starts over with the history
        self.highlight = None
        self.show_message("Training stopped: another document was opened" if was_training else "")
        self.inspector.set_context(graph, None)
        self.training.panel.set_graph(graph)  # the new document's training settings and stop conditions, now
        self.refresh_session_view()
        self._update_title()
        self.view.show_document()  # values readable at once, no Fit all needed

    def start_path(self, name: str = "", saving: bool = False) -> str:
        """Where a file dialog starts: the document's folder (the examples folder for an example), else the
        folder of the most recent file, else the home folder; never the process's working directory. A dialog
        ``saving`` a file never starts in the examples folder (package data, the lessons' own files)."""
        usable = [p for p in [self.path, *file_ops.recent_files()]
                  if p and not (saving and file_ops.is_bundled_example(p))]
        source = usable[0] if usable else None
        folder = os.path.dirname(os.path.abspath(source)) if source else os.path.expanduser("~")
        return os.path.join(folder, name) if name else folder

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded, or unmodified)."""
        if not self.is_modified():
            return True
        QTimer.singleShot(0, _add_mnemonics)  # runs in the question's own event loop, once its box is up
        answer = QMessageBox.question(self, "Unsaved changes", "Save the changes to this graph first?",
                                      QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                      | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_document(self) -> None:
        if self.maybe_save():
            self.set_document(Graph(), None)

    def open_dialog(self) -> None:
        path, _ = file_ops.open_file_name(self, "Open graph", self.start_path(),
                                          "Nodegrad graphs (*.json);;All files (*)")
        if path:
            self.open_asking(path)

    def open_asking(self, path: str) -> bool:
        """File ▸ Open's way: read ``path`` first, then ask to save the changes; a file that can't be opened is
        refused without asking about a save that opening it would never need."""
        graph, error = file_ops.load_graph(path)
        if graph is None:
            return self._refuse(error)
        modified = self.is_modified()
        if not self.maybe_save():
            return False
        if modified and not self.is_modified():  # saved first, maybe over this very file: read what it holds now
            return self.open_path(path)
        return self._show_opened(graph, path)

    def open_path(self, path: str) -> bool:
        """Load ``path``; a bad file shows the loader's message and keeps the open document."""
        graph, error = file_ops.load_graph(path)
        return self._refuse(error) if graph is None else self._show_opened(graph, path)

    def _refuse(self, error: object) -> bool:
        """A file that can't be opened: its name and the loader's message (``error``), the document kept."""
        self.show_message(str(error), notice=True)
        QMessageBox.warning(self, "Can't open file", sentence(str(error)))
        return False

    def _show_opened(self, graph: Graph, path: str) -> bool:
        with gc_paused():  # a large document's canvas items all stay: no collection walks them while they are made
            self.set_document(graph, path)
        file_ops.remember_file(path)
        self.lessons.document_opened(path)
        unknown = _placeholder_note(graph)
        if unknown:  # a file from a newer version: say so now, not first when a step stops at the node
            self.show_message(f"Opened {os.path.basename(path)}: {unknown}")
        elif graph.trained_values:  # the parameters start where the saved training left them, not from their seeds
            self.show_message(f"Opened {os.path.basename(path)} with its trained parameter values "
                              "(Run ▸ Reset starts again from the initial ones)")
        elif not self.status_label.text():  # what was opened, as Save says what was saved (the line stayed empty)
            self.show_message(f"Opened {os.path.basename(path)}")
        return True

    def save(self) -> bool:
        """Save to the document's file; an example opened from File ▸ Examples asks where instead (Save As): its
        file is the lesson's own, which a learner's changes must not replace."""
        return self.save_to(self.path) if self.path and not self._is_example() else self.save_as()

    def document_stem(self) -> str:
        """The document's name without its extension, for the files it is saved or exported to: its file's
        (``curve_fit``), else its code's for a graph imported from code (``snippet``), else ``graph``."""
        name = self.path or (self.graph.code or {}).get("name") or "graph"
        return os.path.splitext(os.path.basename(name))[0]

    def save_as(self) -> bool:
        suggested = os.path.basename(self.path) if self.path else f"{self.document_stem()}.json"
        start = self.path if self.path and not self._is_example() else self.start_path(suggested, saving=True)
        path, chosen = file_ops.save_file_name(self, "Save graph", start, "Nodegrad graphs (*.json)")
        path = file_ops.save_path(self, path, chosen or "(*.json)")
        return bool(path) and self.save_to(path)

    def _is_example(self) -> bool:
        return self.path is not None and file_ops.is_bundled_example(self.path)

    def save_to(self, path: str) -> bool:
        trained = self.bridge.trained_values()
        error = file_ops.save_graph(self.graph, path, trained)
        if error:
            QMessageBox.warning(self, "Can't save", sentence(error))
            return False
        self.path = path
        self.undo_stack.setClean()
        self.bridge.mark_saved()
        self.autosaver.discard()  # the changes are safe in the file (training alone leaves the stack clean)
        file_ops.remember_file(path)
        self._update_title()
        kept = trained if trained is not None else self.graph.trained_values
        self.show_message(f"Saved {path} with the trained parameter values" if kept else f"Saved {path}")
        return True

    def revert(self) -> None:
        if self.path:
            self.open_path(self.path)

    def export_image_dialog(self) -> None:
        """Export image: the image named after the document (``curve_fit.png``), beside its file, or in the
        last-used folder for an example or a new document (``start_path``)."""
        start = self.start_path(f"{self.document_stem()}.png", saving=True)
        path, chosen = file_ops.save_file_name(self, "Export image", start,
                                               "PNG (*.png);;SVG (*.svg)")
        path = file_ops.save_path(self, path, chosen or "(*.png)")
        if path:
            error = file_ops.export_image(self.scene, path)
            self.show_message(error or f"Exported {path}", notice=bool(error))
            if error:
                QMessageBox.warning(self, "Can't export", error)


def _placeholder_note(graph: Graph) -> str:
    """What a newcomer needs to know about a graph's nodes of unknown types (placeholders), or ''."""
    nodes = [n for n in graph.nodes.values() if n.spec is None and n.graph is None]
    if not nodes:
        return ""
    titles = ", ".join(n.title or n.id for n in nodes[:3]) + (", ..." if len(nodes) > 3 else "")
    types = ", ".join(sorted({n.type for n in nodes}))
    one = len(nodes) == 1
    return (f"{'node' if one else f'{len(nodes)} nodes'} {titles} {'has a type' if one else 'have types'} this "
            f"version of Nodegrad doesn't know ({types}), kept as {'a placeholder' if one else 'placeholders'} that "
            "can't run (a file from a newer Nodegrad?)")
