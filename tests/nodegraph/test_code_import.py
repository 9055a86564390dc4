"""Code import: the chapter's snippets open as graphs whose values and gradients equal running the snippet."""

import threading

import pytest

import core
from core.nodegraph.files import io as files
from core.nodegraph.files.code_import import CodeImportError, import_code, import_here
from core.nodegraph.files.examples import default_graph
from core.nodegraph.run.session import Session

AUTOGRAD = """import torch
x = torch.tensor([2.0, 3.0], requires_grad=True)
w = torch.tensor([1.5, -0.5], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)

z = (x * w).sum() + b        # forward: z = 2*1.5 + 3*(-0.5) + 0.1 = 1.6
z.backward()
"""

TRAINING = """import torch

model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for step in range(3):
    xb = torch.randn(8, 4)
    yb = torch.randn(8, 1)

    pred = model(xb)
    loss = torch.nn.functional.mse_loss(pred, yb)

    optimizer.zero_grad()   # 1. clear old gradients
    loss.backward()         # 2. compute new gradients
    optimizer.step()        # 3. update parameters

    print(step, float(loss))
"""

HIGHER = """import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
penalty = (g ** 2).sum()
penalty.backward()
"""


def run_snippet(text: str) -> dict:
    """The snippet run directly under core (``import torch`` is core): its global variables."""
    env = {"__name__": "__main__"}
    exec(text.replace("import torch", "import core as torch"), env)  # the test's own snippet
    return env


def stepped(graph) -> Session:
    s = Session(graph)
    s.forward()
    s.backward()
    return s


def by_title(s: Session) -> dict:
    return {s.graph.nodes[nid].title: s.values[nid]["out"] for nid in s.order if s.graph.nodes[nid].title}


def test_the_chapters_autograd_snippet_becomes_the_z_graph_with_the_snippets_values_and_gradients():
    graph = import_here(AUTOGRAD).graph
    want = run_snippet(AUTOGRAD)
    s = stepped(graph)
    got = by_title(s)
    assert sorted(n.type for n in graph.nodes.values()) == sorted(n.type for n in default_graph().nodes.values())
    assert got["z"].item() == want["z"].item()
    for name in ("x", "w", "b"):
        assert got[name].grad.tolist() == want[name].grad.tolist()
    assert graph.nodes[graph.training["loss"]].title == "z"


def test_each_node_remembers_the_snippet_line_that_made_it():
    graph = import_here(AUTOGRAD).graph
    lines = {graph.nodes[nid].title or graph.nodes[nid].type: line for nid, line in graph.code["lines"].items()}
    assert lines == {"x": 2, "w": 3, "b": 4, "math.mul": 6, "reduce.sum": 6, "z": 6}


def test_the_training_step_snippet_gives_the_snippets_first_step_and_its_loop_becomes_the_training_settings():
    core.manual_seed(3)
    result = import_here(TRAINING)
    core.manual_seed(3)
    model = core.nn.Linear(4, 1)
    xb, yb = core.randn(8, 4), core.randn(8, 1)
    loss = core.nn.functional.mse_loss(model(xb), yb)
    loss.backward()
    s = stepped(result.graph)
    got = by_title(s)
    assert got["loss"].item() == loss.item()
    assert got["model.weight"].grad.tolist() == model.weight.grad.tolist()
    assert got["model.bias"].grad.tolist() == model.bias.grad.tolist()
    t = result.graph.training
    assert (t["optimizer"], t["optimizer_params"], t["steps"]) == ("SGD", {"lr": 0.01}, 3)
    assert result.output.splitlines()[0] == f"0 {loss.item()}"
    assert any("line 7: xb is made anew" in n for n in result.notes)


def test_the_training_step_graph_trains_like_the_snippet_when_the_batch_is_fixed():
    fixed = TRAINING.replace("for step in range(3):\n    xb = torch.randn(8, 4)\n    yb = torch.randn(8, 1)\n",
                             "xb = torch.randn(8, 4)\nyb = torch.randn(8, 1)\nfor step in range(3):\n")
    core.manual_seed(5)
    result = import_here(fixed)
    printed = [float(line.split()[1]) for line in result.output.splitlines()]
    losses = [m["loss"] for m in Session(result.graph).train(result.graph.training["steps"])]
    assert losses == pytest.approx(printed, rel=1e-6)


