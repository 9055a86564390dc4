"""The captured training forward: ``core.compile`` over the session's forward pass, replayed step after step.

``Training`` evaluates the graph each step with ``Session.run_forward``. ``CapturedForward`` wraps that pass
in ``core.compile`` (``core.autograd.capture``): a function that runs ``run_forward`` and returns every tensor
the session's values hold. Its first call after a change runs eagerly while the ops are recorded; later calls
replay the recorded primitives on the parameters' current values, without the nodes' Python code, and the
fresh tensors are written back into ``session.values`` (so the Inspector, accuracy and plots read this
step's values). The loss's ``grad_fn`` is then one ``CompiledFunctionBackward``, whose backward runs the
recorded nodes' backward functions in the engine's order: gradients, metrics and the optimizer's updates
(``core.optim``, not captured) equal the eager step's bit for bit.

When it applies, and what runs eagerly instead (``mode`` says which path the last step took, and why):

- the first step after any change (``invalidate``: an edit, a reset, a device switch, another training
  mode) runs plainly, so the session's lean plans and static outputs settle; the next one is recorded;
- a ``data.dataset`` node picks its batch by step number outside any op, so the recorded pass would hold
  the recording step's batch: before each replay the node runs (``Session.run_node``) and its new batch is
  copied into the recorded batch's storage (a batch of another shape, such as an epoch's smaller last one,
  runs that step eagerly);
- the first replay is checked: the session's eager forward runs too and every tensor must be equal (any
  other node that changes between steps outside any op is caught here), and the eager values are the ones
  that step uses;
- a capture ``core.compile`` refuses (a node reads a value with ``item``, draws random numbers outside an
  op, runs a backward of its own), a node drawing from the session's generator, in-place nodes, retained
  non-leaf gradients and forward errors keep the graph eager until the next change;
- the last step of a ``train`` call runs eagerly, so the session afterwards holds exactly the eager state
  (the autograd view's per-node graph, the finished pass).

``mode`` is always true of the step that ran last: after a call it says ``"eager — " + LAST_STEP`` (or the reason
that came first), and ``before_last`` says how many of the call's earlier steps replayed, of how many (the Train
dock said 'replayed' for a call whose last steps ran eagerly after an edit).
"""

from __future__ import annotations

from typing import Any

import core
from core.autograd.graph import array_module, array_of

__all__ = ["CapturedForward", "LAST_STEP"]

Slot = tuple[str, str]  # (node id, output port)
LAST_STEP = "the last step of a run runs every node"  # why a lone Step, or a call's last after no replay, is eager
FEED_TYPES = ("data.dataset",)  # node types whose outputs change per step without an op (refreshed per replay)


