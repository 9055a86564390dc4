"""Nodegrad's main window: the canvas in the middle, node library and inspector docks, menus, toolbar.

It owns one document at a time (a Graph, its undo stack and a session bridge) and wires the widgets
to it: edits go through the scene's commands, the Run actions call the session, and every session
event redraws the canvas and the inspector from what the session holds. The window computes nothing.

Its code spans four modules: this one (construction, wiring, status and title, selection, export, help and Qt's
window events), ``gui.run_commands.RunCommands`` (the Run commands and the canvas following the session),
``gui.document_files.DocumentFiles`` (New, Open, Save... and showing another document) and
``gui.edit_commands.EditCommands`` (adding nodes, the clipboard, formulas and blocks). ``MainWindow`` inherits
those three, so every command stays a method of the window.
"""

from __future__ import annotations

import os
from functools import partial
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox, QUndoView

from core.nodegraph.model.document import Graph
from gui import actions as action_table
from gui import (
    autosave,
    dock_layout,
    dock_panels,
    file_ops,
    focus_keys,
    recent_files,
    session_bridge,
    session_view,
    window_placement,
)
from gui.busy_guard import BusyGuard
from gui.canvas import arrange, comments
from gui.canvas.comments import CommentLayer
from gui.canvas.scene import GraphScene
from gui.canvas.view import GraphView
from gui.canvas_only import CanvasOnly
from gui.code_import_dialog import CodeImports
from gui.document_files import DocumentFiles
from gui.edit_commands import EditCommands
from gui.format import sentence
from gui.inspector import Inspector
from gui.lesson_controller import LessonController
from gui.menu_keys import MenuKeys
from gui.menu_letters import numbered
from gui.node_library import NodeLibrary
from gui.node_library_panel import NodeLibraryPanel
from gui.palette import NodePalette
from gui.run_commands import RunCommands
from gui.status_details import StatusDetails
from gui.status_expiry import StatusExpiry
from gui.step_runner import StepRunner
from gui.tab_keys import HiddenDockTabs
from gui.toolbar_fit import ToolbarFit
from gui.training.controls import TrainingControls
from gui.training.status_line import StatusLine

if TYPE_CHECKING:
    from core.nodegraph.model.layout import Point
    from gui.canvas.scene import PortEnd

