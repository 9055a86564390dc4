"""The pieces every diagnostic rule shares: the Hint record, the rule registry and a read-only Context."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import core
from core.nodegraph.model.names import key_label, parameter_labels

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph
    from core.nodegraph.model.events import NodeError, SessionEvent

__all__ = ["Hint", "Context", "ContextSession", "DiagnosedSession", "Rule", "RuleContext", "RULES", "SEVERITIES",
           "rule", "tensor_norm"]

SEVERITIES = ("error", "warning", "info")


class _Entry(Protocol):
    """One ledger contribution (``core.nodegraph.run.ledger.Contribution``): the backward call that brought it."""

    @property
    def backward_call(self) -> int: ...


class _Ledger(Protocol):
    @property
    def backward_calls(self) -> int: ...
    @property
    def entries(self) -> Mapping[str, Sequence[_Entry]]: ...


class ContextSession(Protocol):
    """What a ``Context`` reads of ``core.nodegraph.run.session.Session`` for its values (run sits above explain, so
    the session is described here rather than imported); the stop conditions' ``first_non_finite`` passes this much."""

    @property
    def graph(self) -> Graph: ...
    @property
    def values(self) -> dict[str, dict[str, Any]]: ...
    @property
    def order(self) -> list[str]: ...
    def parameters(self) -> dict[str, Any]: ...
    def loss_node(self) -> str | None: ...


class DiagnosedSession(ContextSession, Protocol):
    """What the rules read of a session besides its values (errors, the ledger, the backward's state);
    ``Diagnostics`` also subscribes to its events."""

    @property
    def errors(self) -> dict[str, NodeError]: ...
    @property
    def ledger(self) -> _Ledger: ...
    @property
    def backward_in_progress(self) -> bool: ...
    def no_gradient_parameters(self) -> list[str]: ...
    def subscribe(self, listener: Callable[[SessionEvent], None]) -> None: ...
    def unsubscribe(self, listener: Callable[[SessionEvent], None]) -> None: ...


S = TypeVar("S", bound=ContextSession)


@dataclass(frozen=True)
class Hint:
    """One diagnosis: ``node_id`` (None for the whole graph), ``rule`` id, ``severity`` (see SEVERITIES),
    ``message`` (what is wrong, with the numbers) and ``fix`` (the first thing to try)."""

    node_id: str | None
    rule: str
    severity: str
    message: str
    fix: str

    def __str__(self) -> str:
        where = f"[{self.node_id}] " if self.node_id else ""
        return f"{self.severity}: {where}{self.message} -> {self.fix}"


def tensor_norm(t: core.Tensor) -> float:
    """The 2-norm of a tensor's values as a Python float (inf/nan propagate)."""
    with core.no_grad():
        return float(t.detach().to(core.float64).norm())


class Context(Generic[S]):
    """What a rule may read: the session, its graph, the loss trajectory, and small helpers."""

    def __init__(self, session: S, losses: list[float]) -> None:
        self.session = session
        self.graph = session.graph
        self.losses = losses
        self._parameter_labels: dict[str, str] | None = None  # parameter key -> label, made on first use
        try:
            self.order: list[str] = list(session.order)
        except Exception:  # a cyclic document: rules see no order
            self.order = []

    def outputs(self, nid: str) -> dict[str, Any]:
        return self.session.values.get(nid) or {}

    def tensors(self, nid: str) -> dict[str, core.Tensor]:
        """The node's output tensors by port."""
        return {p: t for p, t in self.outputs(nid).items() if isinstance(t, core.Tensor)}

    def inputs(self, nid: str) -> dict[str, Any]:
        """``{port: value}`` of the node's connected inputs that have a value now."""
        out: dict[str, Any] = {}
        for port, e in self.graph.inputs_of(nid).items():
            src = self.session.values.get(e.src) or {}
            if e.src_port in src:
                out[port] = src[e.src_port]
        return out

    def type_of(self, nid: str) -> str:
        return self.graph.nodes[nid].type

    def error(self: Context[DiagnosedSession], nid: str) -> NodeError | None:
        return self.session.errors.get(nid)

    def label(self, key_or_id: str) -> str:
        """What the learner reads for a node or a port key: its title, never the internal id."""
        return key_label(self.graph, key_or_id)

    def parameter_label(self, key: str) -> str:
        """What the learner reads for a trainable tensor's key (``names.parameter_labels``): its node's title where
        the node owns one (a Parameter node's ``w_cut``, not ``w_cut.w_cut``), ``mlp.0.weight`` where it owns
        several; any other key as ``label`` reads it."""
        if self._parameter_labels is None:
            self._parameter_labels = parameter_labels(self.graph, self.session.parameters())
        return self._parameter_labels.get(key) or self.label(key)

    def node_of_key(self, key: str) -> str | None:
        """The node id of a ``"node.port"`` or ``"node.param.name"`` key."""
        parts = key.split(".")
        for i in range(len(parts), 0, -1):
            nid = ".".join(parts[:i])
            if nid in self.graph.nodes:
                return nid
        return None

    def loss_id(self) -> str | None:
        try:
            return self.session.loss_node()
        except Exception:
            return None

    def loss_value(self) -> float | None:
        nid = self.loss_id()
        t = next(iter(self.outputs(nid).values()), None) if nid else None
        if isinstance(t, core.Tensor) and t.numel() == 1:
            return float(t.detach().item())
        return None

    def lr(self) -> float | None:
        lr = (self.graph.training.get("optimizer_params") or {}).get("lr")
        return float(lr) if isinstance(lr, (int, float)) and math.isfinite(lr) else None


RuleContext = Context[DiagnosedSession]  # what a rule gets
Rule = Callable[[RuleContext], Iterable[Hint]]  # a rule: the hints it finds in a context (a generator)
RULES: dict[str, Rule] = {}


def rule(rule_id: str) -> Callable[[Rule], Rule]:
    """Register ``fn(ctx) -> iterable of Hint`` under ``rule_id`` (one id per rule)."""
    def deco(fn: Rule) -> Rule:
        RULES[rule_id] = fn
        return fn
    return deco
