"""Training runs as plain data: per-step series, smoothing, decimation, stop conditions and CSV export.

The training panel and plots draw what this module keeps; nothing here knows Qt. A ``RunHistory`` holds
every run since the document was opened: ``Reset`` starts a new ``Run`` and the old ones stay, each with
the training settings it started with and markers where a hyperparameter changed during training.
Series grow in amortised O(1) (``_Buffer`` doubles its capacity) so thousands of steps per second cost
little; ``decimate`` keeps each bucket's min and max so a plot of a million steps still shows spikes.
"""

from __future__ import annotations

import copy
import csv
import io
import math

import numpy as np

__all__ = ["Run", "RunHistory", "StopConditions", "VAL_SERIES", "decimate", "ema", "first_non_finite"]

VAL_SERIES = ("val_loss", "val_accuracy")  # measured on the validation split every few steps only


class _Buffer:
    """A growable float64 array."""

    def __init__(self):
        self.data = np.empty(64)
        self.n = 0

    def append(self, value) -> None:
        if self.n == len(self.data):
            self.data = np.concatenate([self.data, np.empty(len(self.data))])
        self.data[self.n] = value
        self.n += 1

    def view(self) -> np.ndarray:
        return self.data[:self.n]


def ema(values, alpha: float = 0.05) -> np.ndarray:
    """Exponential moving average (bias-corrected like TensorBoard's, so it starts at the first value);
    NaN/Inf entries are skipped (the average carries over them)."""
    values = np.asarray(values, dtype=np.float64)
    out = np.empty_like(values)
    avg, weight = 0.0, 0.0
    for i, v in enumerate(values):
        if math.isfinite(v):
            avg = (1 - alpha) * avg + alpha * v
            weight = (1 - alpha) * weight + alpha
        out[i] = avg / weight if weight > 0 else math.nan
    return out


def decimate(x, y, max_points: int = 2000):
    """At most about ``max_points`` points of ``(x, y)``, keeping each bucket's min and max of ``y`` in step
    order (so spikes survive). Short series come back unchanged."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    n = len(x)
    if n <= max_points:
        return x, y
    buckets = max(1, max_points // 2)
    size = n // buckets
    m = size * buckets
    yb = np.where(np.isfinite(y[:m]), y[:m], np.nan).reshape(buckets, size)
    finite = np.isfinite(yb)
    lo = np.argmin(np.where(finite, yb, np.inf), axis=1)
    hi = np.argmax(np.where(finite, yb, -np.inf), axis=1)
    first, second = np.minimum(lo, hi), np.maximum(lo, hi)
    base = np.arange(buckets) * size
    idx = np.stack([base + first, base + second], axis=1).ravel()
    idx = np.unique(np.concatenate([idx, np.arange(m, n)]))
    return x[idx], y[idx]


class Run:
    """One training run: the settings it started with, a step axis and named series of the same length.

    Series names: ``loss``, ``lr``, ``accuracy``, ``grad_norm/<param>``, ``update_ratio/<param>``, and the
    sparse ``val_loss``/``val_accuracy`` (``VAL_SERIES``: kept only for the steps that measured them, read
    with ``sparse``; ``series`` gives them NaN elsewhere); ``markers`` is a list of ``(step, text)``
    (hyperparameter changes, stop messages).
    """

    def __init__(self, number: int, settings: dict, smoothing: float = 0.05):
        self.number = number
        self.settings = copy.deepcopy(settings)
        self.smoothing = smoothing
        self._steps = _Buffer()
        self._series: dict = {}
        self._smooth = _Buffer()
        self._avg = (0.0, 0.0)
        self._sparse: dict = {}  # val series: name -> (row indices, values)
        self.markers: list = []

    @property
    def label(self) -> str:
        s = self.settings
        params = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in (s.get("optimizer_params") or {}).items())
        return f"run {self.number}: {s.get('optimizer', 'SGD')}({params})"

    def __len__(self) -> int:
        return self._steps.n

    def add(self, metrics: dict) -> None:
        """Append one step's metrics (a ``Session.train`` dict); missing values become NaN."""
        n = self._steps.n
        self._steps.append(metrics["step"])
        flat = {"loss": metrics.get("loss"), "lr": metrics.get("lr"), "accuracy": metrics.get("accuracy")}
        for group in ("grad_norm", "update_ratio"):
            for k, v in (metrics.get(group) or {}).items():
                flat[f"{group}/{k}"] = v
        for name, value in flat.items():
            buf = self._series.get(name)
            if buf is None:
                buf = self._series[name] = _Buffer()
                for _ in range(n):
                    buf.append(math.nan)
            buf.append(math.nan if value is None else value)
        for buf in self._series.values():
            if buf.n == n:
                buf.append(math.nan)
        for name in VAL_SERIES:
            value = metrics.get(name)
            if value is not None:
                rows, values = self._sparse.setdefault(name, (_Buffer(), _Buffer()))
                rows.append(n)
                values.append(value)
        self._push_smoothed(flat["loss"])

    def _push_smoothed(self, loss) -> None:
        avg, weight = self._avg
        if loss is not None and math.isfinite(loss):
            a = self.smoothing
            avg, weight = (1 - a) * avg + a * loss, (1 - a) * weight + a
            self._avg = (avg, weight)
        self._smooth.append(avg / weight if weight > 0 else math.nan)

    def steps(self) -> np.ndarray:
        return self._steps.view()

    def series(self, name: str) -> np.ndarray:
        """The named series (``smoothed`` is the loss's moving average); all NaN if never reported."""
        if name == "smoothed":
            return self._smooth.view()
        if name in self._sparse:
            rows, values = self._sparse[name]
            out = np.full(len(self), math.nan)
            out[rows.view().astype(np.intp)] = values.view()
            return out
        buf = self._series.get(name)
        return buf.view() if buf is not None else np.full(len(self), math.nan)

    def sparse(self, name: str) -> tuple:
        """``(steps, values)`` of a val series at the steps that measured it (empty arrays if none did)."""
        if name not in self._sparse:
            return np.empty(0), np.empty(0)
        rows, values = self._sparse[name]
        return self.steps()[rows.view().astype(np.intp)], values.view()

    def names(self) -> list:
        return list(self._series) + list(self._sparse)

    def mark(self, text: str) -> None:
        """A marker at the latest step (or step 0 before any)."""
        step = int(self._steps.view()[-1]) if len(self) else 0
        self.markers.append((step, text))

    def last(self, name: str = "loss") -> float:
        data = self.series(name)
        return float(data[-1]) if len(data) else math.nan