class MainWindow(RunCommands, DocumentFiles, EditCommands, QMainWindow):
    """One document's window; every panel and controller is built here and handed what it needs."""

    def __init__(self, graph: Graph | None = None, path: str | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.path = path
        self.graph = graph if graph is not None else Graph()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setObjectName("undoStack")
        self.scene = GraphScene(self.graph, self.undo_stack, self)
        self.view = GraphView(self.scene, self)
        self.setCentralWidget(self.view)
        self.bridge = session_bridge.SessionBridge(self.graph, self)
        self.stepper = StepRunner(self.bridge, self)  # Forward/Backward all in slices; Esc cancels
        self._pass_marks = False  # the running pass pauses at breakpoints
        self._pausing = False  # Esc asked training to pause after a long step in flight
        self._refreshed_at = 0.0
        self._message = ""
        self._edit_index = 0  # the undo stack's index the status bar last spoke of
        self._next_edit: QUndoCommand | None = None  # the command a redo would apply then (_say_edit)
        self.highlight: str | None = None
        self.node_palette: NodePalette | None = None  # made when first asked for
        self._palette_pos: Point = (0.0, 0.0)  # where the palette's node goes
        self._pending_end: PortEnd | None = None  # the dropped edge end it connects to
        self._subwindows: list[MainWindow] = []
        self.status_label = StatusLine("", objectName="stepStatus")  # a long error elided, whole in its tooltip
        self.status_expiry = StatusExpiry(self.status_label, lambda: self.show_message(""),  # no stale message
                                          lambda: bool(self.bridge.session is not None and self.bridge.session.errors),
                                          self)
        self._build_panels()
        self.named_actions, self.menus, self.run_toolbar = action_table.build(self)
        self.toolbar_fit = ToolbarFit(self.run_toolbar)  # every button in view, at 125 % scaling too
        self._make_recent_menu()
        self.comments = CommentLayer(self.scene, self.view)  # backdrops on the canvas
        self._add_canvas_menus()  # Edit > Group selection / Add comment, View > Arrange
        self.training = TrainingControls(self.bridge, self.scene, self,  # its PNG and CSV exports are saved files
                                         start_path=self._saving_start_path, worker=self.stepper.worker)
        self.lessons = LessonController(self, self.training)  # File > Examples, Help > Lessons, the Lesson dock
        self.code = CodeImports(self)  # File > Open code, New graph from code, the Code dock (hidden until code)
        self._wire()
        self._add_training()
        self.toolbar_fit.usual()
        self.menu_keys = MenuKeys(self, [self.named_actions["insert_expression"]])  # Ctrl+E from a field too
        self.hidden_dock_tabs = HiddenDockTabs(self)  # Tab passes over the docks tabbed out of sight
        self.autosaver = autosave.Autosaver(self)
        self.arrangement = self._arrange_docks()  # two tabbed side columns; Plots and Data wait for training
        self.canvas_only = CanvasOnly(self, self.arrangement.size_columns, self.show_message)  # docks step aside
        self._add_view_entry(self.canvas_only.action, after="zoom_out")
        self.statusBar().setObjectName("statusBar")
        self.statusBar().addWidget(self.status_label, 1)
        self.status_details = StatusDetails(self.status_label)  # the whole message, when the line cuts it
        self.statusBar().addPermanentWidget(self.status_details)
        self.statusBar().messageChanged.connect(self.status_details.set_covered)  # hidden under a hover tip
        self.refresh_session_view()
        self.resize(1280, 720)
        self._update_title()
        self.view.show_document()

    # ----- construction -----------------------------------------------------------------------------
    def _build_panels(self) -> None:
        self.library = NodeLibrary()
        self.library_panel = NodeLibraryPanel(self.library)  # a filter field above the tree
        self.library_dock = dock_panels.make_dock("Nodes", "libraryDock", self.library_panel, self)
        self.inspector = Inspector(self.scene.edit)
        self.inspector.set_context(self.graph, None)
        self.inspector.undo_requested.connect(self.undo_stack.undo)  # Ctrl+Z in a field that keeps the focus
        self.inspector.redo_requested.connect(self.undo_stack.redo)
        self.inspector_dock = dock_panels.make_dock("Inspector", "inspectorDock", self.inspector, self)
        self.history_view = QUndoView(self.undo_stack)
        self.history_view.setObjectName("historyView")
        self.history_view.setEmptyLabel("As opened (click to undo every edit)")  # Qt's own reads "<empty>"
        self.history_dock = dock_panels.make_dock("History", "historyDock", self.history_view, self)

    def _make_recent_menu(self) -> None:
        self.recent_menu = self.menus["File"].addMenu("Open &recent")
        self.recent_menu.setObjectName("menuRecent")
        self.menus["File"].insertMenu(self.named_actions["save"], self.recent_menu)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self.menus["File"].aboutToShow.connect(self._offer_revert)
        self.menus["View"].addSeparator()
        for dock in (self.library_dock, self.inspector_dock):
            self.menus["View"].addAction(dock_panels.menu_toggle(dock))

    def _add_canvas_menus(self) -> None:
        for name, act in comments.make_actions(self.comments, self).items():
            self.menus["Edit"].insertAction(self.named_actions["history"], act)
            self.named_actions[name] = act
        menu = QMenu("&Arrange", self.menus["View"])
        menu.setObjectName("menuArrange")
        self.menus["View"].insertMenu(self.named_actions["zoom_in"], menu)
        for name, act in arrange.make_actions(self.scene, self).items():
            menu.addAction(act)
            self.named_actions[name] = act

    def _add_training(self) -> None:
        """The training side's actions in Run, its device selector in the toolbar, its docks in View, and
        its signals: a node to frame, a status line, a canvas to redraw, a port pinned from the Inspector."""
        t = self.training
        self.menus["Run"].addSeparator()
        for name, act in t.actions.items():
            self.menus["Run"].addAction(act)
            self.named_actions[name] = act
        self.run_toolbar.addSeparator()
        self.run_toolbar.addWidget(t.device)
        for dock in t.docks.values():
            self.menus["View"].addAction(dock_panels.menu_toggle(dock))
        self.menus["View"].addSeparator()
        focus_menu = self.menus["View"].addMenu("&Keyboard focus")  # its own letters: the docks' took the View menu's
        focus_menu.setObjectName("menuKeyboardFocus")
        for name, act in focus_keys.make_actions(self, [
                ("focus_canvas", "&Canvas", "Ctrl+1", self.view),
                ("focus_inspector", "&Inspector", "Ctrl+2", self.inspector_dock),
                ("focus_train", "&Train", "Ctrl+3", t.docks["train"]),
                ("focus_nodes", "&Nodes", "Ctrl+4", self.library_dock)]).items():
            focus_menu.addAction(act)
            self.named_actions[name] = act
        t.node_chosen.connect(self.select_and_frame)
        t.message.connect(self.show_message)
        t.canvas_stale.connect(self.refresh_session_view)
        t.trainer.state_changed.connect(self._training_state)
        t.trainer.progress.connect(lambda _info: self._clean_changed(False))  # trained: the title's asterisk
        self.inspector.watch_requested.connect(t.pin)

    def _add_view_entry(self, action: QAction, after: str) -> None:
        """Put ``action`` in the View menu right after ``named_actions[after]`` (and name it)."""
        entries = self.menus["View"].actions()
        at = entries.index(self.named_actions[after]) + 1
        if at < len(entries):
            self.menus["View"].insertAction(entries[at], action)
        else:
            self.menus["View"].addAction(action)
        self.named_actions[action.objectName().removeprefix("action_")] = action

    def _saving_start_path(self, name: str = "") -> str:
        """Where the training exports' save dialogs start: the document's folder, never the examples'."""
        return self.start_path(name, saving=True)

    def _arrange_docks(self) -> dock_layout.DockArrangement:
        docks = dict(self.training.docks, library=self.library_dock, inspector=self.inspector_dock,
                     history=self.history_dock, lesson=self.lessons.dock)
        data = self.training.data

        def has_data() -> bool:  # Data opens with the plots where a dataset gives it points
            data.refresh(force=True)
            return data.view is not None

        arrangement = dock_layout.DockArrangement(self, docks, has_data=has_data)
        trainer = self.training.trainer
        trainer.run_started.connect(lambda _run: arrangement.run_started())
        trainer.progress.connect(lambda _info: arrangement.run_stepped() if trainer.done > 0 else None)
        trainer.history_cleared.connect(arrangement.document_changed)  # another document: no runs to plot
        trainer.history_restored.connect(arrangement.runs_restored)  # unless its file saved some
        self.training.watch_requested.connect(lambda _key: arrangement.reveal_training("watch"))
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.code.dock)
        self.tabifyDockWidget(self.library_dock, self.code.dock)
        self.code.document_changed()
        return arrangement

    def select_and_frame(self, node_id: str) -> None:
        """Select graph node ``node_id`` on the canvas and frame it."""
        item = self.scene.node_items.get(node_id)
        if item is None:
            return
        self.scene.clearSelection()
        item.setSelected(True)
        self.view.fit_selection()

    def _offer_revert(self) -> None:
        """File > Revert only where it does something: a document read from a file, with changes to drop (on an
        untitled or unchanged graph it was offered and did nothing)."""
        self.named_actions["revert"].setEnabled(bool(self.path) and self.is_modified())

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        paths = file_ops.recent_files()
        for p, label in zip(paths, numbered(file_ops.recent_labels(paths))):
            self.recent_menu.addAction(label, partial(recent_files.open_recent, self, p)).setToolTip(p)

    def _wire(self) -> None:
        a = self.named_actions
        handlers = {"new": self.new_document, "open": self.open_dialog, "save": self.save, "save_as": self.save_as,
                    "revert": self.revert, "export_image": self.export_image_dialog, "quit": self.close,
                    "undo": self.undo_stack.undo, "redo": self.undo_stack.redo, "copy": self.copy,
                    "cut": self.cut, "paste": self.paste, "duplicate": self.scene.duplicate_selected,
                    "delete": self.scene.delete_selected, "select_all": self.select_all,
                    "add_node": lambda: self.show_palette(self.view.center_scene()),
                    "history": self.toggle_history,
                    "fit_all": self.view.fit_all, "fit_selection": self.view.fit_selection,
                    "zoom_in": lambda: self.view.zoom(1.2), "zoom_out": lambda: self.view.zoom(1 / 1.2),
                    "about": self.about, "shortcuts": self.show_shortcuts,
                    "insert_expression": self.insert_expression_dialog,
                    "collapse": self.collapse_selected, "expand": self.expand_selected,
                    "export_python": self.export_python_dialog, "run_to_node": self.run_to_selected,
                    "auto_layout": self.scene.auto_layout, "toggle_breakpoint": self.toggle_breakpoint,
                    "open_code": self.code.open_dialog, "insert_code": self.code.insert_dialog}
        for name, fn in handlers.items():
            a[name].triggered.connect(fn)
        for name in action_table.RUN_ACTIONS:
            if name != "retain_graph":
                a[name].triggered.connect(lambda _c=False, n=name: self.run_step(n, background=True))
        a["cancel"].triggered.connect(self.cancel_run)
        a["cancel"].setEnabled(False)
        self.stepper.active_changed.connect(lambda _on: self._update_cancel())
        self.stepper.progress.connect(self._pass_progress)
        self.stepper.finished.connect(self._pass_finished)
        self.busy_guard = BusyGuard(self, self.view,  # while a step or training computes on the worker: no edits
                                    keep=[self.training.panel.buttons["Pause"]])  # but Pause, as Esc
        self.stepper.busy_changed.connect(self.busy_guard.set_busy)
        self.bridge.document_changed.connect(self.stepper.stop)
        a["retain_graph"].toggled.connect(lambda on: setattr(self.bridge, "retain_graph", on))
        a["create_graph"].toggled.connect(lambda on: setattr(self.bridge, "create_graph", on))
        self.bridge.document_changed.connect(self._show_run_options)
        self.undo_stack.canUndoChanged.connect(a["undo"].setEnabled)
        self.undo_stack.canRedoChanged.connect(a["redo"].setEnabled)
        a["undo"].setEnabled(False)
        a["redo"].setEnabled(False)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.undo_stack.indexChanged.connect(self._after_edit)
        self.scene.status.connect(self.show_message)
        self.scene.selectionChanged.connect(self._on_selection)
        self.view.palette_requested.connect(self.show_palette)
        self.view.block_opened.connect(self.open_subgraph)
        self.view.node_opened.connect(lambda _id: self.named_actions["focus_inspector"].trigger())  # as Ctrl+2
        self.scene.edge_dropped.connect(lambda end, pos: self.show_palette(pos, end))
        self.view.node_dropped.connect(lambda t, pos: self.scene.add_node(t, (pos.x(), pos.y())))
        self.library.activated_type.connect(lambda t: self.add_node_at_center(t))
        self.scene.port_info = self._port_info
        self.scene.port_story = self._port_story
        self.scene.display_for = lambda nid: session_view.node_display(self.bridge.session, self.graph, nid)
        self.setAcceptDrops(True)
        self.bridge.stepped.connect(self._on_step)
        self.bridge.stepped.connect(lambda _event: self._clean_changed(False))  # Optimizer step, Reset: the title
        self.bridge.message.connect(self.show_message)

    def toggle_history(self) -> None:
        """Edit > History: the undo history as a tab beside the Inspector, brought to the front; again hides it."""
        if self.history_dock.isVisible() and not self.history_dock.visibleRegion().isEmpty():
            self.history_dock.hide()
        else:
            self.history_dock.show()
            self.history_dock.raise_()

    # ----- status, title, selection -------------------------------------------------------------------
    def show_message(self, text: str, as_written: bool = False, notice: bool = False) -> None:
        """Say ``text`` in the status bar, as a sentence (``gui.format.sentence``) unless ``as_written``: an edit's
        name starts with the node's title as the canvas draws it ("xw: dtype set to float64", not "Xw: …"). A
        ``notice`` (a refusal that changed nothing) goes after a while (``gui.status_expiry``)."""
        text = text if as_written else sentence(text)
        self._message = text  # a running pass's count covers it for a while (_pass_progress)
        self.status_label.setText(text)
        self.status_expiry.said(text, notice)
        if text:  # a button's hover tip hides the line until the pointer leaves: what just happened comes first
            self.statusBar().clearMessage()

    def _update_title(self) -> None:
        code = (self.graph.code or {}).get("name")  # a graph imported from code, not saved yet
        name = os.path.basename(self.path) if self.path else f"untitled (from {code})" if code else "untitled"
        self.setWindowTitle(f"{name}{'*' if self.is_modified() else ''} — Nodegrad")

    def _clean_changed(self, _clean: bool) -> None:
        if self._alive():
            self._update_title()

    def is_modified(self) -> bool:
        """An edit not saved, or training that changed the parameter values (or optimizer state) a save keeps."""
        return not self.undo_stack.isClean() or self.bridge.training_unsaved

    def _alive(self) -> bool:
        """False while Qt tears the window down (a child may still emit into it then)."""
        return shiboken6.isValid(self) and shiboken6.isValid(self.undo_stack) and shiboken6.isValid(self.scene)

    def _after_edit(self, index: int | None = None) -> None:
        if not self._alive():
            return
        if index is not None:
            self._say_edit(index)
        self._update_title()
        self.inspector.sync_params()
        self.drop_stale_highlight()
        self.refresh_session_view()

    def _say_edit(self, index: int) -> None:
        """The status bar names the edit just made, undone ("Undone: …") or redone ("Redone: …"), by its undo
        history line. A redo re-applies the command that was next in the history; a new edit is a command never
        seen there (``_next_edit`` holds the one a redo would apply, until the next change)."""
        before, self._edit_index = self._edit_index, index
        stack, next_edit = self.undo_stack, self._next_edit
        self._next_edit = stack.command(index) if index < stack.count() else None
        if index < before:
            text = stack.text(index)
            self.show_message(f"Undone: {text}" if text else "")
        elif index > before:
            text = stack.text(index - 1)
            redone = next_edit is not None and stack.command(before) is next_edit
            self.show_message(f"Redone: {text}" if redone and text else text, as_written=True)

    def _on_selection(self) -> None:
        if not self._alive():
            return
        ids = self.scene.selected_node_ids()
        if len(ids) == 1 and self.view.isVisible():
            # NOTE: painted now, not after the Inspector has worked out a big tensor's figures (seconds for lesson
            # 1's batch of images, while the canvas showed nothing and a learner clicked the node a second time)
            self.view.viewport().repaint()
        self.inspector.show_selection(ids)

    def export_python_dialog(self) -> None:
        """Export Python script: named after the document (``curve_fit.py`` beside ``curve_fit.json``, as Export image
        names its image); a graph imported from code gets ``<code>_export.py``, never its own source's name."""
        from core.nodegraph.export.script import ExportError, write_script

        stem = self.document_stem() + ("_export" if self.path is None and self.graph.code else "")
        start = self.start_path(f"{stem}.py", saving=True)
        path, chosen = file_ops.save_file_name(self, "Export Python script", start,
                                               "core script (*.py);;torch script (*.py)")
        path = file_ops.save_path(self, path, chosen or "(*.py)")
        if path:
            try:
                write_script(self.graph, path, api="torch" if chosen.startswith("torch") else "core")
                self.show_message(f"Exported {path}")
            except (ExportError, OSError) as exc:
                QMessageBox.warning(self, "Can't export", sentence(str(exc)))
    # ----- help and window events ---------------------------------------------------------------------------

    def show_shortcuts(self) -> None:
        """Help ▸ Keyboard shortcuts: every key in one list (``gui.shortcuts_dialog``)."""
        from gui.shortcuts_dialog import ShortcutsDialog

        dialog = ShortcutsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def about(self) -> None:
        from gui.about import about_text

        QMessageBox.about(self, "About Nodegrad", about_text(self.named_actions))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # Qt override: a graph file dropped on the window opens
        if _dropped_graphs(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # Qt override
        paths = _dropped_graphs(event.mimeData())
        if paths and self.maybe_save():
            self.open_path(paths[0])

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        self.stepper.worker.settle()  # a step or training slice on the worker first comes in: saving reads the session
        if self.maybe_save():
            self.training.close()  # a closed window trains no more (a slice computing on the worker comes in first)
            self.stepper.shutdown()
            window_placement.save_geometry(self)  # the next start opens where this window was
            self.autosaver.discard()
            self.code.close()  # nor runs a code import
            self.bridge.close()
            self.inspector.stats.shutdown()  # no statistics worker left running Python while the window goes
            for obj in (self.scene, self.undo_stack, self.bridge):  # no signals into a window being torn down
                obj.blockSignals(True)
            event.accept()
        else:
            event.ignore()


def _dropped_graphs(mime: QMimeData) -> list[str]:
    """The local ``.json`` files in a drag's data."""
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile() and u.toLocalFile().lower().endswith(".json")]
