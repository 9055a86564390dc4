"""Whether ops may take their no-grad shortcuts, the routes that skip ``Function.apply``.

Ops compute no-grad work straight on arrays where that gives the same values (``a + b`` of two constants,
a small matmul, a basic index; see ``core/ops/_fastpath.py``). Two things need every op to go through
``Function.apply`` instead: a forward-AD level (apply propagates the tangents) and ``core.compile``'s capture
(apply reports each op to the recorder, so that a replay recomputes it; a shortcut's result would be frozen
into the plan as a constant). Each of them blocks the shortcuts while it is active; the ops read one flag,
``state.ok``, and need not know about either.
"""

from __future__ import annotations

__all__ = ["state", "block", "unblock"]


class _State:
    """``ok``: no blocker is active. A count, since a capture can run inside a forward-AD level and vice versa."""

    __slots__ = ("ok", "blockers")

    def __init__(self) -> None:
        self.ok = True
        self.blockers = 0


state = _State()


def block() -> None:
    """Make every op go through ``Function.apply`` until the matching ``unblock``."""
    state.blockers += 1
    state.ok = False


def unblock() -> None:
    state.blockers -= 1
    state.ok = state.blockers == 0
