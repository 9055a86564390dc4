"""A sweep of learner snippets through code import: each opens as a graph whose forward values equal running it.

Each snippet of ``code_snippets.SNIPPETS`` runs under ``core`` (``torch`` resolved to ``core``, as the import
resolves it) and is imported with the same seed. For every tensor variable of the finished script that the graph has
a node for, the node of its LAST binding (``y``, ``y_2``, ... ``y_9`` for a variable rebound in a loop) after one
forward pass holds the script's final value: same shape, same dtype, same bits. A training loop is traced once: its
graph trains with the losses the script printed (``LOOPS``); a value changed without gradient and never used again
(``w -= lr * w.grad``) is not in the graph, and the notes say so (``CHANGED_LAST``).
"""

import contextlib
import io
import sys

import numpy as np
import pytest

import core
from core.nodegraph.files.code_import import CodeImportError, import_here
from core.nodegraph.run.session import Session
from tests.nodegraph.code_snippets import SNIPPETS

# snippets whose loop is a recognised training loop: the loop body's variables hold the last pass in the script
LOOPS = {"chapter_training": ("xb", "yb", "pred", "loss"), "adam_loop": ("loss",), "scheduler": ("loss",)}
# variables changed without gradient as the script's last word on them: the graph holds the value its ops read
CHANGED_LAST = {"manual_sgd_no_grad": ("w",), "data_update": ()}
ALIASES = {"torch": core, "torch.nn": core.nn, "torch.nn.functional": core.nn.functional,
           "torch.autograd": core.autograd, "torch.optim": core.optim}


def run_under_core(text: str, monkeypatch) -> tuple[dict, str]:
    """The snippet's globals and what it printed, run with ``torch`` (and its submodules) resolved to core."""
    with monkeypatch.context() as m:
        for name, module in ALIASES.items():
            m.setitem(sys.modules, name, module)
        env: dict = {"__name__": "__main__"}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(text, "snippet", "exec"), env)  # the test's own snippet
    return env, out.getvalue()


def last_bindings(graph) -> dict[str, str]:
    """Variable name -> the node of its last binding (titles ``y``, ``y_2``, ...)."""
    found: dict[str, tuple[int, str]] = {}
    for nid, node in graph.nodes.items():
        title = node.title or ""
        base, _, k = title.rpartition("_")
        name, rank = (base, int(k)) if base and k.isdigit() else (title, 1)
        if title and rank >= found.get(name, (0, ""))[0]:
            found[name] = (rank, nid)
    return {name: nid for name, (_, nid) in found.items()}


def same(got: core.Tensor, want: core.Tensor) -> bool:
    g, w = got.detach().numpy(), want.detach().numpy()
    return g.shape == w.shape and g.dtype == w.dtype and np.array_equal(g, w, equal_nan=True)


@pytest.mark.parametrize("name", SNIPPETS)
def test_a_learner_snippet_imports_into_a_graph_with_the_values_running_it_gives(name, monkeypatch):
    text = SNIPPETS[name]
    core.manual_seed(0)
    want, printed = run_under_core(text, monkeypatch)
    core.manual_seed(0)
    result = import_here(text)
    session = Session(result.graph)
    session.forward()
    assert not session.errors, session.errors
    skipped = set(LOOPS.get(name, ())) | set(CHANGED_LAST.get(name, ()))
    compared = []
    for var, nid in last_bindings(result.graph).items():
        if isinstance(want.get(var), core.Tensor) and var not in skipped:
            assert same(session.values[nid]["out"], want[var]), (var, session.values[nid]["out"], want[var])
            compared.append(var)
    assert compared or name in LOOPS
    if name in CHANGED_LAST:
        assert any("changed in place outside autograd" in note for note in result.notes)


@pytest.mark.parametrize("name", ["adam_loop"])
def test_a_traced_training_loop_trains_with_the_losses_the_script_printed(name, monkeypatch):
    core.manual_seed(0)
    _, printed = run_under_core(SNIPPETS[name], monkeypatch)
    core.manual_seed(0)
    graph = import_here(SNIPPETS[name]).graph
    losses = [m["loss"] for m in Session(graph).train(graph.training["steps"])]
    assert losses == pytest.approx([float(v) for v in printed.split()], rel=1e-6)


