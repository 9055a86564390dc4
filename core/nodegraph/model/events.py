"""What a session tells its subscribers after each step, and the error records it attaches to nodes.

A ``SessionEvent`` is emitted after every step: ``phase`` is one of ``PHASES``; ``node`` the graph node
the step concerned (None for whole-graph steps such as zero_grad); ``changed`` the ``"node.port"`` /
``"node.param"`` keys whose value or gradient changed; ``detail`` a small dict (the autograd node's
name, the backward call number, the parameters that got no gradient, training metrics...); ``index``
the history position of the snapshot taken after the step (-1 when none was taken, e.g. in ``train``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["PHASES", "SessionEvent", "NodeError", "error_text"]

PHASES = ("forward", "backward", "zero_grad", "optimizer", "reset", "error", "train", "history", "device")

# The app's own error kinds whose message says it all: shown as a sentence ("Input 'x' is not connected"),
# not behind a class name that no PyTorch user has met ("MissingInput: input 'x' is not connected").
SENTENCE_KINDS = frozenset({"MissingInput", "UnknownNodeType"})


def error_text(kind: str, message: str) -> str:
    """How an error reads on a node and in the status bar: ``RuntimeError: ...`` as PyTorch prints it, or the
    message alone, capitalised, for the app's own kinds in ``SENTENCE_KINDS``."""
    if kind in SENTENCE_KINDS and message:
        return message[0].upper() + message[1:]
    return f"{kind}: {message}"


@dataclass(frozen=True)
class SessionEvent:
    phase: str
    node: str | None = None
    changed: tuple[str, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)
    index: int = -1


@dataclass(frozen=True)
class NodeError:
    """An error attached to a node: PyTorch's exception type name and message, never raised.

    ``phase`` is 'forward' or 'backward'; ``origin`` is the graph node where it was raised when that
    differs from the node it is attached to (a backward error shows on the loss node; its origin is
    the node whose autograd function failed); ``autograd_node`` names that function.
    """

    phase: str
    type: str
    message: str
    origin: str | None = None
    autograd_node: str | None = None

    @classmethod
    def from_exception(cls, phase: str, exc: BaseException, origin: str | None = None,
                       autograd_node: str | None = None) -> NodeError:
        return cls(phase, type(exc).__name__, str(exc), origin, autograd_node)

    def __str__(self) -> str:
        return error_text(self.type, self.message)
