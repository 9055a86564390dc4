"""The chapter's snippets that the current core supports, run with ``import core as torch``."""

import pytest

import core as torch


def _chapter_graph():
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    w = torch.tensor([1.5, -0.5], requires_grad=True)
    b = torch.tensor(0.1, requires_grad=True)
    return x, w, b, (x * w).sum() + b


def test_forward_value_is_one_point_six():
    *_, z = _chapter_graph()
    assert abs(float(z) - 1.6) < 1e-6


def test_backward_gives_the_chapters_gradients():
    x, w, b, z = _chapter_graph()
    z.backward()
    assert x.grad.tolist() == [1.5, -0.5]
    assert w.grad.tolist() == [2.0, 3.0]
    assert b.grad.item() == 1.0


def test_backward_twice_without_retain_graph_raises():
    *_, z = _chapter_graph()
    z.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        z.backward()


def test_backward_twice_with_retain_graph_doubles_gradients():
    x, w, b, z = _chapter_graph()
    z.backward(retain_graph=True)
    z.backward()
    assert x.grad.tolist() == [3.0, -1.0]


def test_grad_fn_names_match_pytorch():
    x, w, b, z = _chapter_graph()
    assert z.grad_fn.name() == "AddBackward0"
    assert z.grad_fn.next_functions[0][0].name() == "SumBackward0"
    assert x.is_leaf and not z.is_leaf


def test_non_scalar_backward_needs_gradient():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()


def test_no_grad_builds_no_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        y = x * 2
    assert y.grad_fn is None and not y.requires_grad


def test_autograd_grad_leaves_dot_grad_untouched():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad((x * x).sum(), x)
    assert g.tolist() == [2.0, 4.0]
    assert x.grad is None


# ----- the chapter's snippets verbatim, with ``import core as torch`` ----------------------------------

CHAPTER_GRAPH = """
x = torch.tensor([2.0, 3.0], requires_grad=True)
w = torch.tensor([1.5, -0.5], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)

z = (x * w).sum() + b        # forward: z = 2*1.5 + 3*(-0.5) + 0.1 = 1.6
z.backward()

print(x.grad)   # tensor([ 1.5000, -0.5000])  -> dz/dx = w
print(w.grad)   # tensor([2., 3.])            -> dz/dw = x
print(b.grad)   # tensor(1.)                  -> dz/db = 1
"""

CHAPTER_GRADCHECK = """
from torch.autograd import gradcheck

f = lambda inp: (inp ** 3).sum()
inp = torch.randn(5, dtype=torch.double, requires_grad=True)
print(gradcheck(f, (inp,), eps=1e-6, atol=1e-4))   # True if gradients match
"""

CHAPTER_TRAINING_AND_FLOW = """
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

with torch.no_grad():
    eval_pred = model(xb)          # no graph built

target = yb.detach()               # target never needs gradients
branch = pred.detach()             # gradient stops here
"""


def _run(snippet, capsys):
    namespace = {"torch": torch}
    exec(compile(snippet.replace("from torch.autograd import", "from core.autograd import"), "<chapter>", "exec"),
         namespace)
    return namespace, capsys.readouterr().out.splitlines()


@pytest.mark.cpu_only
def test_chapter_graph_snippet_prints_what_its_comments_say(capsys):
    ns, out = _run(CHAPTER_GRAPH, capsys)
    assert out == ["tensor([ 1.5000, -0.5000])", "tensor([2., 3.])", "tensor(1.)"]
    assert abs(float(ns["z"]) - 1.6) < 1e-6


def test_chapter_gradcheck_snippet_prints_true(capsys):
    _, out = _run(CHAPTER_GRADCHECK, capsys)
    assert out == ["True"]


def test_chapter_training_loop_and_gradient_flow_snippets(capsys):
    ns, out = _run(CHAPTER_TRAINING_AND_FLOW, capsys)
    assert [line.split()[0] for line in out] == ["0", "1", "2"]
    assert ns["eval_pred"].grad_fn is None and not ns["eval_pred"].requires_grad
    assert ns["target"].is_leaf and not ns["branch"].requires_grad
    assert ns["branch"].data_ptr() == ns["pred"].data_ptr()


def test_gradients_accumulate_without_zeroing():
    x, w, b, z = _chapter_graph()
    z.backward()
    z2 = (x * w).sum() + b
    z2.backward()
    assert x.grad.tolist() == [3.0, -1.0] and w.grad.tolist() == [4.0, 6.0] and b.grad.item() == 2.0


def test_only_leaves_populate_grad_unless_retain_grad():
    x, w, b, _ = _chapter_graph()
    xw = x * w
    xw.retain_grad()
    s = xw.sum()
    (s + b).backward()
    assert xw.grad.tolist() == [1.0, 1.0]
    with pytest.warns(UserWarning, match="is not a leaf Tensor"):
        assert s.grad is None


def test_detach_severs_the_graph_but_shares_data():
    x, w, b, z = _chapter_graph()
    d = z.detach()
    assert d.grad_fn is None and not d.requires_grad and d.data_ptr() == z.data_ptr()
    ((x * w).sum() * d).backward()
    assert w.grad.tolist() == pytest.approx([3.2, 4.8]) and b.grad is None
