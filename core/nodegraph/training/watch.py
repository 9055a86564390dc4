"""The watch list: pinned ports whose value and gradient are recorded step by step, for the watch plot.

A key is ``"node.port"``: an output port, or a tensor the node owns such as ``"n5.weight"`` of a layer
(``Session.value`` reads both). ``attach(session)`` subscribes to the session's events (no hook in the
training loop): one point per step number, ``step_count`` while stepping and the metrics' ``step`` of a
``train`` event. Events of the same step replace that step's point, so forward, backward and optimizer
stepped by hand give one point, like a training step. A point shows the port at the end of its step: the
forward's value, the backward's gradient and a parameter after the step's update (an ``optimizer`` event
rewrites the point of the step it finished). ``zero_grad``, errors and time travel (``history``) record
nothing.

Summaries: a 0-d or one-element tensor is recorded as itself (value and gradient); a bigger one as the
MEAN of its value and the NORM of its gradient (a gradient's mean hides its size as signs cancel; the
norm is what an optimizer step scales) -- ``labels(key)`` says which. A number is itself; anything
else, or a missing gradient, is NaN. An intermediate (non-leaf) port keeps its gradient only when
retained: the watch list adds the nodes of watched output ports to ``session.retain_grad_nodes`` (and removes what it
added).

Memory is bounded: each series keeps at most ``capacity`` points; when full every other point is
dropped and later steps are kept ``stride`` apart (doubling each time), always ending at the latest
step, so a plot covers the whole run at even spacing. Reset clears the points and keeps the pins: the
parameters are rebuilt, so the old values describe tensors that no longer exist (the loss plot keeps
runs for comparing them). An empty watch list returns from each event at once.

Pins are saved in the document's ``view`` dict (``graph.view["watch"]``), like zoom and centre: they
are a way of looking at the graph (a lesson file can open with its ports pinned), not an edit of it,
so they are neither undoable nor a reason to ask to save. The recorded points are saved with where training
stood (the ``"@session"`` entry's ``watch``, ``state()``): the attached session's ``training_position`` takes
them, and a watch list made for a document whose file saved some draws them again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

import core
from core.autograd.graph import array_module, array_of, grad_of
from core.nodegraph.files.schema import SESSION_KEY

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph, Node
    from core.nodegraph.model.events import SessionEvent

__all__ = ["WatchList", "WatchedSession", "summarize", "valid_key"]

_KEY = re.compile(r"^[^.\s]+\.[^\s]+$")


class WatchedSession(Protocol):
    """What the watch list uses of ``core.nodegraph.run.session.Session`` (run sits above training, so the
    session is described here rather than imported)."""

    @property
    def graph(self) -> Graph: ...
    @property
    def step_count(self) -> int: ...
    @property
    def retain_grad_nodes(self) -> set[str]: ...
    watch_list: WatchList | None  # the watch list attached to it, whose points it saves with its position
    def value(self, nid: str, port: str = "out") -> Any: ...
    def subscribe(self, listener: Callable[[SessionEvent], None]) -> None: ...
    def unsubscribe(self, listener: Callable[[SessionEvent], None]) -> None: ...


def valid_key(key: object) -> bool:
    """``"node.port"``: a node id, a dot, a port name."""
    return isinstance(key, str) and _KEY.match(key) is not None


def summarize(x: object, grad: bool = False) -> tuple[float, str]:
    """``(number, kind)``: the value itself (kind ``"value"``/``"grad"``) for numbers and one-element
    tensors, else the mean of a value (``"mean"``) or the norm of a gradient (``"norm"``); NaN and ``""``
    for what has no number (None, an empty tensor, an object)."""
    if isinstance(x, core.Tensor):
        a = array_of(x)
        if a.size == 0:
            return math.nan, ""
        xp = array_module(a)
        if a.dtype.kind == "c":
            a = xp.abs(a)
        if a.size == 1:
            return float(a.reshape(-1)[0]), "grad" if grad else "value"
        if grad:
            flat = a.reshape(-1) if a.dtype.kind == "f" else a.reshape(-1).astype(np.float64)
            return float(xp.sqrt(xp.vdot(flat, flat))), "norm"
        return float(a.sum(dtype=np.float64)) / a.size, "mean"
    if isinstance(x, (bool, int, float)):
        return float(x), "grad" if grad else "value"
    return math.nan, ""


def _output_ports(node: Node) -> set[str | None]:
    """The names of a node's output ports (not the parameters it owns, which are leaves and keep ``.grad``)."""
    if node.graph is not None:
        return {p.get("name") for p in node.graph.get("outputs", ()) if isinstance(p, dict)}
    return {p.name for p in node.spec.outputs} if node.spec is not None else set()


