"""The Lesson dock's panel: the open lesson's Markdown with each step's promises as a checklist, and its links.

``LessonPanel`` shows a lesson (``core.nodegraph.lessons.texts``) in a text browser and asks for what its links
say: ``action_requested(Action)`` for an ``action:`` link, ``node_requested(str)`` for a ``node:`` link; it acts on
nothing itself (``gui.lesson_controller`` wires it to the window).

Each step's promises (its ``expect:`` lines) show as a checklist in plain language ("☐ x.grad is [ 1.5000,
-0.5000]", the tensor as the canvas prints it) that ticks (☑) as they come true in the window's own session
(``core.nodegraph.lessons.checklist`` checks them; the controller says when). The text is redrawn on a later
event-loop pass, never inside the browser's own link handler. The panel computes nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from core.nodegraph.lessons.checklist import Checklist, promise_text
from core.nodegraph.lessons.texts import Expectation, LessonError, parse_action, parse_steps

if TYPE_CHECKING:
    from core.nodegraph.lessons.texts import Lesson, Step
    from core.nodegraph.model.document import Graph

STEPS_BLOCK = re.compile(r"^```steps[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
SECTION = re.compile(r"^(## +.+)$", re.M)
TICKED, OPEN = "☑", "☐"
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#])")
NO_LESSON = "Open a lesson from **File ▸ Examples** or **Help ▸ Lessons**."
ChecklistItems = list[tuple[str, bool]]  # [(promise text, ticked)]
Metrics = list[dict[str, float | None]]  # per-step figures, as SessionRefs reads them


def _escaped(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _checklist_markdown(items: ChecklistItems) -> str:
    """``[(text, ticked)]`` as one paragraph of ☑/☐ lines (hard line breaks; the texts' Markdown escaped)."""
    return "  \n".join(f"{TICKED if done else OPEN} {_escaped(text)}" for text, done in items) + "\n" if items else ""


def _untick(block: str) -> ChecklistItems:
    """A steps block's phrasable promises, none ticked."""
    try:
        program = parse_steps(block)
    except LessonError:
        return []
    texts = (promise_text(item) for _, item in program if isinstance(item, Expectation))
    return [(t, False) for t in texts if t is not None]


def display_markdown(text: str, checklist: Checklist | None = None) -> str:
    """The lesson's Markdown as shown: each step's steps blocks become one checklist of its promises, ticked
    as ``checklist`` (a ``Checklist`` of this lesson) says, else all open; a step with none shows no list."""
    parts = SECTION.split(text)
    out = [STEPS_BLOCK.sub("", parts[0])]
    for index, (head, body) in enumerate(zip(parts[1::2], parts[2::2])):
        blocks = STEPS_BLOCK.findall(body)
        items = checklist.items(index) if checklist is not None else [i for b in blocks for i in _untick(b)]
        first = True

        def block(_m: re.Match[str], items: ChecklistItems = items) -> str:
            nonlocal first
            shown, first = (_checklist_markdown(items) if first else ""), False
            return shown
        out.append(head + STEPS_BLOCK.sub(block, body))
    return "".join(out)


class LessonPanel(QWidget):
    """Shows one lesson; emits ``action_requested(Action)`` and ``node_requested(node_id)`` for its links."""

    action_requested = Signal(object)
    node_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lessonPanel")
        self.lesson: Lesson | None = None
        self.checklist: Checklist | None = None
        self._drawn_ticks: list[list[bool]] = []  # the checklist's ticks as the text last showed them
        self.step_index = -1
        self.done_steps: set[int] = set()  # steps whose actions Page Down already did
        self._press: QPoint | None = None  # where the last mouse press in the text was (the clicked link's step)
        self._link_top: int | None = None  # the clicked link's line (text coordinates) until a scroll to a tick
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("lessonText")
        self.browser.setOpenLinks(False)
        self.browser.setMarkdown(NO_LESSON)
        self.browser.viewport().installEventFilter(self)
        self.browser.anchorClicked.connect(lambda url: self.follow(url.toString(), self._clicked_step()))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)

    def clear(self) -> None:
        """No lesson (another document was opened): the hint where lessons are."""
        self.lesson = None
        self.checklist = None
        self.step_index = -1
        self.done_steps = set()
        self.browser.setMarkdown(NO_LESSON)

    def show_lesson(self, lesson: Lesson, graph: Graph | None = None) -> None:
        """Show ``lesson`` with none of its promises ticked (``graph`` names the nodes its promises name by id)."""
        self.lesson = lesson
        self.checklist = Checklist(lesson, graph)
        self._drawn_ticks = [list(row) for row in self.checklist.ticked]
        self.step_index = -1
        self.done_steps = set()
        self.browser.setMarkdown(display_markdown(lesson.text, self.checklist))

    def redraw(self) -> None:
        """Redraw the text with the checklist's ticks, where the reader had scrolled to; a promise that just came
        true out of view (below the fold, after a toolbar button stepped on) is scrolled into view, so the learner
        sees the lesson follow them; after a link, no further than keeps that link in view (one Forward all ticks
        lesson 2's promises of every step: scrolled to the last, the text jumped from the link the learner clicked,
        and the paragraph they were reading, to the lesson's end)."""
        if self.lesson is None:
            return
        bar = self.browser.verticalScrollBar()
        at = bar.value()
        self.browser.setMarkdown(display_markdown(self.lesson.text, self.checklist))
        self.browser.document().documentLayout().documentSize()  # lays the text out: the bar gets its range
        bar.setValue(at)
        newest = self._newest_tick()
        if newest is not None:
            self._bring_into_view(newest, self._link_top)
            self._link_top = None

    def _newest_tick(self) -> str | None:
        """The text of the last promise ticked since the text was last drawn (None if none was)."""
        checklist = self.checklist
        if checklist is None:
            return None
        ticked = [list(row) for row in checklist.ticked]
        before, self._drawn_ticks = self._drawn_ticks, ticked
        newest = None
        for i, row in enumerate(ticked):
            for k, tick in enumerate(row):
                if tick and not (i < len(before) and k < len(before[i]) and before[i][k]):
                    newest = checklist.items(i)[k][0]
        return newest

    def _bring_into_view(self, text: str, most: int | None = None) -> None:
        """Scroll the least that shows the checklist line holding ``text`` whole, down to ``most`` at the most."""
        found = self.browser.document().find(text)
        if found.isNull():
            return
        box = self.browser.document().documentLayout().blockBoundingRect(found.block())
        bar, height = self.browser.verticalScrollBar(), self.browser.viewport().height()
        if box.bottom() > bar.value() + height:
            down = int(box.bottom() - height + box.height())
            bar.setValue(min(down, max(most, bar.value())) if most is not None else down)
        elif box.top() < bar.value():
            bar.setValue(int(box.top() - box.height()))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.browser.viewport() and isinstance(event, QMouseEvent) \
                and event.type() == QEvent.Type.MouseButtonPress:
            self._press = event.position().toPoint()
        return super().eventFilter(watched, event)

    def _clicked_step(self) -> int | None:
        """The step whose text holds the link just followed (by the mouse, else the keyboard's cursor)."""
        if self.lesson is None:
            return None
        at = self.browser.cursorForPosition(self._press) if self._press is not None else self.browser.textCursor()
        if self._press is not None:
            self._link_top = self.browser.cursorRect(at).top() + self.browser.verticalScrollBar().value()
        self._press = None
        block, heads = self.browser.document().findBlock(at.position()), -1
        while block.isValid():
            heads += block.blockFormat().headingLevel() == 2
            block = block.previous()
        return heads if heads >= 0 else None

    def go_to_step(self, index: int) -> Step | None:
        """Scroll to step ``index`` (clamped) and return it, or None without a lesson."""
        if self.lesson is None or not self.lesson.steps:
            return None
        self.step_index = max(0, min(index, len(self.lesson.steps) - 1))
        step = self.lesson.steps[self.step_index]
        self.browser.moveCursor(self.browser.textCursor().MoveOperation.Start)
        self.browser.find(step.title)
        return step

    def follow(self, link: str, step: int | None = None) -> None:
        """Act on a link target (``action:...`` or ``node:...``) of step ``step`` (the learner is on it now);
        anything else is ignored."""
        if step is not None and self.checklist is not None:
            self.checklist.focus(step)
        kind, _, target = link.partition(":")
        if kind == "node":
            self.node_requested.emit(target)
        elif kind == "action":
            try:
                self.action_requested.emit(parse_action(target))
            except LessonError:
                return
