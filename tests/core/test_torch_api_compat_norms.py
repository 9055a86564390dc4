"""Oracle tests: the normalisation layers record PyTorch's nodes (NativeBatchNormBackward0, ...) and
give its values, gradients, second derivatives and running statistics."""

from __future__ import annotations

import numpy as np
import pytest

import core

RNG = np.random.default_rng(7)
X2 = RNG.standard_normal((5, 3)).astype(np.float32)
X4 = RNG.standard_normal((4, 6, 3, 3)).astype(np.float32)


def _norm_layer(lib, name):
    nn = lib.nn
    return {
        "BatchNorm1d": lambda: nn.BatchNorm1d(3),
        "BatchNorm1d.eval": lambda: nn.BatchNorm1d(3).eval(),
        "BatchNorm2d": lambda: nn.BatchNorm2d(6),
        "BatchNorm2d.noaffine": lambda: nn.BatchNorm2d(6, affine=False),
        "LayerNorm": lambda: nn.LayerNorm(3),
        "LayerNorm.2d": lambda: nn.LayerNorm([3, 3]),
        "LayerNorm.noaffine": lambda: nn.LayerNorm(3, elementwise_affine=False),
        "GroupNorm": lambda: nn.GroupNorm(2, 6),
    }[name]()


LAYERS = ["BatchNorm1d", "BatchNorm1d.eval", "BatchNorm2d", "BatchNorm2d.noaffine", "LayerNorm", "LayerNorm.2d",
          "LayerNorm.noaffine", "GroupNorm"]


def _run(lib, name):
    layer = _norm_layer(lib, name)
    for p in layer.parameters():  # not the default ones and zeros, so the affine grads mean something
        with lib.no_grad():
            p.copy_(lib.tensor(np.linspace(0.5, 1.5, p.numel(), dtype=np.float32).reshape(tuple(p.shape))))
    data = X2 if "1d" in name or name in ("LayerNorm", "LayerNorm.noaffine") else X4
    x = lib.tensor(data, requires_grad=True)
    y = layer(x)
    (y * lib.tensor(np.arange(y.numel(), dtype=np.float32).reshape(tuple(y.shape)))).sum().backward()
    edges = [None if fn is None else fn.name().replace("torch::autograd::", "") for fn, _ in y.grad_fn.next_functions]
    grads = [x.grad.numpy()] + [p.grad.numpy() for p in layer.parameters()]
    buffers = [b.numpy() for b in layer.buffers() if b.dtype == lib.float32]
    return y.grad_fn.name(), edges, y.detach().numpy(), grads, buffers


@pytest.mark.parametrize("name", LAYERS)
def test_norm_layers_record_torch_nodes_and_give_its_numbers(torch, name):
    ours, theirs = _run(core, name), _run(torch, name)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5, atol=1e-5)
    for a, b in zip(ours[3] + ours[4], theirs[3] + theirs[4], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


XD = RNG.standard_normal((3, 4, 2))
WD = {"batch_norm": RNG.standard_normal(4), "layer_norm": RNG.standard_normal(2), "group_norm": RNG.standard_normal(4)}


def _second_derivatives(lib, fn):
    F = lib.nn.functional
    f = {"batch_norm": lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
         "layer_norm": lambda x, w, b: F.layer_norm(x, (2,), w, b),
         "group_norm": lambda x, w, b: F.group_norm(x, 2, w, b)}[fn]
    x = lib.tensor(XD, requires_grad=True)
    w = lib.tensor(WD[fn], requires_grad=True)
    b = lib.tensor(WD[fn][::-1].copy(), requires_grad=True)
    y = f(x, w, b)
    gx, gw = lib.autograd.grad((y * y.detach().cos()).sum(), (x, w), create_graph=True)
    return [g.detach().numpy() for g in lib.autograd.grad((gx.sin().sum() + (gw * gw).sum()), (x, w))]


@pytest.mark.parametrize("fn", ["batch_norm", "layer_norm", "group_norm"])
def test_norm_functions_second_derivatives_match_torch(torch, fn):
    for ours, theirs in zip(_second_derivatives(core, fn), _second_derivatives(torch, fn), strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-7, atol=1e-9)
