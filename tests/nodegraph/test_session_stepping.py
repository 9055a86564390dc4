"""Stepping a graph forward and backward in a session: the chapter's ``z = (x*w).sum() + b``."""

import numpy as np
import pytest

import core
from core.nodegraph.model.document import Edge, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import chapter_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def _run_backward_steps(s, **kw):
    ran = []
    while True:
        ran.append(s.backward_step(**kw))
        if not s.backward_in_progress:
            return ran


def test_forward_steps_evaluate_one_node_each_in_topological_order():
    s = Session(chapter_graph())
    seen = []
    s.subscribe(seen.append)
    order = [s.forward_step() for _ in range(6)]
    assert order == ["x", "w", "b", "mul", "sum", "z"]
    assert [e.phase for e in seen] == ["forward"] * 6 and [e.node for e in seen] == order
    assert seen[3].changed == ("mul.out",)
    assert s.forward_complete
    assert abs(s.value("z").item() - 1.6) < 1e-6


def test_forward_until_stops_at_the_breakpoint():
    s = Session(chapter_graph())
    s.forward(until="mul")
    assert s.next_node == "sum" and "z" not in s.values
    np.testing.assert_allclose(s.value("mul")._data, [3.0, -1.5])


def test_backward_steps_give_the_chapters_gradients_each_at_its_own_step():
    s = Session(chapter_graph())
    s.forward()
    grads_when = {}
    while True:
        nid = s.backward_step()
        for leaf in ("x", "w", "b"):
            if leaf not in grads_when and s.grad(leaf) is not None:
                grads_when[leaf] = nid
        if not s.backward_in_progress:
            break
    assert grads_when == {"x": "x", "w": "w", "b": "b"}  # each arrives at its own AccumulateGrad step
    np.testing.assert_allclose(s.grad("x")._data, [1.5, -0.5])
    np.testing.assert_allclose(s.grad("w")._data, [2.0, 3.0])
    assert s.grad("b").item() == 1.0


def test_backward_steps_map_autograd_nodes_to_the_graph_nodes_that_made_them():
    s = Session(chapter_graph())
    s.forward()
    seen = []
    s.subscribe(seen.append)
    s.backward()
    steps = [(e.node, e.detail["autograd_node"]) for e in seen if e.phase == "backward"]
    assert ("z", "AddBackward0") in steps and ("sum", "SumBackward0") in steps and ("mul", "MulBackward0") in steps
    assert {n for n, name in steps if name == "AccumulateGrad"} == {"x", "w", "b"}
    assert seen[-1].detail["done"] is True and seen[-1].detail["no_gradient"] == []
    assert [a for a, _ in s.inspector.autograd_info("mul")] == ["MulBackward0"]


def test_backward_twice_with_retain_graph_accumulates_and_the_ledger_shows_both():
    s = Session(chapter_graph())
    s.backward(retain_graph=True)  # runs the forward first
    s.backward()
    np.testing.assert_allclose(s.grad("x")._data, [3.0, -1.0])
    entries = s.ledger.contributions("x.out")
    assert [c.backward_call for c in entries] == [1, 2]
    assert all(c.path == ("z", "sum", "mul", "x") for c in entries)
    np.testing.assert_allclose(entries[0].grad, [1.5, -0.5])
    np.testing.assert_allclose(entries[1].total, [3.0, -1.0])
    np.testing.assert_allclose(s.ledger.running_sum("w.out"), [4.0, 6.0])
    assert s.ledger.contributions("b.out")[0].path == ("z", "b")


def test_zero_grad_clears_grads_and_ledger():
    s = Session(chapter_graph())
    s.backward(retain_graph=True)
    s.zero_grad()
    assert s.grad("x") is None and s.ledger.contributions("x.out") == []
    s.backward()
    assert [c.backward_call for c in s.ledger.contributions("x.out")] == [1]


