"""Training runs as plain data: per-step series, smoothing, decimation and CSV export.

The training panel and plots draw what this module keeps; nothing here knows Qt. A ``RunHistory`` holds
every run since the document was opened: ``Reset`` starts a new ``Run`` and the old ones stay, each with
the training settings it started with and markers where a hyperparameter changed during training.
Series grow in amortised O(1) (``_Buffer`` doubles its capacity) so thousands of steps per second cost
little; ``decimate`` keeps each bucket's min and max so a plot of a million steps still shows spikes.
``RunHistory.state``/``restore`` give the runs as file data: a saved session's plots come back when it is opened.
When training ends by itself is ``training.stop``'s (its names are re-exported here, where callers found them).
"""

from __future__ import annotations

import copy
import csv
import io
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from core.nodegraph.training.stop import (
    Metrics,
    StopConditions,
    StopInfo,
    StopSession,
    first_non_finite,
)

__all__ = ["Metrics", "Run", "RunHistory", "StopConditions", "StopInfo", "StopSession", "VAL_SERIES", "decimate",
           "ema", "first_non_finite"]

VAL_SERIES = ("val_loss", "val_accuracy")  # measured on the validation split every few steps only

Floats = np.ndarray | Sequence[float | None]  # numbers, None standing for NaN


class _Buffer:
    """A growable float64 array."""

    def __init__(self) -> None:
        self.data = np.empty(64)
        self.n = 0

    def append(self, value: float) -> None:
        if self.n == len(self.data):
            self._grow(self.n + 1)
        self.data[self.n] = value
        self.n += 1

    def extend(self, values: Floats) -> None:
        """Append a batch (an array, or a list where None stands for NaN)."""
        array = np.asarray(values, dtype=np.float64)
        end = self.n + len(array)
        if end > len(self.data):
            self._grow(end)
        self.data[self.n:end] = array
        self.n = end

    def _grow(self, size: int) -> None:
        capacity = len(self.data)
        while capacity < size:
            capacity *= 2
        data = np.empty(capacity)
        data[:self.n] = self.data[:self.n]
        self.data = data

    def view(self) -> np.ndarray:
        return self.data[:self.n]


def ema(values: npt.ArrayLike, alpha: float = 0.05) -> np.ndarray:
    """Exponential moving average (bias-corrected like TensorBoard's, so it starts at the first value);
    NaN/Inf entries are skipped (the average carries over them)."""
    array = np.asarray(values, dtype=np.float64)
    out = np.empty_like(array)
    avg, weight = 0.0, 0.0
    for i, v in enumerate(array):
        if math.isfinite(v):
            avg = (1 - alpha) * avg + alpha * v
            weight = (1 - alpha) * weight + alpha
        out[i] = avg / weight if weight > 0 else math.nan
    return out