class _Series:
    """Points ``(step, value, grad)`` of one port, at most ``capacity`` of them (see the module doc)."""

    def __init__(self, capacity: int) -> None:
        self.data = np.empty((max(4, capacity), 3))
        self.n = 0
        self.stride = 1
        self.kinds = ("", "")

    def add(self, step: int, value: float, grad: float) -> None:
        d, n = self.data, self.n
        if n and step <= d[n - 1, 0]:  # the same step again, or an earlier one after time travel
            n = self.n = int(np.searchsorted(d[:n, 0], step, side="right"))
            if n and d[n - 1, 0] == step:
                d[n - 1] = (step, value, grad)
                return
        elif n >= 2 and d[n - 1, 0] - d[n - 2, 0] < self.stride:
            d[n - 1] = (step, value, grad)  # the last point only held the latest step: move it on
            return
        if n == len(d):
            kept = d[0:n:2].copy()
            d[:len(kept)] = kept
            n = len(kept)
            self.stride *= 2
        d[n] = (step, value, grad)
        self.n = n + 1

    def view(self) -> np.ndarray:
        return self.data[:self.n]


class WatchList:
    """Pinned ports of ``graph`` (read from and written to ``graph.view["watch"]``) and their recorded series."""

    def __init__(self, graph: Graph | None = None, capacity: int = 2000) -> None:
        self.graph = graph
        self.capacity = capacity
        self.session: WatchedSession | None = None
        self._series: dict[str, _Series] = {}
        self._retained: set[str] = set()
        self._listening = False  # subscribed to the session's events (only while something is pinned)
        saved = graph.view.get("watch") if graph is not None else None
        for key in saved if isinstance(saved, list) else ():
            if valid_key(key) and key not in self._series:
                self._series[key] = _Series(capacity)
        if graph is not None:
            self.restore((graph.trained_values.get(SESSION_KEY) or {}).get("watch"))

    @property
    def keys(self) -> list[str]:
        return list(self._series)

    def __contains__(self, key: object) -> bool:
        return key in self._series

    def __len__(self) -> int:
        return len(self._series)

    # ----- pins ---------------------------------------------------------------------------------------------
    def add(self, key: str) -> str | None:
        """Pin ``key``; returns why it was refused (bad key, unknown node) or None."""
        if not valid_key(key):
            return f"can't watch {key!r}: a watched port is written 'node.port'"
        node = key.split(".", 1)[0]
        if self.graph is not None and node not in self.graph.nodes:
            return f"can't watch {key}: the graph has no node '{node}'"
        if key not in self._series:
            self._series[key] = _Series(self.capacity)
            self._save()
            self._retain()
            self._listen()
            if self.session is not None:
                self._record_key(key, self.session.step_count)
        return None

    def remove(self, key: str) -> None:
        if self._series.pop(key, None) is not None:
            self._save()
            self._retain()
            self._listen()

    def _save(self) -> None:
        if self.graph is not None:
            self.graph.set_view(watch=list(self._series))

    def _retain(self) -> None:
        """Watched nodes keep their intermediate gradients; the nodes we added and no longer watch don't."""
        if self.session is None:
            return
        nodes = self.session.graph.nodes
        wanted = {nid for nid, port in (k.split(".", 1) for k in self._series)
                  if nid in nodes and port in _output_ports(nodes[nid])}
        ours = self.session.retain_grad_nodes
        for nid in self._retained - wanted:
            ours.discard(nid)
        added = wanted - ours
        ours |= added
        self._retained = (self._retained & wanted) | added

    # ----- the session -----------------------------------------------------------------------------------------
    def attach(self, session: WatchedSession | None) -> None:
        """Record from ``session``'s events from now on (detaching from the previous one); the session saves the
        recorded points with its training position."""
        if session is self.session:
            return
        self.detach()
        self.session = session
        if session is not None:
            session.watch_list = self
            self._listen()
            self._retain()

    def _listen(self) -> None:
        """Follow the session's events only while something is pinned: a session nobody listens to builds no
        event per training step."""
        if self.session is None:
            return
        if self._series and not self._listening:
            self.session.subscribe(self._on_event)
        elif not self._series and self._listening:
            self.session.unsubscribe(self._on_event)
        self._listening = bool(self._series)

    def detach(self) -> None:
        if self.session is not None:
            if self._listening:
                self.session.unsubscribe(self._on_event)
                self._listening = False
            for nid in self._retained:
                self.session.retain_grad_nodes.discard(nid)
            self._retained = set()
            if self.session.watch_list is self:
                self.session.watch_list = None
            self.session = None

    def _on_event(self, event: SessionEvent) -> None:
        session = self.session
        if not self._series or session is None:  # (only an attached session's events arrive)
            return
        phase = event.phase
        if phase == "train":
            if "error" not in event.detail:
                self.record(event.detail.get("step", session.step_count))
        elif phase == "forward" or phase == "backward":
            if event.detail.get("done") or self._touches(event):
                self.record(session.step_count)
        elif phase == "optimizer":
            self.record(max(session.step_count - 1, 0))
        elif phase == "reset":
            self.clear()

    def _touches(self, event: SessionEvent) -> bool:
        node = event.node
        if node is not None and any(k.startswith(node + ".") for k in self._series):
            return True
        return any(k in self._series for k in event.changed)

    # ----- recording and reading ---------------------------------------------------------------------------------
    def record(self, step: int) -> None:
        """Record every watched port of the attached session (if any) as the point of ``step``."""
        if self.session is None:
            return
        for key in self._series:
            self._record_key(key, step)

    def _record_key(self, key: str, step: int) -> None:
        s = self.session
        nid, port = key.split(".", 1)
        if s is None or nid not in s.graph.nodes:  # (callers check that a session is attached)
            return
        value = s.value(nid, port)
        v, vkind = summarize(value)
        g, gkind = summarize(grad_of(value) if isinstance(value, core.Tensor) else None, grad=True)
        series = self._series[key]
        if vkind:
            series.kinds = (vkind, gkind or series.kinds[1])
        elif gkind:
            series.kinds = (series.kinds[0], gkind)
        series.add(int(step), v, g)

    def state(self) -> dict[str, Any]:
        """The recorded points as file data, ``{key: {"points": (n, 3) array of step, value, grad, "stride",
        "kinds"}}`` for each pinned port with some."""
        return {key: {"points": s.view().copy(), "stride": s.stride, "kinds": list(s.kinds)}
                for key, s in self._series.items() if s.n}

    def restore(self, state: dict[str, Any] | None) -> None:
        """Take the points ``state`` (a file's, ``state()``) saved for the pinned ports (at most ``capacity`` of each,
        the latest kept)."""
        for key, saved in (state or {}).items():
            series = self._series.get(key)
            if series is None:
                continue
            points = np.asarray(saved["points"], dtype=np.float64).reshape(-1, 3)[-len(series.data):]
            series.data[:len(points)] = points
            series.n = len(points)
            series.stride = max(int(saved.get("stride") or 1), 1)
            kinds = list(saved.get("kinds") or ("", ""))
            series.kinds = (str(kinds[0]), str(kinds[1])) if len(kinds) == 2 else ("", "")

    def clear(self) -> None:
        """Forget the recorded points (the pins stay)."""
        for key in self._series:
            self._series[key] = _Series(self.capacity)

    def series(self, key: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(steps, values, grads)`` as float64 arrays (copies)."""
        d = self._series[key].view()
        return d[:, 0].copy(), d[:, 1].copy(), d[:, 2].copy()

    def latest(self, key: str) -> tuple[int, float, float] | None:
        """``(step, value, grad)`` of the last point, or None before any."""
        d = self._series[key].view()
        return (int(d[-1, 0]), float(d[-1, 1]), float(d[-1, 2])) if len(d) else None

    def labels(self, key: str) -> tuple[str, str]:
        """What the value and gradient numbers are: ``"value"``/``"mean"`` and ``"grad"``/``"norm"``."""
        vkind, gkind = self._series[key].kinds
        return vkind or "value", gkind or "grad"

    def stride(self, key: str) -> int:
        """How many steps apart the recorded points are now (1 until the series was first thinned)."""
        return self._series[key].stride
