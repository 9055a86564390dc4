"""Diagnostics: the chapter's "diagnosing common failures" as rules that attach hints to nodes.

A rule reads a session's current state (values, errors, gradients, ledger) and, for training
trends, the losses seen so far; it yields ``Hint`` records, each naming the node, the rule, a
severity, what is wrong and the first thing to try. ``diagnose(session)`` runs every rule once;
``Diagnostics(session)`` subscribes to a session, re-runs the rules after each step and keeps the
loss trajectory so trend rules (flat or diverging loss) can fire. Rules never raise and never
change the session: a rule that fails is skipped.

Rules by module: ``shapes`` (silent broadcast, view on a non-contiguous tensor, dtype and device
mismatch), ``gradients`` (no gradient path, accumulation without zero_grad, exploding or vanishing
gradient norms, backward twice without retain_graph), ``values`` (first NaN/Inf, loss flat or
diverging).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING

from core.nodegraph.explain.diagnostics._base import RULES, SEVERITIES, Context, DiagnosedSession, Hint, rule

if TYPE_CHECKING:
    from core.nodegraph.model.events import SessionEvent

__all__ = ["Hint", "Context", "RULES", "SEVERITIES", "rule", "diagnose", "Diagnostics"]


def _load_rules() -> None:
    from core.nodegraph.explain.diagnostics import gradients, shapes, values  # noqa: F401 - registrations


def diagnose(session: DiagnosedSession, losses: Iterable[float] = (), rules: Collection[str] | None = None
             ) -> list[Hint]:
    """Every hint for the session's current state, ordered by severity then topological order.

    ``losses`` is the loss trajectory so far (for the trend rules); ``rules`` limits the run to
    some rule ids.
    """
    _load_rules()
    ctx = Context(session, list(losses))
    hints: list[Hint] = []
    for rid, fn in RULES.items():
        if rules is not None and rid not in rules:
            continue
        try:
            hints.extend(fn(ctx))
        except Exception:  # a broken rule must not take the session down
            continue
    rank: dict[str | None, int] = {nid: i for i, nid in enumerate(ctx.order)}  # hints without a node go last
    return sorted(hints, key=lambda h: (SEVERITIES.index(h.severity), rank.get(h.node_id, len(rank))))


class Diagnostics:
    """Re-runs the rules after every session step; ``hints`` and ``hints_for(node)`` are the latest.

    Losses come from ``train`` events and from the loss node's value at each ``optimizer`` step;
    a ``reset`` clears them. ``subscribe(listener)`` calls ``listener(hints)`` after each update.
    """

    def __init__(self, session: DiagnosedSession, rules: Collection[str] | None = None) -> None:
        self.session = session
        self.rules = rules
        self.losses: list[float] = []
        self.hints: list[Hint] = []
        self._listeners: list[Callable[[list[Hint]], None]] = []
        session.subscribe(self._on_event)

    def close(self) -> None:
        self.session.unsubscribe(self._on_event)

    def subscribe(self, listener: Callable[[list[Hint]], None]) -> None:
        self._listeners.append(listener)

    def hints_for(self, node_id: str) -> list[Hint]:
        return [h for h in self.hints if h.node_id == node_id]

    def _on_event(self, event: SessionEvent) -> None:
        if event.phase == "reset":
            self.losses.clear()
        elif event.phase == "train" and event.detail.get("loss") is not None:
            self.losses.append(event.detail["loss"])
        elif event.phase == "optimizer":
            loss = Context(self.session, []).loss_value()
            if loss is not None:
                self.losses.append(loss)
        self.update()

    def update(self) -> list[Hint]:
        self.hints = diagnose(self.session, self.losses, self.rules)
        for listener in list(self._listeners):
            listener(self.hints)
        return self.hints
