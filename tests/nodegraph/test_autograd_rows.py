"""The autograd view's rows after stepping, after training steps and their edges' labels."""

import core
import core.nodegraph.model.nodes  # registers the node types
from core.nodegraph.explain.autograd_rows import autograd_rows, grad_label
from core.nodegraph.files.examples import default_graph
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from core.nodegraph.run.step_owners import StepMarks, mark


def _graph(nodes, edges):
    g = Graph()
    for nid, type_id, params in nodes:
        g.add_node(Node(nid, type_id, params))
    for src, port, dst, dport in edges:
        g.connect(Edge(src, port, dst, dport))
    return g


def _stepped(graph):
    s = Session(graph)
    s.forward()
    return autograd_rows(s)


def _named(rows):
    return [(r["name"], r["owner"]) for r in rows]


def _labels(rows):
    return {(r["name"], r["owner"], rows[j]["name"], rows[j]["owner"]): grad_label(rows, i, j)
            for i, r in enumerate(rows) for j in r["next"]}


def _mlp_graph(lr=0.1):
    """dataset -> MLP -> BCE with logits against y as a column, plain SGD."""
    g = _graph([("data", "data.dataset", {"generator": "moons", "n_samples": 40, "batch_size": 8, "shuffle": True}),
                ("mlp", "layer.mlp", {"sizes": [2, 4, 1], "activation": "tanh", "seed": 0}),
                ("yf", "math.mul", {}), ("one", "source.tensor", {"tensor": 1.0}),
                ("col", "shape.unsqueeze", {"dim": 1}), ("loss", "loss.bce_with_logits", {})],
               [("data", "x", "mlp", "x"), ("data", "y", "yf", "a"), ("one", "out", "yf", "b"),
                ("yf", "out", "col", "x"), ("mlp", "out", "loss", "input"), ("col", "out", "loss", "target")])
    g.training.update(loss="loss", optimizer="SGD", optimizer_params={"lr": lr})
    return g


def _in_place_graph():
    """x -> m = x * 2 -> m.mul_(3) -> sum: the in-place node rewrites the history of m's output."""
    return _graph([("x", "param.parameter", {"shape": [2], "init": "ones"}),
                   ("two", "source.tensor", {"tensor": 2.0}), ("three", "source.tensor", {"tensor": 3.0}),
                   ("m", "math.mul", {}), ("ip", "inplace.mul_", {}), ("s", "reduce.sum", {})],
                  [("x", "out", "m", "a"), ("two", "out", "m", "b"), ("m", "out", "ip", "x"),
                   ("three", "out", "ip", "other"), ("ip", "out", "s", "x")])


def test_each_edge_is_labelled_with_the_shape_of_the_gradient_it_carries_in_the_chapters_graph():
    rows, origin = _stepped(default_graph())
    assert origin == "forward"
    assert _labels(rows) == {("AddBackward0", "n6", "SumBackward0", "n5"): "()",
                             ("AddBackward0", "n6", "AccumulateGrad", "n3"): "()",
                             ("SumBackward0", "n5", "MulBackward0", "n4"): "(2,)",
                             ("MulBackward0", "n4", "AccumulateGrad", "n1"): "(2,)",
                             ("MulBackward0", "n4", "AccumulateGrad", "n2"): "(2,)"}


def test_edge_labels_match_the_gradients_backward_really_sends(torch):
    g = _graph([("a", "source.tensor", {"tensor": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "requires_grad": True}),
                ("b", "source.tensor", {"tensor": [1.0, -1.0, 2.0], "requires_grad": True}),
                ("add", "math.add", {}), ("s", "reduce.sum", {})],
               [("a", "out", "add", "a"), ("b", "out", "add", "b"), ("add", "out", "s", "x")])
    rows, _ = _stepped(g)
    a, b = torch.ones(2, 3, requires_grad=True), torch.ones(3, requires_grad=True)
    ((a + b).sum()).backward()
    labels = _labels(rows)
    assert labels[("AddBackward0", "add", "AccumulateGrad", "a")] == str(tuple(a.grad.shape))
    assert labels[("AddBackward0", "add", "AccumulateGrad", "b")] == str(tuple(b.grad.shape)) == "(3,)"
    assert labels[("SumBackward0", "s", "AddBackward0", "add")] == "(2, 3)"