def test_second_backward_without_retain_graph_shows_the_error_on_the_loss_node():
    s = Session(chapter_graph())
    s.backward()
    assert s.inspector.freed("mul") and not s.inspector.freed("x")
    seen = []
    s.subscribe(seen.append)
    s.backward()  # no exception escapes
    err = s.errors["z"]
    assert err.phase == "backward" and err.type == "RuntimeError"
    assert "backward through the graph a second time" in err.message
    assert err.origin == "mul" and err.autograd_node == "MulBackward0"
    assert seen[-1].phase == "error" and seen[-1].node == "z"
    assert not s.backward_in_progress


def test_non_leaf_grads_are_absent_unless_retain_grad():
    s = Session(chapter_graph())
    s.backward()
    assert s.grad("mul") is None and s.inspector.port_info("mul").grad is None
    s2 = Session(chapter_graph())
    s2.retain_grad_nodes.add("mul")
    s2.backward()
    np.testing.assert_allclose(s2.grad("mul")._data, [1.0, 1.0])
    assert s2.inspector.port_info("mul").retains_grad


def test_detach_cuts_the_path_and_the_session_names_the_leaf_without_gradient():
    s = Session(chapter_graph(detach_w=True))
    s.backward()
    assert s.grad("w") is None
    assert s.no_gradient_parameters() == ["w.out"]
    np.testing.assert_allclose(s.grad("x")._data, [1.5, -0.5])


def test_port_info_reports_memory_and_autograd_facts():
    s = Session(chapter_graph())
    s.forward()
    z, x = s.inspector.port_info("z"), s.inspector.port_info("x")
    assert z.shape == () and z.dtype == "float32" and z.device == "cpu" and z.grad_fn == "AddBackward0"
    assert not z.is_leaf and z.requires_grad and z.version == 0
    assert x.is_leaf and x.strides == (1,) and x.contiguous and x.grad_fn is None and x.shares_memory_with == ()
    assert set(s.inspector.info()) == {"x", "w", "b", "mul", "sum", "z"}


def test_port_info_sees_views_sharing_memory(test_types):
    from core.nodegraph.model.spec import NodeSpec, Port, register, unregister

    register(NodeSpec("test.arange", "Test", "arange", "", lambda c, i, p: core.arange(6.0).view(2, 3)))
    register(NodeSpec("test.t", "Test", "t", "", lambda c, i, p: i["x"].t(), inputs=(Port("x"),)))
    try:
        from core.nodegraph.model.document import Graph

        g = Graph()
        g.add_node(Node("a", "test.arange"))
        g.add_node(Node("t", "test.t"))
        g.connect(Edge("a", "out", "t", "x"))
        s = Session(g)
        s.forward()
        info = s.inspector.port_info("t")
        assert info.shares_memory_with == ("a.out",) and not info.contiguous and info.strides == (1, 3)
    finally:
        unregister("test.arange")
        unregister("test.t")


def test_forward_errors_are_attached_to_nodes_never_raised():
    g = chapter_graph()
    g.set_param("w", "tensor", [1.0, 2.0, 3.0])
    s = Session(g)
    s.forward()
    assert s.errors["mul"].type == "RuntimeError" and "size of tensor a" in s.errors["mul"].message
    assert s.errors["sum"].type == "Skipped" and "mul" in s.errors["sum"].message and "z" in s.errors
    assert str(s.errors["sum"]) == "Skipped: input 'x' comes from mul, which failed"  # once, by its title
    s.backward()  # nothing to differentiate: no exception either
    assert "x" not in s.errors


def test_unconnected_inputs_and_unknown_types_are_node_errors(test_types):
    from core.nodegraph.model.document import Graph

    g = Graph()
    g.add_node(Node("a", "test.add"))
    g.add_node(Node("u", "no.such", {}))
    s = Session(g)
    s.forward()
    assert "not connected" in s.errors["a"].message
    assert "unknown node type" in s.errors["u"].message


