"""linalg.householder_product (orgqr) and geqrf give PyTorch's values, gradients and errors; dist checks shapes."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_grads

RNG = np.random.default_rng(0)


@pytest.mark.parametrize(("a_shape", "tau_shape"), [((4, 3), (3,)), ((5, 3), (2,)), ((2, 4, 4), (2, 4))])
def test_householder_product_matches_torch_values_and_gradients(torch, a_shape, tau_shape):
    a, tau = RNG.standard_normal(a_shape), RNG.random(tau_shape)
    check_grads(lambda lib, a, tau: lib.linalg.householder_product(a, tau), [a, tau], torch)


def test_orgqr_is_householder_product_and_geqrf_reconstructs_torchs_factorisation(torch):
    x = RNG.standard_normal((2, 5, 3))
    ours, theirs = core.geqrf(core.tensor(x)), torch.geqrf(torch.tensor(x))
    assert repr(type(ours).__name__) == repr(type(theirs).__name__) == "'geqrf'"
    assert_same(tuple(ours), tuple(theirs))
    assert_same(core.orgqr(*ours), torch.orgqr(*theirs))


@pytest.mark.parametrize(("a", "tau"), [((3,), (1,)), ((2, 3), (2,)), ((4, 3), (4,)), ((4, 3), (2, 1))],
                         ids=["vector", "wide", "long-tau", "tau-rank"])
def test_householder_product_rejects_bad_shapes_with_torchs_message(torch, a, tau):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            lib.linalg.householder_product(lib.randn(*a), lib.rand(*tau))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_dist_of_shapes_that_do_not_broadcast_raises_torchs_runtime_error(torch):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            lib.dist(lib.ones(4, 4), lib.eye(12))
        messages.append(str(info.value))
    assert messages[0] == messages[1]
