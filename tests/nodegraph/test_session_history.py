"""Time travel in a session: step back and forth through snapshots, restoring values exactly."""

import numpy as np
import pytest

from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import chapter_graph, linear_mse_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def _state(s):
    """Everything a step may change, as plain copies: values, grads, versions, ledger, released flags."""
    values = {f"{n}.{p}": (None if v is None else np.array(v._data, copy=True), getattr(v, "_version", None))
              for n, out in s.values.items() for p, v in out.items()}
    grads = {k: None if t._grad is None else t._grad._data.copy() for k, t in s.leaves().items()}
    ledger = {k: len(v) for k, v in s.ledger.entries.items()}
    freed = {n: s.inspector.freed(n) for n in s.values}
    return values, grads, ledger, freed, s.next_node, s.step_count


def _same(a, b):
    def eq(x, y):
        if isinstance(x, dict):
            return x.keys() == y.keys() and all(eq(x[k], y[k]) for k in x)
        if isinstance(x, tuple):
            return len(x) == len(y) and all(eq(i, j) for i, j in zip(x, y))
        if isinstance(x, np.ndarray):
            return isinstance(y, np.ndarray) and x.shape == y.shape and np.array_equal(x, y)
        return x == y
    return eq(a, b)


def test_stepping_back_and_forth_restores_every_step_exactly():
    s = Session(chapter_graph())
    states = [_state(s)]
    for _ in range(6):
        s.forward_step()
        states.append(_state(s))
    for _ in range(12):  # two backward calls with retain_graph: grads accumulate in place
        s.backward_step(retain_graph=True)
        states.append(_state(s))
    assert len(s.history.snapshots) == len(states)
    for k in range(len(states) - 1, 0, -1):
        assert s.history.step_back()
        assert _same(_state(s), states[k - 1]), k
    assert not s.history.step_back()
    for k in range(1, len(states)):
        assert s.history.step_forward()
        assert _same(_state(s), states[k]), k
    assert not s.history.step_forward()


def test_stepping_back_before_a_backward_revives_the_freed_graph():
    s = Session(chapter_graph())
    s.forward()
    before = s.history.position
    s.backward()
    assert s.inspector.freed("mul")
    s.history.goto(before)
    assert not s.inspector.freed("mul") and s.grad("x") is None
    s.backward()  # the graph is usable again: no error
    assert "z" not in s.errors
    np.testing.assert_allclose(s.grad("x")._data, [1.5, -0.5])


def test_a_new_step_from_the_middle_of_a_backward_resumes_it():
    s = Session(chapter_graph())
    s.forward()
    s.backward(retain_graph=True)
    s.backward()
    for _ in range(4):
        s.history.step_back()
    assert [c.backward_call for c in s.ledger.contributions("x.out")] == [1]
    s.backward()  # continues the second backward where the shown step left it
    np.testing.assert_allclose(s.grad("x")._data, [3.0, -1.0])
    assert [c.backward_call for c in s.ledger.contributions("x.out")] == [1, 2]
    assert s.history.at_head


def test_history_keeps_the_last_n_steps_and_still_restores_the_oldest():
    s = Session(chapter_graph(), history_limit=5)
    s.forward()
    s.backward(retain_graph=True)
    s.backward(retain_graph=True)
    assert len(s.history.snapshots) == 5
    while s.history.step_back():
        pass
    grads = {k: None if t._grad is None else t._grad._data.tolist() for k, t in s.leaves().items()}
    # the oldest kept step is the second backward's 2nd step (z, then b accumulated twice)
    assert grads["b.out"] == pytest.approx(2.0) and grads["x.out"] == pytest.approx([1.5, -0.5])


def test_optimizer_steps_are_undone_in_place():
    s = Session(linear_mse_graph())
    s.forward()
    s.backward()
    w = s.parameters()["lin.weight"]
    before = w._data.copy()
    s.optimizer_step()
    assert not np.array_equal(w._data, before)
    s.history.step_back()
    assert np.array_equal(w._data, before) and s.step_count == 0
    s.history.step_forward()
    assert not np.array_equal(w._data, before) and s.step_count == 1


def test_going_back_restores_the_generator_so_a_random_node_draws_the_same_again():
    g = Graph()
    for nid in ("a", "b"):  # no seed: both draw from the session's generator
        g.add_node(Node(nid, "source.randn", {"shape": [3], "requires_grad": True}))
    g.add_node(Node("m", "math.mul"))
    g.add_node(Node("loss", "reduce.sum"))
    for e in (("a", "out", "m", "a"), ("b", "out", "m", "b"), ("m", "out", "loss", "x")):
        g.connect(Edge(*e))
    s = Session(g)
    s.forward_step()
    after_a = s.history.position
    s.forward()
    drawn_b, forward_done = s.value("b")._data.copy(), s.history.position
    s.backward()
    s.history.goto(forward_done + 2)  # a step of the backward: the generator is as the forward left it
    assert s.history.snapshots[s.history.position].label[0] == "backward"
    s.history.goto(after_a)
    assert s.next_node == "b"
    s.forward_step()  # a new step from here draws b again from the restored generator
    assert np.array_equal(s.value("b")._data, drawn_b)
