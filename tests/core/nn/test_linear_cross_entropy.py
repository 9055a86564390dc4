"""nn.LinearCrossEntropyLoss and F.linear_cross_entropy against PyTorch 2.13: losses and gradients for plain and
K-dimensional heads, biases, class weights, reductions, ignore_index (None ignores nothing), label smoothing, the
options object, the module's parameters, printing and checks."""

import numpy as np
import pytest

import core


def _arrays():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((5, 4)), rng.standard_normal((3, 2, 4)), rng.integers(0, 3, (5, 2)),
            rng.standard_normal((3, 2)))


@pytest.mark.parametrize("kw", [{}, {"reduction": "none", "ignore_index": 1}, {"reduction": "sum"},
                                {"label_smoothing": 0.2}, {"class_weight": True}])
@pytest.mark.parametrize("k_dim", [False, True])
def test_linear_cross_entropy_matches_torch(kw, k_dim, torch):
    x, w, t, b = _arrays()
    results = []
    for lib in (core, torch):
        weight = lib.tensor(w if k_dim else w[:, 0], requires_grad=True)
        bias = lib.tensor(b if k_dim else b[:, 0], requires_grad=True)
        args = dict(kw)
        if args.pop("class_weight", False):
            args["weight"] = lib.tensor([0.5, 1.0, 2.0], dtype=lib.float64)
        loss = lib.nn.functional.linear_cross_entropy(lib.tensor(x), weight, lib.tensor(t if k_dim else t[:, 0]),
                                                      linear_bias=bias, **args)
        loss.sum().backward()
        results.append((loss.detach().numpy(), weight.grad.numpy(), bias.grad.numpy()))
    for a, b_ in zip(*results):
        np.testing.assert_allclose(a, b_, rtol=1e-12, atol=1e-14)


def test_linear_cross_entropy_loss_module_draws_torchs_head_and_prints_as_torch(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        module = lib.nn.LinearCrossEntropyLoss(4, 3, out_features=(2,), bias=True)
        x, _, t, _ = _arrays()
        loss = module(lib.tensor(x, dtype=lib.float32), lib.tensor(t))
        results.append((repr(module), [tuple(p.shape) for p in module.parameters()], loss.item()))
    assert results[0][:2] == results[1][:2]
    assert results[0][2] == pytest.approx(results[1][2], rel=1e-6)


@pytest.mark.parametrize("kw, message", [({"weight": "bad"}, r"expected weight shape to be \(3,\), got \(2,\)"),
                                         ({"label_smoothing": 1.5}, r"expected label_smoothing to be in range")])
def test_linear_cross_entropy_loss_refuses_bad_settings_as_torch(kw, message, torch):
    for lib in (core, torch):
        args = {"weight": lib.ones(2)} if kw.get("weight") == "bad" else kw
        with pytest.raises(RuntimeError, match=message):
            lib.nn.LinearCrossEntropyLoss(4, 3, **args)


def test_options_that_cannot_apply_warn_as_torch(torch):
    messages = []
    for lib in (core, torch):
        x, w, t, _ = _arrays()
        with pytest.warns(UserWarning) as caught:
            lib.nn.functional.linear_cross_entropy(lib.tensor(x), lib.tensor(w[:, 0]), lib.tensor(t[:, 0]),
                                                   label_smoothing=0.1, options=lib.nn.LinearCrossEntropyOptions())
        messages.append(str(caught[0].message))
    assert messages[0] == messages[1]
    assert "LinearCrossEntropyOptions(allow_retain_graph=False" in repr(core.nn.LinearCrossEntropyOptions())
