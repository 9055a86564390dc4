"""The legacy ``functorch`` package's API (``import functorch`` loads it from ``torch._functorch.deprecated``,
``make_functional`` and ``python_key``), as the older ensembling and per-sample-gradient tutorials call it, against
torch's: the same predictions, per-sample gradients, state layout, errors and deprecation warnings."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from core._functorch import deprecated as core_functorch
from tests.core.oracle import assert_same

functorch = pytest.importorskip("functorch")  # (the real package, on torch)


def _mlp(lib, seed):
    rng = np.random.default_rng(seed)
    model = lib.nn.Sequential(lib.nn.Linear(6, 5), lib.nn.ReLU(), lib.nn.Linear(5, 3))
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
    return model


def _both(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        import torch

        return fn(core, core_functorch), fn(torch, functorch)


def _x(lib, *shape):
    return lib.tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32))


def test_combine_state_for_ensemble_runs_each_model_under_vmap_as_torch():
    def run(lib, ft):
        models = [_mlp(lib, seed) for seed in range(3)]
        fmodel, params, buffers = ft.combine_state_for_ensemble(models)
        batches = _x(lib, 3, 4, 6)
        return ([tuple(p.shape) for p in params], len(buffers), params[0].requires_grad,
                ft.vmap(fmodel)(params, buffers, batches), ft.vmap(fmodel, in_dims=(0, 0, None))(params, buffers,
                                                                                                 batches[0]))

    ours, theirs = _both(run)
    assert ours[:3] == theirs[:3]
    assert_same(ours[3], theirs[3], rtol=1e-5)
    assert_same(ours[4], theirs[4], rtol=1e-5)


def test_make_functional_gives_per_sample_gradients_as_torch():
    def run(lib, ft):
        model = _mlp(lib, 0)
        fmodel, params = ft.make_functional(model)
        x, t = _x(lib, 4, 6), lib.tensor([0, 2, 1, 2])

        def loss(params, sample, target):
            return lib.nn.functional.cross_entropy(fmodel(params, sample.unsqueeze(0)), target.unsqueeze(0))

        grads = ft.vmap(ft.grad(loss), in_dims=(None, 0, 0))(params, x, t)
        return (len(params), len(list(fmodel.parameters())), params[0] is model[0].weight,
                [type(p).__name__ for p in params], fmodel(params, x), grads,
                ft.make_functional(model, disable_autograd_tracking=True)[1][0].requires_grad)

    ours, theirs = _both(run)
    assert ours[:4] == theirs[:4]
    assert_same(ours[4], theirs[4])
    for g, tg in zip(ours[5], theirs[5]):
        assert_same(g, tg, rtol=1e-5, atol=1e-6)
    assert ours[6] is theirs[6] is False


def test_buffers_tied_weights_and_refusals_match_torch():
    def run(lib, ft):
        lib.manual_seed(0)  # (the layers' initial weights: torch's draws in both)
        net = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4))
        try:
            ft.make_functional(net)
        except RuntimeError as error:
            refused = str(error)
        fnet, params, buffers = ft.make_functional_with_buffers(net)
        out = fnet(params, buffers, _x(lib, 5, 3))
        tied = lib.nn.Sequential(lib.nn.Linear(4, 4, bias=False), lib.nn.Linear(4, 4, bias=False))
        tied[1].weight = tied[0].weight
        ftied, tied_params = ft.make_functional(tied)
        errors = []
        for models in ([], [_mlp(lib, 0), lib.nn.Linear(2, 2)], [_mlp(lib, 0), _mlp(lib, 1).eval()]):
            try:
                ft.combine_state_for_ensemble(models)
            except RuntimeError as error:
                errors.append(str(error))
        return (refused, [tuple(b.shape) for b in buffers], out, buffers[0], net[1].running_mean, len(tied_params),
                ftied(tied_params, _x(lib, 2, 4)), tied(_x(lib, 2, 4)), errors)

    ours, theirs = _both(run)
    assert ours[0] == theirs[0] and ours[1] == theirs[1] and ours[5] == theirs[5] and ours[8] == theirs[8]
    for a, b in zip(ours[2:5] + ours[6:8], theirs[2:5] + theirs[6:8]):
        assert_same(a, b, rtol=1e-5)


def test_each_legacy_transform_warns_as_torch():
    def run(lib, ft):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ft.make_functional(lib.nn.Linear(2, 2))
            ft.combine_state_for_ensemble([lib.nn.Linear(2, 2)])
            ft.vmap(lib.sin)
            ft.grad(lib.sin)
            ft.jacrev(lib.sin)
        return [(w.category, str(w.message)) for w in caught]

    ours, theirs = _both(run)
    assert ours == theirs
