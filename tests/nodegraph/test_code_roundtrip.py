"""Round trip: every example graph exported to a ``core`` script and imported back computes what the graph does.

Each node of the original graph is matched with the imported node titled after the variable the script
holds its value in (``forward``'s returned dict; ``w = p_w`` aliases a parameter). The two sessions must
agree on every value, every gradient, which nodes fail, the training settings and the training losses
(every step when the batch is fixed, else the first step), and a gradcheck node's verdict (the script's
``check = torch.autograd.gradcheck(lambda x: ..., (inp,), ...)`` imported back as a gradcheck node). An example
that can't round-trip is listed with its reason, and the test asserts that reason.
"""

import ast

import numpy as np
import pytest

import core
from core.nodegraph.export.script import export_script
from core.nodegraph.files import io as files
from core.nodegraph.files.code_import import MAX_SOURCE, TOO_LONG, CodeImportError, import_here
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session

EXAMPLES = sorted(p.stem for p in EXAMPLES_DIR.glob("*.json"))
STEPS = 3
# The lesson's point is the error: its view of a transposed tensor raises, so the script stops at that line.
RAISES = {"03-views": "view size is not compatible with input tensor's size and stride"}


def session(graph) -> Session:
    return Session(graph, device="cpu", seed=int(graph.training.get("seed") or 0))


def names_in_script(script: str) -> dict:
    """``{"node.port": (variable, alias or None)}`` from the script's ``forward`` function."""
    tree = ast.parse(script)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "forward")
    alias = {a.targets[0].id: a.value.id for a in fn.body
             if isinstance(a, ast.Assign) and isinstance(a.value, ast.Name) and isinstance(a.targets[0], ast.Name)}
    returned = fn.body[-1].value
    return {k.value: (v.id, alias.get(v.id)) for k, v in zip(returned.keys, returned.values)}


def ran(graph) -> Session:
    s = session(graph)
    s.forward()
    if graph.training.get("loss"):
        s.backward()
    return s


def same(a, b) -> bool:
    if not isinstance(a, core.Tensor) or not isinstance(b, core.Tensor) or a.shape != b.shape:
        return False
    return np.allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-7, equal_nan=True)


def failed(s: Session, nid: str) -> bool:
    """The node failed in the forward pass (a backward error sits on the loss, which a script that never calls
    backward() can't name)."""
    return nid in s.errors and s.errors[nid].phase == "forward"


def grad_of(t):
    return t.grad if isinstance(t, core.Tensor) and t.is_leaf else None


def imported(name: str):
    graph = files.load(EXAMPLES_DIR / f"{name}.json")
    script = export_script(graph, api="core", steps=STEPS)
    return graph, script, import_here(script, name=f"{name}.py").graph


def fixed_batch(graph) -> bool:
    """The graph's source nodes give the same values at every training step."""
    s = session(graph)
    sources = [nid for nid in graph.nodes if not graph.inputs_of(nid)]
    seen = []
    for _ in s.train(2):
        seen.append({(nid, port): v.detach().clone() for nid in sources for port, v in (s.values.get(nid) or {}).items()
                     if isinstance(v, core.Tensor)})
    return len(seen) == 2 and all(same(v, seen[1].get(key)) for key, v in seen[0].items())


@pytest.mark.parametrize("name", [n for n in EXAMPLES if n not in RAISES])
def test_an_example_exported_and_imported_back_has_the_same_values_gradients_and_errors(name):
    graph, script, back = imported(name)
    s1, s2 = ran(graph), ran(back)
    titles = {n.title: nid for nid, n in back.nodes.items() if n.title}
    compared = 0
    for key, (var, alias) in names_in_script(script).items():
        nid, port = key.rsplit(".", 1)
        twin = titles.get(var) or titles.get(alias)
        assert twin is not None, f"{key} ({var}) has no node in the imported graph"
        same_type = back.nodes[twin].type == graph.nodes[nid].type  # then the twin holds the value at the same port
        v1, v2 = (s1.values.get(nid) or {}).get(port), (s2.values.get(twin) or {}).get(port if same_type else "out")
        assert failed(s1, nid) == failed(s2, twin), f"{key}: {s1.errors.get(nid)} vs {s2.errors.get(twin)}"
        if nid == graph.training.get("loss") and isinstance(v1, core.Tensor) and v1.requires_grad:
            assert back.training["loss"] == twin  # the script calls backward() on it
        if isinstance(v1, core.Tensor):
            assert same(v1, v2), f"{key} ({var}): values differ"
            g1, g2 = grad_of(v1), grad_of(v2)
            assert (g1 is None) == (g2 is None) and (g1 is None or same(g1, g2)), f"{key} ({var}): gradients differ"
            compared += 1
        elif isinstance(v1, (bool, int, float)):  # a gradcheck's verdict
            assert v1 == v2, f"{key} ({var}): {v1!r} vs {v2!r}"
            compared += 1
    assert compared >= 2


