"""File ▸ Open code… and File ▸ New graph from code…: import a snippet as a graph, shown beside its code.

``CodeImports(window)`` (made by the window, which places its dock and connects the two actions) holds the
Code dock (``CodePane``, hidden until a document with code is open, then a tab of the left column brought to
the front; ``document_changed`` shows or hides it) and wires:

- Open code (a ``.py`` file) and New graph from code (a snippet pasted into ``CodeInputDialog``) run the snippet
  through ``core.nodegraph.files.code_import.ImportRun``: in its own subprocess with a time and memory limit,
  polled from the event loop while a progress dialog keeps the window responsive; Cancel or Esc stops
  the run. The imported graph opens as the window's document (asking to save the old one first: for a pasted
  snippet while its box is still open, so Cancel there leaves the box as typed, and only once its syntax is
  checked: a snippet that can't run shows why in its box and asks nothing). A failing snippet shows the
  importer's message (``line 3: NameError: ...``) and the open document stays; a pasted one comes back in the
  snippet box, as typed, with the message above it; a file's message offers the same box, holding its code.
- the canvas's selection bands the lines that made the selected nodes; a click on a line selects its nodes;
  each forward or backward step moves the pane's marker to the line of the node just computed.

The window runs nothing here itself: the importer runs the code, the session computes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QProgressDialog,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from gui import file_ops
from gui.code_pane import CodePane
from gui.dock_columns import tab_titles_width
from gui.dock_panels import make_dock
from gui.window_placement import size_columns

if TYPE_CHECKING:
    from core.nodegraph.files.code_import import ImportResult, ImportRun
    from core.nodegraph.model.events import SessionEvent
    from gui.main_window import MainWindow

__all__ = ["CodeInputDialog", "CodeImports"]

EXAMPLE = """import torch
x = torch.tensor([2.0, 3.0], requires_grad=True)
w = torch.tensor([1.5, -0.5], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)

