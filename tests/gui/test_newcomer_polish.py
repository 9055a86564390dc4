"""Small things a newcomer's walk through the app found (session 25): each driven with real clicks and keys on
the real widgets of a shown window."""

from PySide6.QtWidgets import QWidget

from tests.gui.real_input import click, show_dock, shown, type_text


def test_train_with_a_refused_learning_rate_says_why_in_the_status_bar(window, qtbot):
    """lr 'abc' then Train: nothing started and only the focus moved to the field; the status bar now says why,
    in the field's own refusal words."""
    w = shown(qtbot, window)
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    lr = panel.findChild(QWidget, "trainLr")
    type_text(qtbot, lr, "abc", enter=False)
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Can't train"))
    refusal = panel.refusals[lr].text()
    assert refusal  # the red line under the field says it too
    assert w.status_label.text() == f"Can't train: Learning rate: {refusal[0].lower()}{refusal[1:]}"
    assert "'abc'" in w.status_label.text()
    assert w.training.trainer.state == "idle" and w.training.trainer.done == 0
    qtbot.waitUntil(lr.hasFocus)
    w.undo_stack.setClean()
