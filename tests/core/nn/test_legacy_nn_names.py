"""Smaller nn names PyTorch keeps: functional in-place activations, max_pool*_with_indices, skip_init,
stateless.functional_call, parametrize.transfer_parametrizations_and_params, NLLLoss2d and Container."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

X = np.array([-1.0, 0.5, 2.0], dtype=np.float32)
INPLACE = {"elu_": (), "selu_": (), "celu_": (2.0,), "threshold_": (0.6, -5.0), "hardtanh_": (-0.5, 1.0)}


@pytest.mark.parametrize("name", INPLACE)
def test_functional_inplace_activation_changes_its_input_as_torchs(torch, name):
    results = []
    for lib in (core, torch):
        x = lib.tensor(X)
        out = getattr(lib.nn.functional, name)(x, *INPLACE[name])
        results.append((out is x, x))
    assert results[0][0] and results[1][0]
    assert_same(results[0][1], results[1][1])


@pytest.mark.parametrize(("dims", "shape"), [(1, (1, 1, 6)), (2, (1, 1, 4, 4)), (3, (1, 1, 2, 4, 4))])
def test_max_pool_with_indices_returns_values_and_indices_as_torch(torch, dims, shape):
    n = int(np.prod(shape))
    outs = [getattr(lib.nn.functional, f"max_pool{dims}d_with_indices")(lib.arange(float(n)).view(shape), 2)
            for lib in (core, torch)]
    assert_same(tuple(outs[0]), tuple(outs[1]))


def test_skip_init_draws_no_random_numbers_and_checks_its_class(torch):
    draws = []
    for lib in (core, torch):
        lib.manual_seed(0)
        layer = lib.nn.utils.skip_init(lib.nn.Linear, 3, 2)
        draws.append((repr(layer), tuple(layer.weight.shape), lib.randn(3)))
        with pytest.raises(RuntimeError, match="Expected a Module"):
            lib.nn.utils.skip_init(int)
    assert draws[0][:2] == draws[1][:2]
    assert_same(draws[0][2], draws[1][2])


def test_deprecated_names_warn_and_work_as_torchs(torch):
    results = []
    for lib in (core, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = lib.nn.utils.stateless.functional_call(lib.nn.Linear(2, 1), {"weight": lib.ones(1, 2),
                                                                              "bias": lib.zeros(1)}, (lib.ones(1, 2),))
            loss = lib.nn.NLLLoss2d()(lib.zeros(1, 2, 2, 2), lib.zeros(1, 2, 2, dtype=lib.long))
            container = lib.nn.Container(a=lib.nn.Linear(1, 1))
        results.append(([w.category.__name__ for w in caught], out, loss, repr(container)))
    assert results[0][0] == results[1][0] == ["FutureWarning"] * 3
    assert results[0][3] == results[1][3]
    assert_same(results[0][1:3], results[1][1:3])


def test_transfer_parametrizations_shares_the_original_tensors_as_torch(torch):
    results = []
    for lib in (core, torch):
        source = lib.nn.utils.parametrizations.weight_norm(lib.nn.Linear(3, 2))
        target = lib.nn.utils.parametrize.transfer_parametrizations_and_params(source, lib.nn.Linear(3, 2), "weight")
        results.append((repr(target), list(target.state_dict()),
                        target.parametrizations.weight.original0 is source.parametrizations.weight.original0,
                        bool(lib.equal(target.weight, source.weight))))
    assert results[0] == results[1]
