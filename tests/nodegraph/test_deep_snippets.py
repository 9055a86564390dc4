"""A deep snippet opens as a straight band: the chain from the inputs to the loss runs along one row with each
layer's weights and biases beside it (it stepped down a row a layer, as tall as wide), and ``x @ w`` is a matmul
node (it was an opaque op with four outputs)."""

from core.nodegraph.files import io as files
from core.nodegraph.files.code_import import import_here
from core.nodegraph.model import edge_routes, layout, tensor_store
from core.nodegraph.run.session import Session
from tests.nodegraph.test_code_import import by_title, run_snippet, stepped
from tests.nodegraph.test_edge_crossings import MLP3

MATMUL = """import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
w = torch.tensor([[0.5], [-1.0]], requires_grad=True)
y = (x @ w).sum()
y.backward()
"""


def test_the_matmul_operator_imports_as_a_matmul_node_with_the_snippets_value_and_gradients():
    graph = import_here(MATMUL).graph
    want = run_snippet(MATMUL)
    got = by_title(stepped(graph))
    assert sorted(n.type for n in graph.nodes.values() if not n.type.startswith("source.")) == [
        "linalg.matmul", "reduce.sum"]
    assert got["y"].item() == want["y"].item()
    assert got["x"].grad.tolist() == want["x"].grad.tolist()
    assert got["w"].grad.tolist() == want["w"].grad.tolist()


def test_a_three_layer_mlp_opens_with_its_chain_along_one_row_and_its_parameters_beside_it():
    graph = import_here(MLP3).graph
    fed = {e.dst for e in graph.edges}
    chain = [n for nid, n in graph.nodes.items() if nid in fed]
    sources = [n for nid, n in graph.nodes.items() if nid not in fed]
    assert len(chain) == 11 and sum(n.type == "linalg.matmul" for n in chain) == 3
    assert len({n.position[1] for n in chain}) == 1  # one row, left to right
    columns = sorted({n.position[0] for n in graph.nodes.values()})
    assert len(columns) == 12
    row_height = max(layout.node_size(n)[1] for n in graph.nodes.values()) + layout.GAP[1]
    tops = [n.position[1] for n in graph.nodes.values()]
    assert max(tops) - min(tops) <= 2 * row_height  # the sources in a row or two above and under it
    assert all(n.position[0] in columns for n in sources)
    size = lambda nid: layout.node_size(graph.node(nid))  # noqa: E731
    assert edge_routes.crossings(graph, size) == [] and edge_routes.edge_crossings(graph) == []


def test_a_hand_written_weight_of_many_values_evaluates_after_saving_and_opening_the_graph():
    """w2 = torch.randn(16, 16, requires_grad=True) is a parameter node of 256 values: saved (or sent from the
    import's child process) it is a TensorValue, and the node failed with "cannot reshape array of size 256 into
    shape ()", so every node after it was skipped."""
    graph = import_here(MLP3).graph
    reopened = files.loads(files.dumps(graph))
    w2 = next(n for n in reopened.nodes.values() if n.title == "w2")
    assert isinstance(w2.params["tensor"], tensor_store.TensorValue) and w2.params["tensor"].size > \
        tensor_store.INLINE_MAX
    before, after = Session(graph), Session(reopened)
    before.forward()
    after.forward()
    assert after.errors == {}
    loss = next(nid for nid, n in graph.nodes.items() if n.title == "loss")
    assert after.values[loss]["out"].item() == before.values[loss]["out"].item()
    assert after.values[w2.id]["out"].shape == (16, 16)
