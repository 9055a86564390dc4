"""SGD's small parameters laid end to end into kept buffers of whole saxpy blocks (``core.optim.sgd._whole_blocks``)
give the bits of the route they replaced: the two concatenations through ``saxpy_``, whose tail was padded in a
scratch row of its own, or the float64 route below 1,024 elements (2026-12-07, #23).

The old route is the same function with ``_whole_blocks`` answering None (the code it bypasses is unchanged);
hypothesis draws groups of 2-6 parameters (1-700 elements each, up to ``_SMALL`` in all), learning rates and
special values, and both must agree bit for bit. The torch oracle tests of the update are ``test_saxpy.py`` and
``test_optim_float32_bits_oracle.py``."""

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core import _saxpy
from core.optim import sgd
from tests.core.small_gemm_operands import SEEDS, SPECIALS, scatter

pytestmark = pytest.mark.skipif(_saxpy.fused_block() <= 1,
                                reason="the BLAS's saxpy here fuses every length or none (no whole blocks to pad)")


def _group(rng, sizes, specials):
    params = []
    for size in sizes:
        p = core.nn.Parameter(core.tensor(rng.standard_normal(size).astype(np.float32)))
        p.grad = core.tensor(rng.standard_normal(size).astype(np.float32))
        params.append(p)
    scatter(rng, specials, params[0]._data[None], params[-1].grad._data[None])
    return params


def _updated(params, scale, whole_blocks):
    """The group's new values (copies of fresh parameters) after ``_small_group`` with or without this route."""
    copies = [core.nn.Parameter(p.detach().clone()) for p in params]
    for c, p in zip(copies, params):
        c.grad = p.grad.clone()
    with mock.patch.object(sgd, "_whole_blocks", sgd._whole_blocks if whole_blocks else lambda *args: None):
        assert sgd._small_group(copies, scale)
    return [c._data.copy() for c in copies]


@settings(max_examples=80, deadline=None)
@given(sizes=st.lists(st.integers(1, 700), min_size=2, max_size=6).filter(lambda s: sum(s) <= sgd._SMALL),
       lr=st.sampled_from([0.01, 0.1, 1.0, 1e-30, 3e38, 1 + 2 ** -23]), seed=SEEDS,
       specials=st.lists(SPECIALS, max_size=4))
def test_whole_blocks_give_the_old_routes_bits(sizes, lr, seed, specials):
    rng = np.random.default_rng(seed)
    params = _group(rng, sizes, specials)
    scale = np.float64(np.float32(-lr))
    for new, old in zip(_updated(params, scale, True), _updated(params, scale, False)):
        assert np.array_equal(new.view(np.int32), old.view(np.int32))


def test_the_mlp_steps_small_parameters_take_one_padded_kernel_call():
    """The check has teeth: the 784-256-128-10 MLP's four small parameters (1,674 elements, not whole blocks of 32)
    are updated by ``_whole_blocks`` (it answers their values), twice in a row from the kept buffers, with the old
    route's bits."""
    rng = np.random.default_rng(0)
    params = _group(rng, [256, 128, 1280, 10], [])
    scale = np.float64(np.float32(-0.01))
    pairs = [(p, p._data.copy(), p.grad._data) for p in params]
    assert sgd._whole_blocks(pairs, 1674, scale) is not None
    old = _updated(params, scale, False)
    for _ in range(2):
        for new, expected in zip(_updated(params, scale, True), old):
            assert np.array_equal(new.view(np.int32), expected.view(np.int32))
