"""Escapes of the parameter fuzzing: a layer or a convolution typed too large allocated for real before failing
(a Conv2d's out_channels of 1000000 took 10 GiB and 50 s, then a MemoryError escaped the training step). Their
size is now estimated like a product's and refused before anything is allocated, as an error on the node.
Budgets here are tiny, so nothing large is ever allocated."""

import pytest

import core
import core.nodegraph
import core.nodegraph.model.nodes  # registers the built-in node types
from core.nodegraph.model.evaluate import evaluate
from core.nodegraph.run.session import Session
from tests.nodegraph.graph_helpers import build

pytestmark = pytest.mark.usefixtures("default_budgets")


def _layer(type_id: str, x_shape, **params):
    return build([("x", "source.randn", {"shape": list(x_shape)}), ("l", type_id, params, "big")],
                 [("x", "out", "l", "x")])


@pytest.mark.parametrize("type_id,x_shape,params,made", [  # made: the largest of output, padded input, columns, weight
    ("layer.conv2d", (2, 1, 8, 8), {"out_channels": 1000}, "Conv2d would make a 2x1000x6x6 float32 tensor (281 KiB)"),
    ("layer.conv2d", (1, 1, 8, 8), {"out_channels": 1, "padding": 64},
     "Conv2d would make a 1x9x17956 float32 tensor (631 KiB)"),
    ("layer.conv2d", (1, 1000, 4, 4), {"in_channels": 1000, "out_channels": 1000, "kernel_size": 4},
     "Conv2d would make a 1000x1000x4x4 float32 tensor (61 MiB)"),
    ("layer.linear", (2, 3), {"in_features": 3, "out_features": 1_000_000},
     "Linear would make a 1000000x3 float32 tensor (11 MiB)"),
    ("layer.linear", (2, 100_000), {"in_features": 100_000, "out_features": 1000},
     "Linear would make a 1000x100000 float32 tensor (381 MiB)"),
    ("layer.mlp", (2, 2), {"sizes": [2, 1_000_000, 1]}, "MLP would make a 1000000x2 float32 tensor (7.6 MiB)"),
])
def test_a_layer_over_the_memory_budget_is_refused_before_it_builds_or_runs(type_id, x_shape, params, made):
    core.nodegraph.set_memory_budget(64 * 1024 if x_shape[-1] < 1000 else 10 * 2 ** 20)  # the input itself fits
    err = evaluate(_layer(type_id, x_shape, **params)).errors["l"]
    assert err.type == "BudgetError" and err.message.startswith(f"big: {made}; the memory budget is")


def test_a_functional_conv_padded_far_beyond_its_input_is_refused_by_memory():
    core.nodegraph.set_memory_budget(1024 * 1024)
    g = build([("x", "source.randn", {"shape": [1, 1, 4, 4]}), ("w", "source.randn", {"shape": [1, 1, 3, 3]}),
               ("c", "nn.conv2d", {"padding": 20000})], [("x", "out", "c", "x"), ("w", "out", "c", "weight")])
    err = evaluate(g).errors["c"]
    assert err.type == "BudgetError" and "would make a 1x9x1600160004 float32 tensor (54 GiB)" in err.message


def test_a_conv_over_the_compute_budget_is_refused_by_its_cost():
    core.nodegraph.set_flop_budget(1e5)  # the conv takes 2*16*14*14*8*9 = 4.5e5
    values = evaluate(_layer("layer.conv2d", (1, 8, 16, 16), in_channels=8, out_channels=16, kernel_size=3))
    assert values.errors["l"].type == "BudgetError" and "floating-point operations" in values.errors["l"].message


def test_layers_within_the_budget_still_train():
    g = _layer("layer.conv2d", (2, 1, 8, 8), out_channels=4)
    g2 = _layer("layer.mlp", (4, 2), sizes=[2, 8, 1])
    for graph in (g, g2):
        values = evaluate(graph)
        assert values.ok("l") and not values.errors
        assert list(Session(graph).train(1))


@pytest.mark.parametrize("type_id,x,params,made", [
    ("nn.adaptive_avg_pool1d", ("source.randn", {"shape": [3, 3]}), {"output_size": 2 ** 31},
     "adaptive_avg_pool1d would make a 3x2147483648 float32 tensor (24 GiB)"),
    ("nn.adaptive_avg_pool2d", ("source.randn", {"shape": [1, 3, 3]}), {"output_size": [4096, 4096]},
     "adaptive_avg_pool2d would make a 1x4096x4096 float32 tensor (64 MiB)"),
    ("nn.one_hot", ("source.arange", {"end": 4.0, "dtype": "int64"}), {"num_classes": 10 ** 6},
     "one_hot would make a 4x1000000 int64 tensor (31 MiB)"),
])
def test_an_output_sized_by_a_parameter_over_the_budget_is_refused_before_it_allocates(type_id, x, params, made):
    # an adaptive pool's output_size of 2**31 allocated 16 GiB of indices (the app was killed for memory)
    core.nodegraph.set_memory_budget(1024 * 1024)
    g = build([("x", *x), ("p", type_id, params)], [("x", "out", "p", "x")])
    values = evaluate(g)
    assert values.errors["p"].type == "BudgetError" and values.errors["p"].message.startswith(made)


def test_an_arange_whose_count_overflows_is_an_error_on_its_node_in_a_training_step_as_in_torch(torch):
    # its estimate raised OverflowError out of Session.train (the lean route checks the budget before the node runs);
    # a parameter beside it, since a graph without one is refused before anything runs (as torch's empty optimizer)
    g = build([("r", "source.arange", {"end": 10.0, "step": 1e-320}), ("p", "param.parameter", {"shape": [2]})], [])
    g.training["loss"] = "r"
    with pytest.raises(RuntimeError) as want:
        torch.arange(0.0, 10.0, 1e-320)
    steps = list(Session(g).train(2))
    assert len(steps) == 1 and steps[0]["error"].type == "RuntimeError"
    assert steps[0]["error"].message.endswith(str(want.value))
    assert evaluate(g).errors["r"].message == str(want.value)
