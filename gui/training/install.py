"""Adds the training side to a main window: Train, Plots, Data, Autograd and Diagnostics docks, the
device selector in the toolbar, Run ▸ Train/Pause/Reset training and View entries for the docks.

``install(window)`` is the one call the window makes. It wires the panels to the window's session
bridge and canvas: canvas selection highlights autograd nodes; clicking an autograd node or a
diagnostic selects and frames its graph node; a stop message shows in the status bar and selects the node
it names (for NaN/Inf the first node that produced it). While training runs, the views redraw on the
trainer's frames (``gui.training.frames``): one visible view per frame, each at most at its own rate.
"""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QToolBar

from gui.autograd_view import AutogradView
from gui.data_view import DataView
from gui.diagnostics_panel import DiagnosticsPanel
from gui.plots.loss_plot import LossPlot
from gui.training.device_selector import DeviceSelector
from gui.training.frames import FramePacer
from gui.training.train_panel import TrainPanel
from gui.training.trainer import Trainer
from gui.watch_panel import install_watch

__all__ = ["install", "select_and_frame"]

PREVIEW_MS = 500
PLOT_PERIODS = {"loss": 0.25, "accuracy": 0.5, "grad_norm": 1.0, "update_ratio": 1.0, "lr": 2.0}  # seconds


def select_and_frame(window, node_id: str) -> None:
    """Select graph node ``node_id`` on the canvas and frame it."""
    item = window.scene.node_items.get(node_id)
    if item is None:
        return
    window.scene.clearSelection()
    item.setSelected(True)
    window.view.fit_selection()


def install(window) -> SimpleNamespace:
    """Create the docks and wiring on ``window``; returns them as ``window.training``."""
    trainer = Trainer(window.bridge, window)
    t = SimpleNamespace(trainer=trainer)
    t.panel = TrainPanel(trainer, window.scene.edit)
    t.plot = LossPlot(trainer.history)
    t.plot.start_path = window.start_path
    t.data = DataView(window.bridge)
    t.autograd = AutogradView(window.bridge)
    t.diagnostics = DiagnosticsPanel(window.bridge, trainer.history)
    t.docks = {"train": window._dock("Train", "trainDock", t.panel, Qt.RightDockWidgetArea),
               "plots": window._dock("Plots", "plotsDock", t.plot, Qt.BottomDockWidgetArea),
               "data": window._dock("Data", "dataDock", t.data, Qt.BottomDockWidgetArea),
               "autograd": window._dock("Autograd graph", "autogradDock", t.autograd, Qt.LeftDockWidgetArea),
               "diagnostics": window._dock("Diagnostics", "diagnosticsDock", t.diagnostics, Qt.LeftDockWidgetArea)}
    window.tabifyDockWidget(window.inspector_dock, t.docks["train"])
    window.tabifyDockWidget(window.library_dock, t.docks["autograd"])
    window.tabifyDockWidget(t.docks["autograd"], t.docks["diagnostics"])
    window.library_dock.raise_()
    t.docks["train"].raise_()
    window.resizeDocks([t.docks["plots"], t.docks["data"]], [300, 300], Qt.Vertical)
    window.resizeDocks([t.docks["plots"], t.docks["data"]], [700, 500], Qt.Horizontal)
    for dock in t.docks.values():
        window.menus["View"].addAction(dock.toggleViewAction())
    _add_actions(window, t)
    _wire(window, t)
    install_watch(window, t)  # the Watch dock beside Plots, pinned from the inspector
    _pace(window, t)
    window.training = t
    return t


