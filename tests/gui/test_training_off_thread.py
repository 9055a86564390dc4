"""Training whose steps are long (lesson 1's convolution, a wide MLP) no longer freezes the window.

The Train dock's Train and Step compute on the window's worker, the one Forward all uses: the window keeps answering
while a step computes (zoom, Esc, the Pause button), with a busy cursor and the graph's edits disabled; the loss plot
gains each step as it comes in; Pause and Esc stop after the step in flight; closing the window waits for it; and the
losses are the ones a headless session's training gives. A gate node (each call computes until the test hands it a
permit; its type ends with "_", so every step runs it eagerly instead of replaying a capture) makes "the window
answered before the step was done" exact.
"""

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core.nodegraph.model.spec import NodeSpec, Port, register, unregister
from core.nodegraph.run.session import Session
from gui import format as fmt
from tests.gui.conftest import make_window
from tests.gui.real_input import click, press, shown
from tests.nodegraph.graph_helpers import build


class Gate:
    """Hands out permits: each call of the gate node waits for one (or passes once ``open``)."""

    def __init__(self) -> None:
        self.permits = threading.Semaphore(0)
        self.opened = threading.Event()
        self.waiting = threading.Event()  # a step waits for its permit

    def wait(self) -> None:
        if not self.opened.is_set():
            self.waiting.set()
            self.permits.acquire(timeout=60)  # as a long kernel: the worker is inside the step until then
            self.waiting.clear()

    def let_one_step_through(self, qtbot) -> None:
        """The step computing now ends (the window went back to its event loop while it computed)."""
        qtbot.waitUntil(self.waiting.is_set)
        self.permits.release()

    def open(self) -> None:
        self.opened.set()
        self.permits.release(1000)


def _graph(steps: int):
    """``loss = sum(gate(w) * 2)`` with SGD(lr=0.1): every step's loss differs, so the losses check the order."""
    graph = build([("w", "param.parameter", {"shape": [3], "init": "ones"}), ("held", "test.held_", {}),
                   ("loss", "reduce.sum", {})], [("w", "out", "held", "x"), ("held", "out", "loss", "x")])
    graph.set_training("loss", "loss")
    graph.set_training("optimizer", "SGD")
    graph.set_training("optimizer_params", {"lr": 0.1})
    graph.set_training("steps", steps)
    return graph


@pytest.fixture
def gate(node_types):
    gate = Gate()

    def _held(ctx, inputs, params):
        gate.wait()
        return inputs["x"] * inputs["x"]

    register(NodeSpec("test.held_", "test", "Held", "computes until the test lets it", _held, inputs=(Port("x"),)))
    yield gate
    gate.open()
    unregister("test.held_")


def _headless_losses(steps: int) -> list[float]:
    return [m["loss"] for m in Session(_graph(steps)).train(steps)]


def _drawn_steps(plot) -> int:
    item = plot.items.get((1, "loss"))
    x = item.getData()[0] if item is not None else None
    return 0 if x is None else len(x)


def _train_button(w):
    return w.training.panel.buttons["Train"]


def test_training_with_long_steps_leaves_the_window_answering_and_the_plot_gains_each_step(qtbot, gate):
    w = shown(qtbot, make_window(qtbot, _graph(3)))
    trainer, plot = w.training.trainer, w.training.plot
    click(_train_button(w))
    qtbot.waitUntil(lambda: trainer.worker.busy)  # the first step computes on the worker; the click has returned
    assert trainer.state == "training" and QApplication.overrideCursor() is not None
    assert not w.named_actions["delete"].isEnabled() and not w.inspector.isEnabled()  # no edit meanwhile
    assert not _train_button(w).isEnabled() and w.training.panel.buttons["Pause"].isEnabled()
    scale = w.view.transform().m11()
    press(w.view, Qt.Key_Equal, Qt.ControlModifier)  # Ctrl+= zooms in: handled now, not after the step
    assert w.view.transform().m11() > scale
    for step in (1, 2):
        gate.let_one_step_through(qtbot)
        qtbot.waitUntil(lambda step=step: len(trainer.history.current) == step)
        assert trainer.worker.busy and trainer.state == "training"  # the next step computes: still busy
        qtbot.waitUntil(lambda step=step: _drawn_steps(plot) == step)  # drawn as it came in
    gate.let_one_step_through(qtbot)
    qtbot.waitUntil(lambda: trainer.state == "idle")
    gate.open()  # (the headless run below passes the gate: closed, each of its calls would wait out the timeout)
    assert trainer.history.current.series("loss").tolist() == _headless_losses(3)  # bit for bit
    assert QApplication.overrideCursor() is None and w.named_actions["delete"].isEnabled() and w.inspector.isEnabled()
    assert _train_button(w).isEnabled()


