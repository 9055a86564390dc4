"""Lesson 2 by mouse: its first link, Forward all, ticks the promises of every step at once. The text scrolled to the
last of them, at the lesson's end, so the learner lost the paragraph they had clicked in (the one that goes on to
explain a, b and a_plus_b); it now scrolls toward the new ticks no further than keeps the clicked link in view."""

from PySide6.QtWidgets import QApplication

from tests.gui.real_input import click_link, open_lesson_by_mouse, shown


def _line_shown(browser, text: str) -> bool:
    """Whether the text's line holding ``text`` is wholly in the lesson's view."""
    found = browser.document().find(text)
    box = browser.document().documentLayout().blockBoundingRect(found.block())
    top = browser.verticalScrollBar().value()
    return not found.isNull() and top <= box.top() and box.bottom() <= top + browser.viewport().height()


def test_forward_all_from_lesson_two_link_keeps_the_text_where_the_learner_clicked(qtbot, window):
    w = shown(qtbot, window)
    open_lesson_by_mouse(qtbot, w, "2.")
    qtbot.waitUntil(lambda: w.path is not None and w.path.endswith("02-broadcasting.json"), timeout=60_000)
    w.activateWindow()  # as the window manager gives the window back once the Lessons box is gone
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=60_000)
    browser = w.lessons.panel.browser
    qtbot.waitUntil(lambda: _line_shown(browser, "Forward all"))
    click_link(qtbot, browser, "action:forward")
    qtbot.waitUntil(lambda: "☑ no hint on diff_fixed" in browser.toPlainText(), timeout=60_000)  # the last step's
    qtbot.waitUntil(lambda: "☑ a_plus_b.shape is [3, 4]" in browser.toPlainText(), timeout=60_000)
    assert _line_shown(browser, "☑ a_plus_b.shape is [3, 4]"), "the first step's ticks are out of view"
    assert _line_shown(browser, "Forward all"), "the text jumped away from the link the learner clicked"
    w.undo_stack.setClean()
