"""The Lesson dock shows each step's promises as a checklist that ticks as they come true in the window's own
session: lesson 4 stepped by clicking its links with the mouse."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings

from tests.gui.real_input import click_link, click_toolbar, shown


@pytest.fixture
def lesson_four(qtbot, window, tmp_path):
    """The window at 1366x768 as on the first start: lesson 4 beside its graph."""
    assert window.lessons.first_start(QSettings(str(tmp_path / "first.ini"), QSettings.IniFormat))
    shown(qtbot, window)
    browser = window.lessons.panel.browser
    qtbot.waitUntil(browser.isVisible)
    return browser


def _text(browser) -> str:
    return browser.toPlainText()


def _wait_ticked(qtbot, browser, *items: str) -> None:
    qtbot.waitUntil(lambda: all(f"☑ {item}" in _text(browser) for item in items), timeout=10000)


def test_lesson_four_shows_its_promises_as_open_items_in_plain_language(lesson_four):
    text = _text(lesson_four)
    assert "expect:" not in text and "Expect:" not in text
    assert "☐ the last step ran x" in text and "☐ x.grad is [ 1.5000, -0.5000]" in text
    assert "☑" not in text


def test_clicking_forward_and_backward_links_ticks_the_promises_that_came_true(qtbot, window, lesson_four):
    browser = lesson_four
    click_link(qtbot, browser, "action:forward_step")
    _wait_ticked(qtbot, browser, "the last step ran x", "x is [2., 3.]")
    assert "☐ z is 1.6000" in _text(browser)
    click_link(qtbot, browser, "action:forward")
    _wait_ticked(qtbot, browser, "z is 1.6000", "xw.grad_fn is MulBackward0", "x is a leaf")
    assert "☑ the last step ran x" in _text(browser), "what came true stays ticked"
    click_link(qtbot, browser, "action:backward_step")
    _wait_ticked(qtbot, browser, "the last step ran z", "b.grad is None")
    assert "☐ b.grad is 1." in _text(browser)
    for ticked in (["the last step ran b", "b.grad is 1.", "x.grad is None"], ["the last step ran s"],
                   ["the last step ran xw"], ["the last step ran x", "x.grad is [ 1.5000, -0.5000]"],
                   ["the last step ran w", "w.grad is [2., 3.]", "xw has its saved tensors freed"]):
        click_link(qtbot, browser, "action:backward_step")
        _wait_ticked(qtbot, browser, *ticked)
    assert "☐" not in _text(browser)
    assert window.bridge.session.grad("n2").tolist() == [2.0, 3.0]


def test_forward_all_from_the_toolbar_ticks_the_whole_first_step(qtbot, window, lesson_four):
    """A newcomer who presses Forward all without stepping first ran x too: step 1's list ticks whole, and step 2's
    'the last step ran z' (a Backward step) waits for the Backward step."""
    browser = lesson_four
    click_toolbar(window, "forward")
    _wait_ticked(qtbot, browser, "the last step ran x", "x is [2., 3.]", "z is 1.6000", "x is a leaf")
    assert "☐ the last step ran z" in _text(browser)
    click_toolbar(window, "backward_step")
    _wait_ticked(qtbot, browser, "the last step ran z", "b.grad is None")


def test_forward_all_first_in_lesson_six_ticks_its_forward_step(qtbot, window):
    """Lesson 6's 'Zero' holds before anything is pressed; Forward all from the toolbar (what 'Forward' says to
    press) ticks 'loss is 11.1638' at once instead of waiting for another action."""
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    shown(qtbot, window)
    open_example(qtbot, window, "06-training-step")
    browser = window.lessons.panel.browser
    click_toolbar(window, "forward")
    _wait_ticked(qtbot, browser, "model.weight.grad is None", "loss is 11.1638", "model.weight.shape is [1, 4]")
    assert "☐ model.weight.grad.shape is [1, 4]" in _text(browser)


def test_redrawing_the_ticks_keeps_the_text_where_the_reader_scrolled(qtbot, lesson_four):
    browser = lesson_four
    click_link(qtbot, browser, "action:forward")
    bar = browser.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    at = bar.value()
    click_link(qtbot, browser, "action:backward_step")
    _wait_ticked(qtbot, browser, "the last step ran z")
    # kept where the reader was, or moved down just enough to show the new tick (not back to the top)
    found = browser.document().find("☑ the last step ran z")
    box = browser.document().documentLayout().blockBoundingRect(found.block())
    assert bar.value() == at or at < bar.value() <= box.top()
    assert bar.value() <= box.top() and box.bottom() <= bar.value() + browser.viewport().height()


def test_backward_all_from_the_toolbar_ticks_lesson_four_to_the_end(qtbot, window, lesson_four):
    """A newcomer who presses Forward all, then Backward all, passed step 2's 'b.grad is None' in one go: the
    checklist follows them to the end and says how to see what was passed; stepping back shows it and ticks it."""
    browser = lesson_four
    click_toolbar(window, "forward")
    _wait_ticked(qtbot, browser, "z is 1.6000", "x is a leaf")
    click_toolbar(window, "backward")
    _wait_ticked(qtbot, browser, "b.grad is None (passed in one go: Step back 5 times to see it)",
                 "x.grad is [ 1.5000, -0.5000]", "w.grad is [2., 3.]", "xw has its saved tensors freed")
    assert "☐" not in _text(browser)
    for _ in range(5):
        click_toolbar(window, "step_back")
    qtbot.waitUntil(lambda: "Step back 5 times" not in _text(browser), timeout=10000)
    assert "☑ b.grad is None" in _text(browser).splitlines()
    assert window.bridge.session.grad("n3") is None


def test_train_first_in_lesson_six_ticks_the_training_steps_parts(qtbot, window):
    """A newcomer who presses Train in lesson 6 before stepping ran Zero, Forward, Backward and Step in its first
    training step: the checklist ticks them (what no longer holds as passed, saying how to see it)."""
    from tests.gui.real_input import click, show_dock
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    shown(qtbot, window)
    open_example(qtbot, window, "06-training-step")
    browser = window.lessons.panel.browser
    show_dock(qtbot, window, window.training.docks["train"])
    click(window.training.panel.buttons["Train"])
    _wait_ticked(qtbot, browser, "loss is 11.1638 (passed by Train: Reset, then step through to see it)",
                 "model.weight.grad.shape is [1, 4]", "the first loss is 11.1638")
    text = _text(browser)
    assert "☐ model.weight.grad is None" not in text and "☐ loss is 11.1638" not in text


def test_forward_all_in_lesson_three_ticks_the_steps_that_only_describe_its_result(qtbot, window):
    """Lesson 3 says Forward all once; "view(12) fails", "reshape, or contiguous().view" and the in-place write
    have nothing of their own to press and describe what that pass computed: clicking the lesson's Forward all
    link ticks them too (they stayed open, b_view's failure on the canvas beside an empty box)."""
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    shown(qtbot, window)
    open_example(qtbot, window, "03-views")
    browser = window.lessons.panel.browser
    click_link(qtbot, browser, "action:forward")
    _wait_ticked(qtbot, browser, "b is not contiguous", "b_view fails with “view size is not compatible”",
                 "a hint on b_view: view non contiguous", "c is [ 0,  4,  8,  1,  5,  9,  2,  6, 10,  3,  7, 11]",
                 "b_contig is contiguous", "row is [1., 1., 1.]", "base.version is 1")
