"""Fuzzing sequences of edits and runs: a hypothesis state machine drives the document and session API the app
drives (add, remove, connect, disconnect, set a parameter or a training setting, paste, undo, redo; forward, step
forward and backward, backward, zero_grad, optimizer step, train n steps, an edit between training steps; save and
reopen; File > New graph from code).

Invariants, after every step:
- an edit is done or refused with a ``GraphError``/``ParamError`` carrying a message, the document unchanged;
- undo of an edit gives back exactly the saved form it had before, redo exactly the one after;
- running (forward, backward, training) never changes the saved form, and never raises: errors stay on their
  nodes or in a step's metrics (``Session`` promises it);
- a saved and reopened document equals the one saved;
- no other exception, ever.
"""

from __future__ import annotations

import math
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import core.nodegraph.model.nodes  # noqa: F401 - registers the built-in node types
from core.nodegraph.files import io as files
from core.nodegraph.files.code_import import CodeImportError, import_here
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph, GraphError
from core.nodegraph.model.spec import all_specs
from core.nodegraph.run.session import Session
from core.nodegraph.training.runs import RunHistory
from tests.hypothesis_profiles import fuzz_settings
from tests.nodegraph.fuzz_checks import EditRules, message_of

# cheap node kinds that wire into training graphs: sources, parameters, elementwise maths, reductions, losses
TYPES = ["source.randn", "source.tensor", "source.ones", "param.parameter", "math.add", "math.mul", "math.exp",
         "math.log", "reduce.sum", "reduce.mean", "nn.relu", "shape.reshape", "layer.linear", "loss.mse",
         "data.dataset", "expr.expression"]
ANY_TYPE = sorted(s.type_id for s in all_specs() if not s.type_id.startswith(("test.", "tt.")))  # now and then
TEXTS = ["", "0", "-1", "1", "2", "3", "nan", "inf", "1e308", "[2, 3]", "2, 3", "[3]", "[[1, 2], [3, 4]]",
         "[1, nan]", "[]", "True", "abc", "x * w", "(x", "x, w", "float64", "100000, 100000", "-0", "0.5"]
SETTINGS = [("optimizer", "SGD"), ("optimizer", "Adam"), ("optimizer", "RMSprop"), ("optimizer", "LBFGS"),
            ("optimizer_params", {"lr": 0.1, "momentum": 0.9}), ("optimizer_params", {"lr": float("nan")}),
            ("optimizer_params", {"lr": 1e308}), ("optimizer_params", {"lr": 10.0}), ("optimizer_params", {}),
            ("schedule", {"type": "StepLR", "step_size": 1, "gamma": 0.5}), ("schedule", None),
            ("steps", 3), ("steps", 0), ("seed", 5), ("device", "cuda"), ("loss", None), ("loss", "nope"),
            ("stop", {"loss_below": 0.5, "patience": 2, "stop_on_nan": True, "watch": "loss"})]
SNIPPETS = [
    "import torch\nx = torch.tensor([2.0, 3.0], requires_grad=True)\nw = torch.tensor([1.5, -0.5], "
    "requires_grad=True)\nz = (x * w).sum()\nz.backward()\n",
    "import torch\nmodel = torch.nn.Linear(3, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "for _ in range(2):\n    loss = model(torch.randn(4, 3)).pow(2).mean()\n    opt.zero_grad()\n"
    "    loss.backward()\n    opt.step()\n",
    "import torch\nx = torch.randn(3)\ny = x @ torch.randn(4)\n",  # refused: shapes
    "import torch\nx = undefined_name + 1\n",  # refused: NameError
]


