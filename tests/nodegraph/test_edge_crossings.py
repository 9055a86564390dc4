"""Edges cross each other little: the layered layout orders each column by its neighbours (barycentre sweeps, the
fewest-crossings order kept, then neighbour swaps) and moves a node a long edge runs through to the side its lane
keeps, so the stored lessons and the chapter's snippets come out with fewer crossing edges than they were stored
with, and still with no edge through a node."""

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.code_import import import_here
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from core.nodegraph.model import edge_routes, layout
from core.nodegraph.model.document import Edge, Graph, Node
from tests.nodegraph.test_code_import import AUTOGRAD, TRAINING

LESSONS = sorted(p.name for p in EXAMPLES_DIR.glob("*.json"))

# the chapter's gradient-penalty example as the lesson builds it: a gradient taken with create_graph, then penalised
GRADIENT_PENALTY = """import torch
x = torch.randn(4, 2, requires_grad=True)
critic = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
score = critic(x).sum()
grads, = torch.autograd.grad(score, x, create_graph=True)
gp = ((grads.norm(dim=1) - 1) ** 2).mean()
gp.backward()
"""

# a 3-layer MLP trained as a user writes it: twelve columns from the inputs to the optimizer step
MLP3 = """import torch
torch.manual_seed(0)
x = torch.randn(64, 3)
y = torch.randn(64, 1)
w1 = torch.randn(3, 16, requires_grad=True)
b1 = torch.zeros(16, requires_grad=True)
w2 = torch.randn(16, 16, requires_grad=True)
b2 = torch.zeros(16, requires_grad=True)
w3 = torch.randn(16, 1, requires_grad=True)
b3 = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w1, b1, w2, b2, w3, b3], lr=0.01)
for step in range(100):
    h1 = torch.relu(x @ w1 + b1)
    h2 = torch.relu(h1 @ w2 + b2)
    pred = h2 @ w3 + b3
    loss = ((pred - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

SNIPPETS = {"z = (x*w).sum()+b": AUTOGRAD, "linear training step": TRAINING, "gradient penalty": GRADIENT_PENALTY,
            "3-layer MLP": MLP3}


def model_size(graph):
    return lambda nid: layout.node_size(graph.node(nid))


def test_two_curves_that_swap_sides_cross_and_two_that_share_a_port_do_not(test_types):
    g = Graph()
    for nid, t, pos in (("top", "test.value", (0.0, 0.0)), ("bottom", "test.value", (0.0, 300.0)),
                        ("up", "test.add", (400.0, 0.0)), ("down", "test.add", (400.0, 300.0))):
        g.add_node(Node(nid, t, {}, pos))
    g.connect(Edge("top", "out", "down", "a"))
    g.connect(Edge("bottom", "out", "up", "a"))
    assert [(a.src, b.src) for a, b in edge_routes.edge_crossings(g)] == [("top", "bottom")]
    g.disconnect(g.edges[1])
    g.connect(Edge("top", "out", "up", "a"))  # leaves top's port with the other edge: they meet there only
    assert edge_routes.edge_crossings(g) == []
    assert layout.hop_crossings([["top", "bottom"], ["up", "down"]],
                                [("top", "down", 0, 0), ("bottom", "up", 0, 0)]) == 1


def _in_creation_rows(graph):
    """Each node one column right of its deepest input, the nodes of a column in the order they were made: a
    layering without any crossing reduction, for the layout to improve on."""
    depth: dict[str, int] = {}
    for nid in graph.nodes:  # the lessons make every node after its inputs
        depth[nid] = max((depth[e.src] + 1 for e in graph.edges if e.dst == nid and e.src in depth), default=0)
    rows: dict[int, int] = {}
    positions = {}
    for nid, col in depth.items():
        positions[nid] = (col * layout.COLUMN, rows.get(col, 0) * 200.0)
        rows[col] = rows.get(col, 0) + 1
    return positions


@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_laid_out_has_no_edge_through_a_node(name):
    graph = files.load(EXAMPLES_DIR / name)
    assert edge_routes.crossings(graph, model_size(graph), layout.layered(graph)) == []


def test_the_lessons_laid_out_have_fewer_crossing_edges_in_all_than_in_plain_rows():
    graphs = [files.load(EXAMPLES_DIR / name) for name in LESSONS]
    plain = sum(len(edge_routes.edge_crossings(g, _in_creation_rows(g))) for g in graphs)
    laid_out = sum(len(edge_routes.edge_crossings(g, layout.layered(g))) for g in graphs)
    assert laid_out < plain


@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_is_stored_with_no_crossing_edges_and_none_through_a_node(name):
    """Lessons 2, 9 and 10 were hand-placed with 3, 3 and 6 pairs of crossing edges: lesson 2's target now sits
    between pred's edges up to the trap and down to the fix, lesson 9's w under the batches, lesson 10's faults each
    in rows of their own. Lesson 8 kept 3 as Auto layout placed it: its total is now penalty + loss, the side branch
    along the top, w2 between x's edges to side and pred, y between w's edges to pred and g."""
    graph = files.load(EXAMPLES_DIR / name)
    assert edge_routes.edge_crossings(graph) == []
    assert edge_routes.crossings(graph, model_size(graph)) == []


def test_a_node_fed_by_a_sources_first_port_goes_above_the_edge_from_its_second():
    """The classifier playground: data's x feeds mlp, its y runs past mlp to the loss's target. Pushed down under
    y's curve, mlp's input crossed it; lifted above it, nothing crosses."""
    graph = files.load(EXAMPLES_DIR / "playground-classifier.json")
    positions = layout.layered(graph)
    by_title = {n.title: nid for nid, n in graph.nodes.items()}
    data, mlp = by_title["data"], by_title["mlp"]
    assert edge_routes.edge_crossings(graph, positions) == []
    assert edge_routes.crossings(graph, model_size(graph), positions) == []
    y_port = edge_routes.port_point(graph, data, "y", True, positions[data])[1]
    assert positions[mlp][1] + layout.node_size(graph.node(mlp))[1] < y_port


@pytest.mark.parametrize("snippet", list(SNIPPETS.values()), ids=list(SNIPPETS))
def test_an_imported_snippet_opens_with_at_most_one_pair_of_crossing_edges_and_none_through_a_node(snippet):
    graph = import_here(snippet).graph
    assert len(edge_routes.edge_crossings(graph)) <= (1 if snippet is GRADIENT_PENALTY else 0)
    assert edge_routes.crossings(graph, model_size(graph)) == []


def test_the_layout_is_the_same_every_time():
    graph = files.load(EXAMPLES_DIR / "10-diagnosing.json")
    assert layout.layered(graph) == layout.layered(graph)


def test_lesson_8s_total_adds_the_penalty_first_and_its_node_links_keep_their_nodes():
    """Lesson 8 crossed no edge only with total = penalty + loss (the side branch above the prediction): the text
    says so, and its links to x, w, pred, w2 and total still name those nodes."""
    graph = files.load(EXAMPLES_DIR / "08-gradient-flow.json")
    title = {nid: node.title for nid, node in graph.nodes.items()}
    total = next(nid for nid, t in title.items() if t == "total")
    into = {e.dst_port: title[e.src] for e in graph.edges if e.dst == total}
    assert into == {"a": "penalty", "b": "loss"}
    text = (EXAMPLES_DIR / "08-gradient-flow.md").read_text()
    assert f"[total](node:{total}) = penalty + loss" in text
    for name in ("x", "w", "pred", "w2", "eval_pred", "target", "branch", "g"):
        nid = next(n for n, t in title.items() if t == name)
        assert f"[{name}](node:{nid})" in text
