"""The chain-rule product behind a gradient, built from what the session's backward ran, with the numbers
plugged in; every value is compared with the ``.grad`` core actually computed."""

import numpy as np
import pytest

import core
from core.nodegraph.explain.chain_rule import chain_rule
from core.nodegraph.files.examples import default_graph
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.model.numtext import Summary, printed
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def graph_of(nodes, edges, loss) -> Graph:
    """``nodes``: (id, type, params, title); ``edges``: (src, dst, port)."""
    g = Graph()
    for nid, type_id, params, title in nodes:
        g.add_node(Node(nid, type_id, dict(params), (0.0, 0.0), title))
    for src, dst, port in edges:
        g.connect(Edge(src, "out", dst, port))
    g.set_training("loss", loss)
    return g


def leaf(nid, value, title):
    return (nid, "source.tensor", {"tensor": value, "requires_grad": True}, title)


def after_backward(graph, **kw) -> Session:
    s = Session(graph)
    s.backward(**kw)
    return s


def grad_of(s, nid, port="out"):
    return s.value(nid, port).grad._data


def test_x_gradient_is_the_loss_seed_times_add_sum_and_mul_with_w_plugged_in():
    s = after_backward(default_graph())
    cr = chain_rule(s, "n1")
    (block,) = cr.blocks
    (path,) = block.paths
    assert [f.fn for f in path.factors] == [None, "AddBackward0", "SumBackward0", "MulBackward0"]
    assert [f.words for f in path.factors[1:]] == ["1", "ones(2)", "w"]
    np.testing.assert_array_equal(path.factors[3].value, s.value("n2")._data)
    assert path.symbols == "∂z/∂z · ∂z/∂s · ∂s/∂xw · ∂xw/∂x"
    product = path.factors[0].value * 1 * np.ones(2) * path.factors[3].value
    assert np.array_equal(product, grad_of(s, "n1")) and np.array_equal(path.value, grad_of(s, "n1"))
    assert cr.text().splitlines() == [
        "x.grad = ∂z/∂z · ∂z/∂s · ∂s/∂xw · ∂xw/∂x",
        "       = 1. · 1 (AddBackward0) · ones(2) (SumBackward0) · w = [ 1.5000, -0.5000] (MulBackward0)",
        "       = [ 1.5000, -0.5000]"]  # as print(x.grad) writes it: tensor([ 1.5000, -0.5000])


def test_w_gradient_plugs_in_the_values_of_x():
    s = after_backward(default_graph())
    (path,) = chain_rule(s, "n2").blocks[0].paths
    assert path.factors[-1].words == "x" and path.factors[-1].symbol == "∂xw/∂w"
    np.testing.assert_array_equal(path.factors[-1].value, s.value("n1")._data)
    assert np.array_equal(path.value, grad_of(s, "n2"))
    assert "x = [2., 3.] (MulBackward0)" in chain_rule(s, "n2").text()


def test_b_gradient_is_one_straight_from_the_addition():
    s = after_backward(default_graph())
    cr = chain_rule(s, "n3")
    (path,) = cr.blocks[0].paths
    assert [f.fn for f in path.factors] == [None, "AddBackward0"] and path.factors[1].words == "1"
    assert float(path.value) == float(grad_of(s, "n3")) == 1.0
    assert cr.text().splitlines()[-1] == "       = 1."


def test_backward_twice_shows_one_block_per_call_and_their_sum():
    s = Session(default_graph())
    s.backward(retain_graph=True)
    s.backward()
    cr = chain_rule(s, "n1")
    assert [b.call for b in cr.blocks] == [1, 2]
    for b in cr.blocks:
        assert np.array_equal(b.total, [1.5, -0.5]) and b.paths[0].factors[-1].fn == "MulBackward0"
    assert np.array_equal(cr.blocks[-1].running, grad_of(s, "n1")) and np.array_equal(cr.grad, [3.0, -1.0])
    text = cr.text()
    assert text.startswith("x.grad = [ 3., -1.]: gradients accumulate over 2 backward calls")
    assert "  backward #1: ∂z/∂z · ∂z/∂s · ∂s/∂xw · ∂xw/∂x" in text and "  backward #2: " in text
    assert text.splitlines()[-1] == "x.grad = [ 1.5000, -0.5000] + [ 1.5000, -0.5000] = [ 3., -1.]"


def test_zero_grad_starts_the_story_again():
    s = Session(default_graph())
    s.backward(retain_graph=True)
    s.zero_grad()
    s.backward()
    assert [b.call for b in chain_rule(s, "n1").blocks] == [1]


