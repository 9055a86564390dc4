"""``core._mkl_tanhd.one_minus_square``, the factor ``1 - o²`` of float64 ``tanh_backward`` rounded once, gives the
bits of the route it replaced, ``core._fused.fma(np, -o, o, 1)`` (Dekker's product and TwoSum), on every array
whose elements lie in [-1, 1], and declines (None) any other, which keeps that route (NaN, infinities, |o| > 1).
Hypothesis draws tanh outputs and raw values over [-1, 1] (signed zeros, subnormals, values next to +-1, tiny
ones); torch's bits are ``test_float64_sigmoid_tanh_oracle.py``'s question."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._fused import fma
from core._mkl_tanhd import one_minus_square

_SPECIAL = [0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324, 2.2250738585072014e-308, np.nextafter(1.0, 0), -np.nextafter(1.0, 0),
            1 - 2.0 ** -30, 2.0 ** -27, 1e-300, 0.5, -0.5, 0.7071067811865476, 2.0 ** -511]


def _same(o):
    new = one_minus_square(o)
    old = fma(np, -o, o, np.array(1.0))
    assert new is not None and new.shape == o.shape and new.dtype == np.float64
    assert np.array_equal(new.view(np.uint64), np.asarray(old).view(np.uint64))


@settings(max_examples=150, deadline=None)
@given(scale=st.sampled_from([1e-300, 1e-8, 0.01, 1.0, 3.0, 20.0]), size=st.integers(1, 3000),
       seed=st.integers(0, 2 ** 32 - 1), special=st.lists(st.sampled_from(_SPECIAL), max_size=5))
def test_the_factor_of_tanh_outputs_gives_the_fused_routes_bits(scale, size, seed, special):
    rng = np.random.default_rng(seed)
    o = np.tanh(rng.standard_normal(size) * scale)
    o[rng.integers(0, size, len(special))] = special
    _same(o)


def test_uniform_values_blocks_and_views_give_the_fused_routes_bits():
    rng = np.random.default_rng(3)
    _same(rng.uniform(-1, 1, 100_000))  # (in blocks)
    _same(1 - rng.uniform(0, 2.0 ** -20, 50_000))  # (next to 1: the difference's bits)
    _same(rng.uniform(-1, 1, (300, 200)).T)  # (a transposed view)
    _same(np.array(0.25))


def test_values_outside_minus_one_to_one_are_declined():
    assert one_minus_square(np.array([0.5, 1.0000000000000002])) is None
    assert one_minus_square(np.array([0.5, np.nan])) is None
    assert one_minus_square(np.array([-np.inf, 0.0])) is None
    assert one_minus_square(np.zeros(0)) is None
