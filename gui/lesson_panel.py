"""The Lesson dock and the Examples menu: the chapter's lessons (``core.nodegraph.lessons``) in the window.

``install(window)`` adds File ▸ Examples ▸ (every lesson in reading order, then the playgrounds), Help ▸
Lessons, and a "Lesson" dock that shows the open lesson's Markdown. Links in the text act on the window:
``action:`` links run the window's own Run actions (or, for lesson-only actions, the same undoable
commands and session calls the rest of the window uses), ``node:`` links select and centre a node. The
panel computes nothing: the session and the document do.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDockWidget, QTextBrowser, QVBoxLayout, QWidget

from core.nodegraph import commands
from core.nodegraph.lessons import LessonError, list_lessons, parse_action

STEPS_BLOCK = re.compile(r"^```steps[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
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
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("lessonText")
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(lambda url: self.follow(url.toString()))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)

    def show_lesson(self, lesson) -> None:
        self.lesson = lesson
        self.browser.setMarkdown(display_markdown(lesson.text))

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
        window.addDockWidget(Qt.RightDockWidgetArea, self.dock)
        self.dock.hide()
        self.panel.action_requested.connect(self.perform)
        self.panel.node_requested.connect(self.highlight)
        self.menu = window.menus["File"].addMenu("&Examples")
        self.menu.setObjectName("menuExamples")
        self.menu.aboutToShow.connect(self.fill_menu)
        help_action = window.menus["Help"].addAction("&Lessons", self.fill_and_show_menu)
        help_action.setObjectName("action_lessons")
        window.menus["View"].addAction(self.dock.toggleViewAction())

    def fill_menu(self) -> None:
        self.menu.clear()
        for lesson in list_lessons():
            self.menu.addAction(lesson.title, lambda lesson=lesson: self.open(lesson)).setObjectName(
                f"example_{lesson.key}")

    def fill_and_show_menu(self) -> None:
        self.fill_menu()
        self.menu.popup(self.window.mapToGlobal(self.window.rect().center()))

    def open(self, lesson) -> bool:
        """Open the lesson's graph (asking about unsaved changes) and show its text."""
        if not self.window.maybe_save() or not self.window.open_path(str(lesson.file)):
            return False
        self.panel.show_lesson(lesson)
        self.dock.show()
        return True

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
        """``train(n)`` of the session; without zero_grad, the buggy loop through the Run actions."""
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