def test_the_higher_order_snippet_differentiates_through_a_gradient_like_the_snippet():
    graph = import_here(HIGHER).graph
    want = run_snippet(HIGHER)
    got = by_title(stepped(graph))
    assert {n.type for n in graph.nodes.values()} >= {"grad.autograd_grad", "math.pow", "reduce.sum"}
    assert got["penalty"].item() == want["penalty"].item()
    assert got["x"].grad.tolist() == want["x"].grad.tolist()


def test_an_op_without_a_node_type_becomes_an_opaque_op_that_steps_forward_and_backward():
    text = "import torch\na = torch.tensor([[0.0, 1.0], [2.0, 2.0]], requires_grad=True)\n" \
           "b = torch.tensor([[1.0, 1.0]])\nd = torch.cdist(a, b)\nloss = d.sum()\nloss.backward()\n"
    graph = import_here(text).graph
    want = run_snippet(text)
    got = by_title(stepped(graph))
    (op,) = [n for n in graph.nodes.values() if n.type == "code.op"]
    assert (op.params["op"], op.title) == ("cdist", "d")
    assert got["d"].tolist() == want["d"].tolist()
    assert got["a"].grad.tolist() == want["a"].grad.tolist()


def test_an_opaque_op_loaded_from_a_file_runs_only_ops_of_the_registry():
    graph = import_here("import torch\na = torch.tensor([1.0, 4.0])\nd = torch.cdist(a[None], a[None])\n").graph
    text = files.dumps(graph).replace('"op": "cdist"', '"op": "os.system"')
    s = Session(files.loads(text))
    s.forward()
    (nid,) = [n.id for n in s.graph.nodes.values() if n.type == "code.op"]
    assert "not an op this app can run" in str(s.errors[nid])


def test_errors_point_at_the_snippets_line():
    with pytest.raises(CodeImportError, match=r"^line 3: NameError: name 'q' is not defined"):
        import_here("import torch\nx = torch.ones(2)\ny = x * q\n")
    with pytest.raises(CodeImportError, match=r"^line 2: SyntaxError"):
        import_here("import torch\nx = (\n")


def test_a_complex_leaf_is_refused_at_its_line_with_what_to_do():
    """A complex tensor can't be a graph node's values (JSON numbers): the refusal names it and its line, and the
    snippet's real parts import (it said 'the import stopped without a result (...GraphError...)')."""
    text = "import torch\nz = torch.tensor([1+2j, 3-1j], requires_grad=True)\ny = (z * z.conj()).real.sum()\n"
    with pytest.raises(CodeImportError, match=r"^line 2: z is a complex64 tensor: .* \.real and \.imag"):
        import_code(text)
    real = import_here("import torch\nz = torch.tensor([1+2j, 3-1j])\nr = z.real.clone()\ny = (r * r).sum()\n")
    assert {n.title for n in real.graph.nodes.values()} >= {"y"}


@pytest.mark.parametrize("expr, number", [("x * (1+2j)", r"\(1\+2j\)"), ("torch.add(x, 1j)", "1j"),
                                           ("torch.where(x > 0, x, 2j)", "2j")])
def test_a_complex_number_constant_is_refused_at_its_line(expr, number):
    """A Python complex number has no place in a constant node's JSON value: the refusal names it and its line
    (it said 'the import stopped without a result (...GraphError: ... must be a number ...)'). The snippet runs in
    torch (the value is real code)."""
    import torch

    x = torch.tensor([1.0, -2.0])
    assert eval(expr, {"torch": torch, "x": x}).is_complex()
    text = f"import torch\nx = torch.tensor([1.0, -2.0])\n\ny = ({expr}).real.sum()\n"
    with pytest.raises(CodeImportError, match=rf"^line 4: the complex number {number}: .* real"):
        import_code(text)


