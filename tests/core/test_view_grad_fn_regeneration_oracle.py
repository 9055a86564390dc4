"""A view's ``grad_fn`` after an in-place write it did not record, against PyTorch.

PyTorch remembers the version counter a view's ``grad_fn`` was made at; when the shared counter moved since
(an in-place write to the view or its base, under ``no_grad`` too: an optimizer's step), the view's next
``grad_fn`` is a fresh ``AsStridedBackward0`` on its base. The name shows in the "modified by an inplace
operation" error of a graph that saved the view (``F.linear`` saves ``weight.t()``), and the gradient flows
through the new node to the base.
"""

import numpy as np

import core


def _name(t):
    return None if t.grad_fn is None else t.grad_fn.name()


def _names_after_no_grad_write(lib):
    w = lib.ones(3, 2, requires_grad=True)
    v = w.t()
    before = _name(v)
    with lib.no_grad():
        w.add_(1)
    after = v.grad_fn
    return before, after.name(), v.grad_fn is after, type(after.next_functions[0][0]).__name__


def test_view_of_a_leaf_regenerates_its_grad_fn_after_a_no_grad_write_to_the_base(torch):
    assert _names_after_no_grad_write(core) == _names_after_no_grad_write(torch)


def _names_after_write_to_the_view(lib):
    w = lib.ones(3, requires_grad=True)
    v = w[0:2]
    with lib.no_grad():
        v.add_(1)
    plain = lib.ones(3)[0:2]
    plain.add_(1)
    return _name(v), _name(plain), v.requires_grad


def test_no_grad_write_to_the_view_itself_regenerates_it_and_a_plain_view_keeps_none(torch):
    assert _names_after_write_to_the_view(core) == _names_after_write_to_the_view(torch)


def _gradient_through_regenerated_view(lib):
    w = lib.tensor(np.arange(6.0, dtype=np.float32).reshape(3, 2), requires_grad=True)
    v = w.t()
    with lib.no_grad():
        w.mul_(2)
    (v * lib.tensor([[1.0], [3.0]])).sum().backward()
    return w.grad.numpy().tolist()


def test_gradient_flows_through_the_regenerated_view_to_the_leaf(torch):
    assert _gradient_through_regenerated_view(core) == _gradient_through_regenerated_view(torch)


def _stale_linear_message(lib):
    """softmax GAN's mistake: backward(retain_graph=True), an optimizer step, then a second backward."""
    lib.manual_seed(0)
    layer = lib.nn.Linear(4, 1)
    x = lib.ones(2, 4, requires_grad=True)
    out = lib.nn.functional.linear(x, layer.weight, layer.bias).sum()
    out.backward(retain_graph=True)
    lib.optim.SGD(layer.parameters(), lr=0.1).step()
    try:
        out.backward()
    except RuntimeError as e:
        return str(e)
    return None


def test_stale_linear_weight_error_names_as_strided_as_torch_does(torch):
    ours, theirs = _stale_linear_message(core), _stale_linear_message(torch)
    assert "output 0 of AsStrided" in theirs
    assert ours == theirs
