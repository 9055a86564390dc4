"""smooth_l1_loss's, huber_loss's and soft_margin_loss's gradients as PyTorch's backward kernels compute them.

``smooth_l1_backward`` and ``huber_backward`` have two forms: the vector one multiplies ``norm * (x / beta or
+-1) * grad`` (huber: ``x`` or ``+-delta``), the scalar one (a tensor's last ``n % 32`` elements, small tensors)
``norm * x * grad / beta`` with ``beta`` a double (huber: ``norm * grad * delta`` in double); the loss's
gradient is a broadcast scalar, which keeps the loop vectorised. ``soft_margin_loss_backward`` is
``(t z) (-norm) / (z + 1) grad``. Core used one formula in another order: 10-60% of these gradients differed.
"""

from __future__ import annotations

import numpy as np
import pytest

import core

LOSSES = {"smooth_l1": lambda L, a, b, r: L.nn.functional.smooth_l1_loss(a, b, reduction=r),
          "smooth_l1_beta": lambda L, a, b, r: L.nn.functional.smooth_l1_loss(a, b, reduction=r, beta=0.7),
          "huber": lambda L, a, b, r: L.nn.functional.huber_loss(a, b, reduction=r, delta=0.7),
          "HuberLoss": lambda L, a, b, r: L.nn.HuberLoss(reduction=r, delta=1.3)(a, b)}


def _grads(lib, fn, x, t, g, reduction):
    a, b = lib.tensor(x, requires_grad=True), lib.tensor(t, requires_grad=True)
    y = fn(lib, a, b, reduction)
    y.backward(lib.tensor(g) if reduction == "none" else None)
    return a.grad.numpy().view(np.uint32), b.grad.numpy().view(np.uint32)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("n", [7, 33, 100, 2000])
@pytest.mark.parametrize("name", list(LOSSES))
def test_piecewise_loss_gradients_match_torch_bit_for_bit(torch, name, n, reduction):
    rng = np.random.default_rng(n)
    x, t, g = (rng.standard_normal((3, n)) * [[1.5], [1.0], [1.0]]).astype(np.float32)
    x[:2] = t[:2] + [0.7, -1.0]  # on the kinks
    ours, theirs = _grads(core, LOSSES[name], x, t, g, reduction), _grads(torch, LOSSES[name], x, t, g, reduction)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_soft_margin_loss_gradient_follows_torchs_steps(torch, reduction):
    """Equal but where torch's exp (MKL's, not correctly rounded on ~1% of float32 inputs) differs: a few ulps."""
    rng = np.random.default_rng(4)
    x, g = (rng.standard_normal((2, 3000)) * 2).astype(np.float32)
    t = np.sign(rng.standard_normal(3000)).astype(np.float32)
    grads = []
    for lib in (core, torch):
        a = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.soft_margin_loss(a, lib.tensor(t), reduction=reduction)
        y.backward(lib.tensor(g) if reduction == "none" else None)
        grads.append(a.grad.numpy().view(np.int32).astype(np.int64))
    ulps = np.abs(grads[0] - grads[1])
    assert ulps.max() <= 4 and (ulps == 0).mean() > 0.98  # (core's order before: 53% equal)


def test_smooth_l1_double_backward_still_differentiates(torch):
    def grads(lib):
        x = lib.tensor(np.linspace(-2, 2, 9, dtype=np.float32), requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.smooth_l1_loss(x, lib.zeros(9)), x, create_graph=True)
        return lib.autograd.grad((g * g).sum(), x)[0].numpy()
    np.testing.assert_allclose(grads(core), grads(torch), rtol=1e-6)
