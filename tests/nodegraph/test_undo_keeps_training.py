"""Undo and redo give the session back what the edit made it drop: trained weights and the optimizer's state.

A model trained in a session, then edited (a layer's size set to one its build refuses or to another that builds,
its seed, a parameter node's dtype, shape or init, the node deleted, a paste), then undone: the session's saved
form (the document with its trained values and the optimizer's state, what Save writes) is exactly the one before
the edit, and a redo gives back exactly the one before the undo. A value typed back by hand is an edit of its own:
it builds from the seed, as before.
"""

from __future__ import annotations

import numpy as np
import pytest

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types
from core.nodegraph.files import io as files
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph, GraphError
from core.nodegraph.run import kept_states
from core.nodegraph.run.session import Session

LINEAR = {"type": "layer.linear", "params": {"in_features": 3, "out_features": 2, "seed": 4}}
MLP = {"type": "layer.mlp", "params": {"sizes": [3, 4, 2], "seed": 5}}
PARAMETER = {"type": "param.parameter", "params": {"shape": [4, 3], "seed": 3}}


def trained(node: dict, optimizer: str = "Adam") -> tuple[Graph, Session]:
    """x [4, 3] -> node "m" -> sum, trained three steps with ``optimizer`` (a parameter node is not fed x)."""
    g = Graph()
    cmd.AddNode({"id": "x", "type": "source.randn", "params": {"shape": [4, 3], "seed": 1}}).do(g)
    cmd.AddNode({"id": "m", **node}).do(g)
    cmd.AddNode({"id": "total", "type": "reduce.sum"}).do(g)
    if node["type"].startswith("layer."):
        cmd.Connect("x", "out", "m", "x").do(g)
    cmd.Connect("m", "out", "total", "x").do(g)
    cmd.SetTraining("optimizer", optimizer).do(g)
    s = Session(g)
    for _ in s.train(3):
        pass
    return g, s


def saved_form(g: Graph, s: Session) -> str:
    """What Save writes: the document, its trained values and where training stood (the optimizer's state)."""
    return files.dumps(g, trained=s.trained_values())


def weights(s: Session, nid: str = "m") -> dict[str, np.ndarray]:
    return {k: t.detach().numpy().copy() for k, t in s.node_parameters(nid).items()}


def same_weights(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a)


EDITS = [
    (MLP, "sizes", (3,)),  # its build fails with a message
    (MLP, "sizes", (3, 7, 2)),  # it builds, with other weights
    (LINEAR, "in_features", 5),  # its forward fails (mat1 and mat2 shapes)
    (LINEAR, "out_features", 1_000_000),
    (LINEAR, "seed", 9),
    (LINEAR, "bias", False),
    (PARAMETER, "dtype", "float64"),
    (PARAMETER, "shape", [5]),
    (PARAMETER, "init", "zeros"),
    (PARAMETER, "device", "cuda"),  # no CUDA here: its build fails
]


@pytest.mark.parametrize(("node", "name", "value"), EDITS, ids=[f"{n['type']}-{k}" for n, k, _ in EDITS])
def test_undoing_a_parameter_edit_of_a_trained_node_gives_back_its_weights_and_optimizer_state(node, name, value):
    g, s = trained(node)
    before = saved_form(g, s)
    edit = cmd.SetParam("m", name, value)
    edit.do(g)
    s.forward()
    after = saved_form(g, s)
    edit.undo(g)
    assert saved_form(g, s) == before
    s.forward()
    assert saved_form(g, s) == before, "the undone node ran again from its seed"
    edit.do(g)  # redo
    s.forward()
    assert saved_form(g, s) == after
    edit.undo(g)
    assert saved_form(g, s) == before


def test_a_linear_size_its_input_refuses_then_undo_keeps_the_trained_weights_and_training_goes_on_alike():
    g, s = trained(LINEAR)
    twin_g, twin = trained(LINEAR)
    edit = cmd.SetParam("m", "in_features", 7)
    edit.do(g)
    s.forward()
    assert "m" in s.errors and "shapes cannot be multiplied" in s.errors["m"].message
    edit.undo(g)
    for _ in s.train(2):
        pass
    for _ in twin.train(2):  # the same model never edited: Adam's moments and step counts were kept
        pass
    assert same_weights(weights(s), weights(twin))
    assert saved_form(g, s) == saved_form(twin_g, twin)


def test_undo_after_training_the_edited_model_gives_back_the_weights_from_before_the_edit():
    g, s = trained(MLP)
    kept = weights(s)
    edit = cmd.SetParam("m", "sizes", (3, 5, 2))
    edit.do(g)
    for _ in s.train(2):
        pass
    trained_edited = weights(s)
    edit.undo(g)
    assert same_weights(weights(s), kept)
    edit.do(g)  # redo: the weights trained at the new sizes
    assert same_weights(weights(s), trained_edited)


