"""Under ``create_graph=True`` silu, mish, sigmoid, glu and eval-mode rrelu record PyTorch's graph: sigmoid's, glu's
and rrelu's gradients are their ``*_backward`` ops (``SigmoidBackwardBackward0``, ``GluBackwardBackward0``,
``RreluWithNoiseBackwardBackward0``), silu's and mish's FunctionsManual's ``infinitely_differentiable_*_backward``
formulas op for op; first and second derivatives bit for bit. Batch norm's bias gradient requires grad, as
every output of PyTorch's ``NativeBatchNormBackwardBackward0`` does."""

import numpy as np
import pytest

import core


def _graph(fn, depth=0):
    """The node names below ``fn`` with their edges, None where an edge is empty (as next_functions lists it)."""
    if fn is None:
        return None
    name = fn.name()
    if "AccumulateGrad" in name or depth > 10:
        return name
    return name, tuple(_graph(f, depth + 1) for f, _ in fn.next_functions)


ACTIVATIONS = {
    "silu": lambda lib, t: lib.nn.functional.silu(t),
    "mish": lambda lib, t: lib.nn.functional.mish(t),
    "sigmoid": lambda lib, t: lib.sigmoid(t),
    "sigmoid_method": lambda lib, t: t.sigmoid(),
    "glu": lambda lib, t: lib.nn.functional.glu(t, 1),
    "rrelu_eval": lambda lib, t: lib.nn.functional.rrelu(t, training=False),
}


def _derivatives(lib, name, x_np, dtype):
    x = lib.tensor(x_np, dtype=getattr(lib, dtype), requires_grad=True)
    y = ACTIVATIONS[name](lib, x)
    gy = lib.linspace(-1.5, 2.0, y.numel(), dtype=x.dtype).reshape(y.shape).requires_grad_()
    (g,) = lib.autograd.grad(y, x, gy, create_graph=True)
    w = lib.linspace(0.25, 1.25, g.numel(), dtype=x.dtype).reshape(g.shape)
    second = lib.autograd.grad(g, (x, gy), w, create_graph=True)
    return {"first": g.detach().numpy().tobytes(), "graph": _graph(g.grad_fn),
            "second": [s.detach().numpy().tobytes() for s in second],
            "second_graphs": [_graph(s.grad_fn) for s in second]}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_double_backward_records_torch_nodes_and_values(torch, name, dtype):
    x_np = np.concatenate([np.linspace(-6, 6, 26), [-30.0, 25.0, 0.0, -0.0, 1e-3, -1e-3]]).reshape(4, 8)
    ours, theirs = _derivatives(core, name, x_np, dtype), _derivatives(torch, name, x_np, dtype)
    assert ours["graph"] == theirs["graph"]
    assert ours["first"] == theirs["first"]
    assert ours["second_graphs"] == theirs["second_graphs"]
    assert ours["second"] == theirs["second"]


def test_rrelu_eval_result_is_one_node_on_the_input(torch):
    graphs = []
    for lib in (core, torch):
        x = lib.linspace(-1, 1, 6, requires_grad=True)
        graphs.append(_graph(lib.nn.functional.rrelu(x, training=False).grad_fn))
    assert graphs[0] == graphs[1]


@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5)], ids=str)
def test_batch_norm_bias_gradient_under_create_graph_requires_grad_as_torch(torch, shape):
    results = []
    for lib in (core, torch):
        x = lib.linspace(-2, 2, int(np.prod(shape))).reshape(shape).requires_grad_()
        bn = lib.nn.BatchNorm1d(shape[1])
        gy = lib.linspace(-1, 1, int(np.prod(shape))).reshape(shape)
        gx, gw, gb = lib.autograd.grad(bn(x), (x, bn.weight, bn.bias), gy, create_graph=True)
        unused = lib.autograd.grad(gb.sum(), x, allow_unused=True)[0]
        results.append(([t.requires_grad for t in (gx, gw, gb)], _graph(gb.grad_fn), gb.detach().numpy().tobytes(),
                        unused))
    assert results[0] == results[1]