class DocumentAndSession(EditRules, RuleBasedStateMachine):
    """One open document, its session, the undo and redo stacks of the commands done, and the plotted runs."""

    PARAM_TEXTS = tuple(TEXTS)

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self._open(Graph())

    def teardown(self) -> None:
        self.session.close()
        self.folder.cleanup()

    def _open(self, graph: Graph) -> None:
        if hasattr(self, "session"):
            self.session.close()
        self.graph, self.session = graph, Session(graph)
        self.reset_edits()
        self.runs = RunHistory()

    # ----- edits (the shared ones in fuzz_checks.EditRules): done, or refused with the document unchanged ---------
    @rule(type_id=st.sampled_from(TYPES) | st.sampled_from(ANY_TYPE))
    def add_node(self, type_id: str) -> None:
        self._edit(cmd.AddNode({"type": type_id}))

    @rule(setting=st.sampled_from(SETTINGS), data=st.data())
    def set_training(self, setting: tuple[str, object], data: st.DataObject) -> None:
        key, value = setting
        if key == "loss" and value is None and self.graph.nodes:
            value = self._node(data)  # a node as the loss (any node: a non-scalar one fails in training)
        self._edit(cmd.SetTraining(key, value))

    @rule(data=st.data())
    def copy_and_paste(self, data: st.DataObject) -> None:
        if self.graph.nodes:
            chosen = data.draw(st.sets(st.sampled_from(sorted(self.graph.nodes)), min_size=1, max_size=3))
            self._edit(cmd.Paste(files.loads_fragment(files.dumps_fragment(self.graph, chosen))))

    @rule(data=st.data(), title=st.sampled_from(["", "loss", "x", "a b", "é" * 3, "t" * 300, None]))
    def set_title(self, data: st.DataObject, title: str | None) -> None:
        nid = self._node(data)
        if nid is not None:
            self._edit(cmd.SetNodeAttr(nid, "title", title))

    @rule(data=st.data(), where=st.sampled_from([(0.0, 0.0), (-1e6, 3.5), (1e308, 1.0), (float("nan"), 0.0)]))
    def move(self, data: st.DataObject, where: tuple[float, float]) -> None:
        nid = self._node(data)
        if nid is not None:
            self._edit(cmd.MoveNodes({nid: where}))

    @rule(data=st.data())
    def collapse(self, data: st.DataObject) -> None:
        if self.graph.nodes:
            chosen = data.draw(st.lists(st.sampled_from(sorted(self.graph.nodes)), min_size=1, max_size=3))
            self._edit(cmd.Collapse(chosen))

    @rule(data=st.data())
    def expand(self, data: st.DataObject) -> None:
        nid = self._node(data)
        if nid is not None:
            self._edit(cmd.Expand(nid))  # refused unless a subgraph

    @rule(data=st.data(), text=st.sampled_from(["", "note", "x" * 5000]))
    def comment(self, data: st.DataObject, text: str) -> None:
        chosen = data.draw(st.lists(st.sampled_from(sorted(self.graph.nodes)), max_size=2)) if self.graph.nodes else []
        self._edit(cmd.AddComment({"id": self.graph.new_id("c"), "text": text, "nodes": chosen}))

    @rule(data=st.data())
    def remove_comment(self, data: st.DataObject) -> None:
        if self.graph.comments:
            self._edit(cmd.RemoveComment(data.draw(st.sampled_from(sorted(self.graph.comments)))))

    @rule(how=st.sampled_from(["step_back", "step_forward", "first"]))
    def time_travel(self, how: str) -> None:
        history = self.session.history
        if how == "first":
            if history.snapshots:
                history.goto(0)
        else:
            getattr(history, how)()

    # ----- runs: never raise, never change the document ------------------------------------------------------------
    @rule(how=st.sampled_from(["forward", "forward_step", "backward", "backward_step", "zero_grad",
                               "optimizer_step", "new_pass", "reset"]))
    def run(self, how: str) -> None:
        getattr(self.session, how)()

    @rule(n=st.integers(1, 3), zero_grad=st.booleans())
    def train(self, n: int, zero_grad: bool) -> None:
        run = self.runs.new_run(dict(self.graph.training))
        for metrics in self.session.train(n, zero_grad):
            run.add(metrics)
            if "error" not in metrics:
                assert metrics["loss"] is None or isinstance(metrics["loss"], float)
        assert len(run) <= n

    @rule(data=st.data())
    def edit_while_training(self, data: st.DataObject) -> None:
        """An edit between two steps of one training run (the Train dock or canvas used while it trains)."""
        run = self.runs.new_run(dict(self.graph.training))
        steps = self.session.train(4)
        for i, metrics in enumerate(steps):
            run.add(metrics)
            if i == 0:
                edit = data.draw(st.sampled_from(["lr", "disconnect", "remove loss", "batch", "data"]))
                self._edit_mid_run(edit, data)
        assert all(math.isfinite(s) for s in run.steps())

    def _edit_mid_run(self, edit: str, data: st.DataObject) -> None:
        g = self.graph
        if edit == "lr":
            lr = data.draw(st.sampled_from([float("nan"), float("inf"), 1e308, -1.0, 10.0, 0.0]))
            self._edit(cmd.SetTraining("optimizer_params", {**(g.training.get("optimizer_params") or {}), "lr": lr}))
        elif edit == "disconnect" and g.edges:
            self._edit(cmd.Disconnect(*data.draw(st.sampled_from(list(g.edges)))))
        elif edit == "remove loss" and g.training.get("loss") in g.nodes:
            self._edit(cmd.RemoveNodes([g.training["loss"]]))
        elif edit in ("batch", "data"):
            datasets = sorted(n for n, node in g.nodes.items() if node.type == "data.dataset")
            if datasets:
                name, value = (("batch_size", 100_000) if edit == "batch" else
                               data.draw(st.sampled_from([("noise", float("nan")), ("n_samples", 2)])))
                self._edit(cmd.SetParam(datasets[0], name, value))

    # ----- files ----------------------------------------------------------------------------------------------------
    @rule()
    def save_and_reopen(self) -> None:
        path = Path(self.folder.name) / "g.json"
        trained = self.session.trained_values() or None
        files.save(self.graph, path, trained=trained)
        reopened = files.load(path)  # compared as text: a NaN in a tensor parameter never equals itself
        assert files.dumps(reopened) == files.dumps(self.graph, trained=trained)  # the trained values with it
        self._open(reopened)

    @rule(snippet=st.sampled_from(SNIPPETS))
    def new_graph_from_code(self, snippet: str) -> None:
        try:
            result = import_here(snippet)
        except CodeImportError as exc:
            message_of(exc)
            return
        self._open(result.graph)

    @invariant()
    def the_document_is_as_last_edited(self) -> None:
        assert files.dumps(self.graph) == self.saved, "running or refusing changed the document"


