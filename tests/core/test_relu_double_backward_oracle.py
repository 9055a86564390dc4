"""ReLU's gradient recorded under ``create_graph=True`` is PyTorch's ``threshold_backward`` op, differentiable in the
ReLU's result too (a zero derivative), so higher derivatives of a ReLU network reach its input.

DeepXDE's PDE residuals take ``autograd.grad`` of a network's first derivative with respect to its input; for a
ReLU network core's gradient was a selection by a constant mask, not connected to the input, and the second
``autograd.grad`` refused ("appears to not have been used in the graph", or "element 0 of tensors does not require
grad" when the incoming gradient was a constant), where PyTorch gives zeros.
"""

from __future__ import annotations

import numpy as np

import core


def _relu_net(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Linear(1, 6), lib.nn.ReLU(), lib.nn.Linear(6, 6), lib.nn.ReLU(),
                             lib.nn.Linear(6, 1)).double()


def _hessian_through_relu_net(lib):
    """DeepXDE's hessian: d/dx of dy/dx (create_graph), then a loss on it trained back to the weights."""
    net = _relu_net(lib)
    x = lib.linspace(-1, 1, 7, dtype=lib.float64).reshape(7, 1).requires_grad_()
    y = net(x)
    dy = lib.autograd.grad(y, x, grad_outputs=lib.ones_like(y), create_graph=True)[0]
    d2y = lib.autograd.grad(dy, x, grad_outputs=lib.ones_like(dy), create_graph=True)[0]
    loss = ((d2y - 1) ** 2).mean() + (dy ** 2).mean()
    loss.backward()
    return (dy.tolist(), d2y.tolist(), d2y.requires_grad, type(d2y.grad_fn).__name__,
            [None if p.grad is None else p.grad.tolist() for p in net.parameters()])


def test_second_derivative_of_a_relu_net_is_zeros_connected_to_the_input(torch):
    ours, theirs = _hessian_through_relu_net(core), _hessian_through_relu_net(torch)
    assert ours[1:4] == theirs[1:4]  # the zeros, their grad_fn
    # (the first derivative and the weights' gradients are float64 products of 6-wide rows, where MKL's dgemm may
    # add in another order: equal to the last bit or two)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-13, atol=0)
    for a, b in zip(ours[4], theirs[4]):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-300)


def _relu_gradient(lib):
    x = lib.tensor([-1.5, -0.0, 0.0, 0.3, 2.0], dtype=lib.float64, requires_grad=True)
    g = lib.autograd.grad(lib.relu(x * 3).sum() + lib.nn.ReLU()(x).sum(), x, create_graph=True)[0]
    r = lib.relu(x)
    h = lib.autograd.grad(r, x, grad_outputs=lib.ones_like(r), create_graph=True)[0]
    return (g.tolist(), type(h.grad_fn).__name__, h.requires_grad, lib.autograd.grad(h.sum(), x)[0].tolist(),
            lib.autograd.grad(g.sum(), x)[0].tolist())


def test_relu_gradient_with_a_constant_incoming_gradient_has_threshold_backward_node(torch):
    ours, theirs = _relu_gradient(core), _relu_gradient(torch)
    assert ours == theirs
    assert ours[1] == "ThresholdBackwardBackward0"


def _func_hessians(lib):
    net = _relu_net(lib)
    x = lib.tensor([0.3], dtype=lib.float64)

    def f(x):
        return net(x).sum()
    return (lib.func.hessian(f)(x).tolist(), lib.func.jacfwd(lib.func.jacrev(f))(x).tolist(),
            lib.func.vmap(lib.func.hessian(f))(lib.linspace(-1, 1, 4, dtype=lib.float64).reshape(4, 1)).tolist())


def test_torch_func_hessians_through_relu_match(torch):
    assert _func_hessians(core) == _func_hessians(torch)
