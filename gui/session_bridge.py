"""The window's link to a ``core.nodegraph.run.session.Session``: runs the steps and re-emits its events.

The session computes; this object only calls it and forwards each ``SessionEvent`` as the Qt signal
``stepped`` (payload: the event). A step never raises into the GUI: the session attaches errors to nodes,
and anything unexpected is reported on ``message``.

The run options (retain_graph, create_graph, breakpoints) belong to the document being run: ``set_graph``
(New, Open, a lesson) puts them back to their defaults and emits ``document_changed``, on which the
toolbar and the training views start over. The session for a document computes on the document's device
with its seed, as the command line and the exported scripts do.

While the step runner pulls steps on its worker thread (``gui.step_runner``), the bridge ``hold``s what it would
emit: the session's events and the messages of a pass are kept in order and emitted by ``release`` on the GUI
thread once the worker is done, so every view sees them as after a step run here, and no Qt signal leaves a worker.
"""

from __future__ import annotations

from collections.abc import Container, Generator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from core.nodegraph.model.document import Graph
from core.nodegraph.model.events import SessionEvent
from core.nodegraph.model.names import node_label

if TYPE_CHECKING:
    from core.nodegraph.run.session import Session


def _usable(device: str) -> str:
    """The document's device, or the CPU when it names CUDA on a machine without it."""
    if device == "cpu":
        return device
    import core

    try:
        return device if core.cuda.is_available() else "cpu"
    except Exception:  # no CUDA backend at all
        return "cpu"


