"""Complex sources: a source's dtype box offers complex64 and complex128, a complex leaf may require grad (torch's
rule: floating point and complex dtypes), a real loss of complex leaves gives torch's gradients, and backward of a
complex output is refused as torch refuses it."""

import numpy as np
import pytest
import torch

import core
from core.nodegraph.files import io as files
from core.nodegraph.files.examples import default_graph
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.model.spec import all_specs
from core.nodegraph.run.session import Session


def test_every_source_with_a_dtype_box_offers_both_complex_dtypes():
    boxes = [p for s in all_specs() if s.category == "source" for p in s.params if p.name == "dtype"]
    assert len(boxes) > 5
    assert all({"complex64", "complex128"} <= set(p.choices) for p in boxes if "int64" in p.choices)


def test_a_real_loss_of_complex_leaves_gives_torchs_value_and_gradients():
    g = Graph()
    for nid, t, params in (("a", "source.randn", {"shape": [3], "dtype": "complex64", "seed": 0,
                                                  "requires_grad": True}),
                           ("b", "source.randn", {"shape": [3], "dtype": "complex128", "seed": 1,
                                                  "requires_grad": True}),
                           ("m", "math.mul", {}), ("r", "math.abs", {}), ("s", "reduce.sum", {})):
        g.add_node(Node(nid, t, params, (0.0, 0.0)))
    for src, dst, port in (("a", "m", "a"), ("b", "m", "b"), ("m", "r", "x"), ("r", "s", "x")):
        g.connect(Edge(src, "out", dst, port))
    session = Session(g)
    session.forward()
    session.backward()
    assert session.errors == {}
    a, b = (torch.from_numpy(np.array(session.value(n).detach().numpy())).requires_grad_() for n in ("a", "b"))
    want = (a * b).abs().sum()
    want.backward()
    got = session.value("s")
    assert str(got.dtype) == str(want.dtype) and got.item() == pytest.approx(want.item(), rel=1e-6)
    for name, leaf in (("a", a), ("b", b)):
        grad = session.value(name).grad
        assert str(grad.dtype) == str(leaf.grad.dtype)
        np.testing.assert_allclose(grad.numpy(), leaf.grad.numpy(), rtol=1e-5)


def test_backward_of_the_chapters_graph_on_complex_leaves_is_refused_as_torch_refuses_it():
    """z = (x * w).sum() + b with x and w complex: forward runs; backward needs a real scalar output."""
    g = default_graph()
    for nid in ("n1", "n2"):
        g.nodes[nid].params["dtype"] = "complex64"
    session = Session(g)
    session.forward()
    assert session.errors == {} and session.value("n6").is_complex()
    session.backward()
    x = torch.tensor([2.0, 3.0], dtype=torch.complex64, requires_grad=True)
    w = torch.tensor([1.5, -0.5], dtype=torch.complex64, requires_grad=True)
    with pytest.raises(RuntimeError) as want:
        ((x * w).sum() + torch.tensor(0.1, requires_grad=True)).backward()
    error = session.errors["n6"]
    assert error.phase == "backward" and error.type == type(want.value).__name__
    assert str(want.value).split(" but ")[0] in error.message  # "... only for real scalar outputs"


def test_an_integer_leaf_requiring_grad_is_refused_with_torchs_rule():
    g = Graph()
    g.add_node(Node("x", "source.zeros", {"shape": [2], "dtype": "int64", "requires_grad": True}, (0.0, 0.0)))
    session = Session(g)
    session.forward()
    with pytest.raises(RuntimeError, match="floating point and complex"):  # what the source's factory call says
        torch.zeros(2, dtype=torch.int64, requires_grad=True)
    assert "floating point and complex tensors can require gradients" in session.errors["x"].message


def test_a_complex_source_is_saved_and_loaded_with_its_dtype(tmp_path):
    g = default_graph()
    g.nodes["n1"].params["dtype"] = "complex128"
    files.save(g, tmp_path / "c.json")
    loaded = files.load(tmp_path / "c.json")
    assert loaded.nodes["n1"].params["dtype"] == "complex128"
    session = Session(loaded)
    session.forward()
    assert session.value("n1").dtype == core.complex128
