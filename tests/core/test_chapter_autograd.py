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
