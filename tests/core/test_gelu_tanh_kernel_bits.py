"""``F.gelu(x, approximate='tanh')`` rounds as PyTorch's GeluKernel and GeluBackwardKernel, forward and backward.

The forward ``0.5 x (1 + tanh(kBeta (x + kKappa x^3)))`` takes SLEEF's tanh in the vector loop and glibc's ``tanhf``
for the last ``n % 32``; both compiled forms fuse ``x + kKappa x^3`` into one multiply-add, and the backward also
``1 - t t`` and ``1 + 3 kKappa x^2``. Core took NumPy's tanh of the composite formula: ~1% of outputs and ~35% of
gradients differed by an ulp. A sum's gradient (one value expanded) keeps the vector loop, as TensorIterator does.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.kernel_bits import inputs_and_grads, run_bits

OPS = {"functional": lambda L, t: L.nn.functional.gelu(t, approximate="tanh"),
       "module": lambda L, t: L.nn.GELU(approximate="tanh")(t),
       "transposed": lambda L, t: L.nn.functional.gelu(t.t(), approximate="tanh") if t.dim() == 2
       else L.nn.functional.gelu(t, approximate="tanh")}


@pytest.mark.usefixtures("one_thread")
@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("shape", [(7,), (31,), (33,), (95,), (64, 10), (3, 5, 13), (4099,)])
def test_gelu_tanh_and_its_gradient_match_torch_bit_for_bit(torch, name, shape):
    x, g = inputs_and_grads(shape, 5)
    if name == "transposed" and len(shape) == 2:
        g = np.ascontiguousarray(g.T)
    ours, theirs = run_bits(core, OPS[name], x, g), run_bits(torch, OPS[name], x, g)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])


@pytest.mark.usefixtures("one_thread")
@pytest.mark.parametrize("n", [40, 4099])
def test_gelu_tanh_gradient_of_a_sum_matches_torch_bit_for_bit(torch, n):
    x, _ = inputs_and_grads((n,), 6)
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        lib.nn.functional.gelu(t, approximate="tanh").sum().backward()
        grads.append(t.grad.numpy().view(np.uint32))
    np.testing.assert_array_equal(*grads)


def test_gelu_tanh_double_backward_matches_torch(torch):
    x, _ = inputs_and_grads((40,), 7)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x.astype(np.float64), requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.gelu(t, approximate="tanh").sum(), t, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), t)
        results.append(gg.numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-10, atol=1e-12)
