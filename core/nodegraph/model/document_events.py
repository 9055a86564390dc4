"""What a graph document tells its listeners: a ``GraphEvent`` per change, and the ``EditMark`` of the undoable
command whose ``do`` or ``undo`` made it (``Graph.editing``). ``core.nodegraph.model.document`` gives both again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from core.nodegraph.model.document_items import Edge

__all__ = ["EditMark", "GraphEvent"]


class EditMark(NamedTuple):
    """Which user edit an event belongs to: the command's ``stamp`` (one per command, the same when it is undone
    and redone) and whether it is being undone. A session sets aside what an edit made it drop under its mark,
    and an undo (or redo) takes back what its counterpart set aside (``core.nodegraph.run.kept_states``)."""

    stamp: int
    undo: bool


@dataclass(frozen=True)
class GraphEvent:
    """What changed: ``kind`` (node_added, node_removed, edge_added, edge_removed, param_changed,
    node_changed, node_moved, comment_added, comment_removed, comment_changed, training_changed,
    view_changed, code_changed, reset) and the ids involved (a node_added's ``detail``: ``(subgraph id, inner id)``
    when an expand brought it out of a subgraph, else None); ``edit`` marks the command whose ``do`` or ``undo``
    emitted it (``Graph.editing``), None outside commands."""

    kind: str
    node_id: str | None = None
    edge: Edge | None = None
    detail: Any = None
    edit: EditMark | None = None
