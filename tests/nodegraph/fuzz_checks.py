"""What every fuzz test asks of a graph that was accepted: it saves and loads back, and it evaluates and trains
without raising (errors stay on their nodes or in a step's metrics); and the edit rules the stateful fuzz tests
share, with what an edit promises."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from core.nodegraph.files import io as files
from core.nodegraph.files.schema import SESSION_KEY
from core.nodegraph.model import commands as cmd
from core.nodegraph.model import tensor_store
from core.nodegraph.model.document import Graph, GraphError
from core.nodegraph.model.numtext import parse
from core.nodegraph.model.spec import ParamError, get_spec
from core.nodegraph.run.session import Session


def runs_without_raising(g: Graph) -> None:
    """``g`` round-trips through its file text and runs forward, backward and one training step."""
    assert files.dumps(files.loads(files.dumps(g))) == files.dumps(g)  # as text: a NaN value never equals itself
    s = Session(g)
    s.forward()  # errors are kept on their nodes
    if s.loss_node() is not None:
        s.backward()
    for metrics in Session(g).train(1):  # or the step ends with an error in its metrics
        assert "error" in metrics or metrics["loss"] is not None


REFUSED = (GraphError, ParamError)


def message_of(exc: Exception) -> str:
    """A refusal's message, which a user reads: never empty, never a wall of text."""
    text = str(exc)
    assert text and len(text) < 2000, f"{type(exc).__name__} with an empty or huge message"
    return text


class EditRules:
    """The edit rules the state machines share (delete, connect, disconnect, set a parameter, undo, redo) and
    what each promises: an edit is done, or refused with a message and the document unchanged; undo gives back
    exactly the saved form before, redo exactly the one after.

    A ``RuleBasedStateMachine`` that mixes this in keeps ``graph``, ``saved`` (the saved form last edited) and
    the two stacks, and calls ``reset_edits`` when it opens a document. ``PARAM_TEXTS`` are what a user types in
    a parameter's field; parameters named in ``FIXED_PARAMS`` are never set."""

    graph: Graph
    saved: str
    # (command, saved form before, after, what the session had trained before: trained_form)
    undo_stack: list[tuple[cmd.Command, str, str, object]]
    redo_stack: list[tuple[cmd.Command, str, str, object]]  # (..., what it had trained before the undo)
    PARAM_TEXTS: tuple[str, ...] = ()
    FIXED_PARAMS: tuple[str, ...] = ()
    UNDONE_AT_ONCE: tuple[str, ...] = ("remove_node", "set_param", "disconnect")  # rules taking ``data`` only

    def reset_edits(self) -> None:
        self.undo_stack, self.redo_stack = [], []
        self.saved = files.dumps(self.graph)

    def trained_form(self) -> object:
        """What the machine's session has trained that an undo or redo must give back exactly (``trained_form``
        below); None for a machine without a session."""
        return None

    def training_moved_on(self) -> None:
        """The session trained: what an undo or redo gives back is no longer what it had before the edit."""
        self.undo_stack = [(c, before, after, None) for c, before, after, _ in self.undo_stack]
        self.redo_stack = [(c, before, after, None) for c, before, after, _ in self.redo_stack]

    def _gives_back(self, want: object, what: str) -> None:
        """After an undo or redo: every node's trained values it had and the optimizer's state are as they were."""
        if want is None:
            return
        got = self.trained_form()
        assert isinstance(want, dict) and isinstance(got, dict)
        assert got["optimizer"] == want["optimizer"], f"{what} did not give back the optimizer's state"
        for nid in want["ran"]:
            assert got["params"].get(nid) == want["params"][nid], f"{what} did not give back {nid}'s trained values"

    def _edit(self, command: cmd.Command) -> None:
        before = files.dumps(self.graph)
        trained = self.trained_form()
        try:
            command.do(self.graph)
        except REFUSED as exc:
            message_of(exc)
            assert files.dumps(self.graph) == before, f"a refused {type(command).__name__} changed the document"
            return
        self.saved = files.dumps(self.graph)
        if self.saved != before:
            self.undo_stack.append((command, before, self.saved, trained))
            self.redo_stack.clear()

    def _node(self, data: st.DataObject) -> str | None:
        return data.draw(st.sampled_from(sorted(self.graph.nodes))) if self.graph.nodes else None

    @rule(data=st.data())
    def remove_node(self, data: st.DataObject) -> None:
        nid = self._node(data)
        if nid is not None:
            self._edit(cmd.RemoveNodes([nid]))

    @rule(data=st.data())
    def connect(self, data: st.DataObject) -> None:
        src, dst = self._node(data), self._node(data)
        if src is None or dst is None:
            return
        outs, ins = self.graph.port_names(src)[1], self.graph.port_names(dst)[0]
        if outs and ins:
            self._edit(cmd.Connect(src, data.draw(st.sampled_from(outs)), dst, data.draw(st.sampled_from(ins))))

    @rule(data=st.data())
    def disconnect(self, data: st.DataObject) -> None:
        if self.graph.edges:
            self._edit(cmd.Disconnect(*data.draw(st.sampled_from(list(self.graph.edges)))))

    @rule(data=st.data())
    def set_param(self, data: st.DataObject) -> None:
        """A value typed in the Inspector: a field that refuses it sets nothing."""
        nid = self._node(data)
        if nid is not None:
            self._set_param_of(nid, data)

    def _set_param_of(self, nid: str, data: st.DataObject) -> None:
        params = [p for p in get_spec(self.graph.nodes[nid].type).params if p.name not in self.FIXED_PARAMS]
        if not params:
            return
        param = data.draw(st.sampled_from(params))
        try:
            value = param.validate(parse(param, data.draw(st.sampled_from(self.PARAM_TEXTS))))
        except REFUSED as exc:
            message_of(exc)
            return
        self._edit(cmd.SetParam(nid, param.name, value))

    def run_after_edit(self) -> None:
        """What a machine's session runs between an edit and its undo (``edit_and_undo_at_once``): nothing here."""

    @rule(data=st.data(), run=st.booleans())
    def edit_and_undo_at_once(self, data: st.DataObject, run: bool) -> None:
        """An edit (one of ``UNDONE_AT_ONCE``) undone at once, after a forward pass or not: the undo gives back the
        document and what the session had trained (a layer resized and rebuilt, or deleted, then undone)."""
        done = len(self.undo_stack)
        getattr(self, data.draw(st.sampled_from(self.UNDONE_AT_ONCE)))(data)
        if len(self.undo_stack) > done:
            if run:
                self.run_after_edit()
            self.undo()

    @precondition(lambda self: self.undo_stack)
    @rule()
    def undo(self) -> None:
        command, before, after, trained = self.undo_stack.pop()
        undone = self.trained_form()
        command.undo(self.graph)
        assert files.dumps(self.graph) == before, f"undo of {command.text!r} did not restore the document"
        self._gives_back(trained, f"undo of {command.text!r}")
        self.redo_stack.append((command, before, after, undone))
        self.saved = before

    @precondition(lambda self: self.redo_stack)
    @rule()
    def redo(self) -> None:
        command, before, after, trained = self.redo_stack.pop()
        redone = self.trained_form()
        command.do(self.graph)
        assert files.dumps(self.graph) == after, f"redo of {command.text!r} did not re-apply it"
        self._gives_back(trained, f"redo of {command.text!r}")
        self.undo_stack.append((command, before, after, redone))
        self.saved = after


