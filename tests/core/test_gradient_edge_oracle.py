"""``torch.autograd.graph.get_gradient_edge`` and ``GradientEdge`` as ``autograd.grad`` inputs (TorchJD's autogram
walks ``next_functions`` into edges and differentiates with respect to them): the edges, the gradients that flow into
them and the refusals equal PyTorch's, the same code run on both."""

import importlib

import pytest

import core


def _graph(lib):
    return importlib.import_module(lib.__name__ + ".autograd.graph")


def _plain(value):
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return (tuple(value.shape), value.tolist())
    return value


def _interior(lib):
    lib.manual_seed(0)
    x = lib.randn(3, requires_grad=True)
    y = x * 2
    z = y.sin().sum()
    edge = _graph(lib).get_gradient_edge(y)
    return [(type(edge).__name__, edge.node.name(), edge.output_nr, edge.ownership_token),
            lib.autograd.grad(z, edge, retain_graph=True),
            lib.autograd.grad(z, [edge, _graph(lib).get_gradient_edge(x)], retain_graph=True),
            lib.autograd.grad(z, (y,))]


def _split_outputs(lib):
    lib.manual_seed(1)
    v = lib.randn(4, requires_grad=True)
    p, q = v.split(2)
    loss = (p * q.exp()).sum()
    ge = _graph(lib).get_gradient_edge
    return [ge(q).output_nr, ge(p).output_nr, ge(v).output_nr, ge(v).node.name(),
            lib.autograd.grad(loss, [ge(q), ge(p)])]


def _next_function_edges(lib):
    lib.manual_seed(2)
    layer = lib.nn.Linear(3, 2)
    out = layer(lib.randn(5, 3))
    edge = _graph(lib).GradientEdge
    edges = [edge(n, nr) for n, nr in out.grad_fn.next_functions if n is not None]
    return [[(e.node.name(), e.output_nr) for e in edges], lib.autograd.grad(out.pow(2).sum(), edges)]


def _create_graph(lib):
    lib.manual_seed(3)
    x = lib.randn(3, requires_grad=True)
    y = x.exp()
    (g,) = lib.autograd.grad((y * y).sum(), _graph(lib).get_gradient_edge(y), create_graph=True)
    return [g.requires_grad, lib.autograd.grad(g.sum(), x)]


@pytest.mark.parametrize("case", [_interior, _split_outputs, _next_function_edges, _create_graph],
                         ids=lambda f: f.__name__.strip("_"))
def test_gradients_into_edges_equal_torchs(torch, case):
    assert _plain(case(core)) == _plain(case(torch))


def _unused(lib, **kw):
    x = lib.ones(3, requires_grad=True)
    w = lib.ones(2, requires_grad=True)
    return lib.autograd.grad((x * 2).sum(), _graph(lib).get_gradient_edge(w), **kw)


@pytest.mark.parametrize("call", [lambda lib: _unused(lib), lambda lib: _unused(lib, materialize_grads=True),
                                  lambda lib: _graph(lib).get_gradient_edge(lib.ones(2))],
                         ids=["unused", "materialize_grads", "no_grad_tensor"])
def test_edge_refusals_equal_torchs(torch, call):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as e:
            call(lib)
        messages.append(str(e.value))
    assert messages[0] == messages[1]


def test_an_unused_edge_allowed_gives_none(torch):
    assert _unused(core, allow_unused=True) == (None,) == _unused(torch, allow_unused=True)