def test_a_node_sending_twice_to_the_same_node_says_so_on_its_label():
    g = _graph([("x", "source.tensor", {"tensor": [1.0, 2.0], "requires_grad": True}), ("sq", "math.mul", {}),
                ("s", "reduce.sum", {})], [("x", "out", "sq", "a"), ("x", "out", "sq", "b"), ("sq", "out", "s", "x")])
    rows, _ = _stepped(g)
    assert _labels(rows)[("MulBackward0", "sq", "AccumulateGrad", "x")] == "(2,) (2 gradients)"


def test_after_engine_training_steps_the_rows_are_the_last_steps_graph_with_the_right_owners():
    expected, _ = _stepped(classifier_graph("spiral"))
    s = Session(classifier_graph("spiral"))
    s.forward()
    list(s.train(3))
    rows, origin = autograd_rows(s)
    assert origin == "train"
    assert _named(rows) == _named(expected)
    loss = next(iter(s.values[s.loss_node()].values()))
    assert rows[0]["node"] is loss.grad_fn
    assert not any(r["saved"] for r in rows) and any(r["freed"] for r in rows)  # freed by the step's backward
    assert {s.owner_of(r["node"]) for r in rows} == {"n2", "n3"}


def test_training_without_a_stepped_forward_before_it_still_finds_every_owner():
    expected, _ = _stepped(classifier_graph("moons"))
    s = Session(classifier_graph("moons"))
    list(s.train(2))
    rows, origin = autograd_rows(s)
    assert origin == "train" and _named(rows) == _named(expected)


def test_owners_after_training_follow_an_in_place_node_that_rewrote_an_earlier_output():
    expected, _ = _stepped(_in_place_graph())
    assert ("MulBackward0", "ip") in _named(expected) and ("MulBackward0", "m") in _named(expected)
    s = Session(_in_place_graph())
    list(s.train(1))
    rows, origin = autograd_rows(s)
    assert origin == "train" and _named(rows) == _named(expected)


def test_a_stepped_forward_after_training_shows_its_own_graph_again():
    s = Session(classifier_graph("spiral"))
    list(s.train(2))
    s.forward()
    rows, origin = autograd_rows(s)
    assert origin == "forward" and rows[0]["saved"] == [] and rows[2]["saved"]
    assert _named(rows) == _named(_stepped(classifier_graph("spiral"))[0])


def test_after_training_an_mlp_the_rows_are_the_last_steps_graph_and_their_loss_is_the_last_batchs():
    expected, _ = _stepped(_mlp_graph())
    s = Session(_mlp_graph(lr=0.0))  # no update: the weights the last step used
    loss = list(s.train(2))[-1]["loss"]
    rows, origin = autograd_rows(s)
    assert origin == "train" and _named(rows) == _named(expected)
    out = s.states["mlp"]["module"](s.values["data"]["x"])
    target = s.values["col"]["out"]
    assert abs(core.nn.functional.binary_cross_entropy_with_logits(out, target).item() - loss) < 1e-6
    assert rows[0]["grads"] == [tuple(out.shape)]
    list(s.train(1))
    assert autograd_rows(s)[0][0]["node"] is not rows[0]["node"]


def test_no_loss_value_means_no_rows():
    s = Session(default_graph())
    assert autograd_rows(s) == ([], None)


def test_step_marks_own_only_what_was_made_between_them():
    x = core.ones(2, requires_grad=True)
    marks = [mark()]
    y = x * 2
    marks.append(mark())
    z = y.sum()
    marks.append(mark())
    after = z * 3
    step = StepMarks(["a", "b"], marks)
    leaves = {id(x): (x, "src", "out")}
    assert [step.owner(t.grad_fn, leaves) for t in (y, z, after)] == ["a", "b", None]
    assert step.owner(y.grad_fn._edges[0][0], leaves) == "src" and step.owner(y.grad_fn._edges[0][0], {}) is None
