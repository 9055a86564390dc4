"""Each diagnostic rule fires on a graph that has the fault and stays silent on a healthy one."""

import pytest

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.explain.diagnostics import RULES, Diagnostics, Hint, diagnose
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.model.spec import NodeSpec, Port, register, unregister
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import chapter_graph


def _graph(nodes, edges, loss=None, **training) -> Graph:
    g = Graph()
    for nid, type_id, params in nodes:
        g.add_node(Node(nid, type_id, params))
    for e in edges:
        g.connect(Edge(*e))
    if loss:
        g.set_training("loss", loss)
    g.training.update(training)
    return g


def _rules(hints, rule_id, node=None):
    return [h for h in hints if h.rule == rule_id and (node is None or h.node_id == node)]


def _run(g, backward=True):
    s = Session(g)
    s.forward()
    if backward:
        s.backward()
    return s


def test_every_rule_has_an_id_and_the_hint_prints_its_fix():
    diagnose(_run(chapter_graph()))  # loads the rule modules
    assert {"silent_broadcast", "no_gradient_path", "grad_accumulation", "non_finite", "exploding_gradient",
            "vanishing_gradient", "loss_flat", "loss_diverging", "view_non_contiguous", "dtype_mismatch",
            "device_mismatch", "backward_twice"} <= set(RULES)
    h = Hint("n1", "r", "warning", "what", "try this")
    assert str(h) == "warning: [n1] what -> try this"


def test_the_chapters_healthy_graph_has_no_hints():
    assert diagnose(_run(chapter_graph())) == []


def _broadcast_graph(target_shape):
    return _graph([("pred", "source.randn", {"shape": [32, 1], "seed": 1}),
                   ("y", "source.randn", {"shape": target_shape, "seed": 2}),
                   ("loss", "loss.mse", {})],
                  [("pred", "out", "loss", "input"), ("y", "out", "loss", "target")], loss="loss")


def test_silent_broadcast_fires_on_a_32x1_against_32_loss():
    hints = _rules(diagnose(_run(_broadcast_graph([32]), backward=False)), "silent_broadcast", "loss")
    assert len(hints) == 1 and "(32, 32)" in hints[0].message and "into the loss" in hints[0].message


def test_silent_broadcast_is_silent_for_equal_shapes_and_scalars():
    assert _rules(diagnose(_run(_broadcast_graph([32, 1]))), "silent_broadcast") == []
    g = _graph([("a", "source.randn", {"shape": [32], "seed": 1}), ("b", "source.tensor", {"tensor": 2.0}),
                ("m", "math.mul", {})], [("a", "out", "m", "a"), ("b", "out", "m", "b")])
    assert _rules(diagnose(_run(g, backward=False)), "silent_broadcast") == []


def _sub_graph(a, b):
    return _graph([("a", "source.randn", {"shape": a, "seed": 1}), ("b", "source.randn", {"shape": b, "seed": 2}),
                   ("m", "math.sub", {})], [("a", "out", "m", "a"), ("b", "out", "m", "b")])


def test_silent_broadcast_fires_on_an_elementwise_op_too():
    hints = _rules(diagnose(_run(_sub_graph([4, 1], [4]), backward=False)), "silent_broadcast", "m")
    assert [h.severity for h in hints] == ["warning"]


def test_an_outer_product_by_broadcasting_is_only_an_info():
    hints = _rules(diagnose(_run(_sub_graph([4, 1], [1, 3]), backward=False)), "silent_broadcast", "m")
    assert [h.severity for h in hints] == ["info"]


def test_a_detached_parameter_has_no_gradient_path_and_the_hint_names_the_cut():
    hints = _rules(diagnose(_run(chapter_graph(detach_w=True))), "no_gradient_path")
    assert [h.node_id for h in hints] == ["w"] and "cut at node 'detach'" in hints[0].message


def test_an_unconnected_parameter_is_reported_as_not_reaching_the_loss():
    g = chapter_graph()
    g.add_node(Node("p", "param.parameter", {"shape": [2]}))
    s = Session(g)
    s.forward()
    s.backward()
    hints = _rules(diagnose(s), "no_gradient_path", "p")
    assert hints and "not connected" in hints[0].message


