"""Stepping back through training history with no memory to copy the optimizer's state says so and changes nothing.

Time travel puts back the optimizer's state (Adam's moments and step counts) of the step it goes to by copying it
(the copy kept in the history must stay as it was for the next visit). Without memory for that copy the weights
were already put back while the optimizer kept the later step's moments, and the MemoryError escaped half-way.
Now the copy is made first: the step back fails with a message naming what did not fit, the session keeps its
weights, optimizer state, values and history position, and stepping back works once memory is there again.
"""

from __future__ import annotations

import numpy as np
import pytest

from core.nodegraph.run import optimizer_slot
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import linear_mse_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def adam_session() -> Session:
    """Linear + MSE trained by hand for three Adam steps (forward, backward, optimizer step each)."""
    g = linear_mse_graph(teacher=True)
    g.training.update(optimizer="Adam", optimizer_params={"lr": 0.05})
    s = Session(g, seed=0)
    for _ in range(3):
        s.forward()
        s.backward()
        s.optimizer_step()
    return s


def picture(s: Session) -> tuple:
    """What a learner sees and trains on: weights, Adam's state, the values shown, the step and history position."""
    weights = [t.detach().numpy().copy() for t in s.parameters().values()]
    state = s.optimizer().state
    moments = [np.asarray(v.detach().numpy() if hasattr(v, "detach") else v).copy()
               for t in s.parameters().values() for _, v in sorted(state[t].items())]
    values = {nid: out["out"].detach().numpy().copy() for nid, out in s.values.items() if "out" in out}
    return weights, moments, values, s.step_count, s.history.position


def same(a: tuple, b: tuple) -> bool:
    weights_a, moments_a, values_a, *rest_a = a
    weights_b, moments_b, values_b, *rest_b = b
    return (rest_a == rest_b and sorted(values_a) == sorted(values_b)
            and all(np.array_equal(x, y) for x, y in zip(weights_a + moments_a, weights_b + moments_b))
            and len(weights_a + moments_a) == len(weights_b + moments_b)
            and all(np.array_equal(values_a[k], values_b[k]) for k in values_a))


@pytest.fixture
def no_memory_for_copies(monkeypatch):
    """``optimizer_slot._clone`` finds no memory (as NumPy raises MemoryError before allocating); call it to give
    the memory back."""
    real = optimizer_slot._clone

    def no_memory(value):
        raise MemoryError("Unable to allocate 2.0 GiB for an array with shape (536870912,) and data type float32")

    monkeypatch.setattr(optimizer_slot, "_clone", no_memory)
    return lambda: monkeypatch.setattr(optimizer_slot, "_clone", real)


def test_a_step_back_without_memory_for_the_optimizers_state_says_so_and_changes_nothing(no_memory_for_copies):
    s = adam_session()
    before = picture(s)
    with pytest.raises(MemoryError, match=r"optimizer's state .* nothing changed .*Unable to allocate 2\.0 GiB"):
        s.history.step_back()
    assert same(picture(s), before)


def test_after_a_failed_step_back_stepping_back_with_memory_gives_what_it_gives_without_the_failure(
        no_memory_for_copies):
    s, twin = adam_session(), adam_session()
    first_step = next(i for i, snap in enumerate(s.history.snapshots) if snap.label[0] == "optimizer")
    with pytest.raises(MemoryError):
        s.history.goto(first_step)
    no_memory_for_copies()
    s.history.goto(first_step)
    twin.history.goto(first_step)
    assert same(picture(s), picture(twin))


def test_training_on_after_a_failed_step_back_gives_the_numbers_it_gives_without_it(no_memory_for_copies):
    s, twin = adam_session(), adam_session()
    with pytest.raises(MemoryError):
        s.history.step_back()
    no_memory_for_copies()
    assert [m["loss"] for m in s.train(3)] == [m["loss"] for m in twin.train(3)]
    assert same(picture(s), picture(twin))
