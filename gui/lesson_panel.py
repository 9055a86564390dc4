"""The Lesson dock and the Examples menu: the chapter's lessons (``core.nodegraph.lessons``) in the window.

``install(window)`` adds File ▸ Examples ▸ (every lesson in reading order, then the playgrounds), Help ▸
Lessons, and a "Lesson" tab beside the node library that shows the open lesson's Markdown (an example
opened any other way shows its lesson too); ``first_start()`` shows lesson 4 beside the default graph the
first time the app runs. View ▸ Presentation mode (Ctrl+Shift+P) is for teaching: full screen, larger
fonts, the lesson beside the canvas; Page Down does the lesson's next step (its ``do:`` actions, what
its text says to press) and Page Up goes back to the previous step's text. Links in the text act on the
window: ``action:`` links run the window's own Run actions (or, for lesson-only actions, the same
undoable commands and session calls the rest of the window uses), ``node:`` links select and centre a
node. The panel computes nothing: the session and the document do.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu, QTextBrowser, QVBoxLayout, QWidget

from core.nodegraph import commands
from core.nodegraph.lessons import EXAMPLES_DIR, LessonError, list_lessons, load_lesson, parse_action

STEPS_BLOCK = re.compile(r"^```steps[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
FIRST_LESSON = "04-autograd-graph"  # its graph is the default document the app opens with
FIRST_START_KEY = "lessons/firstStartDone"
PRESENTATION_SCALE = 1.5
NO_LESSON = "Open a lesson from **File ▸ Examples** or **Help ▸ Lessons**."
RUN_ACTIONS = ("forward_step", "forward", "backward_step", "backward", "zero_grad", "optimizer_step", "step_back",
               "reset")


def display_markdown(text: str) -> str:
    """The lesson's Markdown as shown: each steps block becomes an "Expect" list of its promises."""
    def block(m):
        expects = [line.split(":", 1)[1].split("  #", 1)[0].strip() for line in m.group(1).splitlines()
                   if line.strip().startswith("expect:")]
        return "**Expect:** " + "; ".join(f"`{e}`" for e in expects) if expects else ""
    return STEPS_BLOCK.sub(block, text)


class LessonPanel(QWidget):
    """Shows one lesson; emits ``action_requested(Action)`` and ``node_requested(node_id)`` for its links."""

    action_requested = Signal(object)
    node_requested = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("lessonPanel")
        self.lesson = None
        self.step_index = -1
        self.done_steps: set = set()  # steps whose actions Page Down already did
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("lessonText")
        self.browser.setOpenLinks(False)
        self.browser.setMarkdown(NO_LESSON)
        self.browser.anchorClicked.connect(lambda url: self.follow(url.toString()))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)

    def clear(self) -> None:
        """No lesson (another document was opened): the hint where lessons are."""
        self.lesson = None
        self.step_index = -1
        self.done_steps = set()
        self.browser.setMarkdown(NO_LESSON)

    def show_lesson(self, lesson) -> None:
        self.lesson = lesson
        self.step_index = -1
        self.done_steps = set()
        self.browser.setMarkdown(display_markdown(lesson.text))

    def go_to_step(self, index: int):
        """Scroll to step ``index`` (clamped) and return it, or None without a lesson."""
        if self.lesson is None or not self.lesson.steps:
            return None
        self.step_index = max(0, min(index, len(self.lesson.steps) - 1))
        step = self.lesson.steps[self.step_index]
        self.browser.moveCursor(self.browser.textCursor().MoveOperation.Start)
        self.browser.find(step.title)
        return step

    def follow(self, link: str) -> None:
        """Act on a link target (``action:...`` or ``node:...``); anything else is ignored."""
        kind, _, target = link.partition(":")
        if kind == "node":
            self.node_requested.emit(target)
        elif kind == "action":
            try:
                self.action_requested.emit(parse_action(target))
            except LessonError:
                return