DocumentAndSession.TestCase.settings = fuzz_settings(max_examples=30, stateful_step_count=25, deadline=None,
                                                suppress_health_check=[HealthCheck.too_slow])
TestDocumentAndSession = DocumentAndSession.TestCase


# ----- escapes the sequences found -------------------------------------------------------------------------------
def test_deleting_a_node_imported_from_code_drops_its_line_and_the_reopened_document_equals_it():
    graph = import_here(SNIPPETS[0]).graph
    before = files.dumps(graph)
    first = next(iter(graph.code["lines"]))
    remove = cmd.RemoveNodes([first])
    remove.do(graph)
    assert first not in graph.code["lines"]  # the loader keeps no line of a node the file lacks
    assert files.loads(files.dumps(graph)) == graph
    remove.undo(graph)
    assert files.dumps(graph) == before


@pytest.mark.parametrize("make,reason", [
    (lambda: cmd.MoveNodes({"n1": (float("nan"), 0.0)}), "a node's position must be 2 finite numbers"),
    (lambda: cmd.MoveNodes({"n1": (0.0, 0.0), "n2": (1e309, 0.0)}), "a node's position must be 2 finite numbers"),
    (lambda: cmd.SetNodeAttr("n1", "title", "t" * 1001), "the node's title is longer than 1000 characters (1001)"),
    (lambda: cmd.SetNodeAttr("n1", "color", "#" * 101), "the node's color is longer than 100 characters"),
    (lambda: cmd.SetNodeAttr("n1", "title", 5), "the node's title must be text or None, got int"),
    (lambda: cmd.AddComment({"id": "c1", "text": "x" * 100_001}), "a comment's text is longer than 100000"),
    (lambda: cmd.AddComment({"id": "c1", "text": "x\ud800"}), "a comment's text holds a lone surrogate"),
    (lambda: cmd.AddComment({"id": "c1", "rect": [0, 0, float("inf"), 1]}), "a comment's rectangle must be 4 finite"),
])
def test_an_edit_a_file_could_not_hold_is_refused_and_the_document_still_reopens(make, reason):
    g = Graph()
    for nid in ("n1", "n2"):
        cmd.AddNode({"id": nid, "type": "source.randn"}).do(g)
    cmd.AddComment({"id": "c0", "text": "kept", "nodes": ["n1"]}).do(g)
    before = files.dumps(g)
    with pytest.raises(GraphError, match=re.escape(reason)):
        make().do(g)
    assert files.dumps(g) == before
    with pytest.raises(GraphError, match="a comment's rectangle must be 4 finite numbers"):
        cmd.UpdateComment("c0", rect=(0.0, float("nan"), 1.0, 1.0)).do(g)
    assert files.dumps(files.loads(files.dumps(g))) == before


def test_collapsing_a_node_with_a_very_long_title_makes_a_subgraph_whose_file_reopens():
    g = Graph()
    for nid in ("n1", "n2"):
        cmd.AddNode({"id": nid, "type": "source.randn"}).do(g)
    cmd.SetNodeAttr("n1", "title", "t" * 300).do(g)
    cmd.Collapse(["n1", "n2"]).do(g)
    assert files.dumps(files.loads(files.dumps(g))) == files.dumps(g)


def test_a_subgraph_node_without_its_inner_graph_is_refused():
    g = Graph()
    with pytest.raises(GraphError, match="a subgraph node carries its inner graph"):
        cmd.AddNode({"type": "graph.subgraph"}).do(g)
    assert not g.nodes


def test_deleting_a_node_a_comment_names_twice_leaves_a_document_that_reopens():
    g = Graph()
    cmd.AddNode({"id": "n1", "type": "source.randn"}).do(g)
    cmd.AddComment({"id": "c1", "text": "twice", "nodes": ["n1", "n1"]}).do(g)
    before = files.dumps(g)
    remove = cmd.RemoveNodes(["n1"])
    remove.do(g)
    assert g.comments["c1"].nodes == []
    assert files.dumps(files.loads(files.dumps(g))) == files.dumps(g)
    remove.undo(g)
    assert files.dumps(g) == before
