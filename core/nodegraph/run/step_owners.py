"""Which graph node created an autograd node, found after the fact from creation marks.

Stepping records ownership as it goes (``Ownership.record``, called from ``Session.run_node``, walks each node's
new ``grad_fn`` nodes); a training step skips that walk to stay as fast as plain ``core``. It only takes a mark from
autograd's creation counter before each node it evaluates and one at the end (``mark()``: a counter read,
tens of nanoseconds). Every recorded autograd node carries the counter value it was made with
(``core.autograd.graph.sequence_nr``),
so the graph node that created it is the one whose marks bracket it (``StepMarks.owner``). The
``AccumulateGrad`` of a leaf is made once per leaf, not per step: it belongs to the node owning the leaf.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any

from core.autograd.graph import AccumulateGrad, creation_mark, sequence_nr

if TYPE_CHECKING:
    from core.nodegraph.run.ownership import Leaf

__all__ = ["StepMarks", "mark"]


def mark() -> int:
    """The creation counter now: every autograd node made after this call has a larger ``sequence_nr``."""
    return creation_mark()


class StepMarks:
    """``order[k]`` was evaluated between ``marks[k]`` and ``marks[k + 1]`` (``marks`` has one more entry)."""

    __slots__ = ("order", "marks")

    def __init__(self, order: list[str], marks: list[int]) -> None:
        self.order, self.marks = order, marks

    def owner(self, anode: Any, leaves: dict[int, Leaf]) -> str | None:
        """The graph node that made ``anode`` in the marked pass (``leaves``: the session's ``_leaves``), or
        None when it was made outside it."""
        if type(anode) is AccumulateGrad:
            leaf = leaves.get(id(anode.variable))
            return leaf[1] if leaf is not None else None
        k = bisect_left(self.marks, sequence_nr(anode)) - 1  # marks[k] < sequence_nr < marks[k + 1]
        return self.order[k] if 0 <= k < len(self.order) else None