class LessonController:
    """Wires a LessonPanel to a MainWindow: opens lessons and performs their actions."""

    def __init__(self, window):
        self.window = window
        self.panel = LessonPanel()
        self.dock = QDockWidget("Lesson", window)
        self.dock.setObjectName("lessonDock")
        self.dock.setWidget(self.panel)
        window.addDockWidget(Qt.LeftDockWidgetArea, self.dock)
        library = getattr(window, "library_dock", None)
        if library is not None:  # a tab beside the node library: the text gets the full height
            window.tabifyDockWidget(library, self.dock)
        self.panel.action_requested.connect(self.perform)
        window.bridge.document_changed.connect(self.panel.clear)  # an example shows its lesson again once opened
        self.panel.node_requested.connect(self.highlight)
        self.menu = QMenu("&Examples", window.menus["File"])  # beside Open and Open Recent; Quit stays last
        window.menus["File"].insertMenu(window.actions["save"], self.menu)
        self.menu.setObjectName("menuExamples")
        self.menu.aboutToShow.connect(self.fill_menu)
        help_action = window.menus["Help"].addAction("&Lessons", self.fill_and_show_menu)
        help_action.setObjectName("action_lessons")
        window.menus["View"].addAction(self.dock.toggleViewAction())
        self._normal_font = None
        self.presentation = self._action("presentation", "&Presentation mode", "Ctrl+Shift+P", self.set_presentation,
                                         checkable=True)
        self._action("lesson_next", "Next lesson step", QKeySequence.MoveToNextPage, self.next_step)
        self._action("lesson_previous", "Previous lesson step", QKeySequence.MoveToPreviousPage, self.previous_step)

    def _action(self, name, text, shortcut, slot, checkable=False) -> QAction:
        act = QAction(text, self.window)
        act.setObjectName(f"action_{name}")
        act.setShortcut(QKeySequence(shortcut))
        act.setShortcutContext(Qt.ApplicationShortcut)
        act.setCheckable(checkable)
        (act.toggled if checkable else act.triggered).connect(slot)
        self.window.menus["View"].addAction(act)
        return act

    def fill_menu(self) -> None:
        self.menu.clear()
        for lesson in list_lessons():
            self.menu.addAction(lesson.title, lambda lesson=lesson: self.open(lesson)).setObjectName(
                f"example_{lesson.key}")

    def fill_and_show_menu(self) -> None:
        self.fill_menu()
        self.menu.popup(self.window.mapToGlobal(self.window.rect().center()))

    def open(self, lesson) -> bool:
        """Open the lesson's graph (asking about unsaved changes); its text shows through document_opened."""
        return self.window.maybe_save() and self.window.open_path(str(lesson.file))

    def document_opened(self, path) -> None:
        """A file was opened: an example from the examples folder shows its lesson beside it."""
        path = Path(path).resolve()
        if path.parent != EXAMPLES_DIR or not path.with_suffix(".md").is_file():
            return
        try:
            lesson = load_lesson(path)
        except LessonError as exc:
            self.window.show_message(str(exc))
            return
        self.show(lesson)

    def first_start(self, settings: QSettings | None = None) -> bool:
        """On the very first start (and with the default document open) show lesson 4 beside it."""
        settings = settings or QSettings("Nodegrad", "Nodegrad")
        if settings.value(FIRST_START_KEY, False, type=bool) or self.window.path is not None:
            return False
        settings.setValue(FIRST_START_KEY, True)
        lesson = next((x for x in list_lessons() if x.key == FIRST_LESSON), None)
        if lesson is None:
            return False
        self.show(lesson)
        return True

    def show(self, lesson) -> None:
        self.panel.show_lesson(lesson)
        self.dock.show()
        self.dock.raise_()
        if not self.window.isVisible():  # raised again once the window is shown and its tabs exist
            QTimer.singleShot(0, self.dock.raise_)

    def next_step(self) -> None:
        """Show the next step of the lesson and do its actions (keyboard-only stepping)."""
        step = self.panel.go_to_step(self.panel.step_index + 1)
        if step is None or self.panel.step_index in self.panel.done_steps:
            return
        self.panel.done_steps.add(self.panel.step_index)
        for action in step.actions:
            self.perform(action)

    def previous_step(self) -> None:
        """Scroll back to the previous step's text (what was done stays done: Step back undoes steps)."""
        self.panel.go_to_step(self.panel.step_index - 1)

    def set_presentation(self, on: bool) -> None:
        """Full screen, fonts scaled by PRESENTATION_SCALE, the lesson beside the canvas; off restores."""
        w = self.window
        if on and self._normal_font is None:
            self._normal_font = w.font()
            font = w.font()
            font.setPointSizeF(font.pointSizeF() * PRESENTATION_SCALE)
            w.setFont(font)
            self.panel.browser.zoomIn(4)
            self.dock.show()
            self.dock.raise_()
            w.setWindowState(w.windowState() | Qt.WindowFullScreen)
        elif not on and self._normal_font is not None:
            w.setFont(self._normal_font)
            self._normal_font = None
            self.panel.browser.zoomOut(4)
            w.setWindowState(w.windowState() & ~Qt.WindowFullScreen)

    def highlight(self, node_id: str) -> None:
        item = self.window.scene.node_items.get(node_id)
        if item is None:
            return
        self.window.scene.clearSelection()
        item.setSelected(True)
        self.window.view.centerOn(item)

    def _node(self, name) -> str | None:
        graph = self.window.graph
        if name in graph.nodes:
            return name
        return next((nid for nid, n in graph.nodes.items() if n.title == name), None)

    def perform(self, action) -> None:
        """Do what a lesson link asks, through the window's actions, commands and session."""
        w, a = self.window, action.args
        if action.name in RUN_ACTIONS:
            if "retain_graph" in a:
                w.actions["retain_graph"].setChecked(bool(a["retain_graph"]))
            w.run_step(action.name)
        elif action.name == "retain_graph":
            w.actions["retain_graph"].setChecked(bool(a.get("value", not w.actions["retain_graph"].isChecked())))
        elif action.name == "set" and self._node(a.get("node")):
            w.scene.edit(commands.SetParam(self._node(a["node"]), a.get("param"), a.get("value")))
        elif action.name == "set_loss" and self._node(a.get("node")):
            w.scene.edit(commands.SetTraining("loss", self._node(a["node"])))
        elif action.name == "retain_grad" and self._node(a.get("node")):
            w.bridge.ensure().retain_grad_nodes.add(self._node(a["node"]))
        elif action.name == "train":
            self.train(int(a.get("n", 1)), bool(a.get("zero_grad", True)))

    def train(self, n: int, zero_grad: bool) -> None:
        """``n`` steps by the Train dock's trainer (the plots, the progress and the data view follow, as for
        Train); without zero_grad, the buggy loop through the Run actions."""
        training = getattr(self.window, "training", None)
        if zero_grad and training is not None:
            training.docks["plots"].raise_()
            training.trainer.train(n)
            return
        if zero_grad:
            for _ in self.window.bridge.ensure().train(n):
                pass
            self.window.refresh_session_view()
            return
        for _ in range(n):
            for step in ("forward", "backward", "optimizer_step"):
                self.window.run_step(step)


def install(window) -> LessonController:
    """Add the Examples menu, Help ▸ Lessons and the Lesson dock to ``window``."""
    window.lessons = LessonController(window)
    return window.lessons
