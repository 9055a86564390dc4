"""When training ends by itself: loss below a value, no improvement for N steps, a NaN/Inf loss or an error.

``StopConditions`` judges each step's metrics (a ``Session.train`` dict) in order and says why training stops,
naming the graph node to show; ``first_non_finite`` finds the node where a diverged forward first turned finite
inputs into NaN/Inf. Plain data and numbers: nothing here knows Qt. (Split from ``training.runs``, which
re-exports these names.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from core.nodegraph.model.names import node_label
from core.nodegraph.model.numtext import scalar
from core.nodegraph.training.session_view import SessionView

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph, GraphEvent

__all__ = ["Metrics", "StopConditions", "StopInfo", "StopSession", "first_non_finite"]

Metrics = dict[str, Any]  # one training step's metrics (a ``Session.train`` dict)


class StopInfo(TypedDict):
    """Why training stops (``StopConditions.stop_info``) and the graph node to show, if any."""

    message: str
    node: str | None


class StopSession(SessionView, Protocol):
    """What the stop conditions use of the session (see ``session_view``); ``first_non_finite`` reads its values
    through the diagnostics' ``Context``."""

    @property
    def values(self) -> dict[str, dict[str, Any]]: ...
    def parameters(self) -> dict[str, Any]: ...


class StopConditions:
    """When training should end by itself: loss below a value, no improvement for N steps, NaN/Inf loss.

    "No improvement for N steps" watches ``watch``: ``"val_loss"`` (the default: the loss on the held-out rows,
    the meaningful early-stopping signal) or ``"loss"`` (the training loss). ``val_loss`` falls back to the
    training loss while the run measures none (no split on the loss's dataset, ``val_every`` 0): ``stop_info``
    asks the session's graph (``holdout.measures``) on its first step and again after an edit of the graph, and
    any step that reports a ``val_loss`` settles it too. Steps are counted either way; as the validation loss is
    measured every ``val_every`` steps, it is judged on those steps only (stopping once the best one is ``patience`` or
    more steps old).
    """

    WATCH = ("val_loss", "loss")

    def __init__(self, loss_below: float | None = None, patience: int | None = None, stop_on_nan: bool = True,
                 watch: str = "val_loss") -> None:
        if watch not in self.WATCH:
            raise ValueError(f"watch must be one of {', '.join(self.WATCH)}, not {watch!r}")
        self.loss_below, self.patience, self.stop_on_nan, self.watch = loss_below, patience, stop_on_nan, watch
        self.reset()

    _graph: Graph | None = None  # the document whose edits make ``stop_info`` ask again whether val_loss is measured

    @classmethod
    def from_settings(cls, settings: dict[str, Any] | None) -> StopConditions:
        """The conditions a document saves in ``training["stop"]`` (missing keys: the defaults)."""
        stop = cls()
        stop.apply(settings)
        return stop

    def apply(self, settings: dict[str, Any] | None) -> None:
        """Take the conditions of ``settings`` (a document's ``training["stop"]``), keeping the run's history."""
        s = settings or {}
        self.loss_below = s.get("loss_below") or None
        self.patience = s.get("patience") or None
        self.stop_on_nan = bool(s.get("stop_on_nan", True))
        self.watch = s["watch"] if s.get("watch") in self.WATCH else "val_loss"

    def settings(self) -> dict[str, Any]:
        """The conditions as a document saves them (``training["stop"]``)."""
        return {"loss_below": self.loss_below, "patience": self.patience, "stop_on_nan": self.stop_on_nan,
                "watch": self.watch}

    def reset(self) -> None:
        self._best = {"loss": _Best(), "val_loss": _Best()}
        self._measures_val: bool | None = None  # whether the run reports val_loss; None: not known yet
        self._params_finite = True

    @property
    def watching(self) -> str:
        """The series "no improvement" watches now: ``watch``, or ``"loss"`` while no val_loss is measured."""
        return "val_loss" if self.watch == "val_loss" and self._measures_val else "loss"

    def _follow(self, session: StopSession) -> None:
        """Know whether ``session`` measures val_loss (asked again after an edit of its document, which may add or
        remove the split, or change ``val_every`` or the loss node)."""
        if session.graph is not self._graph:
            if self._graph is not None:
                self._graph.unsubscribe(self._on_graph_event)
            self._graph = session.graph
            session.graph.subscribe(self._on_graph_event)
            self._measures_val = None
        if self._measures_val is None and self.watch == "val_loss":
            from core.nodegraph.training.holdout import measures  # holdout imports the evaluator

            self._measures_val = measures(session.graph, session.loss_node())

    def _on_graph_event(self, event: GraphEvent) -> None:
        if event.kind not in ("node_moved", "view_changed") and not event.kind.startswith("comment_"):
            self._measures_val = None

    def check(self, metrics: Metrics) -> str | None:
        """A message saying why training stops after this step, or None to go on."""
        if "error" in metrics:
            return f"stopped: {metrics['error']}"
        loss = metrics.get("loss")
        if loss is None:
            return None
        if self.stop_on_nan and not math.isfinite(loss):
            return f"stopped at step {metrics['step']}: the loss is {loss} (try a smaller learning rate)"
        if self.loss_below is not None and loss < self.loss_below:
            shown = _below(loss, self.loss_below)
            return f"stopped at step {metrics['step']}: loss {shown} is below {self.loss_below:g}"
        val = metrics.get("val_loss")
        if val is not None:
            self._measures_val = True
        step = metrics["step"]
        stale = self._best["loss"].see(loss, step), self._best["val_loss"].see(val, step)
        if self.patience is None:
            return None
        watched = self.watching
        since_best = stale[watched == "val_loss"]
        if since_best is not None and since_best >= self.patience:
            best = self._best[watched]
            since = f"; best {scalar(best.value)} at step {best.step}" if best.step is not None else ""
            return (f"stopped at step {metrics['step']}: no improvement in {watched} for {self.patience} steps"
                    f"{since}")
        return None

    def stop_info(self, metrics: Metrics, session: StopSession | None = None) -> StopInfo | None:
        """``{"message", "node"}`` when training stops after this step, else None. ``node`` is the graph node
        to show: the one that raised the error, or for a NaN/Inf loss the first node (in ``session``'s
        topological order) that produced a non-finite value. Call it once per step, in order: it remembers
        whether the last step left the parameters finite."""
        params_finite, self._params_finite = self._params_finite, _healthy(metrics)
        if session is not None:
            self._follow(session)
        message = self.check(metrics)
        if message is None:
            return None
        node = metrics.get("node")
        loss = metrics.get("loss")
        if node is None and session is not None and loss is not None and not math.isfinite(loss):
            node = first_non_finite(session, params_finite)
            if node is not None:
                message = f"{message}; the first non-finite value comes from {node_label(session.graph, node)}"
        return {"message": message, "node": node}


