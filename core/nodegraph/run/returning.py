"""What an undone edit gives back to a session: the nodes that had run before the edit dropped them run again.

Deleting a node drops its values and those of everything downstream (``EditFollowing``). Undoing the delete put the
node and its edges back, but nothing ran: the node had no value, so its consumers could not run either, and the
learner who saw every value before the delete saw empty nodes after its undo. ``Returning`` sets aside, under the
edit's mark (``EditMark``: one stamp per command, the same when it is undone and redone), the nodes each edit dropped
after they had run, and for a removed node how many input edges it lost with it. When the counterpart (the undo, or
the redo of an undo) touches them again, each is handed back to ``EditFollowing`` as if it had run, once the edges it
had are back: it runs again at once where it is quick and its inputs have run, as after any other edit. The numbers
come from running the node again, never from a stored copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.nodegraph.model.document_events import EditMark

if TYPE_CHECKING:
    from collections.abc import Set

    from core.nodegraph.model.document import GraphEvent

__all__ = ["Returning"]


class Returning:
    """Per edit mark: the nodes it dropped after they had run, each with the input edges it waits for."""

    def __init__(self) -> None:
        self._aside: dict[EditMark, dict[str, int]] = {}
        self._cut: dict[str, int] = {}  # input edges each node lost in the edit being done or undone now
        self._cut_mark: EditMark | None = None

    def follow(self, event: GraphEvent, dropped: Set[str], dirty: Set[str]) -> set[str]:
        """Note what ``event`` ``dropped`` (nodes that had run); return the nodes of ``dirty`` the counterpart edit
        had dropped and that are whole again (they run again as the other dropped nodes that had run)."""
        mark = event.edit
        if mark is None:
            return set()
        aside = self._aside.setdefault(mark, {})
        if mark != self._cut_mark:  # another edit (a redo counts its edges again)
            self._cut, self._cut_mark = {}, mark
        cut = self._cut
        if event.kind == "edge_removed" and event.edge is not None:
            cut[event.edge.dst] = cut.get(event.edge.dst, 0) + 1
        for nid in dropped:
            aside.setdefault(nid, 0)
        if event.kind == "node_removed" and event.node_id in aside:  # back once its input edges are
            aside[event.node_id] = cut.get(event.node_id, 0)
        theirs = self._aside.get(EditMark(mark.stamp, not mark.undo), {})
        if event.kind == "edge_added" and event.edge is not None and event.edge.dst in theirs:
            theirs[event.edge.dst] = max(theirs[event.edge.dst] - 1, 0)
        back = {nid for nid in dirty if theirs.get(nid, 1) == 0}
        for nid in back:
            del theirs[nid]
        return back
