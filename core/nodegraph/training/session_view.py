"""What training's helpers read of a running session, described rather than imported.

``core.nodegraph.run.session.Session`` sits above ``training`` (the import-linter contract keeps ``run -> training``
one way), so the stop conditions, the views and validation each say in a ``Protocol`` which of its members they
use. ``SessionView`` holds what all three read; each module extends it with its own few members.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph

__all__ = ["SessionView"]


class SessionView(Protocol):
    """The graph, its nodes in evaluation order, and which node is the loss (None: the graph has none)."""

    @property
    def graph(self) -> Graph: ...
    @property
    def order(self) -> list[str]: ...
    def loss_node(self) -> str | None: ...