class _Best:
    """The best (lowest) value of a series so far and how many steps ago it was seen."""

    def __init__(self) -> None:
        self.value: float = math.inf
        self.step: int | None = None
        self.since = 0

    def see(self, value: float | None, step: int) -> int | None:
        """Count one more step, with ``value`` measured on it (None: not measured); returns the steps since the
        best value when ``value`` was measured and did not improve on it, else None."""
        self.since += 1
        if value is None:
            return None
        if value < self.value:
            self.value, self.step, self.since = value, step, 0
            return None
        return self.since


def _below(loss: float, threshold: float) -> str:
    """``loss`` as the app writes a loss (``numtext.scalar``), with more digits where those four decimals would
    read as not below ``threshold`` (0.049996 is ``0.0500``)."""
    shown = scalar(loss)
    return shown if float(shown) < threshold else format(loss, ".6g")


def _healthy(metrics: Metrics) -> bool:
    """Whether a step's loss and gradients were finite, so its optimizer step left the parameters finite.
    (Once per training step: the norms' sum is finite exactly when each is, short of a sum over 1e308.)"""
    loss = metrics.get("loss")
    if loss is not None and not math.isfinite(loss):
        return False
    norms = metrics.get("grad_norm")
    if not norms:
        return True
    try:
        return math.isfinite(sum(norms.values()))
    except TypeError:  # a parameter without a gradient
        return all(v is None or math.isfinite(v) for v in norms.values())


def _finite(t: object) -> bool:
    import core  # only when training diverged

    if not isinstance(t, core.Tensor) or not (t.is_floating_point() or t.is_complex()) or t.numel() == 0:
        return True
    with core.no_grad():
        return bool(core.isfinite(t.detach()).all())


def first_non_finite(session: StopSession, params_finite: bool = True) -> str | None:
    """The first node (topological order) of ``session``'s last forward that turned finite inputs into NaN/Inf;
    None when every value is finite.

    The optimizer step after that forward writes NaN into the parameters in place, so with ``params_finite``
    (they were finite in that forward, e.g. the step before had a finite loss and gradients) a parameter is
    never taken for the origin, and counts as a finite input.
    """
    from core.nodegraph.explain.diagnostics import Context  # loaded only when training diverges

    ctx = Context(session, [])
    params = [t for t in session.parameters().values()] if params_finite else []

    def suspects(tensors: Iterable[Any]) -> list[Any]:
        return [t for t in tensors if not any(t is p for p in params)]

    for nid in ctx.order:
        outs = suspects(ctx.tensors(nid).values())
        if all(_finite(t) for t in outs):
            continue
        if all(_finite(t) for t in suspects(ctx.inputs(nid).values())):
            return nid
    return None
