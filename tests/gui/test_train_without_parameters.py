"""Train clicked on a graph without parameters after Zero grad: the Train dock refuses in the optimizer's words and
the gradients Zero grad cleared stay cleared (no forward and backward ran before the refusal)."""

from tests.gui.real_input import click, click_toolbar, show_dock, shown


def test_train_after_zero_grad_on_a_graph_without_parameters_leaves_the_gradients_cleared(window, qtbot):
    w = shown(qtbot, window)
    session = lambda: w.bridge.session  # noqa: E731 - the live session, looked up after each step
    click_toolbar(w, "forward")
    click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: any(t.grad is not None for t in session().leaves().values()))
    click_toolbar(w, "zero_grad")
    qtbot.waitUntil(lambda: all(t.grad is None for t in session().leaves().values()))
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: "empty parameter list" in panel.message.text())
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle")
    assert session().leaves() and all(t.grad is None for t in session().leaves().values())
    assert w.training.trainer.done == 0


def test_a_refused_train_shows_only_the_refusal_not_the_progress_of_a_run_that_never_started(window, qtbot):
    w = shown(qtbot, window)
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: "empty parameter list" in panel.message.text() and w.training.trainer.state == "idle")
    assert panel.message.isVisible()
    assert not panel.progress_bar.isVisible()  # no empty bar of 0 / 100
    assert not panel.progress_label.isVisible() and "steps/s" not in panel.progress_label.text()
    assert not panel.step_mode.isVisible()
