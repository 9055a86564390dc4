"""The window's training side as one object: the trainer, its panels, their docks, actions and redraw pacing.

``TrainingControls(bridge, scene, parent)`` builds the Train panel, the Plots, Data, Autograd, Diagnostics
and Watch views (each around the session bridge or the trainer's run history), a dock around each, the
device selector and the Run ▸ Train / Pause training / Reset training actions. It touches nothing outside
itself: the window places the docks, adds the actions to its menus and the selector to its toolbar, and
listens to three signals:

- ``node_chosen(str)``: a graph node to select and frame (an autograd node or a diagnostic was clicked, or
  training stopped at a node; for NaN/Inf the first one that produced it);
- ``message(str)``: a line for the status bar (why training stopped or did not start, a refused Watch pin);
- ``canvas_stale()``: the canvas should redraw from the session (while training, and when it stops).

While training runs, the views redraw on the trainer's frames (``gui.training.frames``): one visible view
per frame, each at most at its own rate.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QWidget

from core.nodegraph.model.names import parameter_labels
from gui import dock_panels
from gui import format as fmt
from gui.autograd_view import AutogradView
from gui.canvas.scene import GraphScene
from gui.data_view import DataView
from gui.diagnostics_panel import DiagnosticsPanel
from gui.plots.loss_plot import LossPlot
from gui.session_bridge import SessionBridge
from gui.training.device_selector import DeviceSelector
from gui.training.frames import FramePacer
from gui.training.train_panel import TIPS, TrainPanel
from gui.training.trainer import Trainer
from gui.watch_menu import PortWatchMenu
from gui.watch_panel import WatchPanel
from gui.worker_slices import WorkerSlices

__all__ = ["TrainingControls"]

PREVIEW_MS = 500
PLOT_PERIODS = {"loss": 0.25, "accuracy": 0.5, "grad_norm": 1.0, "update_ratio": 1.0, "lr": 2.0}  # seconds
DOCKS = (("train", "Train", "trainDock", "panel"), ("plots", "Plots", "plotsDock", "plot"),
         ("data", "Data", "dataDock", "data"), ("autograd", "Autograd", "autogradDock", "autograd"),
         ("diagnostics", "Diagnostics", "diagnosticsDock", "diagnostics"), ("watch", "Watch", "watchDock", "watch"))


def _shown(widget: QWidget) -> Callable[[], bool]:
    """Whether ``widget`` is on screen: a dock behind another's tab still says isVisible(), but shows nothing."""
    return lambda: widget.isVisible() and not widget.visibleRegion().isEmpty()


