"""GLU forward and backward bit for bit as PyTorch's glu kernels.

The forward runs ``a * (1 / (1 + exp(-b)))`` over the two halves (views, so row by row where the halving dim is
not the first) with SLEEF's exp in the vector loop and glibc's ``expf`` for the rest; ``glu_backward_cpu`` takes
``sigmoid(b)`` and then ``(1 - s) * s * a * grad`` and ``s * grad``. Core used the correctly rounded exp and
``grad * a * s * (1 - s)``: a quarter of the gradients differed by an ulp.
"""

from __future__ import annotations

import numpy as np
import pytest

import core


@pytest.mark.parametrize("shape, dim", [((7, 8), -1), ((64, 100), -1), ((64, 100), 0), ((3, 70, 5), 1),
                                        ((6, 5), 0), ((4, 130), 1), ((10,), 0)])
def test_glu_and_its_gradient_match_torch_bit_for_bit(torch, shape, dim):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(shape) * 3).astype(np.float32)

    def run(lib):
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.glu(t, dim)
        g = np.random.default_rng(1).standard_normal(tuple(y.shape)).astype(np.float32)
        y.backward(lib.tensor(g))
        return y.detach().numpy().view(np.uint32), t.grad.numpy().view(np.uint32)

    ours, theirs = run(core), run(torch)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])


def test_glu_module_and_double_backward(torch):
    def grads(lib):
        x = lib.tensor(np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4), requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.GLU()(x).sum(), x, create_graph=True)
        return lib.autograd.grad(g.sum(), x)[0].numpy()
    np.testing.assert_allclose(grads(core), grads(torch), rtol=1e-5, atol=1e-7)