def test_stepping_back_over_a_backward_call_drops_its_block():
    s = Session(default_graph())
    s.backward(retain_graph=True)
    s.backward(retain_graph=True)
    while len(s.ledger.contributions("n1.out")) > 1:
        s.history.step_back()
    cr = chain_rule(s, "n1")
    assert [b.call for b in cr.blocks] == [1] and np.array_equal(cr.grad, grad_of(s, "n1"))


def test_x_times_x_sums_the_two_paths_into_the_same_leaf():
    g = graph_of([leaf("x", [2.0, 3.0], "x"), ("sq", "math.mul", {}, None), ("s", "reduce.sum", {}, None)],
                 [("x", "sq", "a"), ("x", "sq", "b"), ("sq", "s", "x")], "s")
    s = after_backward(g)
    (block,) = chain_rule(s, "x").blocks
    assert len(block.paths) == 2 and [p.group for p in block.paths] == [(1,), (2,)]
    for p in block.paths:
        assert p.factors[-1].words == "x" and np.array_equal(p.value, s.value("x")._data)
    assert np.array_equal(block.paths[0].value + block.paths[1].value, grad_of(s, "x"))
    text = chain_rule(s, "x").text()
    assert "x.grad = the sum over 2 paths from the loss" in text and "(MulBackward0, input 2)" in text
    assert text.splitlines()[-1] == "       = [2., 3.] + [2., 3.] = [4., 6.]"


def test_x_plus_x_sums_two_paths_of_one():
    g = graph_of([leaf("x", [2.0, 3.0], "x"), ("twice", "math.add", {}, None), ("s", "reduce.sum", {}, None)],
                 [("x", "twice", "a"), ("x", "twice", "b"), ("twice", "s", "x")], "s")
    s = after_backward(g)
    (block,) = chain_rule(s, "x").blocks
    assert [p.factors[-1].words for p in block.paths] == ["1", "1"]
    assert np.array_equal(block.total, grad_of(s, "x")) and np.array_equal(grad_of(s, "x"), [2.0, 2.0])


def test_paths_that_meet_before_the_last_step_share_its_value_and_count_once():
    g = graph_of([leaf("x", [0.5, 1.0], "x"), ("e", "math.exp", {}, "e"), ("sq", "math.mul", {}, None),
                  ("s", "reduce.sum", {}, None)],
                 [("x", "e", "x"), ("e", "sq", "a"), ("e", "sq", "b"), ("sq", "s", "x")], "s")
    s = after_backward(g)
    cr = chain_rule(s, "x")
    (block,) = cr.blocks
    assert [p.group for p in block.paths] == [(1, 2), (1, 2)]
    assert block.paths[0].factors[-1].merged_in == 2
    assert np.array_equal(block.paths[0].value, grad_of(s, "x"))
    assert "meet before the last step" in cr.text()


def test_exp_plugs_in_its_result():
    g = graph_of([leaf("x", [0.0, 1.0], "x"), ("e", "math.exp", {}, "e"), ("s", "reduce.sum", {}, None)],
                 [("x", "e", "x"), ("e", "s", "x")], "s")
    s = after_backward(g)
    (path,) = chain_rule(s, "x").blocks[0].paths
    exp = path.factors[-1]
    assert exp.fn == "ExpBackward0" and exp.words == "exp(x)"
    np.testing.assert_array_equal(exp.value, s.value("e")._data)
    assert np.array_equal(path.value, grad_of(s, "x"))


def test_an_op_without_a_simple_rule_shows_the_gradient_in_and_out():
    g = graph_of([leaf("x", [0.0, 1.0], "x"), ("sn", "math.sin", {}, None), ("s", "reduce.sum", {}, None)],
                 [("x", "sn", "x"), ("sn", "s", "x")], "s")
    s = after_backward(g)
    (path,) = chain_rule(s, "x").blocks[0].paths
    sin = path.factors[-1]
    assert sin.words is None and np.array_equal(sin.grad_in, [1.0, 1.0])
    assert np.array_equal(sin.grad_out, grad_of(s, "x"))
    cos = printed(core.tensor([0.0, 1.0]).cos())  # what print(x.grad) writes after this backward
    assert f"[1., 1.] → {cos} ({sin.fn})" in chain_rule(s, "x").text()


