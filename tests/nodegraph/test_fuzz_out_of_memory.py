"""Running out of memory outside a node's op (found by fuzzing layer sizes near the memory budget: a MemoryError
escaped ``Session.train`` from the ledger's copy of the gradients) ends the training step with an error in its
metrics, as a failed backward does, instead of raising into the app."""

import numpy as np
import pytest

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types of the example
from core.nodegraph.files import io as files
from core.nodegraph.lessons import texts as lessons
from core.nodegraph.run.session import Session
from core.nodegraph.training import trainer


class _NumpyOutOfMemory:
    """The trainer's ``np`` whose ``concatenate`` finds no memory (NumPy raises MemoryError before allocating)."""

    def __getattr__(self, name):
        return getattr(np, name)

    def concatenate(self, *args, **kwargs):
        raise MemoryError("Unable to allocate 9.3 GiB for an array with shape (2500000000,) and data type float32")


@pytest.fixture
def regression():
    return files.load(lessons.EXAMPLES_DIR / "playground-regression.json")


def test_no_memory_for_the_gradients_copy_ends_the_step_with_an_error_not_an_exception(regression, monkeypatch):
    monkeypatch.setattr(trainer, "np", _NumpyOutOfMemory())
    steps = list(Session(regression).train(3))
    assert len(steps) == 1 and steps[0]["error"].type == "MemoryError"
    assert "Unable to allocate 9.3 GiB" in steps[0]["error"].message and steps[0]["loss"] is not None


def test_no_memory_for_the_optimizers_state_ends_the_step_with_an_error_not_an_exception(regression, monkeypatch):
    s = Session(regression)

    def no_memory(*args, **kwargs):
        raise MemoryError("Unable to allocate 2 GiB for Adam's moments")

    monkeypatch.setattr(s, "optimizer_update", no_memory)
    steps = list(s.train(3))
    assert len(steps) == 1 and steps[0]["error"].type == "MemoryError"
    assert list(Session(regression).train(1))[0].get("error") is None  # a session with memory trains


def test_no_memory_to_copy_the_optimizers_state_after_training_keeps_the_steps_and_training_goes_on(regression,
                                                                                                   monkeypatch):
    # the copy kept for time travel after the last step raised MemoryError out of Session.train (found by
    # injecting MemoryError at each NumPy allocation of a training step)
    from core.nodegraph.run import optimizer_slot

    regression.training.update(optimizer="Adam", optimizer_params={"lr": 0.01})
    s, plain = Session(regression), Session(regression)
    real = optimizer_slot._clone

    def no_memory(value):
        raise MemoryError("Unable to allocate 2 GiB for a copy of Adam's moments")

    monkeypatch.setattr(optimizer_slot, "_clone", no_memory)
    steps = list(s.train(3))
    monkeypatch.setattr(optimizer_slot, "_clone", real)
    want = [m["loss"] for m in plain.train(5)]
    assert [m["loss"] for m in steps] + [m["loss"] for m in s.train(2)] == want
