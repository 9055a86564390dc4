"""The frame pacer redraws the views of one widget together: when the loss plot is due, the learning-rate,
gradient-norm and update plots that are due redraw in the same frame (drawn one per frame, they waited
behind the loss plot until training paused)."""

from PySide6.QtCore import QObject, Signal

from gui.training import frames as frames_module
from gui.training.frames import FramePacer


class FakeTrainer(QObject):
    frame = Signal()
    state_changed = Signal(str)
    long_steps = False  # the last slice of steps computed while the window was busy (seconds a step)


def _pace(monkeypatch, views, frame_times, long_steps=False, at_start=False):
    clock = {"now": 0.0}
    monkeypatch.setattr(frames_module.time, "perf_counter", lambda: clock["now"])
    trainer = FakeTrainer()
    trainer.long_steps = long_steps
    pacer = FramePacer(trainer)
    for name, period, group in views:
        pacer.add(name, period, lambda: None, group=group, at_start=at_start)
    trainer.state_changed.emit("training")
    for t in frame_times:
        clock["now"] = t
        trainer.frame.emit()
    return pacer.redraws


PLOTS = [("loss", 0.25, "plots"), ("accuracy", 0.5, "plots"), ("grad_norm", 1.0, "plots"),
         ("update_ratio", 1.0, "plots"), ("lr", 2.0, "plots"), ("data", 0.5, None), ("canvas", 0.5, None)]


def test_plots_that_are_due_redraw_with_the_loss_plot_on_sparse_frames(monkeypatch):
    redraws = _pace(monkeypatch, PLOTS, [0.8 * k for k in range(1, 21)])  # a frame every 0.8 s for 16 s
    assert redraws["loss"] >= 5
    assert redraws["lr"] >= 4 and redraws["grad_norm"] >= 4 and redraws["update_ratio"] >= 4


def test_views_outside_a_group_still_take_their_turns(monkeypatch):
    redraws = _pace(monkeypatch, PLOTS, [0.8 * k for k in range(1, 21)])
    assert redraws["data"] >= 3 and redraws["canvas"] >= 3


def test_a_group_member_that_is_not_due_waits(monkeypatch):
    redraws = _pace(monkeypatch, [("loss", 0.25, "plots"), ("lr", 2.0, "plots")], [0.3, 0.6, 0.9])
    assert redraws == {"loss": 3}


def test_at_start_plots_draw_on_a_runs_first_frame_then_keep_their_period(monkeypatch):
    """The learning-rate plot (every 2 s) stayed empty for the first 2 s of training."""
    redraws = _pace(monkeypatch, [("loss", 0.25, "plots"), ("lr", 2.0, "plots")], [0.05, 0.3, 0.6, 0.9, 1.2],
                    at_start=True)
    assert redraws == {"loss": 5, "lr": 1}


def test_after_long_steps_every_view_redraws_on_each_frame(monkeypatch):
    """A step of seconds (lesson 1's convolution) makes each frame rare: each one shows the step in every view."""
    redraws = _pace(monkeypatch, PLOTS, [0.01 * k for k in range(1, 4)], long_steps=True)
    assert redraws == {name: 3 for name, _period, _group in PLOTS}
