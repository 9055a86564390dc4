"""Fixtures for nodegraph tests: a tiny registry of test node types, removed afterwards."""

import pytest

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