def test_nodes_whose_values_are_2d_get_room_under_them_for_their_colour_table():
    """x (300, 400) and w (400, 10) stepped forward and backward grow a value, a gradient, flags and a colour table:
    laid out with room for the table, each column's nodes stay apart."""
    from core.nodegraph.model import layout

    graph = import_here("import torch\nx = torch.randn(30, 40, requires_grad=True)\n"
                        "w = torch.randn(40, 10, requires_grad=True)\nb = torch.ones(10)\n"
                        "y = (x @ w + b).sum()\ny.backward()\n").graph
    titles = {n.title: n for n in graph.nodes.values()}
    x, w = titles["x"], titles["w"]
    assert x.position[0] == w.position[0]
    one_d = {titles["b"].id, titles["y"].id}  # b and the sum get no table; x, w, x @ w and + b do
    columns: dict[float, list] = {}
    for node in graph.nodes.values():
        columns.setdefault(node.position[0], []).append(node)
    pairs = 0
    for column in columns.values():
        column.sort(key=lambda n: n.position[1])
        for upper, lower in zip(column, column[1:]):
            room = layout.node_size(upper)[1] + (0 if upper.id in one_d else layout.HEAT_ROOM) + layout.GAP[1]
            assert lower.position[1] - upper.position[1] >= room
            pairs += 1
    assert pairs >= 2  # x over w, and b beside x @ w


MODULE_LOOP = """import torch
import torch.nn as nn

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

model = MLP()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.randn(16, 3)
y = x.sum(dim=1, keepdim=True)
for i in range(5):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
with torch.no_grad():
    pred = model(x)
"""


def test_a_modules_parameters_are_named_after_the_snippets_variable_not_self():
    """class MLP's layers were titled self.fc1.weight (the 'self' of __init__ was the first name seen)."""
    titles = [n.title for n in import_here(MODULE_LOOP).graph.nodes.values() if n.type == "param.values"]
    assert titles == ["model.fc1.weight", "model.fc1.bias", "model.fc2.weight", "model.fc2.bias"]


def test_code_after_the_training_loop_is_said_to_be_outside_the_graph():
    notes = import_here(MODULE_LOOP).notes
    assert "line 22: the code from here on ran after the training loop and is not in the graph (it holds the " \
           "loop's first pass)" in notes
    assert not any("after the training loop" in n for n in import_here(TRAINING).notes)  # nothing follows its loop


def test_branches_are_traced_as_the_path_that_ran_and_the_notes_say_so():
    text = "import torch\nx = torch.tensor([1.0, -2.0], requires_grad=True)\nif x.sum() > 0:\n    y = x * 2\n" \
           "else:\n    y = x * 3\ny.sum().backward()\n"
    result = import_here(text)
    assert "line 3: if traced as the path that ran" in result.notes
    assert by_title(stepped(result.graph))["x"].grad.tolist() == [3.0, 3.0]


def test_the_file_keeps_the_snippet_as_text_and_loading_it_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    text = AUTOGRAD + f"open({str(marker)!r}, 'w').close()\n"
    graph = import_here(text).graph
    marker.unlink()
    path = tmp_path / "g.json"
    files.save(graph, path)
    loaded = files.load(path)
    assert loaded.code["text"] == text
    assert loaded.code["lines"] == graph.code["lines"]
    assert not marker.exists()


def test_files_without_code_are_saved_as_before():
    assert "code" not in files.to_file_dict(default_graph())


def test_import_code_runs_the_snippet_in_a_subprocess_and_loads_the_same_graph():
    assert import_code(AUTOGRAD).graph == import_here(AUTOGRAD).graph


def test_the_chapters_training_loop_is_recognised_in_the_fresh_process_the_app_imports_in():
    """The app imports every snippet in a new process, where no optimizer has been made yet: the first SGD wraps its
    class's step for hooks there, and the loop was not seen through that wrapper (the loop ran out as three copies
    of its body, with no training settings)."""
    graph = import_code(TRAINING).graph
    assert (graph.training["optimizer"], graph.training["steps"]) == ("SGD", 3)
    assert [n.type for n in graph.nodes.values()].count("loss.mse") == 1
    assert graph.nodes[graph.training["loss"]].title == "loss"


def test_tracing_leaves_no_recorder_in_an_optimizer_class():
    """An optimizer class first used inside a snippet keeps no wrapper of the snippet's recorder afterwards: the
    next snippet's loop in the same process is recognised too, and the optimizer steps as before outside one."""
    from core.nodegraph.model.code_trace import trace

    source = TRAINING.replace("torch.optim.SGD", "torch.optim.Adagrad")
    assert trace(source).training.steps == 3
    assert trace(source).training.steps == 3
    model = core.nn.Linear(2, 1)
    before = model.weight.detach().clone()
    opt = core.optim.Adagrad(model.parameters(), lr=0.5)
    model(core.ones(1, 2)).sum().backward()
    opt.step()
    assert core.equal(model.weight.detach(), before - 0.5)  # Adagrad's first step: lr * sign(grad), grad ones


