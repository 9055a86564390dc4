"""bfloat16 tensors (NumPy holds them only through ml_dtypes, and ``.numpy()`` refuses them as torch's does) go
through a session, its autograd rows, code export and code import like float32 ones, with core's numbers."""

import numpy as np

import core
import core.nodegraph.model.nodes  # registers the node types
from core.nodegraph.explain.autograd_rows import autograd_rows
from core.nodegraph.export.script import export_script
from core.nodegraph.files.code_import import import_code
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.model.numtext import magnitudes, tensor_values
from core.nodegraph.run.session import Session
from tests.nodegraph.test_export import run_script, session_run


def _chapter_bfloat16() -> Graph:
    g = Graph()
    for nid, value in (("x", [2.0, 3.0]), ("w", [1.5, -0.5]), ("b", 0.1)):
        g.add_node(Node(nid, "source.tensor", {"tensor": value, "requires_grad": True, "dtype": "bfloat16"}))
    g.add_node(Node("mul", "math.mul"))
    g.add_node(Node("sum", "reduce.sum"))
    g.add_node(Node("z", "math.add"))
    for e in (("x", "out", "mul", "a"), ("w", "out", "mul", "b"), ("mul", "out", "sum", "x"),
              ("sum", "out", "z", "a"), ("b", "out", "z", "b")):
        g.connect(Edge(*e))
    g.training["loss"] = "z"
    return g


def _expected():
    x, w, b = (core.tensor(v, dtype=core.bfloat16, requires_grad=True) for v in ([2.0, 3.0], [1.5, -0.5], 0.1))
    z = (x * w).sum() + b
    z.backward()
    return z, x, w


def test_a_bfloat16_graph_runs_forward_and_backward_with_cores_numbers():
    session = Session(_chapter_bfloat16())
    session.forward()
    session.backward()
    z, x, w = _expected()
    assert session.value("z").dtype == core.bfloat16
    assert session.value("z").item() == z.item()
    assert np.array_equal(tensor_values(session.value("x").grad), x.grad.float().numpy())


def test_autograd_rows_show_bfloat16_saved_values():
    session = Session(_chapter_bfloat16())
    session.forward()
    rows, _ = autograd_rows(session)
    saved = [line for row in rows for line in row["saved"]]
    assert "x: (2,) bfloat16 [2., 3.]" in saved and "w: (2,) bfloat16 [ 1.5000, -0.5000]" in saved


def test_tensor_values_gives_float32_for_bfloat16_and_complex_magnitudes():
    t = core.tensor([[1.5, -2.25]], dtype=core.bfloat16, requires_grad=True)
    arr = tensor_values(t)
    assert arr.dtype == np.float32 and arr.tolist() == [[1.5, -2.25]]
    assert np.array_equal(magnitudes(tensor_values(core.tensor([3 + 4j, -1j]))), [5.0, 1.0])
    assert tensor_values(core.tensor([1, 2])).dtype == np.int64


def test_an_exported_bfloat16_graph_prints_the_sessions_values(tmp_path):
    g = _chapter_bfloat16()
    got = run_script(export_script(g, "core"), tmp_path)
    assert got == session_run(g)
    z, x, w = _expected()
    assert got["value"]["z.out"] == z.item() and got["grad"]["x.out"] == x.grad.tolist()


def test_code_with_bfloat16_tensors_imports_as_bfloat16_sources():
    result = import_code("import torch\nx = torch.tensor([1.5, 2.0], dtype=torch.bfloat16, requires_grad=True)\n"
                         "z = (x * x).sum()\nz.backward()\n")
    sources = [n for n in result.graph.nodes.values() if n.type == "source.tensor"]
    assert [(n.params["tensor"], n.params["dtype"]) for n in sources] == [([1.5, 2.0], "bfloat16")]
