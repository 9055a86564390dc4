"""The window's link to a ``core.nodegraph.session.Session``: runs the steps and re-emits its events.

The session computes; this object only calls it and forwards each ``SessionEvent`` as the Qt signal
``stepped`` (payload: the event). ``available()`` is False while the session module is not in the tree,
and the window then leaves the Run actions disabled. A step never raises into the GUI: the session
attaches errors to nodes, and anything unexpected is reported on ``message``.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


def available() -> bool:
    try:
        import core.nodegraph.session  # noqa: F401, PLC0415 - lazy: keeps the window's first paint fast
    except ImportError:
        return False
    return True


class SessionBridge(QObject):
    stepped = Signal(object)
    message = Signal(str)

    def __init__(self, graph, parent=None):
        super().__init__(parent)
        self.setObjectName("sessionBridge")
        self.retain_graph = False
        self.session = None
        self.graph = graph
        self.last_event = None

    def set_graph(self, graph) -> None:
        self.close()
        self.graph = graph

    def close(self) -> None:
        if self.session is not None:
            self.session.unsubscribe(self._on_event)
            self.session.close()
            self.session = None

    def ensure(self):
        """The session (created on first use, so opening a window costs nothing)."""
        if self.session is None:
            from core.nodegraph.session import Session  # noqa: PLC0415

            self.session = Session(self.graph)
            self.session.subscribe(self._on_event)
        return self.session

    def _on_event(self, event) -> None:
        self.last_event = event
        self.stepped.emit(event)

    def run(self, action: str) -> None:
        """One of forward_step, forward, backward_step, backward, zero_grad, optimizer_step, reset, step_back."""
        s = self.ensure()
        try:
            if action in ("backward_step", "backward"):
                getattr(s, action)(retain_graph=self.retain_graph)
            elif action == "refresh":
                pass
            elif action == "step_back":
                if not s.step_back():
                    self.message.emit("Nothing to step back to")
            else:
                getattr(s, action)()
        except Exception as exc:  # noqa: BLE001 - a step must never take the window down
            self.message.emit(f"{type(exc).__name__}: {exc}")