def test_the_chapters_training_loop_graph_holds_the_first_passs_loss(monkeypatch):
    core.manual_seed(0)
    _, printed = run_under_core(SNIPPETS["chapter_training"], monkeypatch)
    core.manual_seed(0)
    result = import_here(SNIPPETS["chapter_training"])
    session = Session(result.graph)
    session.forward()
    loss = last_bindings(result.graph)["loss"]
    assert session.values[loss]["out"].item() == float(printed.splitlines()[0].split()[1])


def test_a_weight_updated_under_no_grad_is_read_with_its_new_values_by_later_ops(monkeypatch):
    text = SNIPPETS["no_grad_update_then_use"]
    core.manual_seed(0)
    want, _ = run_under_core(text, monkeypatch)
    core.manual_seed(0)
    result = import_here(text)
    session = Session(result.graph)
    session.forward()
    nodes = last_bindings(result.graph)
    assert same(session.values[nodes["y"]]["out"], want["y"]) and same(session.values[nodes["w"]]["out"], want["w"])
    assert any(note.startswith("line 9: w is changed in place outside autograd") for note in result.notes)


def test_an_item_assignment_node_outputs_the_tensor_it_changed_and_exports_so():
    from core.nodegraph.export.script import export_script

    result = import_here(SNIPPETS["setitem_clone"])
    session = Session(result.graph)
    session.forward()
    z = last_bindings(result.graph)["z"]
    assert session.values[z]["out"].tolist() == [10.0, 2.0, 4.0, 6.0]
    env: dict = {"__name__": "exported"}
    exec(export_script(result.graph, "core"), env)  # the exported script computes it too (its forward(seed))
    assert env["forward"](0)[f"{z}.out"].tolist() == [10.0, 2.0, 4.0, 6.0]


H = "import torch\nimport torch.nn as nn\n\n"
UNRECORDED = {  # modules that compute in helpers the recorder does not see: (snippet, what the refusal names)
    "nn.LSTM": ("lstm = nn.LSTM(3, 4, batch_first=True)\nx = torch.randn(2, 5, 3)\nout, (h, c) = lstm(x)\n", "lstm"),
    "nn.GRU": ("gru = nn.GRU(3, 4)\nx = torch.randn(5, 2, 3)\nout, h = gru(x)\n", "gru"),
    "nn.MultiheadAttention": ("mha = nn.MultiheadAttention(4, 2)\nx = torch.randn(3, 1, 4)\ny, w = mha(x, x, x)\n",
                              "mha"),
}


@pytest.mark.parametrize("kind", UNRECORDED)
def test_a_snippet_whose_only_module_is_not_recorded_is_refused_at_its_call_naming_the_module(kind):
    text, var = UNRECORDED[kind]
    with pytest.raises(CodeImportError) as info:
        import_here(H + text)
    assert info.value.line == 6  # the module's call
    assert str(info.value).startswith(f"line 6: {var} ({kind}) is not supported by code import")


def test_an_unrecorded_modules_outputs_used_later_are_values_and_the_notes_say_so():
    text, _ = UNRECORDED["nn.LSTM"]
    result = import_here(H + text + "loss = out.sum()\n")
    assert [n.type for n in result.graph.nodes.values()] == ["source.tensor", "reduce.sum"]
    assert any(n.startswith("line 6: lstm (nn.LSTM) is not supported by code import") for n in result.notes)


def test_a_model_called_only_under_no_grad_is_not_said_to_be_unsupported():
    text = H + "m = nn.Linear(2, 1)\nx = torch.randn(3, 2)\nwith torch.no_grad():\n    p = m(x)\nq = p * 2\n"
    notes = import_here(text).notes
    assert notes and not any("not supported" in n for n in notes)


@pytest.mark.parametrize("name", SNIPPETS)
def test_no_learner_snippet_is_said_to_use_an_unsupported_module(name):
    core.manual_seed(0)
    assert not any("not supported" in n for n in import_here(SNIPPETS[name]).notes)
