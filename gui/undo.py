"""The app's undo stack glue: one QUndoCommand that holds a Qt-free ``core.nodegraph`` command.

``push(stack, graph, command)`` runs ``command.do(graph)`` first and pushes only when it succeeded,
so a refused edit never reaches the stack; it returns the refusal's message (None when done). The
scene follows the document's events, so undo and redo here touch the model only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand, QUndoStack

from core.nodegraph.model.document import GraphError
from core.nodegraph.model.spec import ParamError

if TYPE_CHECKING:
    from core.nodegraph.model.commands import Command
    from core.nodegraph.model.document import Graph

__all__ = ["GraphCommand", "push"]


class GraphCommand(QUndoCommand):
    """Wraps a done ``core.nodegraph.model.commands.Command``; Qt's first ``redo`` is skipped (already done)."""

    def __init__(self, graph: Graph, command: Command) -> None:
        super().__init__(command.text)
        self.graph, self.command = graph, command
        self._done = True

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self.command.do(self.graph)

    def undo(self) -> None:
        self.command.undo(self.graph)


def push(stack: QUndoStack, graph: Graph, command: Command) -> str | None:
    """Do ``command`` and push it; a refused edit returns the message and leaves the document as it was."""
    try:
        command.do(graph)
    except (GraphError, ParamError, KeyError) as exc:
        return str(exc).strip("'\"")
    stack.push(GraphCommand(graph, command))
    return None