def test_chains_of_edits_undone_and_redone_give_back_each_state_in_turn():
    g, s = trained(LINEAR)
    first, second = cmd.SetParam("m", "out_features", 5), cmd.SetParam("m", "out_features", 2)  # typed back
    forms = [saved_form(g, s)]
    for edit in (first, second):
        edit.do(g)
        s.forward()
        forms.append(saved_form(g, s))
    assert forms[2] != forms[0], "a size typed back is an edit of its own: it builds from the seed"
    for edit, want in ((second, forms[1]), (first, forms[0])):
        edit.undo(g)
        assert saved_form(g, s) == want
    for edit, want in ((first, forms[1]), (second, forms[2])):
        edit.do(g)
        s.forward()
        assert saved_form(g, s) == want


def test_deleting_a_trained_layer_and_undoing_it_gives_back_its_weights():
    g, s = trained(MLP)
    before = saved_form(g, s)
    delete = cmd.RemoveNodes(["m"])
    for _ in range(2):
        delete.do(g)
        assert "m" not in s.trained_values()
        delete.undo(g)
        assert saved_form(g, s) == before


def test_a_layer_given_back_by_undo_keeps_its_weights_when_its_input_is_then_disconnected():
    g, s = trained(MLP)
    kept = weights(s)
    delete = cmd.RemoveNodes(["m"])
    delete.do(g)
    delete.undo(g)  # the node comes back with copies of its parameter values
    cmd.Disconnect("x", "out", "m", "x").do(g)
    s.forward()
    assert s.errors["m"].type == "MissingInput" and same_weights(weights(s), kept)


def test_a_new_node_that_gets_a_deleted_ones_id_starts_from_its_seed():
    g, s = trained(LINEAR)
    kept = weights(s)
    cmd.RemoveNodes(["m"]).do(g)
    cmd.AddNode({"id": "m", **LINEAR}).do(g)
    cmd.Connect("x", "out", "m", "x").do(g)
    s.forward()
    fresh = Session(files.loads(files.dumps(g)))  # the document alone: the layer as its seed builds it
    fresh.forward()
    assert same_weights(weights(s), weights(fresh)) and not same_weights(weights(s), kept)


def test_a_pasted_layer_trained_then_undone_and_redone_comes_back_trained():
    g, s = trained(LINEAR)
    paste = cmd.Paste(files.loads_fragment(files.dumps_fragment(g, ["m", "total"])))
    paste.do(g)
    copy_id = paste.mapping["m"]
    wire = cmd.Connect("x", "out", copy_id, "x")
    wire.do(g)
    cmd.SetTraining("loss", paste.mapping["total"]).do(g)
    for _ in s.train(2):
        pass
    before = saved_form(g, s)
    wire.undo(g)
    paste.undo(g)
    assert copy_id not in s.trained_values()
    paste.do(g)  # redo, then the wire again
    wire.do(g)
    assert paste.mapping["m"] == copy_id and saved_form(g, s) == before


def test_a_refused_macro_loses_no_training():
    g, s = trained(LINEAR)
    before = saved_form(g, s)
    macro = cmd.Macro("Resize and wire", [cmd.SetParam("m", "out_features", 5),
                                          cmd.Connect("m", "out", "nowhere", "x")])
    with pytest.raises(GraphError):
        macro.do(g)
    s.forward()
    assert saved_form(g, s) == before


def optimizer_state(s: Session) -> object:
    """The optimizer's state as Save writes it, arrays as nested lists (comparable with ==)."""
    def plain(v: object) -> object:
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return np.asarray(v).tolist() if isinstance(v, np.ndarray) else v
    return plain(s.trained_values()["@session"]["optimizer"])


def test_undoing_an_optimizer_switch_gives_back_the_momentum():
    g, s = trained(LINEAR, "SGD")
    cmd.SetTraining("optimizer_params", {"lr": 0.01, "momentum": 0.9}).do(g)
    for _ in s.train(2):
        pass
    before = optimizer_state(s)
    switch = cmd.SetTraining("optimizer", "Adam")
    switch.do(g)
    for _ in s.train(1):
        pass
    assert optimizer_state(s) != before
    switch.undo(g)
    assert optimizer_state(s) == before


def test_an_undo_beyond_the_last_edits_kept_builds_the_node_from_its_seed(monkeypatch):
    monkeypatch.setattr(kept_states, "LIMIT", 2)  # the states set aside by the last 2 edits (4 marks) stay
    g, s = trained(LINEAR)
    edits = [cmd.SetParam("m", "seed", k) for k in range(10, 16)]
    for edit in edits:
        edit.do(g)
        s.forward()
    for edit in reversed(edits):
        edit.undo(g)
    s.forward()
    fresh = Session(files.loads(files.dumps(g)))
    fresh.forward()
    assert same_weights(weights(s), weights(fresh)), "the first edit's trained weights were let go"
