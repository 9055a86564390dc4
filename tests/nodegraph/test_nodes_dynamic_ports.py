"""NodeSpec.dynamic_inputs: input ports that follow a parameter, seen through spec.input_ports and Node."""

import pytest

from core.nodegraph.model.document import Node
from core.nodegraph.model.spec import NodeSpec, Param, ParamError, Port, register, unregister


def _ports(params):
    if params["n"] > 3:
        raise ParamError("parameter 'n' is too large")
    return tuple(Port(f"in{i}") for i in range(params["n"]))


@pytest.fixture
def variadic():
    spec = register(NodeSpec("test.variadic", "Test", "Variadic", "n inputs", lambda ctx, inputs, p: len(inputs),
                             inputs=(Port("in0"),), params=(Param("n", "int", 2),), dynamic_inputs=_ports))
    yield spec
    unregister(spec.type_id)


def test_input_ports_follow_the_parameter_with_defaults_filled_in(variadic):
    assert [p.name for p in variadic.input_ports({})] == ["in0", "in1"]
    assert [p.name for p in variadic.input_ports({"n": 3})] == ["in0", "in1", "in2"]
    assert Node("n1", "test.variadic", {"n": 1}).input_names() == ["in0"]


def test_a_bad_parameter_falls_back_to_the_static_ports(variadic):
    assert [p.name for p in variadic.input_ports({"n": 9})] == ["in0"]


def test_specs_without_the_hook_keep_their_static_inputs():
    spec = NodeSpec("test.static", "Test", "Static", "", lambda ctx, inputs, p: None, inputs=(Port("a"),))
    assert spec.input_ports({"anything": 1}) == spec.inputs