def test_a_snippet_that_runs_too_long_is_stopped_at_its_line():
    with pytest.raises(CodeImportError, match=r"^line [23]: stopped: the snippet ran longer than its time limit"):
        import_code("import torch\nwhile True:\n    pass\n", time_limit=0.5)


def test_the_time_limit_counts_from_the_snippets_start_not_from_pythons(monkeypatch):
    """Starting Python and importing core can take many seconds on a busy machine: that time has its own, larger
    allowance, and a child that never gets going is reported as such, not as a snippet that ran too long."""
    from core.nodegraph.files import code_import

    monkeypatch.setattr(code_import, "STARTUP_LIMIT", 0.0)
    with pytest.raises(CodeImportError, match="did not start the import within 0 s"):
        import_code("x = 1\n", time_limit=60)


def test_a_running_import_can_be_cancelled():
    cancel = threading.Event()
    timer = threading.Timer(0.3, cancel.set)
    timer.start()
    with pytest.raises(CodeImportError, match="cancelled"):
        import_code("import time\nwhile True:\n    time.sleep(0.01)\n", cancel=cancel, time_limit=60)
    timer.cancel()


def test_a_snippet_over_the_memory_limit_fails_with_a_memory_error():
    with pytest.raises(CodeImportError, match="MemoryError"):
        import_code("import torch\nx = torch.zeros(2 ** 31)\n", memory_limit=1 * 2 ** 30)


def test_the_cli_imports_a_snippet_writes_its_graph_and_runs_the_actions_on_it(tmp_path, capsys):
    import app

    snippet, out = tmp_path / "z.py", tmp_path / "z.json"
    snippet.write_text(AUTOGRAD)
    code = app.main(["--headless", "--import-py", str(snippet), str(out), "--backward"])
    printed = capsys.readouterr().out
    assert code == 0
    assert files.load(out) == import_here(AUTOGRAD, name="z.py").graph
    assert "n2.out.grad = tensor([2., 3.])" in printed


def test_the_cli_reports_a_failing_snippet_with_its_line_and_exit_code_1(tmp_path, capsys):
    import app

    snippet = tmp_path / "bad.py"
    snippet.write_text("import torch\nx = torch.ones(2)\ny = x @ q\n")
    assert app.main(["--headless", "--import-py", str(snippet), str(tmp_path / "o.json")]) == 1
    assert "line 3: NameError" in capsys.readouterr().err


def test_an_activation_module_inside_a_sequential_is_recorded_as_an_op():
    text = "import torch\nnet = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))\n" \
           "x = torch.ones(4, 2, requires_grad=True)\ny = net(x).sum()\n" \
           "(g,) = torch.autograd.grad(y, x, create_graph=True)\ng.pow(2).sum().backward()\n"
    core.manual_seed(0)
    graph = import_here(text).graph
    core.manual_seed(0)
    want = run_snippet(text)
    got = by_title(stepped(graph))
    assert not [n for n in graph.nodes.values() if n.type == "source.tensor" and n.title is None]
    assert got["x"].grad.flatten().tolist() == pytest.approx(want["x"].grad.flatten().tolist(), rel=1e-6)


def test_an_in_place_ops_node_is_named_after_the_variable_it_is_bound_to():
    text = "import torch\nv = torch.ones(3, requires_grad=True)\ne = torch.exp(v)\nbump = e.add_(1.0)\n"
    graph = import_here(text).graph
    assert {n.title for n in graph.nodes.values()} >= {"v", "e", "bump"}


GRADCHECK = """import torch
from torch.autograd import gradcheck

f = lambda inp: (inp ** 3).sum()
inp = torch.randn(5, dtype=torch.double, requires_grad=True)
print(gradcheck(f, (inp,), eps=1e-6, atol=1e-4))   # True if gradients match
"""


def test_the_chapters_gradcheck_snippet_becomes_one_gradcheck_node_whose_formula_is_the_lambda():
    core.manual_seed(4)
    result = import_here(GRADCHECK)
    core.manual_seed(4)
    want = run_snippet(GRADCHECK.replace("from torch.", "from core.").replace("print(", "ok = ("))
    graph = result.graph
    (check,) = [n for n in graph.nodes.values() if n.type == "check.gradcheck"]
    assert len(graph.nodes) == 2  # inp and the check: the lambda's ops run inside gradcheck make no nodes
    assert check.params == {"formula": "(x ** 3).sum()", "eps": 1e-6, "atol": 1e-4, "rtol": 1e-3}
    assert graph.code["lines"][check.id] == 6
    s = Session(graph)
    s.forward()
    assert s.values[check.id]["passed"] is want["ok"] is True
    assert result.output == "True\n"
    assert by_title(s)["inp"].tolist() == want["inp"].tolist()


