"""ELU, SELU and CELU round as PyTorch's elu kernels do, forward and backward.

PyTorch's elu kernel takes SLEEF's ``expm1`` in its vector loop and glibc's ``expm1f`` (fdlibm's, within 1 ulp,
not correctly rounded: core._glibc) for a tensor under 32 elements, the tail and a strided input; its backward
multiplies ``grad * input_scale * alpha * scale * exp(x * input_scale)`` in that order, with SLEEF's or glibc's
exp. Core took the correctly rounded expm1 and its own product order: 3.6% of a small tensor's outputs and 5%
of the gradients differed by an ulp, which a small GAN's ELU layers (Practical DL's 1-D GAN) carry into training.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from core._glibc import expm1f
from tests.core.kernel_bits import inputs_and_grads, run_bits

OPS = {"elu": lambda L, t: L.nn.functional.elu(t), "elu_alpha": lambda L, t: L.nn.functional.elu(t, 1.7),
       "selu": lambda L, t: L.nn.functional.selu(t), "celu": lambda L, t: L.nn.functional.celu(t, 0.7),
       "ELU_module": lambda L, t: L.nn.ELU(0.5)(t)}


_run, _data = run_bits, inputs_and_grads


@pytest.mark.parametrize("name", list(OPS))
def test_small_tensors_match_torch_bit_for_bit(torch, name):
    x, g = _data((600, 7), 0)
    for row, grow in zip(x, g):
        ours, theirs = _run(core, OPS[name], row, grow), _run(torch, OPS[name], row, grow)
        np.testing.assert_array_equal(ours[0], theirs[0])
        np.testing.assert_array_equal(ours[1], theirs[1])


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("shape", [(33,), (95,), (64, 10), (3, 5, 13)])
def test_gradients_of_vector_loop_and_tail_match_torch_bit_for_bit(torch, name, shape):
    x, g = _data(shape, 1)
    np.testing.assert_array_equal(_run(core, OPS[name], x, g)[1], _run(torch, OPS[name], x, g)[1])


def test_strided_input_matches_torch_bit_for_bit(torch):
    x = _data((5000, 2), 2)[0]
    ours = core.nn.functional.elu(core.tensor(x)[:, 0]).numpy().view(np.uint32)
    theirs = torch.nn.functional.elu(torch.tensor(x)[:, 0]).numpy().view(np.uint32)
    np.testing.assert_array_equal(ours, theirs)


def test_double_backward_still_follows_the_composite_formula(torch):
    def grads(lib):
        x = lib.tensor(np.linspace(-3, 2, 9, dtype=np.float32), requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.elu(x).sum(), x, create_graph=True)
        return lib.autograd.grad(g.sum(), x)[0].numpy()
    np.testing.assert_allclose(grads(core), grads(torch), rtol=1e-6)


def test_expm1f_special_values_are_glibcs():
    x = np.array([0, -0.0, 1e-30, 88.72283, 88.72284, 100, -20, -100, np.inf, -np.inf, np.nan], np.float32)
    out = expm1f(x)
    assert out[0] == 0 and np.signbit(out[1]) and out[2] == np.float32(1e-30)
    assert np.isfinite(out[3]) and np.isinf(out[4]) and np.isinf(out[5])
    assert out[6] == np.float32(-1) and out[7] == -1 and out[8] == np.inf and out[9] == -1 and np.isnan(out[10])