class TrainingControls(QObject):
    """The trainer and the training panels of one window, wired to each other (see the module docstring)."""

    node_chosen = Signal(str)
    message = Signal(str)
    canvas_stale = Signal()
    watch_requested = Signal(str)  # a port was pinned (or asked to be): the window reveals the Watch dock

    def __init__(self, bridge: SessionBridge, scene: GraphScene, parent: QWidget | None = None,
                 start_path: Callable[[str], str] | None = None, worker: WorkerSlices | None = None):
        super().__init__(parent)
        self.setObjectName("trainingControls")
        self.bridge, self.scene = bridge, scene
        self.trainer = Trainer(bridge, self, worker)  # its slices compute on the window's worker
        self.panel = TrainPanel(self.trainer, scene.edit)
        self.plot = LossPlot(self.trainer.history, start_path=start_path,
                             labels=lambda keys: parameter_labels(self.bridge.graph, keys))  # w_cut, mlp.0.weight
        self.data = DataView(bridge)
        self.autograd = AutogradView(bridge)
        self.diagnostics = DiagnosticsPanel(bridge, self.trainer.history)
        self.watch = WatchPanel(bridge)
        self.port_menu = PortWatchMenu(scene, self.watch)
        self.device = DeviceSelector()
        self.device.setObjectName("toolbarDeviceSelector")
        self.docks: dict[str, QDockWidget] = {key: dock_panels.make_dock(title, name, getattr(self, widget), parent)
                                              for key, title, name, widget in DOCKS}
        self.actions = self._make_actions()
        self.preview_timer = QTimer(self)
        self.preview_timer.setObjectName("trainingPreviewTimer")
        self._wire()
        self.frames = self._pace()
        self.preview_timer.start(PREVIEW_MS)

    def _make_actions(self) -> dict[str, QAction]:
        actions = {}
        for name, text, slot, key in (("train", "&Train", self.panel.train, "Ctrl+T"),
                                      ("pause_training", "&Pause training", self.trainer.pause, "F6"),
                                      ("reset_training", "Reset training (ne&w run)", self.trainer.reset, None)):
            act = QAction(text, self)
            act.setObjectName(f"action_{name}")
            if key:
                act.setShortcut(QKeySequence(key))
            act.setStatusTip(TIPS[name])
            act.triggered.connect(slot)
            actions[name] = act
        return actions

    def _wire(self) -> None:
        self.device.device_chosen.connect(self.panel._set_device)
        self.bridge.stepped.connect(self.autograd.on_event)
        self.scene.selectionChanged.connect(self._on_selection)
        self.autograd.node_selected.connect(self.node_chosen)
        self.diagnostics.node_selected.connect(self.node_chosen)
        self.panel.buttons["Step"].clicked.connect(lambda: self.preview(force=True))  # the step's values and graph
        self.docks["autograd"].visibilityChanged.connect(self._autograd_shown)
        self.trainer.stopped.connect(self._on_stop)
        self.trainer.history_cleared.connect(self.plot.clear)
        self.trainer.history_cleared.connect(lambda: self.data.refresh(force=True))  # hidden too: no stale boundary
        self.trainer.state_changed.connect(self._on_state)
        self.trainer.progress.connect(self._on_progress)
        self.preview_timer.timeout.connect(lambda: self.preview())
        self.watch.message.connect(self.message)
        self.panel.train_refused.connect(self.message)
        self.panel.undo_requested.connect(self.scene.undo_stack.undo)  # Ctrl+Z in a Train field, as in the Inspector
        self.panel.redo_requested.connect(self.scene.undo_stack.redo)
        self.port_menu.watch_requested.connect(self.pin)

    def _pace(self) -> FramePacer:
        """The views that redraw on the trainer's frames while training, with their periods in seconds."""
        frames = FramePacer(self.trainer)
        plot, watch = self.plot, self.watch
        # the plots that are due redraw together (one paint), and all of them on a run's first frame: the lr plot
        # (every 2 s) waited its period with no point
        for name, period in PLOT_PERIODS.items():
            frames.add(f"plot:{name}", period, partial(plot.refresh, (name,)), _shown(plot), plot.timer,
                       group="plots", at_start=True)
        frames.add("data", 0.5, self.data.refresh, _shown(self.data), self.data.timer)
        frames.add("canvas", 0.5, lambda: self.preview(autograd=False), timer=self.preview_timer)
        frames.add("autograd", 2.0, self.autograd.refresh, _shown(self.autograd))
        frames.add("diagnostics", 2.0, self.diagnostics.refresh, _shown(self.diagnostics), self.diagnostics.timer)
        frames.add("watch", 1.0, watch.refresh, _shown(watch), watch.timer)
        frames.add("watch_plot", 1.0, watch.plot.refresh, _shown(watch.plot), watch.plot.timer)
        return frames

    def _autograd_shown(self, shown: bool) -> None:
        if shown:  # not drawn while hidden
            self.autograd.refresh()

    def pin(self, key: str) -> None:
        """Pin ``"node.port"`` to the Watch list (a refusal goes to ``message``) and bring its tab to the front."""
        if self.watch.pin(key) is None:
            self.docks["watch"].raise_()
        self.watch_requested.emit(key)

    def _on_selection(self) -> None:
        try:
            ids = self.scene.selected_node_ids()
        except RuntimeError:  # the window is being destroyed
            return
        self.autograd.highlight_owner(ids[0] if len(ids) == 1 else None)

    def _on_stop(self, stop: dict) -> None:
        self.message.emit(stop["message"])
        if stop.get("node"):
            self.node_chosen.emit(stop["node"])

    def _on_state(self, state: str) -> None:
        self.actions["train"].setEnabled(state != "training")
        self.actions["pause_training"].setEnabled(state == "training")
        if state != "training":
            self.preview(force=True)
        self._say_state(state)

    def _on_progress(self, _info: object) -> None:
        """A Step while paused moves the count and the loss: the status bar follows (it kept the pause's older ones)."""
        if self.trainer.state == "paused" and self.trainer.target:  # (a Reset from paused sets it to 0 first)
            self.message.emit(self.paused_message())

    def _say_state(self, state: str) -> None:
        """The status bar says how training ended (it kept the last edit's 'Set training steps'); a stop condition's
        or an error's message, emitted right after, says why instead."""
        t = self.trainer
        loss = f", loss {fmt.scalar(t.last_loss)}" if t.last_loss is not None else ""
        if state == "paused":
            self.message.emit(self.paused_message())
        elif state == "idle" and t.target and t.done >= t.target:
            self.message.emit(f"Trained {t.done} step{'' if t.done == 1 else 's'}{loss}")

    def paused_message(self) -> str:
        """Where paused training stands and what goes on from there: the Pause button's and Esc's words alike (Esc
        said only 'Training paused after 710 of 3000 steps', without the loss or what Train and Step do next)."""
        t = self.trainer
        loss = f", loss {fmt.scalar(t.last_loss)}" if t.last_loss is not None else ""
        return f"Training paused after {t.done} of {t.target} steps{loss}: Train goes on, Step runs one"

    def preview(self, force: bool = False, autograd: bool = True) -> None:
        """Keep the panels on the current document; while training (or ``force``), refresh the canvas previews."""
        graph = self.bridge.graph
        if self.panel.graph is not graph:
            self.panel.set_graph(graph)
        if self.trainer.state == "training" or force:
            self.canvas_stale.emit()
            self.device.set_device(graph.training.get("device") or "cpu")
            if autograd and self.docks["autograd"].isVisible():
                self.autograd.refresh()

    def close(self) -> None:
        """The window closes: it trains no more."""
        self.trainer.pause(wait=True)  # a slice computing on the worker first comes in
