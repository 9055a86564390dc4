"""Second derivatives of the activations PyTorch differentiates through a ``*_backward`` op, against torch.

Under ``create_graph=True`` PyTorch records ``elu_backward``, ``hardswish_backward``, ``softplus_backward``,
``gelu_backward``, ``log_sigmoid_backward`` and the shrinks' backward as one node each (``EluBackwardBackward0``...),
whose own derivative is FunctionsManual's formula: ELU's carries an ``x < 0`` factor (0 at x = 0, where core's
composite formula gave alpha), CELU's input scale is ``1 / float32(alpha)``, the shrinks' gradient stays connected
to the input with a zero derivative (core's was a constant and ``autograd.grad`` refused), and hardsigmoid's is not
implemented (torch raises when the second derivative is asked for; core's was a silent constant).
"""

import numpy as np
import pytest

import core

X = np.array([-3.5, -2.5, -1.0, -0.2, 0.0, 0.3, 1.7, 2.9, 3.0, 3.5], np.float64)
W = np.linspace(0.5, 2.0, X.size)

OPS = {
    "elu": lambda L, t: L.nn.functional.elu(t),
    "elu_alpha": lambda L, t: L.nn.functional.elu(t, alpha=0.7),
    "selu": lambda L, t: L.nn.functional.selu(t),
    "celu": lambda L, t: L.nn.functional.celu(t, alpha=1.3),
    "hardswish": lambda L, t: L.nn.functional.hardswish(t),
    "softplus": lambda L, t: L.nn.functional.softplus(t),
    "softplus_beta_threshold": lambda L, t: L.nn.functional.softplus(t, beta=2, threshold=3),
    "gelu": lambda L, t: L.nn.functional.gelu(t),
    "gelu_tanh": lambda L, t: L.nn.functional.gelu(t, approximate="tanh"),
    "logsigmoid": lambda L, t: L.nn.functional.logsigmoid(t),
    "hardshrink": lambda L, t: L.nn.functional.hardshrink(t),
    "softshrink": lambda L, t: L.nn.functional.softshrink(t),
    "elu_module": lambda L, t: L.nn.ELU()(t),
}


def _graph(node, depth=0):
    if node is None or depth > 4:
        return []
    return [(depth, node.name())] + [n for child, _ in node.next_functions for n in _graph(child, depth + 1)]


def _derivatives(lib, name, dtype=np.float64):
    t = lib.tensor(X.astype(dtype), requires_grad=True)
    (g,) = lib.autograd.grad((OPS[name](lib, t) * lib.tensor(W.astype(dtype))).sum(), t, create_graph=True)
    (gg,) = lib.autograd.grad((g * g).sum(), t)
    return _graph(g.grad_fn), g.detach().numpy(), gg.numpy()


@pytest.mark.parametrize("name", sorted(OPS))
def test_gradient_graph_and_second_derivative_match_torch(name, torch):
    ours, theirs = _derivatives(core, name), _derivatives(torch, name)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", ["elu", "celu", "softplus", "gelu", "gelu_tanh", "logsigmoid", "hardswish"])
def test_float32_gradient_under_create_graph_is_the_kernels(name, torch):
    ours, theirs = _derivatives(core, name, np.float32), _derivatives(torch, name, np.float32)
    np.testing.assert_array_equal(ours[1].view(np.uint32), theirs[1].view(np.uint32))
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5, atol=1e-6)


def test_hardsigmoid_second_derivative_raises_as_in_torch(torch):
    names, errors = [], []
    for lib in (core, torch):
        t = lib.tensor(X, requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.hardsigmoid(t).sum(), t, create_graph=True)
        names.append((g.grad_fn.name(), g.requires_grad))
        with pytest.raises(RuntimeError) as error:
            lib.autograd.grad(g.sum(), t)
        errors.append(str(error.value))
    assert names[0] == names[1]
    assert errors[0] == errors[1]


def test_hessian_of_elu_and_softplus_nets_match_torch(torch):
    def hessian(lib):
        w = lib.tensor(np.linspace(-1, 1, 12).reshape(3, 4))

        def f(x):
            return (lib.nn.functional.softplus(lib.nn.functional.elu(x @ w)) ** 2).sum()
        return lib.func.hessian(f)(lib.tensor(np.linspace(-2, 2, 6).reshape(2, 3))).numpy()
    np.testing.assert_allclose(hessian(core), hessian(torch), rtol=1e-12, atol=1e-14)