class SessionBridge(QObject):
    stepped = Signal(object)
    message = Signal(str)
    session_created = Signal(object)  # the new session, before its first step (the watch list subscribes)
    document_changed = Signal()  # set_graph: another document, its run options back to their defaults

    def __init__(self, graph: Graph, parent: QObject | None = None):
        super().__init__(parent)
        self.setObjectName("sessionBridge")
        self.session: Session | None = None
        self.graph = graph
        self._held: list[tuple[str, object]] | None = None  # what hold() kept back: ("stepped" | "message", payload)
        self._saved_revision = 0  # the session's trained_revision the document's file holds (a new one's: 0)
        self._reset_options()

    def _reset_options(self) -> None:
        self.retain_graph = False
        self.create_graph = False
        self.breakpoints: set = set()  # node ids where Forward/Backward all pause
        self.last_event: SessionEvent | None = None
        # the step being run ("backward_step", "backward"...): views tell one step from a pass
        self.action: str | None = None

    def set_graph(self, graph: Graph) -> None:
        """Run another document: a new session, and the run options as a fresh document has them."""
        self.close()
        self.graph = graph
        self._reset_options()
        self.document_changed.emit()

    def close(self) -> None:
        if self.session is not None:
            self.session.unsubscribe(self._on_event)
            self.session.close()
            self.session = None
        self._saved_revision = 0

    def ensure(self) -> Session:
        """The session (created on first use, so opening a window costs nothing)."""
        if self.session is None:
            from core.nodegraph.run.session import Session

            t = self.graph.training
            self.session = Session(self.graph, device=_usable(t.get("device") or "cpu"), seed=int(t.get("seed") or 0))
            self.session.subscribe(self._on_event)  # it starts where the document's file left its training
            self.session_created.emit(self.session)
        return self.session

    def trained_values(self) -> dict[str, dict[str, Any]] | None:
        """The session's trained parameter values to save with the document (None without a session: the
        document keeps what its file held)."""
        return None if self.session is None else self.session.trained_values()

    @property
    def trained_revision(self) -> int:
        """``Session.trained_revision`` (0 without a session): grows whenever training changes what a save writes."""
        return 0 if self.session is None else self.session.trained_revision

    @property
    def training_unsaved(self) -> bool:
        """Whether training (a step, Reset, stepping back over a step) changed what a save would write since the
        document was saved or opened: the document is modified, as an edit makes it."""
        return self.trained_revision != self._saved_revision

    def mark_saved(self) -> None:
        """The document was just saved with ``trained_values()``: its training is no unsaved change any more."""
        self._saved_revision = self.trained_revision

    def _on_event(self, event: SessionEvent) -> None:
        self.last_event = event
        self._emit("stepped", event)

    def _emit(self, name: str, payload: object) -> None:
        """``stepped`` or ``message`` now, or once ``release`` comes while the bridge is held."""
        if self._held is not None:
            self._held.append((name, payload))
        else:
            getattr(self, name).emit(payload)

    def hold(self) -> None:
        """Keep back the events and messages of the steps about to run on a worker thread (``release`` emits them)."""
        self._held = []

    def release(self) -> None:
        """On the GUI thread, after the worker is done: emit what ``hold`` kept back, in order."""
        held, self._held = self._held or [], None
        for name, payload in held:
            getattr(self, name).emit(payload)

    def forward_to(self, breakpoints: Container[str]) -> None:
        """Forward all, pausing before a node with a breakpoint (the first step always runs)."""
        for _ in self.forward_steps(breakpoints):
            pass

    def backward_to(self, breakpoints: Container[str]) -> None:
        """Backward all, pausing after a step of a node with a breakpoint."""
        for _ in self.backward_steps(breakpoints):
            pass

    def forward_left(self) -> int:
        """How many nodes a Forward all would evaluate now (a complete pass starts again from the first)."""
        s = self.ensure()
        if s.forward_complete:
            return len(s.order)
        return sum(1 for n in s.order if n not in s.values and n not in s.errors)

    def forward_steps(self, breakpoints: Container[str] = (), until: str | None = None) -> Generator[str, None, None]:
        """Forward all one node at a time: yields ``"forward"`` after each step, so a caller can return to the
        event loop in between; stops before a breakpoint (the first step always runs) or after ``until``."""
        s, first = self.ensure(), True
        self.action = "forward"
        while True:
            nxt = s.next_node if not s.forward_complete else (s.order[0] if s.order else None)
            if nxt is None or (not first and nxt in breakpoints):
                if nxt is not None:
                    self._emit("message", f"Paused before the breakpoint at {node_label(self.graph, nxt)}")
                return
            s.forward_step()
            first = False
            yield "forward"
            if s.forward_complete or nxt == until:
                return

    def backward_steps(self, breakpoints: Container[str] = ()) -> Generator[str, None, None]:
        """Backward all one step at a time: first the forward steps up to the loss when it has no value yet
        (yielding ``"forward"``), then each autograd node (yielding ``"backward"``); pauses after a step of a
        node with a breakpoint."""
        s = self.ensure()
        loss = s.loss_node()
        if not s.backward_in_progress and loss is not None and loss not in s.values and loss not in s.errors:
            yield from self.forward_steps(until=loss)
        self.action = "backward"
        while True:
            nid = s.backward_step(retain_graph=self.retain_graph, create_graph=self.create_graph)
            yield "backward"
            if not s.backward_in_progress:
                return
            if nid in breakpoints:
                self._emit("message", f"Paused at the breakpoint at {node_label(self.graph, nid)}")
                return

    def one_step(self, action: str) -> Generator[str, None, None]:
        """``run(action)`` for Forward step or Backward step, as a pass of one step for the step runner."""
        self.run(action)
        yield "backward" if action == "backward_step" else "forward"

    def run(self, action: str) -> None:
        """One of forward_step, forward, backward_step, backward, zero_grad, optimizer_step, reset, step_back."""
        s = self.ensure()
        self.action = action
        try:
            if action in ("backward_step", "backward"):
                getattr(s, action)(retain_graph=self.retain_graph, create_graph=self.create_graph)
            elif action == "refresh":
                pass
            elif action == "step_back":
                if not s.history.step_back():
                    self._emit("message", "Nothing to step back to")
            else:
                getattr(s, action)()
        except Exception as exc:  # a step must never take the window down
            self._emit("message", f"{type(exc).__name__}: {exc}")