z = (x * w).sum() + b
z.backward()
"""
POLL_MS = 30
TITLE_ROOM = 200  # px beside the progress dialog's title for the window manager's icon and buttons
INDENT = "    "  # what Tab types in the snippet box: Python's usual indent (a tab beside pasted spaces is a TabError)
ERROR_LINE = QColor(231, 76, 60, 60)  # the band on the line a failed import points at
ERROR_STYLE = "color: #e74c3c"  # the message of the text as it failed
STALE_STYLE = "color: gray"  # the same message once the text was edited: it may no longer hold
STALE = "Before your edit: "  # what the message starts with once the text it names was edited


class SnippetEdit(QPlainTextEdit):
    """The snippet box: code in a fixed-width font, Tab indents with spaces and Ctrl+Return submits (Ctrl+Tab
    leaves the box, as in any text box that takes Tab)."""

    submitted = Signal()

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setObjectName("codeInputEdit")
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        font = QFont("Monospace")
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        self.setFont(font)
        self.textChanged.connect(self._unband)

    def _unband(self) -> None:
        """The first edit after a failed import takes the band away: it marked a line of the text that failed (a
        band left on a line typed over moved with the cursor, onto lines the message never named)."""
        if self.extraSelections():
            self.setExtraSelections([])

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and mods == Qt.KeyboardModifier.ControlModifier:
            self.submitted.emit()
        elif event.key() == Qt.Key.Key_Tab and mods == Qt.KeyboardModifier.NoModifier:
            self.insertPlainText(INDENT)
        else:
            super().keyPressEvent(event)

    def mark_line(self, line: int) -> None:
        """Put the cursor at the start of ``line`` (1-based) and band it, where a failed import points."""
        block = self.document().findBlockByNumber(line - 1)
        if not block.isValid():
            return
        cursor = QTextCursor(block)
        self.setTextCursor(cursor)
        band = QTextEdit.ExtraSelection()
        band.format.setBackground(ERROR_LINE)
        band.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        band.cursor = cursor
        self.setExtraSelections([band])
        self.centerCursor()


class CodeInputDialog(QDialog):
    """A box to paste a snippet into; ``accepted`` when the user presses Import (or Ctrl+Return) and ``confirm``,
    when given, says yes (asked while the box is open: a no leaves it open, the snippet as typed). Opened again
    after a failed import, it holds the snippet as typed and shows why it failed (``error``) above it, the cursor on
    the ``line`` it names."""

    def __init__(self, parent: QWidget | None = None, text: str = EXAMPLE, error: str = "",
                 line: int | None = None, confirm: Callable[[], bool] | None = None) -> None:
        super().__init__(parent)
        self.confirm = confirm
        self.setObjectName("codeInputDialog")
        self.setWindowTitle("New graph from code")
        self.edit = SnippetEdit(text)
        self.edit.submitted.connect(self.accept)
        if not error:
            self.edit.selectAll()
        label = QLabel("Paste PyTorch-style code (import torch runs as core). Import (Ctrl+Return) runs it, like a "
                       "terminal, and opens the graph it computed as a new document in place of the open one.")
        label.setWordWrap(True)
        self.error_label = QLabel(error)
        self.error_label.setObjectName("codeInputError")
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(bool(error))
        if error and line:
            self.edit.mark_line(line)
        self.edit.textChanged.connect(self._stale_error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.setObjectName("codeInputButtons")
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import")
        buttons.button(QDialogButtonBox.StandardButton.Ok).setToolTip("Run the snippet and open its graph "
                                                                      "(Ctrl+Return)")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.error_label)
        layout.addWidget(self.edit, 1)
        layout.addWidget(buttons)
        self.resize(560, 380)

    def accept(self) -> None:  # Qt override: Import and Ctrl+Return
        from core.nodegraph.files.code_import import CodeImportError, check_syntax  # only when code is imported

        try:  # first: code that can't run replaces nothing, so there is nothing to ask about saving
            check_syntax(self.edit.toPlainText())
        except CodeImportError as exc:
            self.show_error(f"snippet.py: {exc}", exc.line)
            return
        if self.confirm is None or self.confirm():
            super().accept()
        else:  # "Save the changes?" answered Cancel: nothing typed is lost
            self.edit.setFocus()

    def _stale_error(self) -> None:
        """The first edit after a failed import greys the message and says it was about the text before the edit:
        it stayed, red, above the corrected code until the next import, as if the fix had not worked."""
        text = self.error_label.text()
        if not self.error_label.isHidden() and text and not text.startswith(STALE):
            self.error_label.setText(STALE + text)
            self.error_label.setStyleSheet(STALE_STYLE)

    def show_error(self, error: str, line: int | None) -> None:
        """Say why the snippet can't be imported above it, the cursor on the ``line`` it names."""
        self.error_label.setText(error)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.show()
        if line:
            self.edit.mark_line(line)
        self.edit.setFocus()