def test_the_apps_own_node_errors_read_as_sentences_without_a_class_name(test_types):
    from core.nodegraph.model.document import Graph

    g = Graph()
    g.add_node(Node("a", "test.add"))
    g.add_node(Node("u", "no.such", {}))
    s = Session(g)
    s.forward()
    # what the canvas and the status bar show: no "MissingInput:" or "UnknownNodeType:" in front
    assert str(s.errors["a"]) == "Input 'a' is not connected"
    assert str(s.errors["u"]).startswith("Unknown node type 'no.such' (a placeholder")
    assert s.errors["a"].type == "MissingInput" and s.errors["u"].type == "UnknownNodeType"  # the kinds stay


def test_changing_a_parameter_recomputes_only_its_downstream():
    g = chapter_graph()
    s = Session(g)
    s.forward()
    seen = []
    s.subscribe(seen.append)
    g.set_param("b", "tensor", 1.1)
    assert [e.node for e in seen] == ["b", "z"]
    assert abs(s.value("z").item() - 2.6) < 1e-6
    assert s.forward_complete


def test_reset_forgets_values_gradients_and_history():
    s = Session(chapter_graph())
    s.backward()
    s.reset()
    assert s.values == {} and s.ledger.entries == {} and len(s.history.snapshots) == 1
    s.backward()
    np.testing.assert_allclose(s.grad("x")._data, [1.5, -0.5])


def test_backward_until_stops_after_the_chosen_nodes_step():
    s = Session(chapter_graph())
    s.backward(until="mul")
    assert s.backward_in_progress
    assert s.grad("b") is not None and s.grad("x") is None and s.grad("w") is None
    s.backward()
    np.testing.assert_allclose(s.grad("w")._data, [2.0, 3.0])
    assert not s.backward_in_progress


def test_events_carry_phase_node_and_changed_keys_for_every_kind_of_step():
    s = Session(chapter_graph())
    seen = []
    s.subscribe(seen.append)
    s.forward()
    s.backward()
    s.zero_grad()
    s.reset()
    phases = [e.phase for e in seen]
    assert phases[:6] == ["forward"] * 6 and phases[-2:] == ["zero_grad", "reset"]
    zero = seen[-2]
    assert set(zero.changed) == {"x.out", "w.out", "b.out"} and zero.node is None
    assert all(e.index >= 0 for e in seen)


def test_backward_with_create_graph_records_gradients_that_can_be_differentiated_again():
    s = Session(chapter_graph())
    s.backward(create_graph=True)
    gw = s.grad("w")
    assert gw.requires_grad and gw.grad_fn is not None  # dz/dw = x, as a function of x
    np.testing.assert_allclose(gw.detach()._data, [2.0, 3.0])
    (g2,) = core.autograd.grad(gw.sum(), s.value("x"))
    np.testing.assert_allclose(g2._data, [1.0, 1.0])
    s.backward()  # the graph was kept: a second backward works and accumulates
    np.testing.assert_allclose(s.grad("x").detach()._data, [3.0, -1.0])


@pytest.mark.parametrize("named", [False, True])
def test_backward_from_a_node_that_outputs_no_tensor_says_where_backward_starts_and_what_to_change(named):
    from core.nodegraph.files import io
    from core.nodegraph.lessons.texts import EXAMPLES_DIR

    graph = io.load(EXAMPLES_DIR / "07-gradcheck.json")  # its last node, check_wrong, outputs gradcheck's result
    last = next(nid for nid, n in graph.nodes.items() if n.title == "check_wrong")
    if named:
        graph.training["loss"] = last
    s = Session(graph)
    assert s.backward_step() is None
    start = "the Train tab's Loss node" if named else "the last node"
    assert str(s.errors[last]) == (f"TypeError: backward starts from {start}, and its output 'out' is a dict, not a "
                                   "tensor: choose a node that outputs a tensor as Loss node in the Train tab")
