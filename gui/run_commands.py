"""The main window's Run commands and how its canvas follows the session: ``RunCommands``, a part of ``MainWindow``.

The Run actions (a step, Forward all / Backward all through the step runner, Run to node, breakpoints, Esc) call
the session bridge; after each step the canvas, the status line and the Inspector are redrawn from what the session
holds (``refresh_session_view``), and hovering a port asks the session for its facts and chain-rule story. Nothing
here computes.

It is a mixin of ``MainWindow`` rather than a panel of its own because these commands are the window's public
methods (menus, tests and lessons call ``window.run_step``...) and they drive the window's own canvas, status
line and actions. The members it uses of ``MainWindow`` are declared below for the type checker.
"""

from __future__ import annotations

import time
from collections.abc import Container
from typing import TYPE_CHECKING

from PySide6.QtCore import QSignalBlocker

from gui import session_view
from gui.step_runner import STEPS

if TYPE_CHECKING:
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QMainWindow

    from core.nodegraph.model.document import Edge, Graph
    from core.nodegraph.model.events import SessionEvent
    from core.nodegraph.run.inspection import PortInfo
    from gui.canvas.comments import CommentLayer
    from gui.canvas.scene import GraphScene
    from gui.canvas.view import GraphView
    from gui.inspector import Inspector
    from gui.session_bridge import SessionBridge
    from gui.status_expiry import StatusExpiry
    from gui.step_runner import StepRunner
    from gui.training.controls import TrainingControls
    from gui.training.status_line import StatusLine

    _Window = QMainWindow
else:
    _Window = object

__all__ = ["RunCommands"]


