"""The Lesson dock and the Examples menu: the chapter's lessons (``core.nodegraph.lessons.texts``) in the window.

``LessonController(window, training)`` (made by the window) adds File ▸ Examples ▸ (every lesson in reading order,
then the playgrounds), Help ▸ Lessons (``gui.lessons_dialog``), and a "Lesson" tab beside the node library that
shows the open lesson's Markdown in a ``gui.lesson_panel.LessonPanel`` (an example opened any other way shows its
lesson too); ``first_start()`` opens lesson 4's document the first time the app runs. View ▸ Presentation mode
(Ctrl+Shift+P) is for teaching: full screen, larger fonts, the lesson beside the canvas; Page Down does the
lesson's next step (its ``do:`` actions, what its text says to press) and Page Up goes back to the previous step's
text. Links in the text act on the window: ``action:`` links run the window's own Run actions (or, for lesson-only
actions, the same undoable commands and session calls the rest of the window uses), ``node:`` links select and
centre a node. The controller computes nothing: the session and the document do.

The promises are checked (training figures from the Train dock's current run) after each action a link or Page
Down runs (one Page Down may run two: what the first made true counts although the second changes it), once the
session settles after a step or a pass from the toolbar, or when training stops, never on every training step.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import QMenu

from core.nodegraph.files import io as files
from core.nodegraph.lessons.checklist import TRAINED, metrics_of_run
from core.nodegraph.lessons.runner import SessionRefs
from core.nodegraph.lessons.texts import EXAMPLES_DIR, LessonError, bundled_lesson, links, list_lessons, load_lesson
from core.nodegraph.model import commands
from gui.dock_columns import tab_titles_width
from gui.dock_panels import make_dock, menu_toggle
from gui.lesson_panel import LessonPanel
from gui.lessons_dialog import LessonsDialog
from gui.menu_letters import with_letters
from gui.toolbar_fit import USUAL_FLOOR

if TYPE_CHECKING:
    from core.nodegraph.lessons.texts import Action, Lesson
    from core.nodegraph.model.document import Graph
    from core.nodegraph.model.events import SessionEvent
    from core.nodegraph.training.runs import Run
    from gui.lesson_panel import Metrics
    from gui.main_window import MainWindow
    from gui.training.controls import TrainingControls
    from gui.training.trainer import Trainer

FIRST_LESSON = "04-autograd-graph"  # opened on the first start (its graph is the default document's)
FIRST_START_KEY = "lessons/firstStartDone"
PRESENTATION_SCALE = 1.5
RUN_ACTIONS = ("forward_step", "forward", "backward_step", "backward", "zero_grad", "optimizer_step", "step_back",
               "reset")


def _connected_to(graph: Graph, node_ids: list[str]) -> list[str]:
    """The nodes joined to any of ``node_ids`` by edges, either way (their connected parts of ``graph``)."""
    near: dict[str, set[str]] = {nid: set() for nid in graph.nodes}
    for e in graph.edges:
        near.setdefault(e.src, set()).add(e.dst)
        near.setdefault(e.dst, set()).add(e.src)
    seen, todo = set(node_ids), list(node_ids)
    while todo:
        for other in near.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return [nid for nid in graph.nodes if nid in seen]


class LessonController:
    """Wires a LessonPanel to a MainWindow: opens lessons and performs their actions."""

    def __init__(self, window: MainWindow, training: TrainingControls) -> None:
        self.window, self.training = window, training
        self.panel = LessonPanel()
        self.dock = make_dock("Lesson", "lessonDock", self.panel, window)  # the window places it (gui.dock_layout)
        self.panel.action_requested.connect(self.perform)
        window.bridge.document_changed.connect(self._document_changed)
        self._check = QTimer(self.panel)  # checks the promises once the session settles (coalesces a pass's events)
        self._check.setSingleShot(True)
        self._check.setInterval(0)
        self._check.timeout.connect(self.check_promises)
        self._render = QTimer(self.panel)  # redraws the ticks made inside an action, once it has returned
        self._render.setSingleShot(True)
        self._render.setInterval(0)
        self._render.timeout.connect(self.panel.redraw)
        window.bridge.stepped.connect(self._on_session_event)
        self._ran: list[tuple[str, str]] = []  # (phase, node) of the steps the learner's last action ran
        self._ran_checked = False  # the checklist has seen them: the next step starts another action's list
        self._lesson_graph: tuple[Lesson, Graph | None] | None = None  # (lesson, its graph as loaded from its file)
        training.trainer.state_changed.connect(self._on_trainer_state)
        training.trainer.run_started.connect(self._on_run_started)
        self.panel.node_requested.connect(self.highlight)
        self.menu = QMenu("&Examples", window.menus["File"])  # beside Open and Open Recent; Quit stays last
        window.menus["File"].insertMenu(window.named_actions["save"], self.menu)
        self.menu.setObjectName("menuExamples")
        self.menu.aboutToShow.connect(self.fill_menu)
        help_action = QAction("&Lessons…", window)
        help_action.setObjectName("action_lessons")
        help_action.triggered.connect(self.show_lessons_dialog)
        window.menus["Help"].insertAction(window.named_actions["shortcuts"], help_action)  # first; About stays last
        window.menus["View"].addAction(menu_toggle(self.dock))
        self._normal_font: QFont | None = None
        self.toolbar_fit = window.toolbar_fit  # presenting: every toolbar button in view, in the larger font
        self.presentation = self._action("presentation", "Presentation &mode", "Ctrl+Shift+P", self.set_presentation,
                                         checkable=True)
        self._action("lesson_next", "Ne&xt lesson step", QKeySequence.StandardKey.MoveToNextPage, self.next_step)
        self._action("lesson_previous", "Pre&vious lesson step", QKeySequence.StandardKey.MoveToPreviousPage,
                     self.previous_step)

    def _trainer(self) -> Trainer:
        return self.training.trainer

    def _on_trainer_state(self, state: str) -> None:
        if state != "training":
            self._check.start()

    def _on_session_event(self, event: SessionEvent) -> None:
        """A session step: check the promises once it settles; while training, when the trainer stops. A forward
        or backward step is noted as one the learner ran (Forward all's every step: "the last step ran x"). A reset
        ends the run: the ticks about it are taken back (``Checklist.forget_run``)."""
        if event.phase == "reset" and self.panel.checklist is not None and self.panel.checklist.forget_run():
            self._render.start()
        if event.phase in ("forward", "backward") and event.node is not None and not event.detail.get("recompute"):
            if self._ran_checked:
                self._ran, self._ran_checked = [], False
            self._ran.append((event.phase, event.node))
        if event.phase != "train" and self.training.trainer.state != "training":
            self._check.start()

    def _on_run_started(self, _run: Run) -> None:
        """A training run is the learner's action: noted as ``TRAINED`` (it passes through lesson 6's Zero, Forward,
        Backward and Step)."""
        self._ran, self._ran_checked = [TRAINED], False

    def check_promises(self) -> None:
        """Tick the open lesson's promises that came true in the window's session; redraw the text if any did."""
        if self._tick():
            self.panel.redraw()

    def _tick_now(self) -> None:
        """Tick what holds after one action (one key press may run several); the text is redrawn on a later
        event-loop pass (the action may come from a link, inside the browser's own handler)."""
        trainer = self._trainer()
        if (trainer is None or trainer.state != "training") and self._tick():  # training: checked when it stops
            self._render.start()

    def _tick(self) -> bool:
        """Update the checklist from the session as it is now; True when a tick changed."""
        panel, session, lesson = self.panel, self.window.bridge.session, self.panel.lesson
        if panel.checklist is None or lesson is None or session is None or session.graph is not self.window.graph:
            return False
        last = self.window.bridge.last_event
        diagnostics = self.training.diagnostics
        refs = SessionRefs(session, lesson.key, self._metrics(),
                           last.node if last is not None and last.phase in ("forward", "backward") else None,
                           lambda: list(diagnostics.hints), self._names(lesson), self._ran)
        self._ran_checked = True
        return panel.checklist.update(refs)

    def _names(self, lesson: Lesson) -> Graph | None:
        """The lesson's own graph (its titles name the nodes the start document leaves untitled), or None."""
        if self._lesson_graph is None or self._lesson_graph[0] is not lesson:
            try:
                self._lesson_graph = (lesson, files.load(lesson.file))
            except Exception:  # without it, promises name nodes by the document's titles only
                self._lesson_graph = (lesson, None)
        return self._lesson_graph[1]

    def _metrics(self) -> Metrics:
        """The last training's figures: the Train dock's current run (none after a reset, until the next step)."""
        return metrics_of_run(self.training.trainer.current_run)

    def _action(self, name: str, text: str, shortcut: str | QKeySequence.StandardKey,
                slot: Callable[[bool], None] | Callable[[], None], checkable: bool = False) -> QAction:
        act = QAction(text, self.window)
        act.setObjectName(f"action_{name}")
        act.setShortcut(QKeySequence(shortcut))
        act.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        act.setCheckable(checkable)
        (act.toggled if checkable else act.triggered).connect(slot)
        self.window.menus["View"].addAction(act)
        return act

    def fill_menu(self) -> None:
        self.menu.clear()
        lessons = list_lessons()
        for lesson, text in zip(lessons, with_letters(lesson.title for lesson in lessons)):
            self.menu.addAction(text, partial(self.open, lesson)).setObjectName(f"example_{lesson.key}")

    def show_lessons_dialog(self) -> LessonsDialog:
        """Help ▸ Lessons: the titled list of lessons (``gui.lessons_dialog``), the open one selected."""
        dialog = LessonsDialog(list_lessons(), self.window)
        if self._normal_font is not None:  # presenting: a dialog is a window of its own and takes no font from ours
            dialog.setFont(self.window.font())
            dialog.resize(dialog.size() * PRESENTATION_SCALE)
            dialog.about.setMinimumHeight(dialog.fontMetrics().lineSpacing() * 4)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.select(self.panel.lesson.key if self.panel.lesson is not None else None)
        dialog.chosen.connect(self.open)
        dialog.open()
        return dialog

    def open(self, lesson: Lesson) -> bool:
        """Open the lesson's graph (asking about unsaved changes); its text shows through document_opened."""
        return self.window.maybe_save() and self.window.open_path(str(lesson.file))

    def document_opened(self, path: str) -> None:
        """A file was opened: an example from the examples folder, or a file naming its lesson (a copy of an example
        saved elsewhere), shows its lesson beside it; the example's document is marked as the lesson's, so its
        copies name it. A file naming a lesson this app lacks opens without one, and the status bar says so."""
        graph, resolved = self.window.graph, Path(path).resolve()
        try:
            if graph.lesson is not None:
                lesson = bundled_lesson(graph.lesson)
                if lesson is None:
                    self.window.show_message(f"Opened {resolved.name} without its lesson: this version of Nodegrad "
                                             f"has no lesson '{graph.lesson}'")
                    return
            elif resolved.parent == EXAMPLES_DIR and resolved.with_suffix(".md").is_file():
                lesson = load_lesson(resolved)
                graph.lesson = lesson.key
            else:
                return
        except LessonError as exc:
            self.window.show_message(str(exc))
            return
        self.show(lesson)
        self._frame_first_step(lesson)

    def _frame_first_step(self, lesson: Lesson) -> None:
        """A lesson made of separate small graphs (lesson 10: one per fault), too big to read whole, opens on the
        graphs its first step links to, readable; a lesson of one connected graph still opens whole."""
        first = next((ids for step in lesson.steps
                      if (ids := [nid for link in links(step.text) if link.kind == "node"
                                  and (nid := self._node(link.target)) is not None])), [])
        parts = _connected_to(self.window.graph, first)
        view = self.window.view
        view.set_document_focus(self.window.graph, parts if len(parts) < len(self.window.graph.nodes) else ())
        if view.following_document:
            view.show_document()

    def first_start(self, settings: QSettings | None = None) -> bool:
        """On the very first start (and with the default document open) open lesson 4's document, as Help ▸ Lessons
        does: its lesson beside it and its name in the title (the default graph shown under it read "untitled")."""
        settings = settings or QSettings("Nodegrad", "Nodegrad")
        if settings.value(FIRST_START_KEY, False, type=bool) or self.window.path is not None:
            return False
        settings.setValue(FIRST_START_KEY, True)
        lesson = next((x for x in list_lessons() if x.key == FIRST_LESSON), None)
        return lesson is not None and self.window.open_path(str(lesson.file))

    def show(self, lesson: Lesson) -> None:
        self.panel.show_lesson(lesson, self.window.graph)
        self.dock.show()
        self.dock.raise_()
        if not self.window.isVisible():  # raised again once the window is shown and its tabs exist
            QTimer.singleShot(0, self.dock.raise_)

    def _document_changed(self) -> None:
        """Another document: no lesson until one opens with it (``document_opened`` shows it again). A Lesson tab in
        front gives way to the Nodes library, where a graph without a lesson begins (File ▸ New after a lesson
        showed the no-lesson hint beside the empty canvas, whose own hint points at the Nodes tab)."""
        in_front = self.dock.isVisible() and not self.dock.visibleRegion().isEmpty()
        self.panel.clear()
        if in_front:
            self.window.library_dock.raise_()

    def next_step(self) -> None:
        """Show the next step of the lesson and do its actions (keyboard-only stepping)."""
        step = self.panel.go_to_step(self.panel.step_index + 1)
        if step is None or self.panel.step_index in self.panel.done_steps:
            return
        if self.panel.checklist is not None:  # set with the lesson
            self.panel.checklist.focus(self.panel.step_index)
        self.panel.done_steps.add(self.panel.step_index)
        for action in step.actions:
            self.perform(action)

    def previous_step(self) -> None:
        """Scroll back to the previous step's text (what was done stays done: Step back undoes steps)."""
        self.panel.go_to_step(self.panel.step_index - 1)

    def set_presentation(self, on: bool) -> None:
        """Full screen, fonts scaled by PRESENTATION_SCALE (the toolbar's as far as every button still shows:
        ``gui.toolbar_fit``), the lesson beside the canvas, the canvas magnified (without its minimap); off restores."""
        w = self.window
        if on and self._normal_font is None:
            self._normal_font = w.font()
            font = w.font()
            font.setPointSizeF(font.pointSizeF() * PRESENTATION_SCALE)
            w.setFont(font)
            if font.pointSizeF() > 0:  # the toolbar in the largest font that shows every button, down to the
                # usual one's least (at 125 % scaling the usual font itself had no room)
                self.toolbar_fit.start(font.pointSizeF(), self._normal_font.pointSizeF() * USUAL_FLOOR)
            self.panel.browser.setFont(font)  # set, not inherited: leaving presentation sets the normal one back
            self.panel.browser.zoomIn(4)
            self.panel.redraw()  # inline code keeps the size it was set in: set again, it grows with the text
            self.dock.show()
            self.dock.raise_()
            # wide enough for its column's tab titles in the larger font ("Le…", "Diagno…" were all a class read)
            column = [d for d in (self.dock, *w.tabifiedDockWidgets(self.dock)) if not d.isHidden()]
            w.resizeDocks([self.dock], [max(self.dock.width(), tab_titles_width(column, font))],
                          Qt.Orientation.Horizontal)
            w.setWindowState(w.windowState() | Qt.WindowState.WindowFullScreen)
            w.view.set_magnification(PRESENTATION_SCALE)  # the nodes' text grows with the lesson's
        elif not on and self._normal_font is not None:
            w.setFont(self._normal_font)
            self.toolbar_fit.usual()
            self._normal_font = None
            # the window's font, as before: zoomOut(4) from the enlarged font left the lesson half as big again
            self.panel.browser.setFont(w.font())
            self.panel.redraw()
            w.setWindowState(w.windowState() & ~Qt.WindowState.WindowFullScreen)
            w.view.set_magnification(1.0)

    def highlight(self, node_id: str) -> None:
        item = self.window.scene.node_items.get(node_id)
        if item is None:
            return
        self.window.scene.clearSelection()
        item.setSelected(True)
        self.window.view.centerOn(item)

    def _node(self, name: object) -> str | None:
        """The node a lesson action's ``node=`` names, by id or by title; None when it names none."""
        if not isinstance(name, str):
            return None
        graph = self.window.graph
        if name in graph.nodes:
            return name
        return next((nid for nid, n in graph.nodes.items() if n.title == name), None)

    def perform(self, action: Action) -> None:
        """Do what a lesson link asks, through the window's actions, commands and session."""
        w, a = self.window, action.args
        node = self._node(a.get("node"))
        if action.name in RUN_ACTIONS:
            if "retain_graph" in a:
                w.named_actions["retain_graph"].setChecked(bool(a["retain_graph"]))
            w.run_step(action.name)
        elif action.name == "retain_graph":
            retain = w.named_actions["retain_graph"]
            retain.setChecked(bool(a.get("value", not retain.isChecked())))
        elif action.name == "set" and node is not None:
            w.scene.edit(commands.SetParam(node, a.get("param", ""), a.get("value")))
        elif action.name == "set_loss" and node is not None:
            w.scene.edit(commands.SetTraining("loss", node))
        elif action.name == "retain_grad" and node is not None:
            w.bridge.ensure().retain_grad_nodes.add(node)
        elif action.name == "train":
            self.train(int(a.get("n", 1)), bool(a.get("zero_grad", True)))
        self._tick_now()  # checked after each action: the next one may undo what this one made true

    def train(self, n: int, zero_grad: bool) -> None:
        """``n`` steps by the Train dock's trainer (the plots, the progress and the data view follow, as for
        Train); ``zero_grad=False``: the loop that forgets zero_grad, plotted as a run of its own."""
        self.training.docks["plots"].raise_()
        self.training.trainer.train(n, zero_grad)