def decimate(x: npt.ArrayLike, y: npt.ArrayLike, max_points: int = 2000) -> tuple[np.ndarray, np.ndarray]:
    """At most about ``max_points`` points of ``(x, y)``, keeping each bucket's min and max of ``y`` in step
    order (so spikes survive). Short series come back unchanged."""
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    n = len(xs)
    if n <= max_points:
        return xs, ys
    buckets = max(1, max_points // 2)
    size = n // buckets
    m = size * buckets
    yb = np.where(np.isfinite(ys[:m]), ys[:m], np.nan).reshape(buckets, size)
    finite = np.isfinite(yb)
    lo = np.argmin(np.where(finite, yb, np.inf), axis=1)
    hi = np.argmax(np.where(finite, yb, -np.inf), axis=1)
    first, second = np.minimum(lo, hi), np.maximum(lo, hi)
    base = np.arange(buckets) * size
    pairs = np.stack([base + first, base + second], axis=1)
    keep = np.ones(pairs.shape, dtype=bool)
    keep[:, 1] = second != first  # a bucket whose min and max are one sample keeps it once
    idx = np.concatenate([pairs[keep], np.arange(m, n)])  # already in step order: no sort needed
    return xs[idx], ys[idx]


class Run:
    """One training run: the settings it started with, a step axis and named series of the same length.

    Series names: ``loss``, ``lr``, ``accuracy``, ``grad_norm/<param>``, ``update_ratio/<param>``, and the
    sparse ``val_loss``/``val_accuracy`` (``VAL_SERIES``: kept only for the steps that measured them, read
    with ``sparse``; ``series`` gives them NaN elsewhere); ``markers`` is a list of ``(step, text)``
    (hyperparameter changes, stop messages).
    """

    BATCH = 1024  # metrics waiting at most, so a run nobody reads holds no more than this many dicts

    def __init__(self, number: int, settings: dict[str, Any], smoothing: float = 0.05) -> None:
        self.number = number
        self.settings = copy.deepcopy(settings)
        self.smoothing = smoothing
        self._steps = _Buffer()
        self._series: dict[str, _Buffer] = {}
        self._smooth = _Buffer()
        self._avg = (0.0, 0.0)
        self._sparse: dict[str, tuple[_Buffer, _Buffer]] = {}  # val series: name -> (row indices, values)
        self._pending: list[Metrics] = []  # metrics added since the last read, spread into the series on demand
        self.markers: list[tuple[int, str]] = []
        # (steps taken when it took over, its settings) for each optimizer the run used, the first one at 0
        self._optimizers: list[tuple[int, dict[str, Any]]] = [(0, self.settings)]

    @property
    def label(self) -> str:
        """``run 1: Adam(lr=0.05)``; a run whose optimizer was switched names each that ran, in order
        (``run 1: Adam(lr=0.05) → SGD(lr=0.1)``; more than three: the first, ``…`` and the last)."""
        names = [_optimizer_name(settings) for _rows, settings in self._optimizers]
        if len(names) > 3:
            names = [names[0], "…", names[-1]]
        return f"run {self.number}: {' → '.join(names)}"

    def switch_optimizer(self, settings: dict[str, Any]) -> None:
        """The next steps run under the optimizer of the training ``settings`` (chosen mid-run): mark the plots
        ('optimizer Adam → SGD') and name it in the label. A switch before any step of the one it replaces
        replaces it (switching back drops both)."""
        old = self._optimizers[-1][1]
        if _optimizer_name(settings) == _optimizer_name(old):
            return
        self.mark(f"optimizer {old.get('optimizer', 'SGD')} → {settings.get('optimizer', 'SGD')}")
        self.use_optimizer(settings)

    def use_optimizer(self, settings: dict[str, Any]) -> None:
        """The next steps run under the optimizer and hyperparameters of the training ``settings`` (what the
        session builds or retunes its optimizer from for each step): the label names them from here on when they
        differ from the last ones it names (``run 1: SGD(lr=0.1) → SGD(lr=0.05)`` after a new learning rate, set
        mid-run or between two Train presses of one run, or undone). Settings replaced before any step under them
        are dropped (back to the last ones: nothing new)."""
        new = {k: copy.deepcopy(settings.get(k)) for k in _OPTIMIZER_KEYS}
        if _optimizer_name(new) == _optimizer_name(self._optimizers[-1][1]):
            return
        if len(self._optimizers) > 1 and self._optimizers[-1][0] == len(self):
            self._optimizers.pop()  # the last ones ran no step
            if _optimizer_name(self._optimizers[-1][1]) == _optimizer_name(new):
                return
        self._optimizers.append((len(self), new))

    def __len__(self) -> int:
        return self._steps.n + len(self._pending)

    def add(self, metrics: Metrics) -> None:
        """Append one step's metrics (a ``Session.train`` dict); missing values become NaN.

        O(1) and cheap: the dict waits in a batch that the next read (or every ``BATCH`` steps) spreads into
        the series in one go, so recording costs a training step next to nothing."""
        self._pending.append(metrics)
        if len(self._pending) >= self.BATCH:
            self._flush()

    def _flush(self) -> None:
        """Spread the waiting metrics into the series: a column per name, series first seen now get NaN before."""
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        n, k = self._steps.n, len(batch)
        self._steps.extend([m["step"] for m in batch])
        columns: dict[str, Floats] = {name: [m.get(name) for m in batch] for name in ("loss", "lr", "accuracy")}
        first = dict.fromkeys(columns, (0, 0))  # name -> (row first reported, group): series are made in that order
        for rank, group in enumerate(("grad_norm", "update_ratio"), 1):
            dicts = [m.get(group) or {} for m in batch]
            keys = list(dicts[0])
            if all(list(d) == keys for d in dicts):  # the usual batch: every step names the same parameters
                table = np.array([list(d.values()) for d in dicts], dtype=np.float64).reshape(k, len(keys))
                for j, key in enumerate(keys):
                    first.setdefault(f"{group}/{key}", (0, rank))
                    columns[f"{group}/{key}"] = table[:, j]
                continue
            for row, d in enumerate(dicts):
                for key in d:
                    first.setdefault(f"{group}/{key}", (row, rank))
            for name in [name for name in first if name.startswith(group + "/")]:
                columns[name] = [d.get(name[len(group) + 1:]) for d in dicts]
        for name in sorted(first, key=first.__getitem__):  # stable: a step's dict order within a group
            buf = self._series.get(name)
            if buf is None:
                buf = self._series[name] = _Buffer()
                buf.extend(np.full(n, math.nan))
            buf.extend(columns[name])
        for buf in self._series.values():
            if buf.n == n:  # not reported in this batch
                buf.extend(np.full(k, math.nan))
        for name in VAL_SERIES:
            rows = [i for i, m in enumerate(batch) if m.get(name) is not None]
            if rows:
                sparse_rows, values = self._sparse.setdefault(name, (_Buffer(), _Buffer()))
                sparse_rows.extend(np.asarray(rows, dtype=np.float64) + n)
                values.extend([batch[i][name] for i in rows])
        self._smooth.extend(self._smoothed(columns["loss"]))

    def _smoothed(self, losses: Floats) -> list[float]:
        """The loss's running (bias-corrected) average after each of ``losses``, carried on from the last batch."""
        (avg, weight), a = self._avg, self.smoothing
        out: list[float] = []
        for loss in losses:
            if loss is not None and math.isfinite(loss):
                avg, weight = (1 - a) * avg + a * loss, (1 - a) * weight + a
            out.append(avg / weight if weight > 0 else math.nan)
        self._avg = (avg, weight)
        return out

    def steps(self) -> np.ndarray:
        self._flush()
        return self._steps.view()

    def series(self, name: str) -> np.ndarray:
        """The named series (``smoothed`` is the loss's moving average); all NaN if never reported."""
        self._flush()
        if name == "smoothed":
            return self._smooth.view()
        if name in self._sparse:
            rows, values = self._sparse[name]
            out = np.full(len(self), math.nan)
            out[rows.view().astype(np.intp)] = values.view()
            return out
        buf = self._series.get(name)
        return buf.view() if buf is not None else np.full(len(self), math.nan)

    def sparse(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """``(steps, values)`` of a val series at the steps that measured it (empty arrays if none did)."""
        self._flush()
        if name not in self._sparse:
            return np.empty(0), np.empty(0)
        rows, values = self._sparse[name]
        return self.steps()[rows.view().astype(np.intp)], values.view()

    def names(self) -> list[str]:
        self._flush()
        return list(self._series) + list(self._sparse)

    def mark(self, text: str) -> None:
        """A marker at the latest step (or step 0 before any)."""
        step = int(self.steps()[-1]) if len(self) else 0
        self.markers.append((step, text))

    def last(self, name: str = "loss") -> float:
        data = self.series(name)
        return float(data[-1]) if len(data) else math.nan

    def state(self) -> dict[str, Any]:
        """The run as file data (``RunHistory.state``): its step axis and every series as arrays, the sparse
        validation series as (rows, values), its markers and the optimizers it ran (what its legend names)."""
        self._flush()
        return {"number": self.number, "steps": self._steps.view().copy(),
                "series": {name: buf.view().copy() for name, buf in self._series.items()},
                "val": {name: [rows.view().copy(), values.view().copy()]
                        for name, (rows, values) in self._sparse.items()},
                "markers": [[int(step), str(text)] for step, text in self.markers],
                "optimizers": [[int(rows), {k: copy.deepcopy(settings.get(k)) for k in _OPTIMIZER_KEYS}]
                               for rows, settings in self._optimizers]}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Run:
        """A run as ``state`` saved it; the smoothed loss is computed again from its losses (the same average)."""
        optimizers = [(int(rows), dict(settings)) for rows, settings in state.get("optimizers") or []] or [(0, {})]
        run = cls(int(state["number"]), optimizers[0][1])
        steps = np.asarray(state["steps"], dtype=np.float64)
        run._steps.extend(steps)
        for name, values in state.get("series", {}).items():
            run._series[name] = buf = _Buffer()
            buf.extend(np.asarray(values, dtype=np.float64))
        for name, (rows, values) in state.get("val", {}).items():
            kept = run._sparse[name] = (_Buffer(), _Buffer())
            kept[0].extend(np.asarray(rows, dtype=np.float64))
            kept[1].extend(np.asarray(values, dtype=np.float64))
        run._smooth.extend(run._smoothed(run.series("loss")))
        run.markers = [(int(step), str(text)) for step, text in state.get("markers", [])]
        run._optimizers = [(0, run.settings), *optimizers[1:]]
        return run


_OPTIMIZER_KEYS = ("optimizer", "optimizer_params")  # the settings a run's legend names (``Run.label``)


def _optimizer_name(settings: dict[str, Any]) -> str:
    """``Adam(lr=0.05, betas=(0.9, 0.999))``: an optimizer and its settings, as a legend names them."""
    params = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in (settings.get("optimizer_params") or {}).items())
    return f"{settings.get('optimizer', 'SGD')}({params})"


class RunHistory:
    """Every run of a document, the last one being current."""

    def __init__(self) -> None:
        self.runs: list[Run] = []

    @property
    def current(self) -> Run | None:
        return self.runs[-1] if self.runs else None

    def new_run(self, settings: dict[str, Any]) -> Run:
        run = Run(self.runs[-1].number + 1 if self.runs else 1, settings)
        self.runs.append(run)
        return run

    def state(self) -> dict[str, Any]:
        """Every run that took a step, as file data: what the plots drew, saved with where training stood
        (``Session.training_position``'s ``history``) so a reopened document draws it again."""
        return {"runs": [run.state() for run in self.runs if len(run)]}

    def restore(self, state: dict[str, Any] | None) -> bool:
        """Take the runs ``state`` (a file's, ``state()``) saved in place of these; False when it held none (a
        file saved before the history was kept: the runs stay empty)."""
        self.runs = [Run.from_state(run) for run in (state or {}).get("runs", [])]
        return bool(self.runs)

    def to_csv(self) -> str:
        """All runs as CSV: ``run, step, <series...>`` with one row per step (empty cells for NaN)."""
        names = sorted({n for r in self.runs for n in r.names()})
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["run", "step", "smoothed", *names])
        for r in self.runs:
            cols = [r.series("smoothed")] + [r.series(n) for n in names]
            for i, step in enumerate(r.steps()):
                w.writerow([r.number, int(step)] + [_cell(c[i]) for c in cols])
        return out.getvalue()


def _cell(v: float) -> str:
    return "" if not math.isfinite(v) else repr(float(v))