def test_matmul_plugs_in_the_other_matrix_transposed():
    b = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    g = graph_of([leaf("a", [[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]], "A"), ("b", "source.tensor", {"tensor": b}, "B"),
                  ("mm", "linalg.matmul", {}, None), ("s", "reduce.sum", {}, None)],
                 [("a", "mm", "a"), ("b", "mm", "b"), ("mm", "s", "x")], "s")
    s = after_backward(g)
    (path,) = chain_rule(s, "a").blocks[0].paths
    mm = path.factors[-1]
    assert mm.fn == "MmBackward0" and mm.words == "· Bᵀ"
    np.testing.assert_array_equal(mm.value, np.array(b, dtype=np.float32).T)
    assert np.array_equal(path.value, np.ones((2, 2), np.float32) @ mm.value)
    assert np.array_equal(path.value, grad_of(s, "a"))


def test_mean_pow_and_division_name_their_rules():
    g = graph_of([leaf("x", [1.0, 2.0, 4.0], "x"), leaf("d", 2.0, "d"),
                  ("f", "expr.expression", {"formula": "(x ** 2 / d).mean()", "inputs": "x, d"}, "f")],
                 [("x", "f", "x"), ("d", "f", "d")], "f")
    s = after_backward(g)
    (path,) = chain_rule(s, "x").blocks[0].paths
    assert [f.fn for f in path.factors[1:]] == ["MeanBackward0", "DivBackward0", "PowBackward1"]
    mean, div, pw = path.factors[1:]
    assert mean.words == "1/3 each" and div.words == "1/d" and float(div.value) == 0.5
    assert pw.words.startswith("2·") and np.array_equal(pw.value, [2.0, 4.0, 8.0])
    np.testing.assert_allclose(path.value, grad_of(s, "x"))
    (dpath,) = chain_rule(s, "d").blocks[0].paths
    assert dpath.factors[-1].words == "-a/d², summed back to a scalar"
    np.testing.assert_allclose(dpath.value, grad_of(s, "d"))


def test_a_retained_non_leaf_gradient_has_its_chain_too():
    s = Session(default_graph())
    s.retain_grad_nodes.add("n4")
    s.backward()
    cr = chain_rule(s, "n4")
    (path,) = cr.blocks[0].paths
    assert [f.fn for f in path.factors] == [None, "AddBackward0", "SumBackward0"]
    assert np.array_equal(path.value, grad_of(s, "n4")) and cr.text().startswith("xw.grad = ∂z/∂z")


def test_big_tensors_are_kept_as_shape_and_first_numbers():
    g = graph_of([("x", "source.ones", {"shape": [80, 80], "requires_grad": True}, "x"),
                  ("e", "math.exp", {}, None), ("s", "reduce.sum", {}, None)],
                 [("x", "e", "x"), ("e", "s", "x")], "s")
    s = after_backward(g)
    (path,) = chain_rule(s, "x").blocks[0].paths
    assert isinstance(path.value, Summary) and path.value.shape == (80, 80)
    assert "exp(x) = (80, 80) [2.7183, 2.7183, 2.7183, …] (ExpBackward0)" in chain_rule(s, "x").text()


def test_a_port_without_gradient_has_no_chain():
    s = Session(default_graph())
    s.forward()
    assert chain_rule(s, "n1") is None and chain_rule(s, "n5") is None


def test_many_backward_calls_show_the_last_ones_and_the_sum():
    s = Session(default_graph())
    for _ in range(6):
        s.backward(retain_graph=True)
    cr = chain_rule(s, "n1")
    assert len(cr.blocks) == 6 and np.array_equal(cr.blocks[-1].running, grad_of(s, "n1"))
    lines = cr.text().splitlines()
    assert lines[1] == "  … the first 2 calls not shown" and "  backward #3: " in "\n".join(lines)
    assert lines[-1] == "x.grad = the sum of 6 contributions = [ 9., -3.]"


def test_a_linear_layer_and_mse_plug_in_the_batch_and_the_residual():
    from tests.nodegraph.session_graphs import linear_mse_graph

    s = after_backward(linear_mse_graph(batch=4, n_in=3))
    (path,) = chain_rule(s, "lin", "weight").blocks[0].paths
    mse, addmm, transposed = path.factors[1:]  # the weight reaches the product as weight.t(), as in torch
    assert (mse.fn, addmm.fn, transposed.fn) == ("MseLossBackward0", "AddmmBackward0", "TBackward0")
    x, y, out = s.value("x")._data, s.value("y")._data, s.value("lin")._data
    np.testing.assert_allclose(mse.value, 2 * (out - y) / 4, rtol=1e-6)
    np.testing.assert_array_equal(addmm.value, x.T)
    np.testing.assert_allclose((addmm.value @ mse.grad_out).T, grad_of(s, "lin", "weight"), rtol=1e-5)
    assert np.array_equal(path.value, grad_of(s, "lin", "weight"))
    assert chain_rule(s, "lin", "bias").blocks[0].paths[0].factors[-1].words == "summed over the batch"