def _add_actions(window, t) -> None:
    run_menu = window.menus["Run"]
    run_menu.addSeparator()
    for name, text, slot, key in (("train", "&Train", lambda: t.trainer.train(), "Ctrl+T"),
                                  ("pause_training", "&Pause training", t.trainer.pause, "F6"),
                                  ("reset_training", "Reset &training (new run)", t.trainer.reset, None)):
        act = QAction(text, window)
        act.setObjectName(f"action_{name}")
        if key:
            act.setShortcut(key)
        act.triggered.connect(slot)
        run_menu.addAction(act)
        window.actions[name] = act
    toolbar = window.findChild(QToolBar, "runToolbar")
    t.device = DeviceSelector()
    t.device.setObjectName("toolbarDeviceSelector")
    t.device.device_chosen.connect(t.panel._set_device)
    if toolbar is not None:
        toolbar.addSeparator()
        toolbar.addWidget(t.device)


def _wire(window, t) -> None:
    trainer = t.trainer
    window.bridge.stepped.connect(t.autograd.on_event)
    window.scene.selectionChanged.connect(lambda: _on_selection(window, t))
    t.autograd.node_selected.connect(lambda nid: select_and_frame(window, nid))
    t.panel.buttons["Step"].clicked.connect(lambda: _preview(window, t, force=True))  # show the step's values and graph
    # not drawn while hidden
    t.docks["autograd"].visibilityChanged.connect(lambda shown: shown and t.autograd.refresh())
    t.diagnostics.node_selected.connect(lambda nid: select_and_frame(window, nid))
    trainer.stopped.connect(lambda stop: _on_stop(window, stop))
    trainer.history_cleared.connect(t.plot.clear)
    trainer.state_changed.connect(lambda state: _on_state(window, t, state))
    t.preview_timer = QTimer(window)
    t.preview_timer.setObjectName("trainingPreviewTimer")
    t.preview_timer.timeout.connect(lambda: _preview(window, t))
    t.preview_timer.start(PREVIEW_MS)


def _shown(widget):
    """Whether ``widget`` is on screen: a dock behind another's tab still says isVisible(), but shows nothing."""
    return lambda: widget.isVisible() and not widget.visibleRegion().isEmpty()


def _pace(window, t) -> None:
    """The views that redraw on the trainer's frames while training, with their periods in seconds."""
    t.frames = frames = FramePacer(t.trainer)
    for name, period in PLOT_PERIODS.items():  # the plots that are due redraw together (one paint)
        frames.add(f"plot:{name}", period, lambda name=name: t.plot.refresh((name,)), _shown(t.plot), t.plot.timer,
                   group="plots")
    frames.add("data", 0.5, t.data.refresh, _shown(t.data), t.data.timer)
    frames.add("canvas", 0.5, lambda: _preview(window, t, autograd=False), timer=t.preview_timer)
    frames.add("autograd", 2.0, t.autograd.refresh, _shown(t.autograd))
    frames.add("diagnostics", 2.0, t.diagnostics.refresh, _shown(t.diagnostics), t.diagnostics.timer)
    frames.add("watch", 1.0, t.watch.refresh, _shown(t.watch), t.watch.timer)
    frames.add("watch_plot", 1.0, t.watch.plot.refresh, _shown(t.watch.plot), t.watch.plot.timer)


def _on_selection(window, t) -> None:
    try:
        ids = window.scene.selected_node_ids()
    except RuntimeError:  # the window is being destroyed
        return
    t.autograd.highlight_owner(ids[0] if len(ids) == 1 else None)


def _on_stop(window, stop) -> None:
    window.show_message(stop["message"])
    if stop.get("node"):
        select_and_frame(window, stop["node"])


def _on_state(window, t, state: str) -> None:
    window.actions["train"].setEnabled(state != "training")
    window.actions["pause_training"].setEnabled(state == "training")
    if state != "training":
        _preview(window, t, force=True)


def _preview(window, t, force: bool = False, autograd: bool = True) -> None:
    """Keep the panels on the current document; while training (or ``force``), refresh the canvas previews."""
    if t.panel.graph is not window.bridge.graph:
        t.panel.set_graph(window.bridge.graph)
    if t.trainer.state == "training" or force:
        window.refresh_session_view()
        t.device.set_device(window.bridge.graph.training.get("device") or "cpu")
        if autograd and t.docks["autograd"].isVisible():
            t.autograd.refresh()
