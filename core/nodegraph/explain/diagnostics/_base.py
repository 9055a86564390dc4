"""The pieces every diagnostic rule shares: the Hint record, the rule registry and a read-only Context."""

from __future__ import annotations

import math
from dataclasses import dataclass

import core
from core.nodegraph.model.names import key_label

__all__ = ["Hint", "Context", "RULES", "SEVERITIES", "rule", "tensor_norm"]

SEVERITIES = ("error", "warning", "info")
RULES: dict = {}


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


def rule(rule_id: str):
    """Register ``fn(ctx) -> iterable of Hint`` under ``rule_id`` (one id per rule)."""
    def deco(fn):
        RULES[rule_id] = fn
        return fn
    return deco


def tensor_norm(t) -> float:
    """The 2-norm of a tensor's values as a Python float (inf/nan propagate)."""
    with core.no_grad():
        return float(t.detach().to(core.float64).norm())


class Context:
    """What a rule may read: the session, its graph, the loss trajectory, and small helpers."""

    def __init__(self, session, losses: list):
        self.session = session
        self.graph = session.graph
        self.losses = losses
        try:
            self.order = list(session.order)
        except Exception:  # a cyclic document: rules see no order
            self.order = []

    def outputs(self, nid: str) -> dict:
        return self.session.values.get(nid) or {}

    def tensors(self, nid: str) -> dict:
        """The node's output tensors by port."""
        return {p: t for p, t in self.outputs(nid).items() if isinstance(t, core.Tensor)}

    def inputs(self, nid: str) -> dict:
        """``{port: value}`` of the node's connected inputs that have a value now."""
        out = {}
        for port, e in self.graph.inputs_of(nid).items():
            src = self.session.values.get(e.src) or {}
            if e.src_port in src:
                out[port] = src[e.src_port]
        return out

    def type_of(self, nid: str) -> str:
        return self.graph.nodes[nid].type

    def error(self, nid: str):
        return self.session.errors.get(nid)

    def label(self, key_or_id: str) -> str:
        """What the learner reads for a node or a port key: its title, never the internal id."""
        return key_label(self.graph, key_or_id)

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