@pytest.mark.parametrize("name", [n for n in EXAMPLES if n not in RAISES])
def test_an_example_imported_back_trains_with_the_same_settings_and_losses(name):
    graph, script, back = imported(name)
    keys = ("loss", "optimizer", "optimizer_params", "schedule")
    if "for step in range(STEPS)" not in script:
        assert back.training["loss"] is None or back.training["loss"] in back.nodes
        return  # the graph has no parameters: the script runs forward (and backward) once
    assert {k: back.training[k] for k in keys[1:]} == {k: graph.training[k] for k in keys[1:]}
    assert back.training["steps"] == STEPS
    want = [m["loss"] for m in session(graph).train(STEPS)]
    got = [m["loss"] for m in session(back).train(STEPS)]
    steps = STEPS if fixed_batch(graph) else 1  # a fresh batch each step: the import keeps the first one
    assert got[:steps] == pytest.approx(want[:steps], rel=1e-5)


@pytest.mark.parametrize("name", sorted(RAISES))
def test_an_example_whose_lesson_is_an_error_reports_that_error_at_its_scripts_line(name):
    graph = files.load(EXAMPLES_DIR / f"{name}.json")
    s = ran(graph)
    failing = [nid for nid, err in s.errors.items() if RAISES[name] in err.message]
    assert failing, "the lesson's graph no longer shows the error the round trip expects"
    script = export_script(graph, api="core", steps=STEPS)
    var = names_in_script(script)[f"{failing[0]}.out"][0]
    line = next(i for i, text in enumerate(script.splitlines(), 1) if text.strip().startswith(f"{var} = "))
    with pytest.raises(CodeImportError) as info:
        import_here(script)
    assert info.value.line == line
    assert RAISES[name] in info.value.message


def test_the_gradcheck_example_comes_back_with_its_formulas_parameters_and_printed_verdicts():
    graph, script, _ = imported("07-gradcheck")
    result = import_here(script, name="07-gradcheck.py")
    checks = {n.title: n for n in graph.nodes.values() if n.type == "check.gradcheck"}
    back = {n.title: n for n in result.graph.nodes.values() if n.type == "check.gradcheck"}
    assert sorted(back) == sorted(checks) == ["check", "check_wrong"]
    for title, node in checks.items():
        assert back[title].params == node.params
    assert "check = True\ncheck_wrong = False\n" in result.output
    assert {n.type for n in result.graph.nodes.values()} == {"source.tensor", "check.gradcheck"}


def test_a_large_random_tensor_exported_imported_and_exported_again_is_refused_with_what_to_do():
    """An imported snippet's own ``torch.randn(...)`` is kept as the values it drew (the seed is not in the graph):
    a 500 x 500 one re-exports to a script over the import's size limit, and the refusal says what to do."""
    g = Graph()
    g.add_node(Node("n1", "source.randn", {"shape": [500, 500], "seed": 3}, title="x"))
    g.add_node(Node("n2", "reduce.sum", {}, title="s"))
    g.connect(Edge("n1", "out", "n2", "x"))
    first = export_script(g)
    assert len(first) < 10_000  # a seeded random source is exported as the call, not its values
    imported = import_here(first).graph
    assert [n.type for n in imported.nodes.values()] == ["source.tensor", "reduce.sum"]  # x kept as its values
    again = export_script(imported)
    assert len(again) > MAX_SOURCE
    with pytest.raises(CodeImportError) as refused:
        import_here(again)
    assert str(refused.value) == TOO_LONG
    assert "open the graph's saved file" in TOO_LONG and "torch.randn node with a seed" in TOO_LONG