def test_the_pause_button_while_a_long_step_computes_pauses_after_that_step(qtbot, gate):
    w = shown(qtbot, make_window(qtbot, _graph(5)))
    trainer = w.training.trainer
    click(_train_button(w))
    qtbot.waitUntil(lambda: trainer.worker.busy)
    click(w.training.panel.buttons["Pause"])
    assert trainer.state == "training"  # the step in flight comes in first
    gate.open()
    qtbot.waitUntil(lambda: trainer.state == "paused")
    assert trainer.done == 1 and trainer.history.current.series("loss").tolist() == _headless_losses(1)
    assert not trainer.worker.busy and w.named_actions["delete"].isEnabled()


def test_esc_while_a_long_step_computes_pauses_training_after_it(qtbot, gate):
    w = shown(qtbot, make_window(qtbot, _graph(5)))
    trainer = w.training.trainer
    click(_train_button(w))
    qtbot.waitUntil(lambda: trainer.worker.busy)
    press(w, Qt.Key_Escape)
    assert w.status_label.text() == "Pausing training after the step in progress…"
    gate.open()
    qtbot.waitUntil(lambda: trainer.state == "paused")
    assert trainer.done == 1
    assert w.status_label.text() == f"Training paused after 1 of 5 steps, loss {fmt.scalar(trainer.last_loss)}: " \
        "Train goes on, Step runs one"


def test_the_step_button_with_a_long_step_computes_it_on_the_worker(qtbot, gate):
    w = shown(qtbot, make_window(qtbot, _graph(5)))
    trainer = w.training.trainer
    click(w.training.panel.buttons["Step"])
    qtbot.waitUntil(lambda: trainer.worker.busy)
    assert len(trainer.history.runs) == 0 or len(trainer.history.current) == 0
    gate.open()
    qtbot.waitUntil(lambda: not trainer.worker.busy)
    assert trainer.history.current.series("loss").tolist() == _headless_losses(1)
    qtbot.waitUntil(lambda: _drawn_steps(w.training.plot) == 1)  # the loss plot shows the step


def test_closing_the_window_while_a_long_training_step_computes_waits_for_it(qtbot, gate):
    w = shown(qtbot, make_window(qtbot, _graph(5)))
    trainer = w.training.trainer
    click(_train_button(w))
    qtbot.waitUntil(lambda: trainer.worker.busy)
    threading.Timer(0.2, gate.open).start()  # the step ends while close() waits for it
    w.undo_stack.setClean()
    w.maybe_save = lambda: True  # no question about the unsaved training
    w.close()
    assert not w.isVisible() and trainer.state != "training" and not trainer.worker.in_flight


def test_a_second_train_click_or_ctrl_t_while_a_long_step_computes_starts_nothing(qtbot, gate):
    w = shown(qtbot, make_window(qtbot, _graph(3)))
    trainer = w.training.trainer
    click(_train_button(w))
    qtbot.waitUntil(lambda: trainer.worker.busy)
    click(_train_button(w))  # greyed: the click does nothing
    press(w, Qt.Key_T, Qt.ControlModifier)  # nor does Run ▸ Train's key
    assert trainer.state == "training" and trainer.target == 3 and len(trainer.history.runs) == 1
    gate.open()
    qtbot.waitUntil(lambda: trainer.state == "idle")
    assert len(trainer.history.runs) == 1 and trainer.done == 3
    assert trainer.history.current.series("loss").tolist() == _headless_losses(3)  # one run of 3 steps, not more


def test_train_after_pausing_a_long_step_goes_on_with_the_same_run_to_its_steps(qtbot, gate):
    w = shown(qtbot, make_window(qtbot, _graph(3)))
    trainer = w.training.trainer
    click(_train_button(w))
    qtbot.waitUntil(lambda: trainer.worker.busy)
    press(w, Qt.Key_Escape)
    gate.let_one_step_through(qtbot)
    qtbot.waitUntil(lambda: trainer.state == "paused" and not trainer.worker.busy)
    assert trainer.done == 1
    click(_train_button(w))  # goes on: 2 more steps in the same run
    gate.open()
    qtbot.waitUntil(lambda: trainer.state == "idle")
    assert len(trainer.history.runs) == 1 and trainer.done == 3
    assert trainer.history.current.series("loss").tolist() == _headless_losses(3)
    qtbot.waitUntil(lambda: w.training.panel.progress_label.text().startswith("3 / 3 steps · loss "))
