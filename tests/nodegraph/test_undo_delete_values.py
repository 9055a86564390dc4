"""Undoing a node's delete gives back the values the learner saw before it: the node and everything downstream run
again (they had run before the delete dropped them), as the nodes an edit touches run again after other edits."""

import numpy as np
import pytest

from core.nodegraph.files.examples import default_graph
from core.nodegraph.model import commands as cmd
from core.nodegraph.run.session import Session


def _values(session: Session) -> dict:
    return {(nid, port): v.detach().numpy().copy() for nid, outs in session.values.items() for port, v in outs.items()
            if hasattr(v, "detach")}


@pytest.mark.parametrize("victim", ["n2", "n4"])  # a source, and a product with two inputs and consumers
def test_undoing_a_delete_runs_the_node_and_its_consumers_again_with_the_same_values(victim):
    graph = default_graph()
    session = Session(graph)
    session.forward()
    before = _values(session)
    delete = cmd.RemoveNodes([victim])
    delete.do(graph)
    assert not any(nid == victim for nid, _port in _values(session))
    delete.undo(graph)
    after = _values(session)
    assert after.keys() == before.keys() and not session.errors
    assert all(np.array_equal(after[key], before[key]) for key in before)


def test_redo_then_undo_of_a_delete_gives_the_values_back_again():
    graph = default_graph()
    session = Session(graph)
    session.forward()
    before = _values(session)
    delete = cmd.RemoveNodes(["n4"])
    delete.do(graph)
    delete.undo(graph)
    delete.do(graph)  # redo
    delete.undo(graph)
    after = _values(session)
    assert after.keys() == before.keys() and all(np.array_equal(after[key], before[key]) for key in before)


def test_undoing_a_delete_before_anything_ran_runs_nothing():
    graph = default_graph()
    session = Session(graph)
    delete = cmd.RemoveNodes(["n2"])
    delete.do(graph)
    delete.undo(graph)
    assert session.values == {} and not session.errors