class RunHistory:
    """Every run of a document, the last one being current."""

    def __init__(self):
        self.runs: list = []

    @property
    def current(self) -> Run | None:
        return self.runs[-1] if self.runs else None

    def new_run(self, settings: dict) -> Run:
        run = Run(len(self.runs) + 1, settings)
        self.runs.append(run)
        return run

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


def _cell(v) -> str:
    return "" if not math.isfinite(v) else repr(float(v))


class StopConditions:
    """When training should end by itself: loss below a value, no improvement for N steps, NaN/Inf loss."""

    def __init__(self, loss_below: float | None = None, patience: int | None = None, stop_on_nan: bool = True):
        self.loss_below, self.patience, self.stop_on_nan = loss_below, patience, stop_on_nan
        self.reset()

    def reset(self) -> None:
        self._best, self._since = math.inf, 0

    def check(self, metrics: dict) -> str | None:
        """A message saying why training stops after this step, or None to go on."""
        if "error" in metrics:
            return f"stopped: {metrics['error']}"
        loss = metrics.get("loss")
        if loss is None:
            return None
        if self.stop_on_nan and not math.isfinite(loss):
            return f"stopped at step {metrics['step']}: the loss is {loss} (try a smaller learning rate)"
        if self.loss_below is not None and loss < self.loss_below:
            return f"stopped at step {metrics['step']}: loss {loss:.4g} is below {self.loss_below:g}"
        if loss < self._best:
            self._best, self._since = loss, 0
        else:
            self._since += 1
            if self.patience is not None and self._since >= self.patience:
                return f"stopped at step {metrics['step']}: no improvement for {self.patience} steps"
        return None

    def stop_info(self, metrics: dict, session=None) -> dict | None:
        """``{"message", "node"}`` when training stops after this step, else None. ``node`` is the graph node
        to show: the one that raised the error, or for a NaN/Inf loss the first node (in ``session``'s
        topological order) that produced a non-finite value, found by the diagnostics."""
        message = self.check(metrics)
        if message is None:
            return None
        node = metrics.get("node")
        loss = metrics.get("loss")
        if node is None and session is not None and loss is not None and not math.isfinite(loss):
            node = first_non_finite(session)
            if node is not None:
                message = f"{message}; the first non-finite value comes from node {node}"
        return {"message": message, "node": node}


def first_non_finite(session) -> str | None:
    """The first node of ``session``'s last forward that turned finite inputs into NaN/Inf (or, failing that,
    the node of the first parameter with a non-finite gradient); None when every value is finite."""
    from core.nodegraph.diagnostics import Context  # noqa: PLC0415 - loaded only when training diverges
    from core.nodegraph.diagnostics.values import non_finite  # noqa: PLC0415

    try:
        return next((h.node_id for h in non_finite(Context(session, [])) if h.node_id), None)
    except Exception:  # noqa: BLE001 - a broken rule must not turn a stop into a crash
        return None