class RunCommands(_Window):
    """The Run menu's commands and the session's view on the canvas (``MainWindow`` inherits it)."""

    if TYPE_CHECKING:  # what it uses of MainWindow (set in MainWindow.__init__)
        graph: Graph
        scene: GraphScene
        comments: CommentLayer
        view: GraphView
        bridge: SessionBridge
        stepper: StepRunner
        inspector: Inspector
        training: TrainingControls
        status_label: StatusLine
        status_expiry: StatusExpiry
        named_actions: dict[str, QAction]
        highlight: str | None
        _pass_marks: bool
        _refreshed_at: float
        _message: str

        def show_message(self, text: str, as_written: bool = False, notice: bool = False) -> None: ...
        def _alive(self) -> bool: ...

    def toggle_breakpoint(self) -> None:
        marks = self.bridge.breakpoints  # the document's, like retain_graph (another document starts without)
        for nid in self.scene.selected_node_ids():
            marks ^= {nid}
            self.scene.node_items[nid].set_breakpoint(nid in marks)

    def _show_run_options(self) -> None:
        """Another document: the Retain graph and Create graph toggles show its own (fresh) run options."""
        for name in ("retain_graph", "create_graph"):
            blocker = QSignalBlocker(self.named_actions[name])  # the bridge already holds the value
            self.named_actions[name].setChecked(bool(getattr(self.bridge, name)))
            del blocker

    def run_step(self, action: str, background: bool = False) -> None:
        """One Run action. Forward all and Backward all go through the step runner: from the window's actions
        (``background``) a long pass runs on in slices and Esc cancels it; called from code it completes here.
        Forward step and Backward step from the window's actions go through it too, as a pass of one step, so a
        long one computes off the GUI thread."""
        marks = self.bridge.breakpoints
        marks &= set(self.graph.nodes)
        if action in ("forward", "backward"):
            if not self.graph.nodes:  # no pass to start: the status bar said nothing at all, as if the click was lost
                self.show_message("Nothing to run: the graph is empty — add a node with Tab on the canvas or from "
                                  "the Nodes tab", notice=True)  # as the empty canvas's own hint names them
                return
            self._pass_marks = bool(marks)
            self.stepper.start(action, marks, background=background)
            return
        self.stepper.stop()  # another step: a running pass stays where it is
        if background and action in STEPS:  # from the window: a long step computes on the worker (gui.step_runner)
            self._pass_marks = True  # the node stepped stays highlighted after it
            self.stepper.start(action, background=True)
            return
        self.bridge.run(action)
        self._after_run()

    def _after_run(self) -> None:
        self.refresh_session_view()

    def _pass_progress(self, text: str) -> None:
        """While a long pass runs: the count in the status bar, and the canvas redrawn twice a second."""
        self.status_label.setText(text)
        self.statusBar().clearMessage()  # over the hover tip of the button that started the pass
        now = time.perf_counter()
        if now - self._refreshed_at > 0.5 and not self.stepper.busy:  # busy: the worker holds the session
            self._refreshed_at = now
            self._after_run()

    def _pass_finished(self, text: str) -> None:
        self.show_message(text or self._message)  # the pass's last step or breakpoint, not the count
        if not text and not self._pass_marks:
            self.highlight = None  # a whole pass: nothing is "current" afterwards
        if self._alive():
            self._after_run()

    def cancel_run(self) -> None:
        """Esc: stop Forward all / Backward all after the current node, and pause training."""
        self.stepper.cancel()
        trainer = self.training.trainer
        if trainer.state == "training":
            trainer.pause()
            if trainer.state == "training":  # a long step computes on the worker: it pauses once that is in
                self.show_message("Pausing training after the step in progress…")
                self._pausing = True  # _training_state says where it paused
                return
            self.show_message(self.training.paused_message())

    def _training_state(self, state: str) -> None:
        """Esc's own while training; after an Esc that waited for a long step, where training paused."""
        self._update_cancel()
        if self._pausing and state != "training":
            self._pausing = False
            if state == "paused":
                self.show_message(self.training.paused_message())

    def _update_cancel(self) -> None:
        """Esc is the window's only while something runs; otherwise the focused widget gets it."""
        if self._alive():
            self.named_actions["cancel"].setEnabled(self.stepper.active or self.training.trainer.state == "training")

    def run_to_selected(self) -> None:
        ids = self.scene.selected_node_ids()
        if not ids:
            self.show_message("Select the node to run to", notice=True)
            return
        self._pass_marks = True  # the node run to stays highlighted
        self.stepper.start("forward", until=ids[0], background=True)

    def _port_info(self, nid: str, port: str) -> PortInfo | None:
        s = self.bridge.session
        return s.inspector.port_info(nid, port) if s is not None and nid in s.values else None

    def _port_story(self, nid: str, port: str) -> str | None:
        """The chain-rule product behind a port's gradient, numbers plugged in (None when there is none)."""
        from core.nodegraph.explain.chain_rule import chain_rule  # only once a gradient is hovered

        s = self.bridge.session
        story = chain_rule(s, nid, port) if s is not None else None
        return story.text() if story is not None else None

    def _on_step(self, event: SessionEvent) -> None:
        self.highlight = event.node if event.phase in ("forward", "backward", "error") else None
        s = self.bridge.session
        if s is not None:
            self.show_message(session_view.describe(event, s, self.graph))

    def drop_stale_highlight(self) -> None:
        """After an edit: the last step's frame stays on its node while the session holds what that step showed (its
        value or its error). An edit that removed the node or left it unrun takes the frame away: a collapse and an
        expand bring the same ids back unrun, and the matmul the last step ran kept its frame, as if current."""
        nid, session = self.highlight, self.bridge.session
        if nid is not None and (session is None or (nid not in session.values and nid not in session.errors)):
            self.highlight = None

    def refresh_session_view(self) -> None:
        panel = self.training.diagnostics  # its list badges the nodes
        hints = panel.refresh(force=True) if self.bridge.session is not None else None
        nodes, edges = session_view.displays(self.bridge.session, self.graph, self.highlight, hints)
        last = self.bridge.last_event
        active: Container[Edge] = ()
        if last is not None and last.phase == "backward" and self.highlight is not None:
            active = {e for e in self.graph.edges if e.src == self.highlight}  # the gradient arrives along these
        self.scene.set_displays(nodes, edges, active)
        self.comments.fit_members()  # a group's backdrop holds its nodes grown with their values
        self.status_expiry.recheck()  # an error message whose error is gone goes
        self.view.keep_document_framed()  # grown nodes stay in view while the opened document is followed
        for nid in self.bridge.breakpoints & set(self.scene.node_items):  # a rebuilt node item keeps its mark
            self.scene.node_items[nid].set_breakpoint(True)
        if self.bridge.session is not None and self.inspector.session is not self.bridge.session:
            self.inspector.set_context(self.graph, self.bridge.session)  # also a session that training made
        self.inspector.refresh_values()
