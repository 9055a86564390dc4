"""A leaf made anew (its value edited) starts a new gradient history, as its new tensor's ``.grad`` starts from
None: the ledger's count of backward passes always explains the ``.grad`` the session holds."""

import numpy as np
import pytest

from core.nodegraph.files.examples import default_graph
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def _count(s: Session, key: str) -> int:
    return len(s.ledger.contributions(key))


def test_editing_x_after_two_backward_passes_starts_its_gradient_history_again():
    g = default_graph()
    s = Session(g)
    s.backward(retain_graph=True)
    s.backward()
    assert _count(s, "n1.out") == 2 and s.grad("n1").tolist() == [3.0, -1.0]
    g.set_param("n1", "tensor", [1.0, 4.0])
    s.forward()
    assert s.grad("n1") is None  # a new tensor: no .grad yet
    s.backward()
    (only,) = s.ledger.contributions("n1.out")
    assert np.array_equal(only.total, s.grad("n1").numpy()) and np.array_equal(only.grad, only.total)
    for key, nid in (("n2.out", "n2"), ("n3.out", "n3")):  # every history ends at the .grad the session holds
        history = s.ledger.contributions(key)
        assert np.array_equal(history[-1].total, s.grad(nid).numpy())
        assert np.array_equal(sum(c.grad for c in history), s.grad(nid).numpy())


def test_a_backward_pass_into_the_same_leaf_still_accumulates():
    s = Session(default_graph())
    for _ in range(3):
        s.backward(retain_graph=True)
    history = s.ledger.contributions("n1.out")
    assert len(history) == 3 and np.array_equal(history[-1].total, s.grad("n1").numpy())


def test_stepping_back_over_the_new_leafs_backward_gives_the_old_history_back():
    g = default_graph()
    s = Session(g)
    s.backward()
    g.set_param("n1", "tensor", [1.0, 4.0])
    s.forward()
    s.backward()
    after = s.ledger.contributions("n1.out")
    assert [c.backward_call for c in after] == [2]
    while s.ledger.backward_calls == 2:  # Step back, through the second backward pass
        assert s.history.step_back()
    assert [c.backward_call for c in s.ledger.contributions("n1.out")] == [1]  # the first x's
    while s.history.step_forward():
        pass
    assert s.ledger.contributions("n1.out") == after