def trained_form(session: Session) -> dict[str, object]:
    """What ``session`` has trained, comparable with ``==``: ``{"params": {node: {name: (dtype, shape, bytes)}},
    "optimizer": its state as a file keeps it, "ran": the nodes that ran since their last edit}`` (the generator's
    position, which a forward pass moves, left out).

    An undo or redo gives back the values of the nodes that had run (``ran``): a node whose parameters were set
    since keeps its old weights until its next run drops them, whichever edit comes between; the undo of the edit
    that set them gives them back, not the undo of an edit made meanwhile."""
    values = session.trained_values()
    position = values.pop(SESSION_KEY, None) or {}
    return {"params": {nid: {k: _plain(v) for k, v in arrays.items()} for nid, arrays in values.items()},
            "optimizer": _plain(position.get("optimizer")),
            "ran": {nid for nid in values if nid in session.values or nid in session.errors}}


def saved_text(session: Session) -> str:
    """What Save writes now for ``session``'s document: the recipe and what the session trained."""
    return files.dumps(session.graph, trained=session.trained_values() or None)


def assert_a_step_matches_a_fresh_load(session: Session) -> None:
    """Saved now and reopened, the document trains the step the live session trains next: the same loss, then the
    same weights and optimizer state (a layer whose seed or size was set since it last ran is built anew by both,
    its old weights and momentum in neither)."""
    fresh = Session(files.loads(saved_text(session)))
    try:
        live_metrics, fresh_metrics = list(session.train(1)), list(fresh.train(1))
        assert [m.get("error") for m in live_metrics] == [m.get("error") for m in fresh_metrics], \
            "a training step fails live and not reopened, or the other way"
        assert [repr(m.get("loss")) for m in live_metrics] == [repr(m.get("loss")) for m in fresh_metrics], \
            "the step's loss differs live and reopened"
        live, reopened = trained_form(session), trained_form(fresh)
        assert _as_saved(session) == _as_saved(fresh), "after a step the weights differ live and reopened"
        assert live["optimizer"] == reopened["optimizer"], "after a step the optimizer state differs live and reopened"
    finally:
        fresh.close()


def _as_saved(session: Session) -> dict[str, dict[str, str]]:
    """Each node's trained values as its file writes them (a small array as a list of numbers, whatever its dtype:
    a node of a reopened file that has not run yet holds the file's float64 values, the same numbers)."""
    return {nid: {name: repr(tensor_store.encode(np.asarray(v), None)) for name, v in arrays.items()}
            for nid, arrays in session.trained_values().items() if nid != SESSION_KEY}


def _plain(value: object) -> object:
    """Arrays as (dtype, shape, bytes) (NaN equal to NaN), containers walked."""
    if isinstance(value, np.ndarray):
        return str(value.dtype), value.shape, value.tobytes()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