def test_a_training_step_is_told_as_not_traced():
    from tests.nodegraph.session_graphs import linear_mse_graph

    s = Session(linear_mse_graph(batch=4, n_in=3))
    for _ in s.train(1):
        pass
    cr = chain_rule(s, "lin", "weight")
    assert cr.blocks[0].paths == () and "not traced node by node" in cr.text()
    np.testing.assert_array_equal(cr.blocks[0].total, grad_of(s, "lin", "weight"))


def test_the_log_never_keeps_an_autograd_graph_alive():
    import gc

    s = after_backward(default_graph())
    log = s.chain_log
    refs = [rec.ref for rec in log.calls[1].values()]
    s.reset()
    gc.collect()
    assert refs and all(r() is None for r in refs) and log.calls[1]


def test_a_long_chain_shows_its_first_and_last_factors_and_is_built_once():
    nodes, edges, prev = [leaf("x", [1.0, 2.0], "x")], [], "x"
    for i in range(12):
        nodes.append((f"n{i}", "math.neg", {}, None))
        edges.append((prev, f"n{i}", "x"))
        prev = f"n{i}"
    nodes.append(("s", "reduce.sum", {}, None))
    edges.append((prev, "s", "x"))
    s = after_backward(graph_of(nodes, edges, "s"))
    cr = chain_rule(s, "x")
    (path,) = cr.blocks[0].paths
    assert len(path.factors) == 14 and np.array_equal(path.value, grad_of(s, "x"))
    assert [f.words for f in path.factors[2:]] == ["-1"] * 12
    assert "· … 6 more … ·" in cr.text().splitlines()[1]
    assert chain_rule(s, "x") is cr


def test_sub_neg_tanh_sigmoid_relu_and_views_name_their_rules():
    formula = "(-(x - w)).tanh().sigmoid().relu().view(2, 1).t().expand(3, 2).sum()"
    g = graph_of([leaf("x", [0.5, -1.0], "x"), leaf("w", [0.25, 0.5], "w"),
                  ("f", "expr.expression", {"formula": formula, "inputs": "x, w"}, "f")],
                 [("x", "f", "x"), ("w", "f", "w")], "f")
    s = after_backward(g)
    (path,) = chain_rule(s, "w").blocks[0].paths
    assert [f.fn for f in path.factors[1:]] == [
        "SumBackward0", "ExpandBackward0", "TBackward0", "ViewBackward0", "ReluBackward0", "SigmoidBackward0",
        "TanhBackward0", "NegBackward0", "SubBackward0"]
    assert [f.words for f in path.factors[1:]] == [
        "ones(3, 2)", "summed back to (1, 2)", "transposed back", "reshaped back to (2)", "mask f:Sigmoid > 0",
        "σ(f:Tanh)·(1 - σ(f:Tanh))", "1 - tanh²(f:Neg)", "-1", "-1"]
    t = np.tanh(-(np.float32([0.5, -1.0]) - np.float32([0.25, 0.5])))
    sig = 1 / (1 + np.exp(-t))
    relu, sigmoid, tanh = (f.value for f in path.factors[5:8])
    np.testing.assert_array_equal(relu, [1.0, 1.0])
    np.testing.assert_allclose(sigmoid, sig * (1 - sig), rtol=1e-5)
    np.testing.assert_allclose(tanh, 1 - t * t, rtol=1e-5)
    np.testing.assert_allclose(3 * sigmoid * tanh, grad_of(s, "w"), rtol=1e-5)
    assert np.array_equal(path.value, grad_of(s, "w"))


@pytest.mark.parametrize("loss, fn", [("loss.bce", "BinaryCrossEntropyBackward0"),
                                      ("loss.smooth_l1", "SmoothL1LossBackward0"),
                                      ("loss.huber", "HuberLossBackward0")])
def test_the_single_node_losses_plug_in_their_local_derivative(loss, fn):
    g = graph_of([leaf("p", [0.2, 0.7, 0.9, 0.4], "p"),
                  ("t", "source.tensor", {"tensor": [0.0, 1.0, 1.0, 3.0]}, "t"),
                  ("loss", loss, {}, "loss")],
                 [("p", "loss", "input"), ("t", "loss", "target")], "loss")
    s = after_backward(g)
    (path,) = chain_rule(s, "p").blocks[0].paths
    factor = path.factors[-1]
    assert factor.fn == fn and factor.words and "/4" in factor.words  # the mean over 4 elements
    np.testing.assert_allclose(factor.value, grad_of(s, "p"), rtol=1e-6)  # the seed is 1: the factor is .grad