class CodeImports:
    """The Code dock and the import runs of one window (see the module docstring)."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.pane = CodePane()
        self.dock = make_dock("Code", "codeDock", self.pane, window)  # the window places it, beside the library
        self.progress: QProgressDialog | None = None
        self.run: ImportRun | None = None  # the import running, until finish
        window.bridge.document_changed.connect(self.document_changed)
        window.bridge.stepped.connect(self.stepped)
        window.scene.selectionChanged.connect(self.selection_changed)
        self.pane.line_clicked.connect(self.select_line)

    # ----- import ----------------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        """File ▸ Open code…: the dialog starts where the last script came from, else where File ▸ Open would but
        never in the app's examples folder (it started there after a lesson, where the only script is the tool that
        rewrites the lessons' files); Cancel changes nothing."""
        start = file_ops.code_folder() or self.window.start_path(saving=True)  # (saving: never the examples folder)
        path, _ = file_ops.open_file_name(self.window, "Open code", start, "Python code (*.py);;All files (*)")
        if path:
            file_ops.remember_code_folder(path)
        if path and self.progress is None and self.window.maybe_save():  # ask first, as File ▸ Open does
            self.open_path(path)

    def open_path(self, path: str) -> None:
        """Import the script at ``path``, read as ``core.nodegraph`` reads scripts (a byte order mark dropped; not
        UTF-8: the line and column of the first other byte; too long for a snippet: its size)."""
        from core.nodegraph.files.code_import import CodeImportError, read_script  # only when code is imported

        try:
            text = read_script(path)
        except CodeImportError as exc:
            why = str(exc)
            QMessageBox.warning(self.window, "Can't open code", why[:1].upper() + why[1:])
            return
        self.start(text, os.path.basename(path), source=path)

    def insert_dialog(self) -> CodeInputDialog:
        """File ▸ New graph from code (its action keeps the id ``insert_code``): the snippet box, holding the
        chapter's example."""
        return self.snippet_dialog(EXAMPLE)

    def snippet_dialog(self, text: str, error: str = "", line: int | None = None,
                       asked: bool = False, edited_from: str = "") -> CodeInputDialog:
        """The snippet box holding ``text`` (after a failed import: that snippet, its ``error`` above it and the
        cursor on its ``line``). Its Import asks about unsaved changes first, the box still open, unless ``asked``:
        the box came back after a failed import whose question the user answered (the box is modal, so the
        document is as they left it), and a retry asked again, once per try. What it imports is a snippet
        (``snippet.py``), a new untitled graph, also when it holds a file's code to fix (``edited_from``, that
        file's name): Save must not suggest the file's name for a graph of code the file does not hold."""
        confirm = None if asked else lambda: self.progress is None and self.window.maybe_save()
        dialog = CodeInputDialog(self.window, text, error, line, confirm)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(
            lambda: self.start(dialog.edit.toPlainText(), "snippet.py", source="", edited_from=edited_from))
        dialog.open()
        if error:
            dialog.edit.setFocus()
        return dialog

    def start(self, text: str, name: str, source: str = "", edited_from: str = "") -> None:
        """Run the import off the GUI thread (the caller has asked about unsaved changes); a progress dialog offers
        Cancel (Esc). A pasted snippet (no ``source`` file) that fails comes back in the snippet box with its error,
        so nothing typed is lost; a file's failure offers that box with the file's code."""
        from core.nodegraph.files.code_import import CodeImportError, ImportRun  # only when code is imported

        if self.progress is not None:
            return
        # NOTE: the run is polled from this thread's event loop: a Python thread waiting on it let the garbage
        # collector free this thread's Qt objects there, and the window hung on Qt's signal mutex under load
        run = self.run = ImportRun(text, name=name)
        future: Future[ImportResult] = Future()
        progress = QProgressDialog(f"Running {name}…", "Cancel", 0, 0, self.window)
        progress.setObjectName("codeImportProgress")
        progress.setWindowTitle("Importing code")
        # NOTE: the bar alone sized it 200 px wide, and the window manager cut the title to "Impor…g code"
        progress.setMinimumWidth(progress.fontMetrics().horizontalAdvance(progress.windowTitle()) + TITLE_ROOM)
        # NOTE: a fixed size: resizable, it had the window manager draw a resize handle, a stray line with grips,
        # along its bottom under the label and the bar (and there is nothing to show in a bigger one)
        progress.setFixedSize(progress.sizeHint().expandedTo(progress.minimumSize()))
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(300)
        progress.setValue(0)  # NOTE: starts the 300 ms; the duration set after construction showed it after Qt's 4 s
        progress.canceled.connect(run.cancel)
        progress.rejected.connect(run.cancel)  # Esc can close the dialog without emitting canceled (Qt 6)
        self.progress = progress
        timer = QTimer(progress)

        def poll() -> None:
            if future.done():
                return
            try:
                result = run.poll()
            except CodeImportError as exc:
                future.set_exception(exc)
            else:
                if result is None:
                    return
                future.set_result(result)
            timer.stop()
            # NOTE: finish from the event loop, not inside this timer's timeout: opening the imported graph
            # inside it hung twice under load on Qt's signal mutex (a disconnect, then a scroll bar's signal)
            QTimer.singleShot(0, self.window, lambda: self.finish(future, name, timer, text, source, edited_from))

        timer.timeout.connect(poll)
        timer.start(POLL_MS)

    def finish(self, future: Future[ImportResult], name: str, timer: QTimer, text: str, source: str = "",
               edited_from: str = "") -> None:
        timer.stop()
        self.run = None
        progress, self.progress = self.progress, None
        if progress is not None:  # always set while a run is polled
            progress.blockSignals(True)  # NOTE: not disconnect(), which deadlocked on Qt's signal mutex here under load
            progress.reset()
            progress.deleteLater()
        if not shiboken6.isValid(self.window):
            return
        self.window.activateWindow()  # the modal progress dialog had the keys: F10 steps the new graph at once
        from core.nodegraph.files.code_import import CodeImportError

        try:
            result = future.result()
        except CodeImportError as exc:
            if exc.message == "cancelled":
                self.window.show_message(f"Import of {name} cancelled")
            elif not source:
                self.window.show_message(f"Nothing imported: {name}: {exc}")
                self.snippet_dialog(text, f"{name}: {exc}", exc.line, asked=True,  # unsaved changes: answered
                                    edited_from=edited_from)
            else:
                self.offer_fix(text, name, exc.line, f"{name}: {exc}")
            return
        self.window.set_document(result.graph, None)  # unsaved changes were settled before the run
        self.pane.show_output(result.output)
        count = len(result.notes)
        notes = f"; {count} note{'' if count == 1 else 's'} under the code" if count else ""
        notes += "; what it printed is under the code" if result.output.strip() else ""
        what = f"{name} ({edited_from}'s code as edited; {edited_from} is unchanged)" if edited_from else name
        self.window.show_message(f"Imported {what}: {len(result.graph.nodes)} nodes{notes}")

    def offer_fix(self, text: str, name: str, line: int | None, error: str) -> QMessageBox:
        """A file's code failed: say why, and offer the snippet box holding its code to fix and import again (the
        file stays as it is; the unsaved-changes question was answered before the run)."""
        self.window.show_message(f"Nothing imported: {error}")
        box = QMessageBox(QMessageBox.Icon.Warning, "Can't import code", error, QMessageBox.StandardButton.Close,
                          self.window)
        box.setObjectName("codeImportFailed")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        fix = box.addButton("&Edit in the snippet box…", QMessageBox.ButtonRole.AcceptRole)
        fix.setToolTip("Fix the code in the New graph from code box and import it from there")
        box.setDefaultButton(fix)
        box.buttonClicked.connect(
            lambda button: self.snippet_dialog(text, error, line, asked=True, edited_from=name) if button is fix
            else None)
        box.open()
        return box

    def close(self) -> None:
        """The window closes: a running import's child is killed (nothing would poll it any more)."""
        if self.run is not None:
            self.run.cancel()

    # ----- links between code and canvas -------------------------------------------------------------------
    def document_changed(self) -> None:
        code = self.window.bridge.graph.code
        self.pane.set_code(code)
        if code and code.get("text"):
            self.dock.show()
            self.dock.raise_()
            # as wide as the code needs (and its column's tab titles), at most 30 % of the window: the canvas beside
            # it keeps the rest, so the imported graph opens readable
            column = [self.dock, *self.window.tabifiedDockWidgets(self.dock)]
            wanted = max(self.pane.text_width(), tab_titles_width(column))
            self.window.resizeDocks([self.dock], [min(wanted, int(self.window.width() * 0.3))],
                                    Qt.Orientation.Horizontal)
        else:
            shown = self.dock.isVisible()
            in_front = shown and not self.dock.visibleRegion().isEmpty()
            self.dock.hide()
            if in_front:  # the column shows the node library (how an empty graph begins), not whichever tab Qt
                self.window.library_dock.raise_()  # raised next (File ▸ New showed an empty Diagnostics table)
            if shown:  # the column gives back the width the code took (File ▸ New kept the canvas narrower), once
                QTimer.singleShot(0, self.window, lambda: size_columns(self.window))  # the hidden dock left it

    def selection_changed(self) -> None:
        if shiboken6.isValid(self.window.scene) and self.pane.lines:
            self.pane.highlight_nodes(self.window.scene.selected_node_ids())

    def select_line(self, line: int) -> None:
        """Select the nodes made on ``line`` (a click in the pane)."""
        items = self.window.scene.node_items
        ids = [nid for nid in self.pane.nodes_on(line) if nid in items]
        self.window.scene.clearSelection()
        for nid in ids:
            items[nid].setSelected(True)
        if ids:
            self.window.view.ensureVisible(items[ids[-1]])

    def stepped(self, event: SessionEvent) -> None:
        if event.phase in ("forward", "backward"):
            self.pane.set_marker(event.node)
        elif event.phase == "history":  # step back: the marker follows the session's cursor
            self.pane.set_marker(event.node)
        elif event.phase == "reset":
            self.pane.set_marker(None)

