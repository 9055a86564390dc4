"""softplus's and logsigmoid's gradients bit for bit as PyTorch's backward kernels compute them.

``softplus_backward``: ``z = exp(x * beta)``, then ``grad * z / (z + 1)`` below the threshold, with SLEEF's exp in
the vector loop and glibc's ``expf`` for the rest; ``log_sigmoid_backward``: ``(max_deriv - sign * (b / (1 + b)))
* grad`` with ``b = exp(-|x|)`` as the forward kernel's buffer (SLEEF's, its tail loaded partially). Core took
``grad * sigmoid(...)``: about half of the gradients differed by an ulp.
"""

from __future__ import annotations

import numpy as np
import pytest

import core

OPS = {"softplus": lambda L, t: L.nn.functional.softplus(t),
       "softplus_beta": lambda L, t: L.nn.functional.softplus(t, beta=2.0, threshold=5.0),
       "Softplus": lambda L, t: L.nn.Softplus(beta=0.5)(t), "logsigmoid": lambda L, t: L.nn.functional.logsigmoid(t),
       "LogSigmoid": lambda L, t: L.nn.LogSigmoid()(t)}


def _grad(lib, fn, x, g):
    t = lib.tensor(x, requires_grad=True)
    fn(lib, t).backward(lib.tensor(g))
    return t.grad.numpy().view(np.uint32)


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("shape", [(7,), (33,), (95,), (64, 10), (3, 5, 13)])
def test_gradient_matches_torch_bit_for_bit(torch, name, shape):
    rng = np.random.default_rng(1)
    x, g = (rng.standard_normal(shape) * 4).astype(np.float32), rng.standard_normal(shape).astype(np.float32)
    np.testing.assert_array_equal(_grad(core, OPS[name], x, g), _grad(torch, OPS[name], x, g))


def test_strided_softplus_gradient_matches_torch_bit_for_bit(torch):
    x = (np.random.default_rng(2).standard_normal((500, 2)) * 4).astype(np.float32)
    g = np.random.default_rng(3).standard_normal(500).astype(np.float32)

    def grad(lib):
        t = lib.tensor(x, requires_grad=True)
        lib.nn.functional.softplus(t[:, 0]).backward(lib.tensor(g))
        return t.grad.numpy().view(np.uint32)
    np.testing.assert_array_equal(grad(core), grad(torch))


@pytest.mark.parametrize("name", ["softplus", "logsigmoid"])
def test_double_backward_still_differentiates(torch, name):
    def grads(lib):
        x = lib.tensor(np.linspace(-4, 4, 9, dtype=np.float32), requires_grad=True)
        (g,) = lib.autograd.grad(OPS[name](lib, x).sum(), x, create_graph=True)
        return lib.autograd.grad(g.sum(), x)[0].numpy()
    np.testing.assert_allclose(grads(core), grads(torch), rtol=1e-5, atol=1e-7)
