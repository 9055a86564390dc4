"""Fixtures for nodegraph tests: a tiny registry of test node types, removed afterwards."""

import pytest

from core.nodegraph.model import budget
from core.nodegraph.model.spec import NodeSpec, Param, Port, register, unregister


@pytest.fixture
def test_types():
    """Two node types: ``test.value`` (a number source) and ``test.add`` (two inputs)."""
    specs = [
        NodeSpec("test.value", "Test", "Value", "a constant", lambda ctx, inputs, params: params["value"],
                 params=(Param("value", "float", 1.0),)),
        NodeSpec("test.add", "Test", "Add", "a + b", lambda ctx, inputs, params: inputs["a"] + inputs["b"],
                 inputs=(Port("a"), Port("b"))),
    ]
    for s in specs:
        register(s)
    yield specs
    for s in specs:
        unregister(s.type_id)


@pytest.fixture
def default_budgets(monkeypatch):
    """The test starts from the environment's memory and FLOP budgets; whatever it sets is undone."""
    monkeypatch.delenv(budget.MEMORY_ENV, raising=False)
    monkeypatch.delenv(budget.FLOP_ENV, raising=False)
    old = budget.set_memory_budget(None), budget.set_flop_budget(None)
    yield
    budget.set_memory_budget(old[0])
    budget.set_flop_budget(old[1])
