"""The status bar marks the end of a backward pass, and a Backward step after it starts a new pass that fails as
PyTorch's second ``z.backward()`` does (b's gradient accumulates first, then the error shows on z)."""

from tests.gui.real_input import click_toolbar, shown

B = "n3"  # b in the chapter's default graph


def _step_until(qtbot, w, words: str, most: int = 10) -> str:
    """Click Backward step until the status bar says ``words``; returns what it says then."""
    for _ in range(most):
        before = w.bridge.session.event_count if w.bridge.session is not None else -1
        click_toolbar(w, "backward_step")
        qtbot.waitUntil(lambda before=before: w.bridge.session is not None and w.bridge.session.event_count != before)
        if words in w.status_label.text():
            return w.status_label.text()
    raise AssertionError(f"the status bar never said {words!r}; last: {w.status_label.text()!r}")


def test_the_last_backward_step_says_the_pass_is_complete_and_the_next_says_a_new_one_starts(window, qtbot):
    w = shown(qtbot, window)
    text = _step_until(qtbot, w, "complete")
    assert text.endswith("Backward pass #1 complete")
    assert w.bridge.session.value(B).grad.item() == 1.0
    click_toolbar(w, "backward_step")
    qtbot.waitUntil(lambda: "starts" in w.status_label.text())
    assert w.status_label.text().startswith("Backward pass #2 starts: ")
    text = _step_until(qtbot, w, "Error at")
    assert "backward through the graph a second time" in text and text.startswith("Error at z")
    assert w.bridge.session.value(B).grad.item() == 2.0  # as torch leaves b.grad after its second backward()
