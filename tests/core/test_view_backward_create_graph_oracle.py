"""A view's gradient taken with ``create_graph=True`` records torch's own backward op (``SliceBackwardBackward0`` for
``narrow`` and a slice, ``SelectBackwardBackward0`` for ``select``/``unbind``, ``DiagonalBackwardBackward0``,
``UnfoldBackwardBackward0``), not a generic ``AsStridedScatterBackward0``: code that walks ``grad_fn`` sees torch's
graph, and the gradient of that gradient is the view again (third-order graphs and values as torch's)."""

import pytest

import core

VIEWS = {
    "narrow": lambda t: t.narrow(1, 1, 2),
    "narrow_dim0": lambda t: t.narrow(0, 1, 2),
    "slice": lambda t: t[:, 1:3],
    "step_slice": lambda t: t[:, ::2],
    "select": lambda t: t.select(1, 2),
    "index": lambda t: t[0],
    "unbind": lambda t: t.unbind(1)[1],
    "split": lambda t: t.split(2, 1)[1],
    "split_sizes": lambda t: t.split([1, 3], 1)[1],
    "chunk": lambda t: t.chunk(2, 1)[1],
    "tensor_split": lambda t: t.tensor_split(2, 1)[1],
    "diagonal": lambda t: t.diagonal(),
    "diagonal_offset": lambda t: t.diagonal(1),
    "diag_matrix": lambda t: t.diag(-1),
    "unfold_overlapping": lambda t: t.unfold(1, 3, 1),
    "unfold": lambda t: t.unfold(1, 2, 2),
}


def _graph(fn, depth=0):
    """Node names below ``fn`` with their edges (None where an edge is empty, as next_functions lists it)."""
    if fn is None:
        return None
    if "AccumulateGrad" in fn.name() or depth > 10:
        return fn.name()
    return fn.name(), tuple(_graph(f, depth + 1) for f, _ in fn.next_functions)


def _gradients(lib, view):
    x = lib.arange(12.0, dtype=lib.float64).reshape(3, 4).requires_grad_()
    y = view(x)
    gy = lib.linspace(-1, 1, y.numel(), dtype=lib.float64).reshape(y.shape).requires_grad_()
    (g,) = lib.autograd.grad((y * y).sum() + (y * gy).sum(), x, create_graph=True)
    w = lib.linspace(0.5, 2, g.numel(), dtype=lib.float64).reshape(g.shape).requires_grad_()
    second = lib.autograd.grad(g, (x, gy), w, create_graph=True)
    return ([_graph(g.grad_fn)] + [_graph(s.grad_fn) for s in second],
            [g.detach().tolist()] + [s.detach().tolist() for s in second])


@pytest.mark.parametrize("name", list(VIEWS))
def test_view_gradient_under_create_graph_records_torch_nodes(torch, name):
    ours, theirs = _gradients(core, VIEWS[name]), _gradients(torch, VIEWS[name])
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1]


def test_narrow_gradient_node_names_torchs_backward_op(torch):
    names = []
    for lib in (core, torch):
        x = lib.ones(3, 4, requires_grad=True)
        y = x.narrow(1, 1, 2)
        (g,) = lib.autograd.grad(y, x, lib.ones_like(y, requires_grad=True), create_graph=True)
        names.append(g.grad_fn.name())
    assert names[0] == names[1] == "SliceBackwardBackward0"