def test_backward_twice_without_zero_grad_flags_accumulation():
    s = Session(chapter_graph())
    s.forward()
    s.backward(retain_graph=True)
    assert _rules(diagnose(s), "grad_accumulation") == []
    s.backward()
    hints = _rules(diagnose(s), "grad_accumulation")
    assert {h.node_id for h in hints} == {"x", "w", "b"} and "2 backward calls" in hints[0].message
    s.zero_grad()
    assert _rules(diagnose(s), "grad_accumulation") == []


def test_backward_twice_without_retain_graph_is_diagnosed_on_the_loss():
    s = _run(chapter_graph())
    assert _rules(diagnose(s), "backward_twice") == []
    s.backward()
    hints = _rules(diagnose(s), "backward_twice", "z")
    assert hints and "retain_graph=True" in hints[0].fix
    assert "switch on Retain graph" in hints[0].fix  # the toolbar's toggle: a user of the app passes no argument


def _log_graph(values):
    return _graph([("x", "source.tensor", {"tensor": values, "requires_grad": True}), ("log", "math.log", {}),
                   ("s", "reduce.sum", {})], [("x", "out", "log", "x"), ("log", "out", "s", "x")], loss="s")


def test_nan_is_reported_at_the_first_node_where_it_appears_only():
    hints = _rules(diagnose(_run(_log_graph([1.0, -1.0]))), "non_finite")
    assert [h.node_id for h in hints][:1] == ["log"] and "nan" in hints[0].message
    assert "clamp" in hints[0].fix
    assert "s" not in [h.node_id for h in hints]


def test_finite_values_give_no_non_finite_hint():
    assert _rules(diagnose(_run(_log_graph([1.0, 2.0]))), "non_finite") == []


def _scaled_param_graph(x, offset=0.0):
    return _graph([("x", "source.tensor", {"tensor": x}), ("w", "param.parameter", {"shape": [2], "init": "ones"}),
                   ("m", "math.mul", {}), ("s", "reduce.sum", {}), ("c", "source.tensor", {"tensor": offset}),
                   ("z", "math.add", {})],
                  [("x", "out", "m", "a"), ("w", "out", "m", "b"), ("m", "out", "s", "x"), ("s", "out", "z", "a"),
                   ("c", "out", "z", "b")], loss="z")


def test_exploding_gradient_norm_is_flagged_on_the_parameter():
    hints = _rules(diagnose(_run(_scaled_param_graph([1e4, 1e4]))), "exploding_gradient")
    assert [h.node_id for h in hints] == ["w"] and "learning rate" in hints[0].fix


def test_vanishing_gradient_norm_is_flagged_when_the_loss_is_not_small():
    hints = _rules(diagnose(_run(_scaled_param_graph([1e-9, 1e-9], offset=1.0))), "vanishing_gradient")
    assert [h.node_id for h in hints] == ["w"]


def test_ordinary_gradient_norms_are_neither_exploding_nor_vanishing():
    hints = diagnose(_run(_scaled_param_graph([1.0, 2.0], offset=1.0)))
    assert _rules(hints, "exploding_gradient") == [] and _rules(hints, "vanishing_gradient") == []


def _regression(lr):
    return _graph([("x", "source.randn", {"shape": [16, 3], "seed": 1}),
                   ("y", "source.randn", {"shape": [16, 1], "seed": 2}),
                   ("lin", "layer.linear", {"in_features": 3, "out_features": 1}), ("loss", "loss.mse", {})],
                  [("x", "out", "lin", "x"), ("lin", "out", "loss", "input"), ("y", "out", "loss", "target")],
                  loss="loss", optimizer="SGD", optimizer_params={"lr": lr})


def _train(lr, n=12):
    s = Session(_regression(lr))
    d = Diagnostics(s)
    list(s.train(n))
    return d


def test_a_diverging_loss_suggests_a_lower_learning_rate():
    d = _train(5.0)
    hints = [h for h in d.hints if h.rule == "loss_diverging"]
    assert hints and hints[0].node_id == "loss" and "lower the learning rate (now 5" in hints[0].fix


def test_a_flat_loss_suggests_a_higher_learning_rate():
    d = _train(0.0)
    hints = [h for h in d.hints if h.rule == "loss_flat"]
    assert hints and "raise the learning rate" in hints[0].fix


def test_a_decreasing_loss_is_neither_flat_nor_diverging():
    d = _train(0.05)
    assert len(d.losses) == 12 and d.losses[-1] < d.losses[0]
    assert not [h for h in d.hints if h.rule in ("loss_flat", "loss_diverging")]