def test_a_gradcheck_of_a_def_or_a_core_op_is_named_after_its_variable_and_reads_the_functions_formula():
    text = "import torch\ndef cubed(t):\n    '''wrong on purpose'''\n" \
           "    return (t * t.detach() * torch.exp(t)).sum()\n" \
           "x = torch.rand(3, dtype=torch.float64, requires_grad=True)\n" \
           "bad = torch.autograd.gradcheck(cubed, x, raise_exception=False)\n" \
           "good = torch.autograd.gradcheck(torch.sin, (x,), atol=1e-4)\n"
    graph = import_here(text).graph
    checks = {n.title: n.params for n in graph.nodes.values() if n.type == "check.gradcheck"}
    assert {t: p["formula"] for t, p in checks.items()} == {"bad": "(x * x.detach() * exp(x)).sum()",
                                                            "good": "sin(x)"}
    s = Session(graph)
    s.forward()
    assert {t: s.values[nid]["passed"] for nid, t in ((n.id, n.title) for n in graph.nodes.values())
            if t in checks} == {"bad": False, "good": True}


def test_a_gradcheck_of_a_function_over_other_names_is_kept_as_a_value_and_the_notes_say_why():
    text = "import torch\nw = torch.ones(3, dtype=torch.float64)\n" \
           "x = torch.rand(3, dtype=torch.float64, requires_grad=True)\n" \
           "ok = torch.autograd.gradcheck(lambda v: (v * w).sum(), (x,))\n"
    result = import_here(text)
    assert not [n for n in result.graph.nodes.values() if n.type == "check.gradcheck"]
    assert any(n.startswith("line 4: autograd.gradcheck: the checked function uses 'w'") for n in result.notes)


def test_a_constant_no_tensor_node_can_hold_is_refused_at_its_line():
    # (found by the code-grammar fuzz test with more examples: the graph's refusal escaped as a GraphError; core now
    # refuses an int past 64 bits in the op itself, with the OverflowError torch raises running the same line)
    with pytest.raises(CodeImportError) as caught:
        import_here("import torch\nx = torch.ones(2)\nx = torch.add(x, 9999999999999999999999999999999999999999)\n")
    assert str(caught.value) == "line 3: OverflowError: int too big to convert"



def test_code_without_backward_takes_its_last_scalar_as_the_loss_never_a_non_scalar():
    """Without ``backward()`` in the code the last result is the graph's loss only when it is a scalar:
    ``backward()`` of a non-scalar raises in PyTorch, so Backward would fail in the app and the exported script
    would stop with a traceback (found by the code-grammar fuzz test with more examples)."""
    from core.nodegraph.export.script import export_script

    vector = import_here("import torch\nx = torch.ones(2, requires_grad=True)\nx = torch.relu(x)\n").graph
    assert vector.training["loss"] is None
    scalar = import_here("import torch\nx = torch.ones(2, requires_grad=True)\ny = torch.relu(x).sum()\n").graph
    assert scalar.nodes[scalar.training["loss"]].title == "y"
    s = Session(scalar)
    s.forward()
    s.backward()
    assert not s.errors and s.value(scalar.training["loss"], "out").item() == 2.0
    for graph in (vector, scalar):
        exec(compile(export_script(graph), "<exported>", "exec"), {"__name__": "__main__"})  # runs to its end


def test_an_infinite_constant_exports_in_the_default_dtype_the_session_used():
    """``torch.add(x, 1e999)``: the constant node holds inf in the default dtype (float32); its exported script
    wrote it as float64 .npy bytes, so ``torch.matmul(x, ...)`` raised a dtype mismatch the session never saw
    (found by the code-grammar fuzz test)."""
    import contextlib
    import io

    from core.nodegraph.export.script import export_script

    graph = import_here("import torch\nx = torch.ones(2)\ny = torch.matmul(x, torch.add(x, 1e999))\n").graph
    s = Session(graph)
    s.forward()
    assert not s.errors
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(export_script(graph), "<exported>", "exec"), {"__name__": "__main__"})
    assert "inf" in out.getvalue()
