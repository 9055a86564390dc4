"""erf over float32 arrays is evaluated by vectorised series (core.ops._special), not one ``math.erf`` call per
element: GELU runs it over whole activations (a conv autoencoder spent 12 s there). The values stay torch's."""

import math

import numpy as np

import core
from core.ops import _special
from tests.core.oracle import check, check_grads


def _samples():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(4000) * s for s in (0.01, 0.5, 2.0, 5.0)])
    specials = [0.0, -0.0, 1e-30, -1e-30, 1e-8, 0.125, -0.125, 6.0, -6.0, 7.5, np.inf, -np.inf, np.nan]
    return np.concatenate([x, specials]).astype(np.float32)


def test_float32_erf_matches_torch(torch):
    check(lambda lib, t: lib.erf(t), [_samples()], torch, rtol=2e-7, atol=1e-30)


def test_float32_erf_rounds_as_the_correctly_rounded_erf():
    x = _samples()
    ours = _special.erf(x).astype(np.float32)
    exact = np.array([math.erf(v) for v in x.astype(np.float64)]).astype(np.float32)
    assert np.array_equal(ours, exact, equal_nan=True)
    assert np.array_equal(np.signbit(ours), np.signbit(exact))  # erf(-0.0) is -0.0


def test_gelu_forward_and_backward_match_torch(torch):
    x = _samples()[np.isfinite(_samples())][:3000]
    check(lambda lib, t: lib.nn.functional.gelu(t), [x], torch, rtol=1e-5, atol=3e-6)
    check_grads(lambda lib, t: lib.nn.functional.gelu(t).sum(), [x], torch, rtol=1e-5, atol=3e-6)


def test_float64_erf_is_still_the_c_library_per_element():
    x = np.linspace(-4, 4, 101)
    assert np.array_equal(core.erf(core.tensor(x)).numpy(), np.array([math.erf(v) for v in x]))
