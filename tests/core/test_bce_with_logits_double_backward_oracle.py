"""binary_cross_entropy_with_logits differentiated twice (create_graph=True), as meta-learning inner loops do
(higher's test_optim testFrozenParameters: a BCEWithLogitsLoss under DifferentiableSGD): core against torch, same
code, for each reduction, with and without weight and pos_weight, float32 and float64."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core


def _run(lib, x, t, reduction, weighted, pos_weighted):
    inp = lib.tensor(x, requires_grad=True)
    target = lib.tensor(t, requires_grad=True)
    kw = {}
    if weighted:
        kw["weight"] = lib.linspace(0.5, 1.5, x.shape[-1], dtype=inp.dtype)
    if pos_weighted:
        kw["pos_weight"] = lib.linspace(2.0, 0.5, x.shape[-1], dtype=inp.dtype)
    loss = lib.nn.functional.binary_cross_entropy_with_logits(inp, target, reduction=reduction, **kw)
    if reduction == "none":
        loss = (loss * lib.arange(loss.numel(), dtype=loss.dtype).reshape(loss.shape)).sum()
    gx, gt = lib.autograd.grad(loss, (inp, target), create_graph=True)
    second = lib.autograd.grad((gx * gx).sum() + (gt * gx).sum(), (inp, target))
    return [v.detach().numpy() for v in (loss, gx, gt, *second)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("pos_weighted", [False, True])
def test_bce_with_logits_gradients_of_gradients_match_torch(dtype, reduction, weighted, pos_weighted):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((4, 5)) * 3).astype(dtype)
    t = rng.random((4, 5)).astype(dtype)
    ours = _run(core, x, t, reduction, weighted, pos_weighted)
    theirs = _run(torch, x, t, reduction, weighted, pos_weighted)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5 if dtype == "float32" else 1e-12, atol=1e-7)


def test_bce_with_logits_loss_module_meta_gradient_matches_torch():
    """One differentiable SGD step on a BCEWithLogitsLoss, the query loss differentiated through it."""
    out = []
    for lib in (core, torch):
        lib.manual_seed(0)
        x = lib.randn(8, 3)
        y = (lib.arange(8) % 2).to(lib.float32)
        w = lib.tensor([[0.5], [-0.25], [0.75]], requires_grad=True)
        loss = lib.nn.BCEWithLogitsLoss()((x @ w).squeeze(1), y)
        (g,) = lib.autograd.grad(loss, w, create_graph=True)
        fast = w - 0.1 * g
        query = lib.nn.BCEWithLogitsLoss()((x @ fast).squeeze(1), 1 - y)
        (meta,) = lib.autograd.grad(query, w)
        out.append([v.detach().numpy() for v in (loss, g, query, meta)])
    for a, b in zip(*out):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-8)
