"""What every fuzz test asks of a graph that was accepted: it saves and loads back, and it evaluates and trains
without raising (errors stay on their nodes or in a step's metrics); and the edit rules the stateful fuzz tests
share, with what an edit promises."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from core.nodegraph.files import io as files
from core.nodegraph.model import commands as cmd
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
    undo_stack: list[tuple[cmd.Command, str, str]]  # (command, saved form before, after)
    redo_stack: list[tuple[cmd.Command, str, str]]
    PARAM_TEXTS: tuple[str, ...] = ()
    FIXED_PARAMS: tuple[str, ...] = ()

    def reset_edits(self) -> None:
        self.undo_stack, self.redo_stack = [], []
        self.saved = files.dumps(self.graph)

    def _edit(self, command: cmd.Command) -> None:
        before = files.dumps(self.graph)
        try:
            command.do(self.graph)
        except REFUSED as exc:
            message_of(exc)
            assert files.dumps(self.graph) == before, f"a refused {type(command).__name__} changed the document"
            return
        self.saved = files.dumps(self.graph)
        if self.saved != before:
            self.undo_stack.append((command, before, self.saved))
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

    @precondition(lambda self: self.undo_stack)
    @rule()
    def undo(self) -> None:
        command, before, after = self.undo_stack.pop()
        command.undo(self.graph)
        assert files.dumps(self.graph) == before, f"undo of {command.text!r} did not restore the document"
        self.redo_stack.append((command, before, after))
        self.saved = before

    @precondition(lambda self: self.redo_stack)
    @rule()
    def redo(self) -> None:
        command, before, after = self.redo_stack.pop()
        command.do(self.graph)
        assert files.dumps(self.graph) == after, f"redo of {command.text!r} did not re-apply it"
        self.undo_stack.append((command, before, after))
        self.saved = after
