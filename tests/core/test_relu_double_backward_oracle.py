"""ReLU's gradient recorded under ``create_graph=True`` is PyTorch's ``threshold_backward`` op, differentiable in the
ReLU's result too (a zero derivative), so higher derivatives of a ReLU network reach its input.

DeepXDE's PDE residuals take ``autograd.grad`` of a network's first derivative with respect to its input; for a
ReLU network core's gradient was a selection by a constant mask, not connected to the input, and the second
``autograd.grad`` refused ("appears to not have been used in the graph", or "element 0 of tensors does not require
grad" when the incoming gradient was a constant), where PyTorch gives zeros. The other piecewise-linear activations
(leaky_relu, hardtanh, relu6, threshold) had the same gap: their recorded gradients are PyTorch's
``*_backward(grad, self, ...)`` ops now.
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


PIECEWISE = {"leaky_relu": lambda L, t: L.nn.functional.leaky_relu(t, 0.2),
             "leaky_relu_module": lambda L, t: L.nn.LeakyReLU(0.1)(t),
             "hardtanh": lambda L, t: L.nn.functional.hardtanh(t, -0.5, 0.8),
             "relu6": lambda L, t: L.nn.functional.relu6(t * 4),
             "threshold": lambda L, t: L.nn.functional.threshold(t, 0.1, 0.0)}


def _piecewise_second_derivative(lib, name):
    """The other piecewise-linear activations (leaky_relu_backward, hardtanh_backward, threshold_backward)."""
    x = lib.tensor([-1.5, -0.2, 0.0, 0.3, 2.0], dtype=lib.float64, requires_grad=True)
    g = lib.autograd.grad(PIECEWISE[name](lib, x).sum(), x, create_graph=True)[0]
    second = lib.autograd.grad(g.sum(), x)[0]
    return g.tolist(), g.requires_grad, type(g.grad_fn).__name__, second.tolist()


def test_piecewise_activations_second_derivatives_match(torch):
    for name in PIECEWISE:
        assert _piecewise_second_derivative(core, name) == _piecewise_second_derivative(torch, name), name


def _leaky_net_pinn_step(lib):
    """A PINN step on a LeakyReLU/Hardtanh net: the loss reads d2y/dx2 (zeros) and dy/dx, its gradient the weights."""
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(1, 5), lib.nn.LeakyReLU(0.3), lib.nn.Linear(5, 5), lib.nn.Hardtanh(),
                            lib.nn.Linear(5, 1)).double()
    x = lib.linspace(-1, 1, 6, dtype=lib.float64).reshape(6, 1).requires_grad_()
    y = net(x)
    dy = lib.autograd.grad(y, x, lib.ones_like(y), create_graph=True)[0]
    d2y = lib.autograd.grad(dy, x, lib.ones_like(dy), create_graph=True)[0]
    ((d2y + dy - 1) ** 2).mean().backward()
    return d2y.tolist(), [None if p.grad is None else p.grad.tolist() for p in net.parameters()]


def test_pinn_step_on_leaky_relu_and_hardtanh_net_matches(torch):
    ours, theirs = _leaky_net_pinn_step(core), _leaky_net_pinn_step(torch)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1], theirs[1]):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-300)  # (6-wide float64 products: dgemm's order)