class CapturedForward:
    """The session's forward pass through ``core.compile``; ``run(last)`` does one step's forward."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.enabled = True
        self.mode = "eager — not trained yet"  # the path the last step's forward took (Training.step_mode)
        self.replayed = False  # the last step's forward was a replay (not the eager pass's autograd graph)
        self.before_last = (0, 0)  # (replayed, ran): the steps of the latest call before its last one
        self._call_steps = [0, 0]  # the same, counted in the call under way
        self.invalidate()

    def invalidate(self) -> None:
        """Something the recorded pass depends on changed: the next steps warm up and record again."""
        self.compiled: Any = None  # the core.compile'd pass (its captures/replays counters)
        self.refused: str | None = None  # why this document's pass runs eagerly until the next change
        self._warm = False  # one plain step ran since the change
        self._checked = False  # the first replay was compared with the eager pass
        self._slots: list[Slot] | None = None
        self._feeds: list[tuple[str, str, Any]] | None = None  # (node, port, the recorded batch tensor)
        self._key: tuple | None = None

    def _state_key(self) -> tuple:
        """What the recorded pass depends on besides the document (whose edits call ``invalidate``)."""
        s = self.session
        graph = s.graph
        return id(s.values), s.device, s.training, getattr(graph.edges, "version", None), len(graph.nodes)

    def begin_call(self) -> None:
        """A ``train`` call starts: its steps are counted afresh (a cancelled call ran no last step to end its
        count)."""
        self.before_last, self._call_steps = (0, 0), [0, 0]

    def run(self, last: bool) -> None:
        """Evaluate every node for a training step (``session.values`` holds this step's outputs after)."""
        self.replayed = False
        if last:
            self.before_last, self._call_steps = (self._call_steps[0], self._call_steps[1]), [0, 0]
        else:
            self._call_steps[1] += 1
        self._forward(last)
        if self.replayed:
            self._call_steps[0] += 1

    def _forward(self, last: bool) -> None:
        """``run``'s forward: eagerly (``mode`` says why), or recorded, checked or replayed by ``core.compile``."""
        s = self.session
        key = self._state_key()
        if key != self._key:
            if self._key is not None:
                self.invalidate()
            self._key = key
        why = self._why_eager(last)
        if why is not None:
            s.run_forward()
            self.mode = f"eager — {why}"
            if not self._warm and not s.errors:
                self._warm = True
            self._key = self._state_key()
            return
        if self.compiled is None:
            self.compiled = core.compile(self._body)
        self._call()
        self._key = self._state_key()

    def _why_eager(self, last: bool) -> str | None:
        s = self.session
        if not self.enabled:
            return "capture is off"
        if self.refused is not None:
            return self.refused
        if s.retain_grad_nodes:
            self.refused = "non-leaf outputs retain their gradients"
        elif any(n.type.endswith("_") for n in s.graph.nodes.values()):
            self.refused = "an in-place node changes tensors as it runs"
        if self.refused is not None:
            return self.refused
        if not self._warm:
            return "first step after a change; the next one is recorded"
        if last:
            return LAST_STEP
        return None

    def _body(self) -> list | None:
        """The recorded function: the session's forward pass; every tensor it leaves in the values."""
        s = self.session
        s.run_forward()
        if s.errors:
            self._slots = None
            return None
        values = s.values
        self._slots = [(nid, port) for nid, outs in values.items() for port, v in outs.items()
                       if isinstance(v, core.Tensor)]
        return [values[nid][port] for nid, port in self._slots]

    def _call(self) -> None:
        s, fn = self.session, self.compiled
        replays, captures = fn.replays, fn.captures
        if self._feeds is not None and not self._refresh_feeds():
            s.run_forward()
            self.mode = "eager — a batch of another shape than the recorded one"
            return
        generator = None if self._checked else s.generator.get_state().numpy().tobytes()
        out = fn()
        if fn.replays == replays:  # it ran eagerly: a capture, or a key whose capture was refused
            if generator is None:  # recorded again (a parameter changed shape): start over, checks and all
                self.invalidate()
                self.mode = "eager — recording again after a change"
            elif s.errors:
                self.refuse("a node reported an error")
            elif fn.captures != captures and not fn.captured:
                self.refuse(fn.reason or "core.compile refused the capture")
            elif generator != s.generator.get_state().numpy().tobytes():
                self.refuse("a node draws random numbers from the session's generator")
            else:
                self.mode = "captured (recording)"
                feeds = {nid for nid, n in s.graph.nodes.items() if n.type in FEED_TYPES and not _whole_set(n.params)}
                self._feeds = [(nid, port, s.values[nid][port]) for nid, port in self._slots or () if nid in feeds]
                for nid, port, batch in self._feeds:  # the recorded batch becomes the plan's own: later batches
                    s.values[nid] = {**s.values[nid], port: batch.clone()}  # are copied into it, unseen by others
            return
        if not self._checked:
            self._check(out)
            return
        self._write_back(out)
        self.mode = "captured (replaying)"
        self.replayed = True

    def _refresh_feeds(self) -> bool:
        """Run the feed nodes for this step and copy their batches into the recorded ones (False: a shape
        differs, or a node failed)."""
        s = self.session
        fresh = []
        for nid in dict.fromkeys(nid for nid, _port, _t in self._feeds or ()):
            if s.run_node(nid, lean=True) is None:
                return False
        for nid, port, recorded in self._feeds or ():
            new = s.values[nid][port]
            if not isinstance(new, core.Tensor) or new.shape != recorded.shape or new.dtype != recorded.dtype:
                return False
            fresh.append((array_of(recorded), array_of(new)))
        for into, batch in fresh:  # the storage the recorded ops read; no version bump (nothing saw it change)
            into[...] = batch
        return True

    def refuse(self, reason: str) -> None:
        """Run this document eagerly until the next change, saying why."""
        self.refused, self.compiled = reason, None
        self.mode = f"eager — {reason}"

    def _check(self, replayed: list) -> None:
        """The first replay against the eager pass, value for value; the eager values are this step's."""
        slots = self._slots
        self.session.run_forward()
        values = self.session.values
        same = slots is not None and not self.session.errors and all(
            _equal(t, values.get(nid, {}).get(port)) for (nid, port), t in zip(slots, replayed))
        del replayed  # the replay's node goes: the next call may replay again
        if not same:
            self.refuse("the forward pass changes between steps outside any op (e.g. a dataset's batches)")
            return
        self._checked = True
        self.mode = "captured (checked against eager)"

    def _write_back(self, out: list) -> None:
        """The replay's tensors into the session's values (new dicts: static outputs' dicts stay as kept)."""
        values = self.session.values
        fresh: dict[str, dict[str, Any]] = {}
        feeds = {(nid, port) for nid, port, _t in self._feeds or ()}  # the values hold this step's batch already
        for (nid, port), t in zip(self._slots or (), out):
            if values[nid][port] is not t and (nid, port) not in feeds:
                fresh.setdefault(nid, {})[port] = t
        for nid, ports in fresh.items():
            values[nid] = {**values[nid], **ports}


def _whole_set(params: dict) -> bool:
    """A dataset node that yields all its training rows, in order, every step: no refresh needed."""
    size = params.get("batch_size")
    return not params.get("shuffle") and isinstance(size, int) and (size == 0 or size >= params.get("n_samples", 0))


def _equal(a: Any, b: Any) -> bool:
    """Same shape, dtype and values (NaNs in the same places) of two tensors."""
    if not isinstance(b, core.Tensor) or a.shape != b.shape or a.dtype != b.dtype:
        return False
    x, y = array_of(a), array_of(b)
    return bool(array_module(x).array_equal(x, y, equal_nan=x.dtype.kind in "fc"))
