"""Shape inference: every port knows shape, dtype and device; failing ops carry PyTorch's message."""

import pytest

import core
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Node
from core.nodegraph.model.inference import UNKNOWN, PortInfo, infer, info_of, standin
from core.nodegraph.model.spec import NodeSpec, Port, register, unregister
from tests.nodegraph.graph_helpers import build, linear_graph, tensor_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("tensor_types")


def test_every_port_knows_its_shape_dtype_and_device():
    result = infer(linear_graph())
    assert result.ok()
    assert result.port("n4") == PortInfo((2, 1), "float64", "cpu", "tensor", (1, 1), True)
    assert result.port("n6").shape == () and str(result.port("n1")) == "float64[2, 2] on cpu"


def test_broadcasting_is_propagated():
    g = build([("n1", "tt.randn", {"shape": [32, 1]}), ("n2", "tt.randn", {"shape": [32]}), ("n3", "tt.add", {})],
              [("n1", "out", "n3", "a"), ("n2", "out", "n3", "b")])
    assert infer(g).port("n3").shape == (32, 32)


def test_a_shape_mismatch_marks_the_node_with_pytorchs_message_and_downstream_is_unknown():
    g = build([("n1", "tt.randn", {"shape": [2, 3]}), ("n2", "tt.randn", {"shape": [2, 3]}), ("n3", "tt.matmul", {}),
               ("n4", "tt.sum", {})],
              [("n1", "out", "n3", "a"), ("n2", "out", "n3", "b"), ("n3", "out", "n4", "x")])
    result = infer(g)
    assert result.errors["n3"].startswith("RuntimeError: ") and "cannot be multiplied (2x3 and 2x3)" in \
        result.errors["n3"]
    assert result.port("n4") is UNKNOWN and "n4" in result.unknown


def test_view_of_a_transposed_tensor_is_refused_like_pytorch():
    g = build([("n1", "tt.randn", {"shape": [2, 3]}), ("n2", "tt.t", {}), ("n3", "tt.view", {"shape": [6]})],
              [("n1", "out", "n2", "x"), ("n2", "out", "n3", "x")])
    result = infer(g)
    assert result.port("n2").contiguous is False
    assert "view size is not compatible" in result.errors["n3"]


def test_placeholders_and_unconnected_inputs_give_unknown_not_errors():
    g = build([("n1", "tt.add", {}), ("n2", "tt.sum", {})], [("n1", "out", "n2", "x")])
    g.nodes["n3"] = Node("n3", "future.widget")
    result = infer(g)
    assert not result.errors
    assert set(result.unknown) == {"n1", "n2", "n3"}
    assert result.unknown["n1"] == "input 'a' is not connected"


def test_an_infer_hook_is_used_and_downstream_nodes_get_stand_ins():
    calls = []

    def evaluate(ctx, inputs, params):
        calls.append("evaluate")
        return inputs["x"]

    def hook(infos, params):
        calls.append("infer")
        return {"out": PortInfo((1000, 1000), infos["x"].dtype, infos["x"].device, "tensor")}

    register(NodeSpec("tmp.big", "tmp", "Big", "pretends to be big", evaluate, inputs=(Port("x"),), infer=hook))
    try:
        g = build([("n1", "tt.randn", {"shape": [2]}), ("n2", "tmp.big", {}), ("n3", "tt.sum", {})],
                  [("n1", "out", "n2", "x"), ("n2", "out", "n3", "x")])
        result = infer(g)
    finally:
        unregister("tmp.big")
    assert calls == ["infer"]
    assert result.port("n2").shape == (1000, 1000) and result.port("n3") == PortInfo((), "float64", "cpu", "tensor",
                                                                                    (), True)


def test_stand_ins_are_small_in_memory_and_have_the_right_metadata():
    big = standin(PortInfo((10_000, 10_000), "float32", "cpu", "tensor"))
    assert big.shape == (10_000, 10_000) and big.stride() == (0, 0) and big.dtype == core.float32
    small = standin(PortInfo((2, 3), "int64", "cpu", "tensor"))
    assert small.is_contiguous() and info_of(small).dtype == "int64"


def test_inference_does_not_touch_the_callers_state_unless_passed():
    g = build([("n1", "tt.counter", {})])
    states = {}
    infer(g)
    assert states == {}
    infer(g, states=states)
    assert states["n1"]["calls"] == 1


def test_subgraph_ports_are_inferred_through_the_inner_graph():
    g = linear_graph()
    c = cmd.Collapse(["n4", "n5"])
    c.do(g)
    assert infer(g).port(c.node_id).shape == (2, 1)


def test_built_in_node_types_are_inferred_including_expressions_and_layers():
    import core.nodegraph.model.nodes  # noqa: F401

    g = build([("n1", "source.randn", {"shape": [4, 2]}), ("n2", "layer.linear", {"in_features": 2,
                                                                                   "out_features": 3}),
               ("n3", "shape.transpose", {}), ("n4", "shape.view", {"shape": [12]}),
               ("n5", "expr.expression", {"formula": "x.sum(0) * 2", "inputs": "x"}),
               ("n6", "data.dataset", {"batch_size": 8})],
              [("n1", "out", "n2", "x"), ("n2", "out", "n3", "x"), ("n3", "out", "n4", "x"), ("n2", "out", "n5", "x")])
    result = infer(g)
    assert result.port("n2").shape == (4, 3) and result.port("n2").dtype == "float32"
    assert result.port("n5").shape == (3,)
    assert (result.port("n6", "x").shape, result.port("n6", "y").shape) == ((8, 2), (8,))
    assert result.errors["n4"].startswith("RuntimeError: view size is not compatible")


@pytest.mark.gpu
@pytest.mark.skipif(not core.cuda.is_available(), reason="no CUDA GPU with CuPy on this machine")
def test_a_device_mismatch_marks_the_node_with_pytorchs_message():
    import core.nodegraph.model.nodes  # noqa: F401

    g = build([("n1", "source.randn", {"shape": [3], "device": "cuda"}), ("n2", "source.randn", {"shape": [3],
                                                                                               "device": "cpu"}),
               ("n3", "math.add", {})], [("n1", "out", "n3", "a"), ("n2", "out", "n3", "b")])
    result = infer(g)
    assert result.port("n1").device == "cuda:0"
    assert "Expected all tensors to be on the same device" in result.errors["n3"]