def test_diagnostics_updates_after_each_step_and_tells_listeners():
    s = Session(_log_graph([1.0, -1.0]))
    d = Diagnostics(s)
    seen = []
    d.subscribe(seen.append)
    s.forward_step()
    assert d.hints_for("log") == []
    s.forward_step()
    assert [h.rule for h in d.hints_for("log")] == ["non_finite"] and len(seen) == 2
    d.close()


def _view_graph(transpose):
    nodes = [("x", "source.randn", {"shape": [3, 4], "seed": 1}), ("v", "shape.view", {"shape": [12]})]
    edges = [("x", "out", "v", "x")]
    if transpose:
        nodes.append(("t", "shape.transpose", {}))
        edges = [("x", "out", "t", "x"), ("t", "out", "v", "x")]
    return _graph(nodes, edges)


def test_view_of_a_transposed_tensor_suggests_reshape_or_contiguous():
    hints = _rules(diagnose(_run(_view_graph(True), backward=False)), "view_non_contiguous", "v")
    assert hints and hints[0].severity == "error" and "reshape" in hints[0].fix


def test_view_of_a_contiguous_tensor_is_fine():
    assert _rules(diagnose(_run(_view_graph(False), backward=False)), "view_non_contiguous") == []


def _matmul_graph(dtype_b):
    return _graph([("a", "source.tensor", {"tensor": [[1.0, 2.0]], "dtype": "float32"}),
                   ("b", "source.tensor", {"tensor": [[1.0], [2.0]], "dtype": dtype_b}), ("mm", "linalg.mm", {})],
                  [("a", "out", "mm", "a"), ("b", "out", "mm", "b")])


def test_a_dtype_mismatch_error_is_explained_with_a_cast():
    hints = _rules(diagnose(_run(_matmul_graph("float64"), backward=False)), "dtype_mismatch", "mm")
    assert hints and hints[0].severity == "error" and ".float()" in hints[0].fix


def test_matching_dtypes_give_no_dtype_hint():
    assert _rules(diagnose(_run(_matmul_graph("float32"), backward=False)), "dtype_mismatch") == []


def test_a_bad_dtype_parameter_is_not_taken_for_a_dtype_mismatch():
    g = _graph([("x", "source.tensor", {"tensor": [1.0, 2.0]})], [])
    g.nodes["x"].params["dtype"] = "float99"  # as a hand-edited file could hold
    s = _run(g, backward=False)
    assert "dtype" in s.errors["x"].message and _rules(diagnose(s), "dtype_mismatch") == []


@pytest.fixture
def device_failure():
    def fail(ctx, inputs, p):
        raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                           "cuda:0 and cpu!")
    register(NodeSpec("test.two_devices", "test", "two devices", "fails like a cross-device op", fail,
                      inputs=(Port("x"),)))
    yield
    unregister("test.two_devices")


def test_a_device_mismatch_error_suggests_moving_tensors(device_failure):
    g = _graph([("x", "source.tensor", {"tensor": [1.0]}), ("op", "test.two_devices", {})], [("x", "out", "op", "x")])
    hints = _rules(diagnose(_run(g, backward=False)), "device_mismatch", "op")
    assert hints and ".to(device)" in hints[0].fix
    assert _rules(diagnose(_run(_matmul_graph("float32"), backward=False)), "device_mismatch") == []


def test_a_manual_training_loop_without_zero_grad_accumulates_over_steps():
    for zero in (False, True):
        s = Session(_regression(0.05))
        s.forward()
        s.backward()
        s.optimizer_step()
        if zero:
            s.zero_grad()
        s.forward()
        s.backward()
        hints = _rules(diagnose(s), "grad_accumulation")
        assert {h.node_id for h in hints} == (set() if zero else {"lin"})


def test_a_hint_names_a_parameter_node_by_its_title_not_title_dot_tensor_name():
    """A Parameter node owns one tensor, named as the node (lesson 10's w_cut): 'w.w' repeated the word."""
    g = _scaled_param_graph([1e4, 1e4])
    g.nodes["w"].title = "w"
    hints = _rules(diagnose(_run(g)), "exploding_gradient")
    assert [h.message.split(" is ")[0] for h in hints] == ["gradient norm of w"]
