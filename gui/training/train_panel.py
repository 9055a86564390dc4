"""The Train dock: the document's training settings as editors, Train/Pause/Step/Reset and progress.

Optimizer, learning rate and steps sit above the buttons, the progress and the messages, which all stay in view;
the other settings scroll under them ("More settings"): a 1366x768 window shows Plots and Data once training
starts, and the dock gets short just then.

Every settings edit is a ``SetTraining`` command pushed through the window's undo stack (so it is saved
in the file and undoable); the editors follow the document back on undo/redo. "Batch size" is the dataset
node's own ``batch_size`` (what each training step draws by: ``core.nodegraph.model.batch_size``), so its edit is
the node's parameter edit ("data: batch_size set to 16"); without a dataset node, or with ones that disagree, the
field is disabled and its tooltip says why. A hyperparameter changed
while training is applied to the live optimizer by the trainer (momentum and Adam moments are kept) and
marked on the plots. Stop conditions (loss below, patience and the loss it watches, NaN) go to the trainer's
``StopConditions``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.nodegraph.model import batch_size as batches
from core.nodegraph.model import commands
from core.nodegraph.model.names import node_label
from core.nodegraph.model.training_settings import RANGES
from core.nodegraph.training import holdout
from core.nodegraph.training.runs import StopConditions
from gui import format as fmt
from gui.dock_panels import FittingScroll, compact
from gui.format import sentence
from gui.number_spin_box import FloatSpinBox, IntSpinBox, select_whole, settle
from gui.refusal_note import add_refusal_row
from gui.training.device_selector import DeviceSelector
from gui.training.status_line import StatusLine
from gui.training.step_mode import step_mode_words
from gui.undo_keys import DocumentUndoKeys

if TYPE_CHECKING:
    from core.nodegraph.model.commands import Command
    from core.nodegraph.model.document import Graph, GraphEvent
    from gui.training.trainer import Trainer

__all__ = ["TrainPanel", "OPTIMIZERS", "SCHEDULES", "TIPS"]

# optimizer -> the hyperparameters the panel edits (others keep core.optim's defaults)
OPTIMIZERS = {"SGD": ("lr", "momentum", "nesterov", "weight_decay"), "Adam": ("lr", "weight_decay"),
              "AdamW": ("lr", "weight_decay"), "RMSprop": ("lr", "momentum", "weight_decay"),
              "Adagrad": ("lr", "weight_decay")}
SCHEDULES = ("none", "StepLR", "ExponentialLR", "CosineAnnealingLR")

_W = TypeVar("_W", bound=QWidget)


TIPS = {  # what each training control does, for the status bar and the Train panel's buttons
    "train": "Run the training loop (zero_grad, forward, loss, backward, optimizer step) for the set steps",
    "pause_training": "Stop training after the step in progress",
    "step": "One training step now: zero_grad, forward, loss, backward, optimizer step",
    "reset_training": "Re-initialise the parameters and start a new run (the plots keep the old one)",
}


def _never_started(info: dict[str, Any]) -> bool:
    """A Train that ended before its first step (refused: no parameters; or that step failed): no progress to
    show, "0 / 100 steps · 0 steps/s" and an empty bar above the refusal read as a run that began and stalled."""
    return info.get("state") == "idle" and info["total"] > 0 and info["done"] == 0


def _say(line: QLabel | StatusLine, text: str) -> None:
    """Set a progress or message line, shown only while it says something (empty, it left a blank band)."""
    line.setText(text)
    if line.isHidden() == bool(text):  # (a change of visibility only: a progress update stays a repaint)
        line.setVisible(bool(text))


def _named(widget: _W, name: str) -> _W:
    """``widget`` with the objectName ``name`` (PySide6's stubs know no property keywords in constructors)."""
    widget.setObjectName(name)
    return widget


def _spin(lo: float, hi: float, decimals: int, step: float, name: str) -> FloatSpinBox:
    w = FloatSpinBox()
    w.setRange(lo, hi)
    w.setDecimals(decimals)
    w.setSingleStep(step)
    w.setObjectName(name)
    w.setKeyboardTracking(False)
    return w


def _shows_its_value(field: QWidget) -> bool:
    """True when a number field shows its value (no typed text waiting for Return, no refused text)."""
    if isinstance(field, IntSpinBox):
        return field.lineEdit().text() == field.textFromValue(field.value())
    box = cast(FloatSpinBox, field)  # DocumentUndoKeys watches the number fields only
    return box.lineEdit().text() == box.textFromValue(box.value())


def _int_spin(lo: float, hi: float, step: int, name: str) -> IntSpinBox:
    """A whole-number box over a RANGES entry (its bounds are ints for counts)."""
    w = IntSpinBox()
    w.setRange(int(lo), int(hi))
    w.setSingleStep(step)
    w.setObjectName(name)
    w.setKeyboardTracking(False)
    return w


class TrainPanel(QWidget):
    train_refused = Signal(str)  # a line for the status bar: why Train did not start (a field holds refused text)
    undo_requested = Signal()  # Ctrl+Z in a number field that shows its applied value: undo the document's last edit
    redo_requested = Signal()  # Ctrl+Shift+Z or Ctrl+Y there: redo

    def __init__(self, trainer: Trainer, edit: Callable[[Command], object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trainPanel")
        self.trainer, self.edit = trainer, edit
        self.graph: Graph = trainer.bridge.graph
        self._syncing = False
        self.refusals: dict[FloatSpinBox | IntSpinBox, QLabel] = {}  # each number field's refusal line
        self.field_names: dict[FloatSpinBox | IntSpinBox, str] = {}  # each number field's row label
        # a number field keeps the focus after Return and claims the undo keys for its own text, so Ctrl+Z after
        # "Training: lr set to 0.1" did nothing there: once the field shows its value, the keys undo the document
        self.undo_keys = DocumentUndoKeys(_shows_its_value, self.undo_requested.emit, self.redo_requested.emit, self)
        self._build()
        trainer.state_changed.connect(self._on_state)
        trainer.progress.connect(self.show_progress)
        trainer.stopped.connect(lambda stop: _say(self.message, sentence(stop["message"])))
        self.graph.subscribe(self._on_graph_event)
        self.sync()

    # ----- construction -------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.loss = _named(QComboBox(), "trainLoss")
        self.optimizer = _named(QComboBox(), "trainOptimizer")
        self.optimizer.addItems(list(OPTIMIZERS))
        # the ranges are core.nodegraph.model.training_settings.RANGES: what the file loader lets into a document
        self.lr = _spin(*RANGES["lr"], 6, 0.001, "trainLr")  # lr=0 is valid (PyTorch refuses only < 0)
        self.momentum = _spin(*RANGES["momentum"], 3, 0.05, "trainMomentum")
        self.nesterov = _named(QCheckBox("Nesterov"), "trainNesterov")
        self.weight_decay = _spin(*RANGES["weight_decay"], 5, 0.0001, "trainWeightDecay")
        self.schedule = _named(QComboBox(), "trainSchedule")
        self.schedule.addItems(list(SCHEDULES))
        self.gamma = _spin(*RANGES["gamma"], 3, 0.05, "trainGamma")
        self.step_size = _int_spin(*RANGES["step_size"], 10, "trainStepSize")
        self.batch_size = _int_spin(*RANGES["batch_size"], 1, "trainBatchSize")
        self.steps = _int_spin(*RANGES["steps"], 100, "trainSteps")
        self.seed = _int_spin(*RANGES["seed"], 1, "trainSeed")
        self.val_every = _int_spin(*RANGES["val_every"], 5, "trainValEvery")
        self.val_every.setToolTip("steps between measurements of the dataset's validation split (val_fraction)")
        self.device = DeviceSelector()
        self.loss_below = _spin(*RANGES["loss_below"], 5, 0.01, "stopLossBelow")
        self.patience = _int_spin(*RANGES["patience"], 10, "stopPatience")
        self.watch = _named(QComboBox(), "stopWatch")
        self.watch.addItem("validation loss", "val_loss")
        self.watch.addItem("training loss", "loss")
        self.watch.setToolTip("the loss that must improve within the patience: the validation loss (measured on the "
                              "dataset's held-out rows every 'Validate every' steps) falls back to the training "
                              "loss when there is no split")
        self.stop_nan = _named(QCheckBox("stop on NaN/Inf"), "stopOnNan")
        self.stop_nan.setChecked(True)
        self.message = _named(QLabel(""), "trainMessage")  # why training stopped
        self.message.setWordWrap(True)
        common, more = QFormLayout(), QFormLayout()  # what most runs change; the rest, scrolling under the buttons
        more.addRow(_named(QLabel("<b>More settings</b>"), "trainMoreSettings"))
        for form, rows in ((common, (("Optimizer", self.optimizer), ("Learning rate", self.lr), ("Steps", self.steps))),
                           (more, (("Loss node", self.loss), ("Momentum", self.momentum), ("", self.nesterov),
                                   ("Weight decay", self.weight_decay), ("LR schedule", self.schedule),
                                   ("Gamma", self.gamma), ("Step size", self.step_size),
                                   ("Batch size", self.batch_size), ("Seed", self.seed),
                                   ("Validate every (0: off)", self.val_every), ("Device", self.device),
                                   ("Stop below loss (0: off)", self.loss_below),
                                   ("Stop after no improvement (0: off)", self.patience),
                                   ("No improvement in", self.watch), ("", self.stop_nan)))):
            self._add_rows(form, rows)
        self._build_layout(common, more)
        compact(self)  # labels wrap, buttons may be narrow: the side column needs no sideways scrolling
        self._connect_editors()
        self._on_state("idle")

    def _add_rows(self, form: QFormLayout, rows: tuple[tuple[str, QWidget], ...]) -> None:
        for label, w in rows:
            if w is self.watch:  # its box under the label, the column's whole width: read whole, never cut off
                form.addRow(QLabel(label))  # ('training loss (no validation split)')
                form.addRow(w)
            else:
                form.addRow(label, w)
            if isinstance(w, (FloatSpinBox, IntSpinBox)):  # typed text the field refuses: kept, and why, at it
                self._add_refusal_row(form, w)
                self.field_names[w] = label
                self.undo_keys.watch(w)

    def _build_layout(self, common: QFormLayout, more: QFormLayout) -> None:
        """Optimizer, learning rate and steps, the buttons, progress and messages stay in view; the other settings
        scroll under a "More settings" heading (a 1366x768 window with Plots open leaves the dock a third of its
        height)."""
        buttons = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        slots: tuple[tuple[str, Callable[[], object]], ...] = (
            ("Train", self.train), ("Pause", self.trainer.pause), ("Step", self.trainer.step),
            ("Reset", self.trainer.reset))
        tips = {"Train": "train", "Pause": "pause_training", "Step": "step", "Reset": "reset_training"}
        for name, slot in slots:
            b = _named(QPushButton(name), f"train{name}Button")
            b.setToolTip(TIPS[tips[name]] + {"Train": " (Ctrl+T)", "Pause": " (F6)"}.get(name, ""))
            b.clicked.connect(slot)
            buttons.addWidget(b)
            self.buttons[name] = b
        self.progress_bar = _named(QProgressBar(), "trainProgress")
        self.progress_label = StatusLine(objectName="trainProgressLabel", wrap=True)  # a QLabel: relayouts
        # which path the steps took, captured or eager: words that wrap (an eager step's reason, "an in-place node
        # changes tensors as it runs", was cut even 1920 wide); they change a few times a run, a relayout each
        self.step_mode = _named(QLabel(""), "trainStepMode")
        self.step_mode.setWordWrap(True)
        self.step_mode.setToolTip("Replayed: after the first steps, each step replays the ops the forward pass "
                                  "recorded (core.compile, a captured step) instead of running every node's Python "
                                  "again; the numbers are the same, bit for bit. Step by step: every node runs (an "
                                  "eager step), as a single Step and a run's last step always do.")
        settings = _named(QWidget(), "trainSettings")
        settings.setLayout(more)
        more.setContentsMargins(0, 0, 0, 0)
        self.settings_scroll = FittingScroll(settings, "trainSettings")  # the settings scroll, the controls stay
        self.settings_scroll.setMinimumHeight(40)  # a window half a small screen high still fits
        layout = QVBoxLayout(self)
        layout.addLayout(common)
        layout.addLayout(buttons)
        for w in (self.progress_bar, self.progress_label, self.step_mode, self.message):
            layout.addWidget(w)
        for line in (self.progress_label, self.step_mode, self.message):  # empty: no blank band above the settings
            line.setVisible(False)
        self.progress_bar.setVisible(False)  # until a run has steps: empty, it read as a blank text field
        layout.addWidget(self.settings_scroll, 1)

    def _add_refusal_row(self, form: QFormLayout, box: FloatSpinBox | IntSpinBox) -> None:
        """A red line under ``box``'s row, shown while the box keeps text it refused (as the Inspector's)."""
        box.keep_refused_text()
        self.refusals[box] = add_refusal_row(form, box)

    def train(self) -> None:
        """Train (the button, Run ▸ Train, Ctrl+T): numbers typed but not applied yet are applied first; while a
        field holds text it refused, nothing starts, the field takes the focus and ``train_refused`` says why in the
        field's own words ("Can't train: Learning rate: can't read 'abc' (type a number)")."""
        refused = [box for box in self.refusals if box.isEnabled() and not settle(box)]
        if refused:
            box = refused[0]
            box.setFocus()
            why = self.refusals[box].text()  # the refusal line under the field, as it shows it
            self.train_refused.emit(f"Can't train: {self.field_names[box]}: {why[:1].lower()}{why[1:]}")
            return
        self.trainer.train()

    def _connect_editors(self) -> None:
        self.loss.activated.connect(lambda _i: self._set("loss", self.loss.currentData()))
        self.optimizer.activated.connect(lambda _i: self._set_optimizer())
        for w in (self.lr, self.momentum, self.weight_decay):
            w.valueChanged.connect(lambda _v: self._set_optimizer_params())
        self.nesterov.toggled.connect(lambda _v: self._set_optimizer_params())
        self.schedule.activated.connect(lambda _i: self._set_schedule())
        self.gamma.valueChanged.connect(lambda _v: self._set_schedule())
        self.step_size.valueChanged.connect(lambda _v: self._set_schedule())
        self.batch_size.valueChanged.connect(self._set_batch_size)
        self.steps.valueChanged.connect(lambda v: self._set("steps", v))
        self.seed.valueChanged.connect(lambda v: self._set("seed", v))
        self.val_every.valueChanged.connect(lambda v: self._set("val_every", v))
        self.device.device_chosen.connect(self._set_device)
        self.loss_below.valueChanged.connect(self._set_stops)
        self.patience.valueChanged.connect(self._set_stops)
        self.watch.activated.connect(self._set_stops)
        self.stop_nan.toggled.connect(self._set_stops)

    # ----- the document ----------------------------------------------------------------------------------------
    def set_graph(self, graph: Graph) -> None:
        self.graph.unsubscribe(self._on_graph_event)
        self.graph = graph
        graph.subscribe(self._on_graph_event)
        self.sync()
        for box in self.refusals:  # refused for the last document: "-1 is outside" stood under the next one's 0.01
            box.refusal.revert()

    def _on_graph_event(self, event: GraphEvent) -> None:
        if event.kind == "training_changed":
            shown = (self.optimizer.currentText(), self.optimizer_params())
            self.sync()
            self._retuned_from(*shown)
        elif event.kind in ("node_added", "node_removed", "node_changed", "reset"):
            self.sync()
        elif event.kind == "param_changed" and event.detail == "batch_size":
            self._syncing = True
            try:
                self._sync_batch_size()
            finally:
                self._syncing = False
        elif event.kind in ("edge_added", "edge_removed") or (event.kind == "param_changed"
                                                              and event.detail == "val_fraction"):
            self._show_watch()

    def sync(self) -> None:
        """Show the document's training settings (without writing them back); a field whose text this changes (an
        undo while it has the focus) shows the new value whole selected, as after Return."""
        t = self.graph.training
        self._syncing = True
        numbers = [*self.findChildren(FloatSpinBox), *self.findChildren(IntSpinBox)]
        shown = [box.text() for box in numbers]
        try:
            self.loss.clear()
            self.loss.addItem("(last node)", None)
            labels = {nid: node_label(self.graph, nid) for nid in self.graph.nodes}
            twice = {x for x, k in Counter(labels.values()).items() if k > 1}  # counted once: 20,000 nodes
            for nid, label in labels.items():  # the title; the id only tells apart nodes of one title
                self.loss.addItem(f"{label} ({nid})" if label in twice else label, nid)
            self.loss.setCurrentIndex(max(self.loss.findData(t.get("loss")), 0))
            self.optimizer.setCurrentText(t.get("optimizer") or "SGD")
            p = t.get("optimizer_params") or {}
            self.lr.setValue(p.get("lr", 0.001))
            self.momentum.setValue(p.get("momentum", 0.0))
            self.nesterov.setChecked(bool(p.get("nesterov", False)))
            self.weight_decay.setValue(p.get("weight_decay", 0.0))
            s = t.get("schedule") or {}
            self.schedule.setCurrentText(s.get("type", "none"))
            self.gamma.setValue(s.get("gamma", 0.5))
            self.step_size.setValue(s.get("step_size", 100))
            self._sync_batch_size()
            self.steps.setValue(int(t.get("steps") or 100))
            self.seed.setValue(int(t.get("seed") or 0))
            self.val_every.setValue(holdout.val_every(self.graph))
            self.device.set_device(t.get("device") or "cpu")
            self._sync_stops(t.get("stop"))
            self._show_relevant()
            self._show_watch()
        finally:
            self._syncing = False
        for box, text in zip(numbers, shown, strict=True):
            if box.text() != text:
                select_whole(box)

    def _sync_batch_size(self) -> None:
        """Show the dataset nodes' batch size; disabled, with the reason as tooltip, where there is no one size."""
        size, why = batches.batch_size(self.graph), batches.why_fixed(self.graph)
        self.batch_size.setValue(size if size is not None else 0)
        self.batch_size.setEnabled(why is None)
        self.batch_size.setToolTip(why or "rows per training step (0: the whole set): the dataset node's batch_size")

    def _set_batch_size(self, value: int) -> None:
        if self._syncing or batches.why_fixed(self.graph) is not None or batches.batch_size(self.graph) == value:
            return
        self.edit(batches.set_batch_size(self.graph, value))

    def _show_relevant(self) -> None:
        names = OPTIMIZERS.get(self.optimizer.currentText(), ())
        self.momentum.setEnabled("momentum" in names)
        self.nesterov.setEnabled("nesterov" in names)
        kind = self.schedule.currentText()
        self.gamma.setEnabled(kind in ("StepLR", "ExponentialLR"))
        self.step_size.setEnabled(kind == "StepLR")

    def _show_watch(self) -> None:
        """Say on the validation choice whether this graph measures a validation loss at all."""
        loss = self.graph.training.get("loss")
        if loss not in self.graph.nodes:
            order = self.graph.topological_order()
            loss = order[-1] if order else None
        measured = holdout.measures(self.graph, loss)
        self.watch.setItemText(0, "validation loss" if measured else "training loss (no validation split)")
        self.watch.setEnabled(self.patience.value() > 0)

    def _set(self, key: str, value: object) -> None:
        if self._syncing or self.graph.training.get(key) == value:
            return
        self.edit(commands.SetTraining(key, value))

    def optimizer_params(self) -> dict[str, float | bool]:
        names = OPTIMIZERS[self.optimizer.currentText()]
        values = {"lr": self.lr.value(), "momentum": self.momentum.value(), "nesterov": self.nesterov.isChecked(),
                  "weight_decay": self.weight_decay.value()}
        out = {k: values[k] for k in names if k == "lr" or values[k]}
        if out.get("nesterov") and not out.get("momentum"):
            out.pop("nesterov")
        return out

    def _set_optimizer(self) -> None:
        if self._syncing:
            return
        old, new = self.graph.training.get("optimizer"), self.optimizer.currentText()
        self._set("optimizer", new)
        self._set("optimizer_params", self.optimizer_params())
        self._show_relevant()
        if old != new:  # the next step builds the new optimizer: the plots mark where, the legend names both
            self.trainer.switch_optimizer()

    def _retuned_from(self, optimizer: str, old: dict[str, Any]) -> None:
        """The document's optimizer arguments changed under the fields (Undo, Redo): retune the live optimizer and
        mark the plots, as typing them does (Ctrl+Z of lr 0.1 left 'lr 0.01 → 0.1' as the run's last marker)."""
        new = self.optimizer_params()
        if optimizer == self.optimizer.currentText() and old != new:
            self.trainer.retune(", ".join(f"{k} {old.get(k, '-')} → {v}" for k, v in new.items() if old.get(k) != v))

    def _set_optimizer_params(self) -> None:
        if self._syncing:
            return
        old = dict(self.graph.training.get("optimizer_params") or {})
        new = self.optimizer_params()
        if old == new:
            return
        self._set("optimizer_params", new)
        changes = ", ".join(f"{k} {old.get(k, '-')} → {v}" for k, v in new.items() if old.get(k) != v)
        self.trainer.retune(changes)

    def _set_schedule(self) -> None:
        if self._syncing:
            return
        kind = self.schedule.currentText()
        value: dict[str, str | float] | None = None
        if kind == "StepLR":
            value = {"type": kind, "step_size": self.step_size.value(), "gamma": self.gamma.value()}
        elif kind == "ExponentialLR":
            value = {"type": kind, "gamma": self.gamma.value()}
        elif kind == "CosineAnnealingLR":
            value = {"type": kind, "T_max": self.steps.value()}
        self._set("schedule", value)
        self._show_relevant()

    def _set_device(self, device: str) -> None:
        self._set("device", device)
        self.trainer.set_device(device)

    def _set_stops(self, *_args: object) -> None:
        """The stop editors changed: the trainer follows at once, the document keeps them (undoable, saved)."""
        self.watch.setEnabled(self.patience.value() > 0)
        if self._syncing:
            return
        value = {"loss_below": self.loss_below.value() or None, "patience": self.patience.value() or None,
                 "stop_on_nan": self.stop_nan.isChecked(), "watch": self.watch.currentData()}
        self.trainer.stop_conditions.apply(value)
        if StopConditions.from_settings(self.graph.training.get("stop")).settings() != value:
            self.edit(commands.SetTraining("stop", value))

    def _sync_stops(self, settings: dict[str, Any] | None) -> None:
        stop = self.trainer.stop_conditions
        stop.apply(settings)
        self.loss_below.setValue(stop.loss_below or 0.0)
        self.patience.setValue(stop.patience or 0)
        self.stop_nan.setChecked(stop.stop_on_nan)
        self.watch.setCurrentIndex(max(self.watch.findData(stop.watch), 0))

    # ----- state and progress ---------------------------------------------------------------------------------
    def _on_state(self, state: str) -> None:
        self.buttons["Train"].setEnabled(state != "training")
        self.buttons["Pause"].setEnabled(state == "training")
        if state == "training":
            _say(self.message, "")

    def show_progress(self, info: dict[str, Any]) -> None:
        """Train's bar and "37 / 100 steps · loss 0.5 · ...", Step's "3 steps · loss 0.5" (the run's steps: it left
        the line empty), nothing after Reset or another document."""
        stepped = not info["total"] and info["done"] > 0  # Step on its own, no Train's count
        if not info["total"] and not stepped:  # a new run (Reset) or another document: nothing trained yet
            self.progress_bar.reset()
            self.progress_bar.setVisible(False)
            for line in (self.progress_label, self.step_mode, self.message):
                _say(line, "")
            return
        loss = info.get("loss")  # the latest step's, from the session
        shown = f" · loss {fmt.scalar(loss)}" if loss is not None else ""  # as the canvas writes it
        if stepped or _never_started(info):  # a Train refused or failing at once shows no progress, only why
            self.progress_bar.setVisible(False)  # no steps asked for, or none done: nothing to fill
            n = info.get("run_steps") or info["done"]  # a count, as Train's (the plots number steps from 0)
            _say(self.progress_label, f"{n} step{'s' if n != 1 else ''}{shown}" if n else "")
        else:
            self._show_count(info, shown)
        ran = info.get("step_mode") and info["done"] > 0  # a run whose first step failed took no path worth naming
        _say(self.step_mode, step_mode_words(info["step_mode"], info.get("replayed_before", (0, 0))) if ran else "")

    def _show_count(self, info: dict[str, Any], shown: str) -> None:
        """Train's bar and line: steps done of those asked for, the loss ``shown``, the rate and the time left."""
        total = max(info["total"], 1)
        self.progress_bar.setVisible(True)  # (a change of visibility only when hidden)
        self.progress_bar.setRange(0, total)
        self.progress_bar.setValue(min(info["done"], total))
        eta = info["eta"]
        left = "" if info.get("state", "training") != "training" else (  # paused or done: no time left to tell
            f" · {eta:.1f} s left" if eta is not None else " · —")
        rate = f" · {info['rate']:.0f} steps/s" if info["rate"] or info.get("state", "training") == "training" else ""
        _say(self.progress_label, f"{info['done']} / {info['total']} steps{shown}{rate}{left}")
