"""Validation during training: the loss (and accuracy) on the rows a ``data.dataset`` node holds out.

A dataset node with ``val_fraction`` > 0 splits its rows (``core.nodegraph.model.nodes.data``): training batches
come from one part only. While ``Session.train`` runs, ``after_step`` measures the other part on the steps
``due`` picks: every ``graph.training["val_every"]`` steps (default 10, 0: never), the step that completes
``graph.training["steps"]`` and the last step of a ``train(n)`` call with n > 1 (a one-step call, such as
the app's Step button makes, measures only by the first two rules). It evaluates the loss node's ancestors again with
the datasets yielding their validation part, under ``core.no_grad()`` and eval mode, and adds ``val_loss`` (and
``val_accuracy`` for classification losses, like ``accuracy``) to that step's metrics; a failure adds
``val_error`` instead. Graphs without a split get no extra keys and cost one dict lookup per step.

Validation leaves training exactly as it was: values go to a store of their own (the session's values,
errors and static cache are untouched), random nodes draw from a generator of their own (the session's
stream goes on as if nothing ran), nothing is recorded for autograd (the last step's graph stays), the
ledger and step counter are not touched, and layer modules get their train/eval modes back. So training
with validation gives the very parameters and metrics of training without it, plus the ``val_`` keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

import core
from core.autograd.graph import array_of
from core.nodegraph.model.evaluate import Values, evaluate_node, node_seed
from core.nodegraph.model.spec import EvalContext
from core.nodegraph.training.session_view import SessionView

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph

__all__ = ["DEFAULT_VAL_EVERY", "HoldoutSession", "after_step", "due", "has_split", "held_out_values", "measures",
           "val_every", "validate"]

DEFAULT_VAL_EVERY = 10


class HoldoutSession(SessionView, Protocol):
    """What validation reads of the session (see ``session_view``): besides its graph, order and loss node, its
    nodes' states, device, seed and step count."""

    @property
    def states(self) -> dict[str, dict[str, Any]]: ...
    @property
    def device(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def step_count(self) -> int: ...


def val_every(graph: Graph) -> int:
    """The ``val_every`` training setting (unset: ``DEFAULT_VAL_EVERY``)."""
    every = graph.training.get("val_every")
    return DEFAULT_VAL_EVERY if every is None else int(every)


def due(graph: Graph, step: int, last: bool = False) -> bool:
    """Whether the training step ``step`` (0-based) measures the validation part."""
    every = val_every(graph)
    return every > 0 and ((step + 1) % every == 0 or last or step + 1 == graph.training.get("steps"))


def has_split(graph: Graph, nodes: Iterable[str]) -> bool:
    """Whether a ``data.dataset`` node among ``nodes`` holds rows out."""
    for nid in nodes:
        node = graph.nodes[nid]
        if node.type == "data.dataset":
            fraction = node.params.get("val_fraction", 0.0)
            if isinstance(fraction, (int, float)) and fraction > 0:
                return True
    return False


def _inplace_node(graph: Graph, nodes: Iterable[str]) -> str | None:
    """The first in-place node among ``nodes`` (validation would run it again on the trained tensors), or None."""
    return next((nid for nid in nodes if graph.nodes[nid].type.endswith("_")), None)


def measures(graph: Graph, loss_id: str | None) -> bool:
    """Whether training with loss node ``loss_id`` reports ``val_loss``: ``val_every`` > 0, a dataset with a split
    among the loss's ancestors and no in-place node there (``validate`` refuses those)."""
    if loss_id is None or loss_id not in graph.nodes or val_every(graph) <= 0:
        return False
    needed = graph.ancestors(loss_id) | {loss_id}
    return has_split(graph, needed) and _inplace_node(graph, needed) is None


def after_step(session: HoldoutSession, metrics: dict[str, Any], last: bool = False) -> None:
    """Add the validation metrics to a ``train`` step's ``metrics`` when the step is ``due`` and there is a split."""
    if "error" in metrics or not due(session.graph, metrics["step"], last):
        return
    metrics.update(validate(session, metrics["step"]))


def validate(session: HoldoutSession, step: int | None = None) -> dict[str, Any]:
    """``{"val_loss", "val_accuracy"?}`` of the current parameters on the validation rows (``{"val_error"}`` when
    the evaluation fails), or ``{}`` when the loss does not depend on a dataset with a split."""
    graph = session.graph
    loss_id = session.loss_node()
    if loss_id is None:
        return {}
    needed = graph.ancestors(loss_id) | {loss_id}
    if not has_split(graph, needed):
        return {}
    order = [nid for nid in session.order if nid in needed]
    inplace = _inplace_node(graph, order)
    if inplace is not None:
        return {"val_error": f"not measured: in-place node '{inplace}' could change the trained tensors"}
    store = _evaluate(session, order, session.step_count if step is None else step)
    err = store.errors.get(loss_id)
    if err is not None:
        return {"val_error": str(err)}
    out: dict[str, Any] = {"val_loss": float(next(iter(store.outputs[loss_id].values())).item())}
    accuracy = _accuracy(session, loss_id, store)
    if accuracy is not None:
        out["val_accuracy"] = accuracy
    return out


def held_out_values(session: HoldoutSession, step: int | None = None) -> Values | None:
    """The store ``validate`` measures from: the loss's ancestors evaluated on the validation rows (an export
    replays some of these values); None when training reports no val_loss (``measures``)."""
    loss_id = session.loss_node()
    if loss_id is None or not measures(session.graph, loss_id):
        return None
    needed = session.graph.ancestors(loss_id) | {loss_id}
    order = [nid for nid in session.order if nid in needed]
    return _evaluate(session, order, session.step_count if step is None else step)


def _evaluate(session: HoldoutSession, order: list[str], step: int) -> Values:
    """The nodes of ``order`` evaluated on the validation part into a new store, under no_grad and eval mode."""
    store = Values(session.device, session.seed, training=False)
    gen = core.Generator(session.device).manual_seed(node_seed(session.seed, "validation"))
    modes = _modes(session, order)
    try:
        with core.no_grad():
            for nid in order:
                state = session.states.get(nid)
                ctx = EvalContext(nid, session.device, False, gen, {} if state is None else state, step=step,
                                  seed=session.seed, split="val")
                evaluate_node(session.graph, nid, store, ctx)
    finally:
        for module, training in modes:
            module.training = training
    return store


def _modes(session: HoldoutSession, order: list[str]) -> list[tuple[core.nn.Module, bool]]:
    """``(module, training flag)`` of every (sub)module the layer nodes of ``order`` own, to restore afterwards."""
    found: list[tuple[core.nn.Module, bool]] = []
    for nid in order:
        module = (session.states.get(nid) or {}).get("module")
        if module is not None:
            found += [(m, m.training) for m in module.modules()]
    return found


def _accuracy(session: HoldoutSession, loss_id: str, store: Values) -> float | None:
    from core.nodegraph.training.trainer import accuracy_of, accuracy_plan  # training imports this module

    plan = accuracy_plan(session.graph, loss_id)
    if plan is None:
        return None
    kind, (src, port), (tsrc, tport) = plan
    pred, target = store.outputs.get(src, {}).get(port), store.outputs.get(tsrc, {}).get(tport)
    if not isinstance(pred, core.Tensor) or not isinstance(target, core.Tensor):
        return None
    return accuracy_of(kind, array_of(pred), array_of(target))
